/**
 * Signed auth tokens (jose, HS256, AUTH_SECRET). A token's scope says where it may be used:
 * 'full' — everything a signed-in user may do; 'billing' — only billing calls (issued by crm-exchange for /subscribe).
 */
import { SignJWT, jwtVerify } from 'jose';
import { env } from '../env';

export type TokenScope = 'full' | 'billing';
export type AuthClaims = { userId: string; orgId: string; email: string; scope: TokenScope };

const ISSUER = 'arb';
const key = () => new TextEncoder().encode(env().AUTH_SECRET);

export async function signAuthToken(claims: AuthClaims, ttlSeconds = 60 * 60 * 24 * 30): Promise<string> {
  return new SignJWT({ org: claims.orgId, email: claims.email, scope: claims.scope })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(claims.userId)
    .setIssuer(ISSUER)
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
    .sign(key());
}

/** The claims of a valid token, or null for anything else (expired, forged, malformed). */
export async function verifyAuthToken(token: string): Promise<AuthClaims | null> {
  try {
    const { payload } = await jwtVerify(token, key(), { issuer: ISSUER, algorithms: ['HS256'] });
    const scope = payload.scope === 'billing' ? 'billing' : payload.scope === 'full' ? 'full' : null;
    if (!scope || typeof payload.sub !== 'string' || typeof payload.org !== 'string' || typeof payload.email !== 'string') {
      return null;
    }
    return { userId: payload.sub, orgId: payload.org, email: payload.email, scope };
  } catch {
    return null;
  }
}
