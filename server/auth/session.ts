/**
 * Sessions. A sign-in (the one-time sign-in token from the e-mail code) starts a session of SESSION_DAYS: the browser
 * gets a short access token and a refresh token, both naming the session. The header's Dashboard link asks for a
 * one-time hand-off code (GET v1/auth/token/refresh), which /dashboard exchanges by POST for the session's tokens, in
 * the same browser only (handoffNonce.ts). A sign-in never changes anyone's organisation; accepting an invitation
 * (the link's page, or the dashboard) moves them (server/org/move.ts) and answers a fresh session there.
 * Logging out revokes the session (every token of that sign-in); "sign out everywhere" revokes all of the user's.
 * An org id from a /subscribe link gives only a billing token (tokens.ts) and a masked owner address.
 */
import { randomBytes } from 'node:crypto';
import { HttpError, notFound, unauthorized } from '../http/errors';
import { enforceRateLimit, ipRateKey, type RateLimitRule } from '../http/rateLimit';
import { log } from '../log';
import { consumeSignInToken, getOrCreateUser, getOrgOwner, getUserById, updateUserLastSignIn, type Attribution, type User } from './data';
import { keyedHash, randomBase62 } from './secrets';
import {
  consumeHandoffCode,
  getSession,
  insertHandoffCode,
  insertSession,
  markSessionRenewed,
  revokeSessionRows,
} from './sessionData';
import { forgetRevokedSessions } from './sessionState';
import { signAccessToken, signBillingToken, signRefreshToken, verifyRefreshToken, type AuthClaims } from './tokens';
import { claimAnonymousConnections } from '../monitor/service';
import { fitToPlan } from '../plans/pauses';
import { claimConnectedApps } from '../orgApps/service';
import { invitationForToken } from '../org/invitations';
import { moveByInvitation } from '../org/move';
import { hashHandoffNonce } from './handoffNonce';

export { BILLING_TOKEN_TTL_SECONDS } from './tokens';

const SESSION_DAYS = 30;
const HANDOFF_CODE_VALID_SECONDS = 60;

const SESSION_LIMITS = {
  exchangesPerIp: { name: 'token-exchange:ip', limit: 30, windowSeconds: 600 },
  crmExchangesPerIp: { name: 'crm-exchange:ip', limit: 30, windowSeconds: 600 },
  handoffsPerIp: { name: 'token-handoff:ip', limit: 60, windowSeconds: 600 },
  renewalsPerIp: { name: 'token-renew:ip', limit: 120, windowSeconds: 600 },
} satisfies Record<string, RateLimitRule>;

export type SessionAnswer = { authToken: string; refreshToken: string; email: string; name?: string; displayName?: string };

const sessionExpired = () => unauthorized('Your session has ended. Sign in again.');

async function tokensFor(user: User, session: { id: string; expiresAt: Date }): Promise<SessionAnswer> {
  const [authToken, refreshToken] = await Promise.all([
    signAccessToken({ userId: user.id, orgId: user.org_id, email: user.email, sessionId: session.id }),
    signRefreshToken({ userId: user.id, sessionId: session.id, expiresAt: session.expiresAt }),
  ]);
  return {
    authToken,
    refreshToken,
    email: user.email,
    ...(user.name ? { name: user.name } : {}),
    ...(user.display_name ? { displayName: user.display_name } : {}),
  };
}

/** A new session for `user` and its first tokens. */
export async function startSession(user: User, now = new Date()): Promise<SessionAnswer> {
  const session = { id: `ses_${randomBase62(24)}`, expiresAt: new Date(now.getTime() + SESSION_DAYS * 86_400_000) };
  await insertSession({ id: session.id, userId: user.id, expiresAt: session.expiresAt });
  return tokensFor(user, session);
}

/** The live session `sessionId` and its user, or a 401 when it was revoked, has ended or its account is gone. */
async function liveSession(sessionId: string, now: Date): Promise<{ user: User; expiresAt: Date }> {
  const session = await getSession(sessionId);
  if (!session || session.revoked_at || session.expires_at.getTime() <= now.getTime()) throw sessionExpired();
  const user = await getUserById(session.user_id);
  if (!user) throw unauthorized('Your account no longer exists. Sign in again.');
  return { user, expiresAt: session.expires_at };
}

export async function exchangeSignInToken(input: { token: string; attribution: Attribution; ip: string; now?: Date; claimToken?: string | null }): Promise<SessionAnswer> {
  const now = input.now ?? new Date();
  await enforceRateLimit(SESSION_LIMITS.exchangesPerIp, ipRateKey(input.ip), 'Too many sign-in attempts from your network. Try again later.', { now });
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
  await enforceRateLimit(SESSION_LIMITS.exchangesPerIp, ipRateKey(input.ip), 'Too many sign-in attempts from your network. Try again later.', { now });
  const invitation = await invitationForToken(input.token, now);
  const { user, created } = await getOrCreateUser({ email: invitation.email, attribution: input.attribution, now });
  const moved = await moveByInvitation({ userId: user.id, invitationId: invitation.id, deleteCurrent: !!input.deleteCurrent, now });
  return signedIn(moved.user, created, now, input.claimToken);
}

/**
 * POST v1/invitations/{id}/accept: the signed-in invitee accepts an invitation to their address. The move ends every
 * session they had (the tokens of the old membership); the answer is a fresh session in the new organisation.
 */
