/**
 * hCaptcha check for the e-mail sign-in calls. With HCAPTCHA_SECRET set, the token is verified at HCAPTCHA_VERIFY_URL
 * (siteverify: form-encoded secret, response, remoteip → JSON { success, 'error-codes' }). Without it the captcha is
 * off, which the log says once.
 */
import { env } from '../env';
import { log } from '../log';
import { HttpError, badGateway } from '../http/errors';

const VERIFY_TIMEOUT_MS = 10_000;

const g = globalThis as unknown as { __arbCaptchaOffLogged?: boolean };

export type SiteverifyAnswer = { success: boolean; 'error-codes'?: string[] };

const captchaFailed = () =>
  new HttpError(400, 'captcha_failed', 'The captcha check did not pass. Solve it again and retry.');

/**
 * At start-up: without HCAPTCHA_SECRET in production, a banner in the log says that sign-in codes can be asked for
 * by scripts (only the rate limits stand in the way). Returns whether it warned.
 */
export function warnIfCaptchaOff(): boolean {
  const e = env();
  if (e.HCAPTCHA_SECRET || e.NODE_ENV !== 'production') return false;
  g.__arbCaptchaOffLogged = true;
  // One JSON line like every log entry, loud enough to be seen among them.
  log.warn('!!!!!!!! CAPTCHA IS OFF IN PRODUCTION !!!!!!!! HCAPTCHA_SECRET is not set', {
    risk: 'anyone can script sign-in code requests and guesses; only the rate limits stand in the way',
    fix: 'set HCAPTCHA_SECRET and NEXT_PUBLIC_HCAPTCHA_SITEKEY (docs/SECURITY.md, "Sign-in")',
  });
  return true;
}

export async function verifyCaptcha(token: string, remoteIp: string): Promise<void> {
  const e = env();
  if (!e.HCAPTCHA_SECRET) {
    if (!g.__arbCaptchaOffLogged) {
      g.__arbCaptchaOffLogged = true;
      log.warn('captcha is off: HCAPTCHA_SECRET is not set, sign-in codes are sent without a captcha check');
    }
    return;
  }
  if (!token) throw captchaFailed();

  const form = new URLSearchParams({ secret: e.HCAPTCHA_SECRET, response: token });
  if (remoteIp !== 'unknown') form.set('remoteip', remoteIp);
  if (e.NEXT_PUBLIC_HCAPTCHA_SITEKEY) form.set('sitekey', e.NEXT_PUBLIC_HCAPTCHA_SITEKEY);

  let answer: SiteverifyAnswer;
  try {
    const res = await fetch(e.HCAPTCHA_VERIFY_URL, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
      body: form,
      redirect: 'error',
      signal: AbortSignal.timeout(VERIFY_TIMEOUT_MS),
    });
    if (!res.ok) throw new Error(`siteverify answered HTTP ${res.status}`);
    answer = (await res.json()) as SiteverifyAnswer;
  } catch (err) {
    log.error('captcha verification unavailable', { err });
    throw badGateway('We could not check the captcha right now. Try again in a minute.');
  }
  if (answer?.success !== true) {
    log.info('captcha rejected', { errorCodes: answer?.['error-codes'] ?? [] });
    throw captchaFailed();
  }
}
