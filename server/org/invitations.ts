/**
 * Invitations by e-mail. An admin or the owner invites an address with a role; the e-mail's link (valid
 * INVITATION_VALID_DAYS, until accepted) shows the invitation and, once the invitee confirms, signs them in and joins
 * them; a sign-in with the invited address shows it in the dashboard, to accept there. Inviting the same address again replaces the open invitation (and its link) and mails
 * again, once INVITATION_RESEND_COOLDOWN_MS has passed since its e-mail; before that it answers the open one. The
 * e-mail follows ARB's e-mail rules (inviteMember, invitationEmail.ts). Someone leaving takes their open invitations
 * with them (revokeInvitationsOf).
 *
 * Nobody is moved by signing in: the invitee sees the invitation (the link's page, the dashboard's banner) and joins
 * only by accepting it; what that does to the organisation they are in now, and when it is refused, is move.ts's rule.
 */
import { randomBytes } from 'node:crypto';
import { getUserById } from '../auth/data';
import { keyedHash } from '../auth/secrets';
import { mailboxDomain, mailboxKey } from '../connect/mailbox';
import { enforceRateLimit, type RateLimitRule } from '../http/rateLimit';
import { HttpError, notFound } from '../http/errors';
import { MailDeliveryError, sendMail } from '../mail/send';
import { isAddressUnsubscribed } from '../subscriptions/data';
import { oneClickUnsubscribeUrl, unsubscribePageUrl } from '../subscriptions/tokens';
import {
  getMember,
  getOpenInvitationByTokenHash,
  getOrg,
  listMembers,
  openInvitationTo,
  recordAudit,
  replaceInvitation,
  revokeInvitation,
  revokeInvitationsSentBy,
  setInvitationRole,
  type Invitation,
  type ListedInvitation,
} from './data';
import { invitationEmail } from './invitationEmail';
import type { Membership } from './membership';
import { canManageMember, roleLabel, type OrgRole } from '@/shared/orgRoles';
import { assertWithinLimit } from '../plans/limits';
import { decideMove, invitationGone, moveFactsOf, type MoveOutcome } from './move';
import { declineInvitationRow, openInvitationForEmail, openInvitationsForEmail, userByEmail, type InvitationForInvitee } from './moveData';

export const INVITATION_VALID_DAYS = 7;
/** Inviting the same address again within this time answers the open invitation and sends no second e-mail. */
export const INVITATION_RESEND_COOLDOWN_MS = 10 * 60_000;
/**
 * Each invitation sends an e-mail from our domain to an address someone typed. Per organisation (its admins' reach),
 * per mailbox across every organisation (mailboxKey: `ana+1@` and `a.na@gmail.com` are one person), and per recipient
 * domain across every organisation (one company's addresses cannot be sprayed from many new organisations).
 */
export const INVITATION_LIMITS = {
  perOrgDaily: { name: 'org-invitations:org', limit: 50, windowSeconds: 86_400 },
  perMailboxDaily: { name: 'org-invitations:mailbox', limit: 3, windowSeconds: 86_400 },
  perDomainHourly: { name: 'org-invitations:domain', limit: 100, windowSeconds: 3600 },
} satisfies Record<string, RateLimitRule>;

const tokenHash = (token: string) => keyedHash('invitation-token', token);
const clock = (d: Date) => `${d.toISOString().slice(11, 16)} UTC`;

/** What happened to the invitation e-mail of an invite: sent now, or not again yet (and when it may be). */
export type InvitationMail = { sent: boolean; sentAt: Date | null; resendAfter: Date | null; message: string };
export type InvitationOutcome = { invitation: ListedInvitation; created: boolean; mail: InvitationMail };

type InviteInput = { email: string; role: Exclude<OrgRole, 'owner'> };

/**
 * Invite an address. The rules, in order: only admins and owners; not someone already in; an address that
 * unsubscribed from ARB e-mails gets no e-mail (an invitation is kept open, which its owner sees and may accept once
 * signed in with the address, and the admin gets a 409 saying so); an invitation e-mailed less than INVITATION_RESEND_COOLDOWN_MS ago is answered as it
 * is (its role updated) without mailing again; then the plan's member places and the e-mail limits; then a new
 * invitation replaces the open one (a new link) and is e-mailed.
 */
