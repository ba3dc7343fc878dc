/**
 * Signing in, and accepting an invitation, with what follows them across areas: the account (server/auth), the
 * connections and apps made before signing in that become the organisation's (server/monitor, server/orgApps), the
 * plan they then count against (server/plans), the move into the inviting organisation (server/org/move.ts) and what
 * the engine lets go of when that move deletes the old organisation (orgDeletion.ts). server/flows/ is where one step
 * may reach into several areas; each area keeps its own rules (a sign-in never moves anyone: only an explicit accept
 * does).
 */
import { HttpError } from '../http/errors';
import { enforceRateLimit, ipRateKey } from '../http/rateLimit';
import { log } from '../log';
import { consumeSignInToken, getOrCreateUser, updateUserLastSignIn, type Attribution, type User } from '../auth/data';
import { keyedHash } from '../auth/secrets';
import { SIGN_IN_EXCHANGE_LIMIT, startSession, type SessionAnswer } from '../auth/session';
import type { AuthClaims } from '../auth/tokens';
import { claimAnonymousConnections } from '../monitor/service';
import { fitToPlan } from '../plans/pauses';
import { claimConnectedApps } from '../orgApps/service';
import { invitationForToken } from '../org/invitations';
import { moveByInvitation } from '../org/move';
import { afterOrgDeleted } from './orgDeletion';

/** POST v1/auth/token/exchange: the one-time sign-in token from the e-mail code → a session (creating the account). */
export async function exchangeSignInToken(input: { token: string; attribution: Attribution; ip: string; now?: Date; claimToken?: string | null }): Promise<SessionAnswer> {
  const now = input.now ?? new Date();
  await enforceRateLimit(SIGN_IN_EXCHANGE_LIMIT, ipRateKey(input.ip), 'Too many sign-in attempts from your network. Try again later.', { now });
  const email = await consumeSignInToken(keyedHash('sign-in-token', input.token), now);
  if (!email) {
    throw new HttpError(401, 'token_invalid', 'This sign-in token has expired or was already used. Sign in again.');
  }
  const { user, created } = await getOrCreateUser({ email, attribution: input.attribution, now });
  // Never joins an invitation: the dashboard shows open ones, and only an explicit accept moves (acceptInvitation).
  return signedIn(user, created, now, input.claimToken);
}

/** After the account is known (and, through a link, its invitation accepted): claim its connections and start a session. */
async function signedIn(user: User, created: boolean, now: Date, claimToken?: string | null): Promise<SessionAnswer> {
  // Ids only at debug level: an org id opens billing links, so it stays out of ordinary logs.
  if (created) log.info('account created');
  else await updateUserLastSignIn(user.id, now);
  // Connections this address made before signing in become the organisation's (no expiry, resumed if paused), and
  // their apps the organisation's apps (first: that step reads the connections while they are still anonymous).
  // Only with proof they are this person's: the claim cookie of the browser that made them, or the confirmation link of
  // an e-mail destination of the address signed in with (server/monitor/anonymous.ts) — never a typed address.
  const apps = await claimConnectedApps({ orgId: user.org_id, email: user.email, claimToken });
  const channels = await claimAnonymousConnections({ orgId: user.org_id, email: user.email, claimToken });
  // They count against the organisation's plan like any other: what goes over it is paused (claimed ones first),
  // never refused, since this is a sign-in.
  if (apps.length || channels.length) await fitToPlan(user.org_id, { apps, channels });
  log.debug('signed in', { userId: user.id, orgId: user.org_id, created });
  return startSession(user, now);
}

/** The move of org/move.ts, then what the engine and the caches let go of if it deleted the old organisation. */
async function joinByInvitation(input: Parameters<typeof moveByInvitation>[0]): Promise<Awaited<ReturnType<typeof moveByInvitation>>> {
  const moved = await moveByInvitation(input);
  if (moved.deleted) await afterOrgDeleted(moved.deleted.orgId, moved.deleted.apps);
  return moved;
}

/**
 * POST v1/auth/invitation: the invitee confirmed on the link's page (which showed the organisation, the role and what
 * happens to their own organisation first, POST v1/invitations/preview): the token signs in its address (creating the
 * account on first sign-in) and accepts the invitation by the same rules as the dashboard's accept (move.ts); a
 * refusal signs nobody in. The link proves the address as a code e-mail would.
 */
export async function exchangeInvitationToken(input: {
  token: string;
  attribution: Attribution;
  ip: string;
  deleteCurrent?: boolean;
  now?: Date;
  claimToken?: string | null;
}): Promise<SessionAnswer> {
  const now = input.now ?? new Date();
  await enforceRateLimit(SIGN_IN_EXCHANGE_LIMIT, ipRateKey(input.ip), 'Too many sign-in attempts from your network. Try again later.', { now });
  const invitation = await invitationForToken(input.token, now);
  const { user, created } = await getOrCreateUser({ email: invitation.email, attribution: input.attribution, now });
  const moved = await joinByInvitation({ userId: user.id, invitationId: invitation.id, deleteCurrent: !!input.deleteCurrent, now });
  return signedIn(moved.user, created, now, input.claimToken);
}

/**
 * POST v1/invitations/{id}/accept: the signed-in invitee accepts an invitation to their address. The move ends every
 * session they had (the tokens of the old membership); the answer is a fresh session in the new organisation.
 */
export async function acceptInvitation(auth: AuthClaims, invitationId: string, deleteCurrent: boolean, now = new Date()): Promise<SessionAnswer & { organisation: string }> {
  const moved = await joinByInvitation({ userId: auth.userId, invitationId, deleteCurrent, sessionId: auth.sessionId, now });
  return { ...(await startSession(moved.user, now)), organisation: moved.invitation.org_name };
}
