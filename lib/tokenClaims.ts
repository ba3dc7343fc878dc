/**
 * Reads the claims of an ARB auth token (a JWT) for display — whose dashboard this is, which org. The signature is
 * NOT checked here and nothing is trusted because of these values: the API verifies the token on every call.
 */
import { decodeBase64Url } from './base64url';

export type TokenClaims = { email: string | null; orgId: string | null; scope: string | null; expiresAt: Date | null };

export function readTokenClaims(token: string): TokenClaims | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  try {
    const payload = JSON.parse(decodeBase64Url(parts[1])) as Record<string, unknown>;
    const str = (v: unknown) => (typeof v === 'string' && v ? v : null);
    return {
      email: str(payload.email),
      orgId: str(payload.org),
      scope: str(payload.scope),
      expiresAt: typeof payload.exp === 'number' ? new Date(payload.exp * 1000) : null,
    };
  } catch {
    return null;
  }
}
