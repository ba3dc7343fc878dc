/** The e-mail that invites someone to an organisation. Its link signs them in and joins them; it works once. */
import { env } from '../env';
import { escapeHtml, type MailMessage } from '../mail/send';

export function invitationEmail(input: { to: string; orgName: string; inviter: string; role: string; token: string; validDays: number }): MailMessage {
  const site = env().APP_URL;
  // The token travels in the fragment: browsers never send it to a server, so it stays out of access logs and Referer.
  const link = `${site}/join#${input.token}`;
  const text = [
    `${input.inviter} invited you to join ${input.orgName} on ARB as ${input.role}.`,
    '',
    'ARB brings every new App Store and Google Play review into your team’s chat and inbox.',
    '',
    `Join: ${link}`,
    '',
    `The link signs you in and works once, for ${input.validDays} days. Signing in to ARB with this address also joins.`,
    'If you did not expect this, ignore this e-mail: nothing happens unless you open the link or sign in.',
    '',
    `ARB · ${site}`,
  ].join('\n');
  const html = `<!doctype html>
<html><body style="font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#111;line-height:1.5">
<p><strong>${escapeHtml(input.inviter)}</strong> invited you to join <strong>${escapeHtml(input.orgName)}</strong> on ARB as ${escapeHtml(input.role)}.</p>
<p>ARB brings every new App Store and Google Play review into your team’s chat and inbox.</p>
<p><a href="${escapeHtml(link)}" style="display:inline-block;background:#1a56db;color:#fff;padding:10px 18px;border-radius:6px;text-decoration:none">Join ${escapeHtml(input.orgName)}</a></p>
<p style="color:#555">The link signs you in and works once, for ${input.validDays} days. Signing in to ARB with this address also joins.</p>
<p style="color:#555">If you did not expect this, ignore this e-mail: nothing happens unless you open the link or sign in.</p>
<p style="color:#555">ARB · <a href="${escapeHtml(site)}">${escapeHtml(site)}</a></p>
</body></html>`;
  return { to: input.to, subject: `${input.inviter} invited you to ${input.orgName} on ARB`, text, html };
}
