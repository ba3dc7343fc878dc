// Sign-in by e-mail code as the auth tests drive it, over one mail world (setUpMailApi): each call is its own client
// (TRUST_PROXY + X-Forwarded-For), codes are read from the SMTP fake, and hand-off codes keep their browser's cookie.
import { expect } from 'vitest';
import type { MailApi } from '../../helpers/apiWorld';
import { call } from '../../helpers/request';

export type Session = { authToken: string; refreshToken: string; email: string; name?: string; displayName?: string };

/** The sign-in steps over the world `w` (read when called, so it may be filled in by a beforeAll later). */
export function signInFlow(w: MailApi) {
  // Each test is its own client (TRUST_PROXY + X-Forwarded-For), so per-IP limits of one test do not leak into another.
  let ipCounter = 0;
  const nextIp = () => `198.51.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;
  let emailCounter = 0;
  const nextEmail = (name = 'user') => `${name}${++emailCounter}@example.com`;

  /** The code of the newest sign-in e-mail sent to `email` (waits for it). */
  async function codeSentTo(email: string, nth = 1): Promise<string> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const mails = w.smtp.messages.filter((m) => m.envelopeTo.includes(email));
      if (mails.length >= nth) {
        const m = /\b(\d{6})\b/.exec(mails[nth - 1].text);
        if (!m) throw new Error(`no code in: ${mails[nth - 1].text}`);
        return m[1];
      }
      if (Date.now() > deadline) throw new Error(`no sign-in e-mail #${nth} for ${email}`);
      await w.smtp.waitForMessages(w.smtp.messages.length + 1, deadline - Date.now()).catch(() => undefined);
    }
  }

  async function requestCode(email: string, ip = nextIp()) {
    return call<{ sent: boolean }>(w.api, 'POST', '/api/v1/auth/email', { email, captcha_token: '' }, { ip });
  }

  async function confirm(email: string, code: string, ip = nextIp()) {
    return call<{ token: string }>(w.api, 'POST', '/api/v1/auth/email/confirm', { email, code, captcha_token: '' }, { ip });
  }


  async function signIn(email: string, metadata: Record<string, string | null> = {}): Promise<Session> {
    const ip = nextIp();
    const before = w.smtp.messages.filter((m) => m.envelopeTo.includes(email)).length;
    expect((await requestCode(email, ip)).status).toBe(200);
    const code = await codeSentTo(email, before + 1);
    const confirmed = await confirm(email, code, ip);
    expect(confirmed.status).toBe(200);
    const exchanged = await call<Session>(w.api, 'POST', '/api/v1/auth/token/exchange', { token: confirmed.json.data.token, metadata }, { ip });
    expect(exchanged.status).toBe(200);
    return exchanged.json.data;
  }

  /** The nonce cookie each code's browser got with it (GET refresh sets it; the hand-off needs it back). */
  const browserOfCode = new Map<string, string>();
  const nonceCookieOf = (r: { headers: Headers }) => /arb_handoff_nonce=[^;]+/.exec(r.headers.get('set-cookie') ?? '')?.[0] ?? '';

  /** The dashboard hand-off code for a session (what the header puts after home__), asked by the browser `cookie`. */
  async function handoffCode(authToken: string, cookie?: string): Promise<string> {
    const r = await call<{ token: string }>(w.api, 'GET', '/api/v1/auth/token/refresh', undefined, { token: authToken, headers: cookie ? { Cookie: cookie } : {} });
    expect(r.status).toBe(200);
    browserOfCode.set(r.json.data.token, nonceCookieOf(r));
    return r.json.data.token;
  }

  /** Exchange a code, by default from the browser that asked for it. */
  const handoff = (code: string, ip = nextIp(), cookie = browserOfCode.get(code) ?? '') =>
    call<Session>(w.api, 'POST', '/api/v1/auth/token/handoff', { code }, { ip, headers: cookie ? { Cookie: cookie } : {} });

  /** Asks for a code for `email` from `ip` and reads it: the code, and a six-digit guess that is not it. */
  async function codeAndWrongGuess(email: string, ip: string): Promise<{ code: string; wrong: string }> {
    await requestCode(email, ip);
    const code = await codeSentTo(email);
    return { code, wrong: code === '000000' ? '111111' : '000000' };
  }

  return { nextIp, nextEmail, codeSentTo, requestCode, confirm, codeAndWrongGuess, signIn, handoffCode, handoff, browserOfCode, nonceCookieOf };
}
