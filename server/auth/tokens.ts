/**
 * Sign-in tokens, signed by server/signedTokens.ts (HS256, AUTH_SECRET). Three kinds, told apart by `typ`:
 *   access  — 15 minutes, scope 'full': everything a signed-in user may do. Names its session (`sid`); a token whose
 *             session was revoked is refused even before it expires (sessionState.ts).
 *   refresh — until the session's absolute end; only POST v1/auth/token/renew accepts it, for a new access token.
 *   billing — 2 hours, scope 'billing', from crm-exchange: only starts a checkout for its organisation. It carries no
 *             e-mail address (a JWT is readable by whoever holds it) and no session.
 * Tokens signed before sessions existed (no `typ`) are refused: they could not be revoked.
 */
import { nowSeconds, signToken, verifyToken } from '../signedTokens';
import { isSessionActive } from './sessionState';

export type TokenScope = 'full' | 'billing';
/**
 * `email` is empty for billing tokens; `sessionId` is set for full ones. `orgId` is the organisation the token was
 * signed for, possibly no longer the user's: act on `membershipOf(auth)` (server/org/membership.ts), never on it. Only
 * the billing token's purchase reads it, after checking its user still owns it (server/billing/checkout.ts).
 */
export type AuthClaims = { userId: string; orgId: string; email: string; scope: TokenScope; sessionId?: string };

const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
export const BILLING_TOKEN_TTL_SECONDS = 2 * 3600;

export function signAccessToken(claims: { userId: string; orgId: string; email: string; sessionId: string }, ttlSeconds = ACCESS_TOKEN_TTL_SECONDS): Promise<string> {
  return signToken('access', { scope: 'full', org: claims.orgId, email: claims.email, sid: claims.sessionId }, { subject: claims.userId, expiresAt: nowSeconds() + ttlSeconds });
}

export function signRefreshToken(claims: { userId: string; sessionId: string; expiresAt: Date }): Promise<string> {
  return signToken('refresh', { sid: claims.sessionId }, { subject: claims.userId, expiresAt: Math.floor(claims.expiresAt.getTime() / 1000) });
}

export function signBillingToken(claims: { userId: string; orgId: string }, ttlSeconds = BILLING_TOKEN_TTL_SECONDS): Promise<string> {
  return signToken('billing', { scope: 'billing', org: claims.orgId }, { subject: claims.userId, expiresAt: nowSeconds() + ttlSeconds });
}

const str = (v: unknown): v is string => typeof v === 'string' && v.length > 0;

/**
 * The claims of a valid access or billing token, or null for anything else (expired, forged, malformed, a refresh
 * token, or an access token whose session was revoked or has ended).
 */
export async function verifyAuthToken(token: string): Promise<AuthClaims | null> {
  const checked = await verifyToken(token, ['access', 'billing']);
  if (!checked.ok) return null;
  const p = checked.claims;
  if (!str(p.sub) || !str(p.org)) return null;
  if (checked.purpose === 'billing' && p.scope === 'billing') {
    return { userId: p.sub, orgId: p.org, email: '', scope: 'billing' };
  }
  if (checked.purpose === 'access' && p.scope === 'full' && str(p.email) && str(p.sid)) {
    if (!(await isSessionActive(p.sid))) return null;
    return { userId: p.sub, orgId: p.org, email: p.email, scope: 'full', sessionId: p.sid };
  }
  return null;
}

/** The session of a valid refresh token (signature and expiry checked here, the session's state by the caller). */
export async function verifyRefreshToken(token: string): Promise<{ userId: string; sessionId: string } | null> {
  const checked = await verifyToken(token, 'refresh');
  if (!checked.ok || !str(checked.claims.sub) || !str(checked.claims.sid)) return null;
  return { userId: checked.claims.sub, sessionId: checked.claims.sid };
}
