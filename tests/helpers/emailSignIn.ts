/**
 * Signing in the way a person does — e-mail code, confirm, token exchange — against a test API with the real SMTP
 * fake (captcha off). For tests where the sign-in itself matters (it creates accounts, joins invitations); tests that
 * only need a signed-in user use tests/helpers/session.ts.
 */
import type { FakeSmtp } from '../fakes/smtp';
import type { TestApi } from './api';
import { call } from './request';

export type SignedIn = { authToken: string; refreshToken: string; email: string };

/** The 6-digit code of the `nth` sign-in e-mail sent to `email` (waits for it). */
export async function codeSentTo(smtp: FakeSmtp, email: string, nth = 1): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const mails = smtp.messages.filter((m) => m.envelopeTo.includes(email) && /sign-in code/.test(m.subject));
    if (mails.length >= nth) {
      const m = /\b(\d{6})\b/.exec(mails[nth - 1].text);
      if (!m) throw new Error(`no code in: ${mails[nth - 1].text}`);
      return m[1];
    }
    if (Date.now() > deadline) throw new Error(`no sign-in e-mail #${nth} for ${email}`);
    await smtp.waitForMessages(smtp.messages.length + 1, deadline - Date.now()).catch(() => undefined);
  }
}

/**
 * A full sign-in by e-mail code from network `ip`; throws with the API's answer when a step fails. `cookie` is the
 * browser's Cookie header on the token exchange (the claim cookie of connections it made without an account).
 */
export async function signInWithCode(w: { api: TestApi; smtp: FakeSmtp }, email: string, ip: string, options: { cookie?: string } = {}): Promise<SignedIn> {
  const before = w.smtp.messages.filter((m) => m.envelopeTo.includes(email) && /sign-in code/.test(m.subject)).length;
  const asked = await call(w.api, 'POST', '/api/v1/auth/email', { email, captcha_token: '' }, { ip });
  if (asked.status !== 200) throw new Error(`code request: ${asked.status} ${asked.text}`);
  const code = await codeSentTo(w.smtp, email, before + 1);
  const confirmed = await call<{ token: string }>(w.api, 'POST', '/api/v1/auth/email/confirm', { email, code, captcha_token: '' }, { ip });
  if (confirmed.status !== 200) throw new Error(`confirm: ${confirmed.status} ${confirmed.text}`);
  const exchanged = await call<SignedIn>(w.api, 'POST', '/api/v1/auth/token/exchange', { token: confirmed.json.data.token }, { ip, ...(options.cookie ? { headers: { Cookie: options.cookie } } : {}) });
  if (exchanged.status !== 200) throw new Error(`exchange: ${exchanged.status} ${exchanged.text}`);
  return exchanged.json.data;
}
