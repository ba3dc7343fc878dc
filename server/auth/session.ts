/**
 * Sessions: the one-time sign-in token becomes a signed auth token (creating user + org on first sign-in), a signed
 * token is refreshed, and an org id from a /subscribe link becomes a token that only billing calls accept.
 */
import { HttpError, notFound, unauthorized } from '../http/errors';
import { enforceRateLimit, ipRateKey, type RateLimitRule } from '../http/rateLimit';
import { log } from '../log';
import { signAuthToken } from './tokens';
import { consumeSignInToken, getOrCreateUser, getOrgOwner, getUserById, updateUserLastSignIn, type Attribution, type User } from './data';
import { keyedHash } from './secrets';
import { claimAnonymousConnections } from '../monitor/service';

/** A billing-only token is for one checkout visit. */
export const BILLING_TOKEN_TTL_SECONDS = 2 * 3600;

export const SESSION_LIMITS = {
  exchangesPerIp: { name: 'token-exchange:ip', limit: 30, windowSeconds: 600 },
  crmExchangesPerIp: { name: 'crm-exchange:ip', limit: 30, windowSeconds: 600 },
} satisfies Record<string, RateLimitRule>;

export type SessionAnswer = { authToken: string; email: string; name?: string; displayName?: string };

function sessionAnswer(user: User, authToken: string): SessionAnswer {
  return {
    authToken,
    email: user.email,
    ...(user.name ? { name: user.name } : {}),
    ...(user.display_name ? { displayName: user.display_name } : {}),
  };
}

export async function exchangeSignInToken(input: { token: string; attribution: Attribution; ip: string; now?: Date }): Promise<SessionAnswer> {
  const now = input.now ?? new Date();
  await enforceRateLimit(SESSION_LIMITS.exchangesPerIp, ipRateKey(input.ip), 'Too many sign-in attempts from your network. Try again later.', { now });
  const email = await consumeSignInToken(keyedHash('sign-in-token', input.token), now);
  if (!email) {
    throw new HttpError(401, 'token_invalid', 'This sign-in token has expired or was already used. Sign in again.');
  }
  const { user, created } = await getOrCreateUser({ email, attribution: input.attribution, now });
  if (created) log.info('account created', { userId: user.id, orgId: user.org_id });
  else await updateUserLastSignIn(user.id, now);
  await claimAnonymousConnections({ orgId: user.org_id, email: user.email });
  const authToken = await signAuthToken({ userId: user.id, orgId: user.org_id, email: user.email, scope: 'full' });
  return sessionAnswer(user, authToken);
}

export async function refreshAuthToken(userId: string): Promise<string> {
  const user = await getUserById(userId);
  if (!user) throw unauthorized('Your account no longer exists. Sign in again.');
  return signAuthToken({ userId: user.id, orgId: user.org_id, email: user.email, scope: 'full' });
}

/**
 * /subscribe?org_id=… → a token scoped to billing for the org's owner. The answer is the same for an org that does
 * not exist and one without an owner, so it says nothing more than "no such org".
 */
export async function exchangeOrgIdForBillingToken(input: { orgId: string; ip: string; now?: Date }): Promise<{ authToken: string; email: string }> {
  await enforceRateLimit(SESSION_LIMITS.crmExchangesPerIp, ipRateKey(input.ip), 'Too many requests from your network. Try again later.', { now: input.now });
  const owner = await getOrgOwner(input.orgId);
  if (!owner) throw notFound('We could not find that organization. Check the link you followed.');
  const authToken = await signAuthToken({ userId: owner.id, orgId: owner.org_id, email: owner.email, scope: 'billing' }, BILLING_TOKEN_TTL_SECONDS);
  return { authToken, email: owner.email };
}