export async function inviteMember(m: Membership, input: InviteInput, now = new Date()): Promise<InvitationOutcome> {
  if (!canManageMember(m.role, input.role, input.role)) throw new HttpError(403, 'forbidden', 'Only an admin or the owner can invite members.');
  const members = await listMembers(m.orgId);
  if (members.some((u) => u.email === input.email)) {
    throw new HttpError(409, 'already_member', `${input.email} is already a member of this organisation.`);
  }
  const open = await openInvitationTo(m.orgId, input.email, now);
  if (await isAddressUnsubscribed(input.email)) {
    await keepOpenWithoutMail(m, input, open, now);
    throw new HttpError(
      409,
      'address_unsubscribed',
      `${input.email} has unsubscribed from ARB e-mails, so no invitation e-mail was sent. The invitation is open for ${INVITATION_VALID_DAYS} days: ask them to sign in to ARB with this address, where it waits for them to accept.`,
    );
  }
  const resendAfter = open?.mailed_at ? new Date(new Date(open.mailed_at).getTime() + INVITATION_RESEND_COOLDOWN_MS) : null;
  if (open && resendAfter && resendAfter > now) {
    const invitation = await withRole(m, open, input.role);
    const message = `The invitation e-mail went to ${input.email} at ${clock(new Date(open.mailed_at!))}. It can be sent again after ${clock(resendAfter)}.`;
    return { invitation: await listed(m.orgId, invitation), created: false, mail: { sent: false, sentAt: new Date(open.mailed_at!), resendAfter, message } };
  }

  // Every open invitation may become a member: they count, except the one this replaces.
  await assertWithinLimit(m.orgId, 'members', { now, invitations: { except: input.email } });
  await enforceRateLimit(INVITATION_LIMITS.perOrgDaily, m.orgId, 'This organisation has sent too many invitations today. Try again tomorrow.', { now });
  await enforceRateLimit(INVITATION_LIMITS.perMailboxDaily, mailboxKey(input.email), `${input.email} has been sent as many invitation e-mails today as ARB sends one address in a day. Try again tomorrow.`, { now });
  const domain = mailboxDomain(input.email);
  await enforceRateLimit(INVITATION_LIMITS.perDomainHourly, domain, `ARB has sent as many invitation e-mails to addresses at ${domain} this hour as it sends to one domain. Try again in an hour.`, { now });
  const org = await getOrg(m.orgId);
  if (!org) throw notFound('This organisation no longer exists.');

  const token = randomBytes(32).toString('base64url');
  const invitation = await replaceInvitation({
    orgId: m.orgId,
    email: input.email,
    role: input.role,
    invitedBy: m.userId,
    tokenHash: tokenHash(token),
    expiresAt: new Date(now.getTime() + INVITATION_VALID_DAYS * 86_400_000),
    now,
    mailedAt: now,
    keepMailedAfter: new Date(now.getTime() - INVITATION_RESEND_COOLDOWN_MS),
  });
  if (!invitation) throw invitedMeanwhile(input.email);
  try {
    const unsubscribe = { page: await unsubscribePageUrl(input.email), oneClick: await oneClickUnsubscribeUrl(input.email) };
    await sendMail(invitationEmail({ to: input.email, orgName: org.name, inviter: m.email, role: roleLabel(input.role).toLowerCase(), token, validDays: INVITATION_VALID_DAYS, unsubscribe }));
  } catch (err) {
    // Nobody received its link, so the invitation is withdrawn (a sign-in with the address must not join on it); the
    // admin sees why and can invite again.
    await revokeInvitation(m.orgId, invitation.id, now);
    if (err instanceof MailDeliveryError) throw new HttpError(502, 'mail_failed', `The invitation e-mail could not be sent: ${err.message} Try again later.`);
    throw err;
  }
  await recordAudit({ orgId: m.orgId, actor: { userId: m.userId, email: m.email }, action: 'member.invited', target: input.email, details: { role: input.role } });
  const next = new Date(now.getTime() + INVITATION_RESEND_COOLDOWN_MS);
  return {
    invitation: { ...invitation, invited_by_email: m.email },
    created: true,
    mail: { sent: true, sentAt: now, resendAfter: next, message: `The invitation e-mail went to ${input.email}.` },
  };
}

/** Two invites of one address at once: the first made the invitation (and sends its e-mail); the second sends nothing. */
const invitedMeanwhile = (email: string) =>
  new HttpError(409, 'changed', `${email} was invited by someone else at the same moment. Reload the team to see the invitation.`);

/** An invitation with its sender's address while they are still a member. */
async function listed(orgId: string, invitation: Invitation): Promise<ListedInvitation> {
  const sender = invitation.invited_by ? await getMember(orgId, invitation.invited_by) : undefined;
  return { ...invitation, invited_by_email: sender?.email ?? null };
}

/** The open invitation offering `role`: changed in place (same link, audit-logged) when it offered another. */
async function withRole(m: Membership, open: Invitation, role: InviteInput['role']): Promise<Invitation> {
  if (open.role === role) return open;
  const changed = await setInvitationRole(m.orgId, open.id, role);
  if (!changed) throw new HttpError(409, 'changed', 'This invitation changed in the meantime. Reload the team and try again.');
  await recordAudit({ orgId: m.orgId, actor: { userId: m.userId, email: m.email }, action: 'invitation.role_changed', target: open.email, details: { from: open.role, to: role } });
  return changed;
}

/**
 * For an address that unsubscribed: an open invitation, without e-mail, which its owner finds once signed in.
 * One already open stays (its link may have been mailed before the unsubscribe); otherwise one is made, within the
 * plan's member places.
 */
