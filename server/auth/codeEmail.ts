/** The e-mail that carries a sign-in code. The code is in the subject too, so it shows in the inbox preview. */
import { env } from '../env';
import { escapeHtml, type MailMessage } from '../mail/send';

export function signInCodeEmail(input: { to: string; code: string; validMinutes: number }): MailMessage {
  const site = env().APP_URL;
  const text = [
    `Your ARB sign-in code is ${input.code}`,
    '',
    `Enter it on the sign-in page within ${input.validMinutes} minutes. It works once.`,
    '',
    'If you did not try to sign in, ignore this e-mail: nobody can sign in without the code.',
    '',
    `ARB · ${site}`,
  ].join('\n');
  const html = `<!doctype html>
<html><body style="font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#111;line-height:1.5">
<p>Your ARB sign-in code is</p>
<p style="font-size:28px;font-weight:700;letter-spacing:6px;margin:8px 0 16px">${escapeHtml(input.code)}</p>
<p>Enter it on the sign-in page within ${input.validMinutes} minutes. It works once.</p>
<p style="color:#555">If you did not try to sign in, ignore this e-mail: nobody can sign in without the code.</p>
<p style="color:#555">ARB · <a href="${escapeHtml(site)}">${escapeHtml(site)}</a></p>
</body></html>`;
  return { to: input.to, subject: `${input.code} is your ARB sign-in code`, text, html };
}
