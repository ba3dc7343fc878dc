/**
 * Sessions. A sign-in (the one-time sign-in token from the e-mail code) starts a session of SESSION_DAYS: the browser
 * gets a short access token and a refresh token, both naming the session. The header's Dashboard link asks for a
 * one-time hand-off code (GET v1/auth/token/refresh), which /dashboard exchanges by POST for the session's tokens, in
 * the same browser only (handoffNonce.ts). Signing in and accepting an invitation, with what follows them (claims,
 * the plan, the move), are server/flows/signIn.ts; it starts the session here (startSession).
 * Logging out revokes the session (every token of that sign-in); "sign out everywhere" revokes all of the user's.
 * An org id from a /subscribe link gives only a billing token (tokens.ts) and a masked owner address.
 */
import { randomBytes } from 'node:crypto';
import { HttpError, notFound, unauthorized } from '../http/errors';
import { enforceRateLimit, ipRateKey, type RateLimitRule } from '../http/rateLimit';
import { log } from '../log';
import { getOrgOwner, getUserById, type User } from './data';
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
import { hashHandoffNonce } from './handoffNonce';

export { BILLING_TOKEN_TTL_SECONDS } from './tokens';

const SESSION_DAYS = 30;
const HANDOFF_CODE_VALID_SECONDS = 60;

/** Sign-ins by code or invitation link per network (server/flows/signIn.ts). */
export const SIGN_IN_EXCHANGE_LIMIT: RateLimitRule = { name: 'token-exchange:ip', limit: 30, windowSeconds: 600 };

const SESSION_LIMITS = {
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
