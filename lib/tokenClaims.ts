/**
 * Reads the claims of an ARB token (a JWT) for display — whose dashboard this is, which org, what an e-mail link is
 * for. The signature is NOT checked here and nothing is trusted because of these values: the API verifies the token
 * on every call. jose's decoder comes from its narrow entry point (`jose/jwt/decode`), so the browser gets the
 * decoder alone, not the signing code.
 */
import type { JWTPayload } from 'jose';
import { decodeJwt } from 'jose/jwt/decode';

export type TokenClaims = { email: string | null; orgId: string | null; scope: string | null; expiresAt: Date | null };

/** The claims of a compact JWT, or null when the text is not one (wrong shape, not base64url, not a JSON object). */
export function unverifiedClaims(token: string): JWTPayload | null {
  try {
    return decodeJwt(token);
  } catch {
    return null;
  }
}

export function readTokenClaims(token: string): TokenClaims | null {
  const payload = unverifiedClaims(token);
  if (!payload) return null;
  const str = (v: unknown) => (typeof v === 'string' && v ? v : null);
  return {
    email: str(payload.email),
    orgId: str(payload.org),
    scope: str(payload.scope),
    expiresAt: typeof payload.exp === 'number' ? new Date(payload.exp * 1000) : null,
  };
}
