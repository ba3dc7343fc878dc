/**
 * The e-mail that invites someone to an organisation. Its link shows the invitation; confirming there signs them in
 * and joins them (once).
 *
 * It goes to an address someone typed, so it follows ARB's e-mail rules (docs/SECURITY.md, "Team hygiene and
 * invitation e-mail"): the subject names only the inviter (an address they proved by signing in), never the
 * organisation, whose name its admins choose; the body shows that name only when it reads as a name
 * (isPresentableOrgName: no web address, no odd characters), "their team" otherwise; and it carries a visible
 * unsubscribe link and List-Unsubscribe / List-Unsubscribe-Post (RFC 8058), the address-level unsubscribe every ARB
 * e-mail has: once used, no invitation is e-mailed to the address again.
 */
import { env } from '../env';
import { escapeHtml, type MailMessage } from '../mail/send';
import type { UnsubscribeLinks } from '../subscriptions/emails';
import { isPresentableOrgName } from '@/shared/orgNames';

export type InvitationEmailInput = {
  to: string;
  orgName: string;
  inviter: string;
  role: string;
  token: string;
  validDays: number;
  unsubscribe: UnsubscribeLinks;
};

export function invitationEmail(input: InvitationEmailInput): MailMessage {
  const site = env().APP_URL;
  // The token travels in the fragment: browsers never send it to a server, so it stays out of access logs and Referer.
  const link = `${site}/join#${input.token}`;
  const team = isPresentableOrgName(input.orgName) ? input.orgName.trim() : null;
  const teamText = team ? `“${team}”` : 'their team';
  const text = [
    `${input.inviter} invited you to join ${teamText} on ARB as ${input.role}.`,
    '',
    'ARB brings every new App Store and Google Play review into your team’s chat and inbox.',
    '',
    `Join: ${link}`,
    '',
    `The link shows the invitation; accepting it there signs you in and joins. It works for ${input.validDays} days, until you accept. Signing in to ARB with this address shows it too.`,
    'If you did not expect this, ignore this e-mail: nothing happens unless you open the link or sign in.',
    '',
    '--',
    `You receive this e-mail because ${input.inviter} entered this address on ARB.`,
    `Unsubscribe from all ARB e-mails, invitations included (one click, no sign-in): ${input.unsubscribe.page}`,
    `ARB · ${site}`,
  ].join('\n');
  const html = `<!doctype html>
<html><body style="font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#111;line-height:1.5">
<p><strong>${escapeHtml(input.inviter)}</strong> invited you to join ${team ? `<strong>${escapeHtml(team)}</strong>` : 'their team'} on ARB as ${escapeHtml(input.role)}.</p>
<p>ARB brings every new App Store and Google Play review into your team’s chat and inbox.</p>
<p><a href="${escapeHtml(link)}" style="display:inline-block;background:#1a56db;color:#fff;padding:10px 18px;border-radius:6px;text-decoration:none">Join the team</a></p>
<p style="color:#555">The link shows the invitation; accepting it there signs you in and joins. It works for ${input.validDays} days, until you accept. Signing in to ARB with this address shows it too.</p>
<p style="color:#555">If you did not expect this, ignore this e-mail: nothing happens unless you open the link or sign in.</p>
<p style="color:#6b7280;font-size:13px">You receive this e-mail because ${escapeHtml(input.inviter)} entered this address on ARB.
<a href="${escapeHtml(input.unsubscribe.page)}" style="color:#6b7280">Unsubscribe</a> from all ARB e-mails, invitations included — one click, no sign-in.</p>
<p style="color:#555">ARB · <a href="${escapeHtml(site)}">${escapeHtml(site)}</a></p>
</body></html>`;
  return {
    to: input.to,
    subject: `${input.inviter} invited you to join their team on ARB`,
    text,
    html,
    headers: { 'List-Unsubscribe': `<${input.unsubscribe.oneClick}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
  };
}
