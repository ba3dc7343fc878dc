/**
 * Invitations by e-mail. An admin or the owner invites an address with a role; the e-mail's link (valid
 * INVITATION_VALID_DAYS, once) signs the invitee in and joins them, and so does any sign-in with the invited address
 * while the invitation is open. Inviting the same address again replaces the open invitation (and its link).
 *
 * Joining moves the person into the organisation. Someone who is the only owner of an organisation that has other
 * members does not join automatically (that organisation would be left without an owner): the invitation stays open
 * and the link says what to do first. What they had in their previous organisation stays there.
 */
import { randomBytes } from 'node:crypto';
import type { User } from '../auth/data';
import { getUserById } from '../auth/data';
import { keyedHash } from '../auth/secrets';
import { enforceRateLimit } from '../http/rateLimit';
import { HttpError, notFound } from '../http/errors';
import { log } from '../log';
import { MailDeliveryError, sendMail } from '../mail/send';
import {
  countMembers,
  getOpenInvitationByTokenHash,
  getOrg,
  listMembers,
  markInvitationAccepted,
  moveUserToOrg,
  newestOpenInvitationFor,
  recordAudit,
  replaceInvitation,
  revokeInvitation,
  type Invitation,
} from './data';
import { invitationEmail } from './invitationEmail';
import type { Membership } from './membership';
import { canManageMember, roleLabel, type OrgRole } from '@/shared/orgRoles';
import { assertWithinLimit } from '../plans/limits';

export const INVITATION_VALID_DAYS = 7;
/** Each invitation sends an e-mail from our domain to an address someone typed: bounded per organisation. */
export const INVITATION_LIMITS = { perOrgDaily: { name: 'org-invitations:org', limit: 50, windowSeconds: 86_400 } };

const tokenHash = (token: string) => keyedHash('invitation-token', token);

export async function inviteMember(m: Membership, input: { email: string; role: Exclude<OrgRole, 'owner'> }, now = new Date()): Promise<Invitation> {
  if (!canManageMember(m.role, input.role, input.role)) throw new HttpError(403, 'forbidden', 'Only an admin or the owner can invite members.');
  const members = await listMembers(m.orgId);
  if (members.some((u) => u.email === input.email)) {
    throw new HttpError(409, 'already_member', `${input.email} is already a member of this organisation.`);
  }
  // Every open invitation may become a member: they count, except the one this replaces.
  await assertWithinLimit(m.orgId, 'members', { now, invitations: { except: input.email } });
  await enforceRateLimit(INVITATION_LIMITS.perOrgDaily, m.orgId, 'This organisation has sent too many invitations today. Try again tomorrow.', { now });
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
  });
  try {
    await sendMail(invitationEmail({ to: input.email, orgName: org.name, inviter: m.email, role: roleLabel(input.role).toLowerCase(), token, validDays: INVITATION_VALID_DAYS }));
  } catch (err) {
    // Nobody received its link, so the invitation is withdrawn (a sign-in with the address must not join on it); the
    // admin sees why and can invite again.
    await revokeInvitation(m.orgId, invitation.id, now);
    if (err instanceof MailDeliveryError) throw new HttpError(502, 'mail_failed', `The invitation e-mail could not be sent: ${err.message} Try again later.`);
    throw err;
  }
  await recordAudit({ orgId: m.orgId, actor: { userId: m.userId, email: m.email }, action: 'member.invited', target: input.email, details: { role: input.role } });
  return invitation;
}

export async function cancelInvitation(m: Membership, id: string, now = new Date()): Promise<void> {
  const revoked = await revokeInvitation(m.orgId, id, now);
  if (!revoked) throw notFound('There is no open invitation with this id.');
  await recordAudit({ orgId: m.orgId, actor: { userId: m.userId, email: m.email }, action: 'invitation.revoked', target: revoked.email, details: { role: revoked.role } });
}

/** Why `user` cannot leave their organisation to join another now, or null when they can. */
async function cannotMoveReason(user: User): Promise<string | null> {
  if (user.role !== 'owner') return null;
  const [owners, members] = await Promise.all([countMembers(user.org_id, 'owner'), countMembers(user.org_id)]);
  if (owners < 2 && members > 1) return 'You are the only owner of your current organisation, which has other members. Make one of them owner, then open this link again.';
  return null;
}

async function join(user: User, invitation: Invitation, now: Date): Promise<User> {
  if (user.org_id === invitation.org_id) {
    await markInvitationAccepted(invitation.id, now);
    return user;
  }
  // Checked again on joining: the plan may have changed (or members joined) since the invitation was sent.
  await assertWithinLimit(invitation.org_id, 'members', { now });
  if (!(await markInvitationAccepted(invitation.id, now))) return user;
  await moveUserToOrg({ userId: user.id, orgId: invitation.org_id, role: invitation.role });
  await recordAudit({ orgId: invitation.org_id, actor: { userId: user.id, email: user.email }, action: 'member.joined', target: user.email, details: { role: invitation.role, invitation: invitation.id } });
  log.info('member joined through an invitation', { role: invitation.role });
  return (await getUserById(user.id)) ?? user;
}

/**
 * At every sign-in: the newest open invitation to the user's address joins them (unless they are the only owner of a
 * team, see above). Returns the user as they are now.
 */
export async function joinInvitedOrganisation(user: User, now = new Date()): Promise<User> {
  const invitation = await newestOpenInvitationFor(user.email, now);
  if (!invitation) return user;
  if (await cannotMoveReason(user)) {
    log.info('invitation left open: the invitee is the only owner of a team');
    return user;
  }
  try {
    return await join(user, invitation, now);
  } catch (err) {
    // A sign-in is never refused for the plan of the organisation inviting: the invitation stays open, and its link
    // says why it cannot be accepted yet.
    if (err instanceof HttpError && err.code === 'plan_limit') {
      log.info('invitation left open: the organisation has as many members as its plan allows');
      return user;
    }
    throw err;
  }
}

/** The invitation a link's token opens (its address is whom the link signs in), or a 401 saying why not. */
export async function invitationForToken(token: string, now = new Date()): Promise<Invitation> {
  const invitation = await getOpenInvitationByTokenHash(tokenHash(token), now);
  if (!invitation) throw new HttpError(401, 'invitation_invalid', 'This invitation has expired, was cancelled or was already used. Ask for a new one.');
  return invitation;
}

/** Join through a link: like a sign-in with the invited address, but the only-owner case is an error the page shows. */
export async function joinThroughLink(user: User, invitation: Invitation, now = new Date()): Promise<User> {
  const reason = user.org_id === invitation.org_id ? null : await cannotMoveReason(user);
  if (reason) throw new HttpError(409, 'only_owner', reason);
  return join(user, invitation, now);
}
