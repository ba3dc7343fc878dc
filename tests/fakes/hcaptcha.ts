/**
 * hCaptcha's siteverify endpoint on loopback: POST /siteverify with a form-encoded secret, response, remoteip and
 * sitekey, answered in hCaptcha's JSON format ({ success, challenge_ts, hostname, credit, 'error-codes' }).
 * A response token is valid when it is in `validTokens`; each can be used once, as with the real service.
 *
 *   const captcha = await startFakeHcaptcha({ secret: 'test-secret', validTokens: ['ok-1'] });
 *   env HCAPTCHA_SECRET = 'test-secret', HCAPTCHA_VERIFY_URL = captcha.verifyUrl
 */
import { json, startFakeServer, type FakeServer } from './http';

export type FakeHcaptcha = FakeServer & { verifyUrl: string; validTokens: Set<string> };

export async function startFakeHcaptcha(options: { secret: string; validTokens?: string[] }): Promise<FakeHcaptcha> {
  const validTokens = new Set(options.validTokens ?? []);
  const used = new Set<string>();
  const server = await startFakeServer([
    (req, res) => {
      if (req.path !== '/siteverify') return false;
      if (req.method !== 'POST') {
        json(res, 405, { success: false, 'error-codes': ['invalid-request'] });
        return true;
      }
      const form = new URLSearchParams(req.body);
      const secret = form.get('secret');
      const token = form.get('response');
      const fail = (code: string) => json(res, 200, { success: false, 'error-codes': [code] });
      if (!secret) fail('missing-input-secret');
      else if (secret !== options.secret) fail('invalid-input-secret');
      else if (!token) fail('missing-input-response');
      else if (used.has(token)) fail('already-seen-response');
      else if (!validTokens.has(token)) fail('invalid-input-response');
      else {
        used.add(token);
        json(res, 200, { success: true, challenge_ts: new Date().toISOString(), hostname: 'localhost', credit: false });
      }
      return true;
    },
  ]);
  return Object.assign(server, { verifyUrl: `${server.url}/siteverify`, validTokens });
}