export async function acceptInvitation(auth: AuthClaims, invitationId: string, deleteCurrent: boolean, now = new Date()): Promise<SessionAnswer & { organisation: string }> {
  const moved = await moveByInvitation({ userId: auth.userId, invitationId, deleteCurrent, sessionId: auth.sessionId, now });
  return { ...(await startSession(moved.user, now)), organisation: moved.invitation.org_name };
}

/**
 * GET v1/auth/token/refresh: a one-time code (valid HANDOFF_CODE_VALID_SECONDS) that /dashboard exchanges for the
 * caller's session, bound to the asking browser's nonce cookie (handoffNonce.ts; the endpoint sets it). Only the
 * code's keyed hash and the nonce's hash are stored.
 */
export async function createHandoffCode(auth: AuthClaims, nonce: string, now = new Date()): Promise<string> {
  if (!auth.sessionId) throw sessionExpired();
  await liveSession(auth.sessionId, now);
  const code = randomBytes(32).toString('base64url');
  await insertHandoffCode({
    codeHash: keyedHash('handoff-code', code),
    sessionId: auth.sessionId,
    expiresAt: new Date(now.getTime() + HANDOFF_CODE_VALID_SECONDS * 1000),
    nonceHash: hashHandoffNonce(nonce),
  });
  return code;
}

/**
 * POST v1/auth/token/handoff: the code from the dashboard URL → fresh tokens of the same session, only in the browser
 * that asked for the code (its nonce cookie); from any other browser it is refused and stays unused.
 */
export async function exchangeHandoffCode(input: { code: string; nonce: string | null; ip: string; now?: Date }): Promise<SessionAnswer> {
  const now = input.now ?? new Date();
  await enforceRateLimit(SESSION_LIMITS.handoffsPerIp, ipRateKey(input.ip), 'Too many requests from your network. Try again later.', { now });
  const sessionId = await consumeHandoffCode(keyedHash('handoff-code', input.code), input.nonce ? hashHandoffNonce(input.nonce) : null, now);
  if (sessionId === 'other_browser') {
    throw new HttpError(401, 'code_other_browser', 'This dashboard link was made for another browser. Sign in here, or open the dashboard from the menu of the browser you signed in with.');
  }
  if (!sessionId) throw new HttpError(401, 'code_invalid', 'This dashboard link has expired or was already used. Open the dashboard again.');
  const { user, expiresAt } = await liveSession(sessionId, now);
  return tokensFor(user, { id: sessionId, expiresAt });
}

/** POST v1/auth/token/renew: a new access token for a live session (the browser does this before tokens run out). */
export async function renewAccessToken(input: { refreshToken: string; ip: string; now?: Date }): Promise<{ authToken: string }> {
  const now = input.now ?? new Date();
  await enforceRateLimit(SESSION_LIMITS.renewalsPerIp, ipRateKey(input.ip), 'Too many requests from your network. Try again later.', { now });
  const claims = await verifyRefreshToken(input.refreshToken);
  if (!claims) throw sessionExpired();
  const { user } = await liveSession(claims.sessionId, now);
  if (user.id !== claims.userId) throw sessionExpired();
  await markSessionRenewed(claims.sessionId, now);
  return { authToken: await signAccessToken({ userId: user.id, orgId: user.org_id, email: user.email, sessionId: claims.sessionId }) };
}

/**
 * POST v1/auth/logout: every token of this sign-in stops working (in this process at once, elsewhere within seconds).
 * The session is named by a valid access token, else by a refresh token (an access token may have run out).
 */
export async function logout(input: { auth: AuthClaims | null; refreshToken?: string }, now = new Date()): Promise<void> {
  const sessionId = input.auth?.sessionId ?? (input.refreshToken ? (await verifyRefreshToken(input.refreshToken))?.sessionId : undefined);
  if (!sessionId) throw unauthorized('Sign in to continue.');
  forgetRevokedSessions(await revokeSessionRows({ sessionId }, now));
}

/** POST v1/auth/logout/everywhere: every session of the user ends, this one included. */
export async function logoutEverywhere(auth: AuthClaims, now = new Date()): Promise<number> {
  const revoked = await revokeSessionRows({ userId: auth.userId }, now);
  forgetRevokedSessions(revoked);
  log.info('signed out everywhere', { sessions: revoked.length });
  return revoked.length;
}

/**
 * `olivia@example.com` → `o***@example.com`: enough for the owner to recognise the account, not enough to learn it.
 * The domain stays: it names the company, which the person holding the link knows anyway.
 */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at <= 0) return '***';
  return `${email[0]}***${email.slice(at)}`;
}

/**
 * /subscribe?org_id=… → a token that can only start a checkout for that org, and the owner's masked address. The
 * answer is the same for an org that does not exist and one without an owner, so it says nothing more than "no such
 * org".
 */
export async function exchangeOrgIdForBillingToken(input: { orgId: string; ip: string; now?: Date }): Promise<{ authToken: string; email: string }> {
  await enforceRateLimit(SESSION_LIMITS.crmExchangesPerIp, ipRateKey(input.ip), 'Too many requests from your network. Try again later.', { now: input.now });
  const owner = await getOrgOwner(input.orgId);
  if (!owner) throw notFound('We could not find that organization. Check the link you followed.');
  const authToken = await signBillingToken({ userId: owner.id, orgId: owner.org_id });
  return { authToken, email: maskEmail(owner.email) };
}