async function keepOpenWithoutMail(m: Membership, input: InviteInput, open: Invitation | undefined, now: Date): Promise<void> {
  if (open) {
    await withRole(m, open, input.role);
    return;
  }
  await assertWithinLimit(m.orgId, 'members', { now, invitations: { except: input.email } });
  const made = await replaceInvitation({
    orgId: m.orgId,
    email: input.email,
    role: input.role,
    invitedBy: m.userId,
    // Nobody holds a link to it: the token is made and dropped; the invitee accepts it signed in with the address.
    tokenHash: tokenHash(randomBytes(32).toString('base64url')),
    expiresAt: new Date(now.getTime() + INVITATION_VALID_DAYS * 86_400_000),
    now,
    mailedAt: null,
    keepMailedAfter: new Date(now.getTime() - INVITATION_RESEND_COOLDOWN_MS),
  });
  if (!made) throw invitedMeanwhile(input.email);
  await recordAudit({ orgId: m.orgId, actor: { userId: m.userId, email: m.email }, action: 'member.invited', target: input.email, details: { role: input.role, mailed: false } });
}

export async function cancelInvitation(m: Membership, id: string, now = new Date()): Promise<void> {
  const revoked = await revokeInvitation(m.orgId, id, now);
  if (!revoked) throw notFound('There is no open invitation with this id.');
  await recordAudit({ orgId: m.orgId, actor: { userId: m.userId, email: m.email }, action: 'invitation.revoked', target: revoked.email, details: { role: revoked.role } });
}

/**
 * Someone leaving the organisation (removed, or by themselves) takes their open invitations with them: each is revoked
 * (its link stops working, a sign-in with its address no longer joins) and audit-logged as done by `actor`.
 */
export async function revokeInvitationsOf(actor: Membership, leaver: { id: string; email: string }, now = new Date()): Promise<Invitation[]> {
  const revoked = await revokeInvitationsSentBy(actor.orgId, leaver.id, now);
  for (const i of revoked) {
    await recordAudit({
      orgId: actor.orgId,
      actor: { userId: actor.userId, email: actor.email },
      action: 'invitation.revoked',
      target: i.email,
      details: { role: i.role, reason: 'inviter_left', inviter: leaver.email },
    });
  }
  return revoked;
}

// --- the invitee's side ---------------------------------------------------------------------------------------------
// Nothing here moves anyone: a sign-in only shows the open invitations (GET v1/invitations, the link's preview), and an
// explicit accept moves (move.ts moveByInvitation, called by server/flows/signIn.ts, which answers the new session).

/** An open invitation as its invitee sees it, with what accepting it would do to their organisation now (null: nothing). */
export type InviteeView = InvitationForInvitee & { outcome: MoveOutcome | null };

/** GET v1/invitations: the caller's open invitations, newest first. */
export async function invitationsOf(userId: string, now = new Date()): Promise<InviteeView[]> {
  const user = await getUserById(userId);
  if (!user) return [];
  const open = await openInvitationsForEmail(user.email, now);
  if (!open.length) return [];
  const facts = await moveFactsOf(user);
  return open.map((i) => ({ ...i, outcome: i.org_id === user.org_id ? null : decideMove(facts) }));
}

/** The invitation a link's token opens (its address is whom the link signs in), or a 401 saying why not. */
export async function invitationForToken(token: string, now = new Date()): Promise<Invitation> {
  const invitation = await getOpenInvitationByTokenHash(tokenHash(token), now);
  if (!invitation) throw new HttpError(401, 'invitation_invalid', 'This invitation has expired, was cancelled or was already used. Ask for a new one.');
  return invitation;
}

/**
 * POST v1/invitations/preview: what the link's invitation offers (organisation, role, inviter, address) and what
 * accepting it would do, before anything changes. The token proves the address as the link's sign-in would, so its
 * holder may learn what that sign-in would show.
 */
export async function previewInvitation(token: string, now = new Date()): Promise<InviteeView & { account: boolean }> {
  const invitation = await invitationForToken(token, now);
  const view = await openInvitationForEmail(invitation.id, invitation.email, now);
  if (!view) throw invitationGone();
  const user = await userByEmail(invitation.email);
  const outcome = user && user.org_id !== view.org_id ? decideMove(await moveFactsOf(user)) : null;
  return { ...view, account: !!user, outcome };
}

/** POST v1/invitations/{id}/decline: the invitee says no; the invitation closes and its organisation's audit log says so. */
export async function declineInvitation(userId: string, id: string, now = new Date()): Promise<void> {
  const user = await getUserById(userId);
  if (!user) throw invitationGone();
  const declined = await declineInvitationRow(id, user.email, now);
  if (!declined) throw invitationGone();
  await recordAudit({ orgId: declined.org_id, actor: { userId: user.id, email: user.email }, action: 'invitation.declined', target: user.email, details: { role: declined.role } });
}
