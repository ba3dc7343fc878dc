/**
 * The links in review e-mails work without signing in: each carries a signed token (HS256 JWT, AUTH_SECRET) that says
 * exactly one thing, and the audience keeps the kinds apart — an unsubscribe token cannot confirm a digest, and no
 * e-mail token is accepted as a sign-in token or an OAuth state (different issuer, no `scope`).
 *   unsubscribe  { email }              never expires: the link in a year-old e-mail must still work
 *   digest       { sub }                turn on the daily digest for one subscription (30 days)
 *   confirm      { sub, kind }          an unsubscribed address confirms a new request (3 days)
 */
import { SignJWT, jwtVerify, type JWTPayload } from 'jose';
import { env } from '../env';

const ISSUER = 'arb-email';
const key = () => new TextEncoder().encode(env().AUTH_SECRET);

export type ConfirmKind = 'recent_reviews' | 'summary';

export type EmailToken =
  | { purpose: 'unsubscribe'; email: string }
  | { purpose: 'digest'; subscriptionId: string }
  | { purpose: 'confirm'; subscriptionId: string; kind: ConfirmKind };

const TTL_SECONDS: Record<EmailToken['purpose'], number | null> = { unsubscribe: null, digest: 30 * 86_400, confirm: 3 * 86_400 };

export async function signEmailToken(token: EmailToken): Promise<string> {
  const claims: JWTPayload =
    token.purpose === 'unsubscribe' ? { em: token.email } : token.purpose === 'digest' ? { sub: token.subscriptionId } : { sub: token.subscriptionId, k: token.kind };
  let jwt = new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setIssuer(ISSUER).setAudience(token.purpose).setIssuedAt();
  const ttl = TTL_SECONDS[token.purpose];
  if (ttl) jwt = jwt.setExpirationTime(Math.floor(Date.now() / 1000) + ttl);
  return jwt.sign(key());
}

export type TokenCheck<T> = { ok: true; value: T } | { ok: false; expired: boolean };

export async function verifyEmailToken<P extends EmailToken['purpose']>(raw: string, purpose: P): Promise<TokenCheck<Extract<EmailToken, { purpose: P }>>> {
  try {
    const { payload } = await jwtVerify(raw, key(), { issuer: ISSUER, audience: purpose, algorithms: ['HS256'] });
    let value: EmailToken | null = null;
    if (purpose === 'unsubscribe' && typeof payload.em === 'string') value = { purpose: 'unsubscribe', email: payload.em };
    if (purpose === 'digest' && typeof payload.sub === 'string') value = { purpose: 'digest', subscriptionId: payload.sub };
    if (purpose === 'confirm' && typeof payload.sub === 'string' && (payload.k === 'recent_reviews' || payload.k === 'summary')) {
      value = { purpose: 'confirm', subscriptionId: payload.sub, kind: payload.k };
    }
    return value ? { ok: true, value: value as Extract<EmailToken, { purpose: P }> } : { ok: false, expired: false };
  } catch (err) {
    return { ok: false, expired: (err as { code?: string }).code === 'ERR_JWT_EXPIRED' };
  }
}

/** The page behind an e-mail's "Unsubscribe" link: it asks before doing it (mail scanners open links). */
export async function unsubscribePageUrl(email: string): Promise<string> {
  return `${env().APP_URL}/email/unsubscribe?token=${encodeURIComponent(await signEmailToken({ purpose: 'unsubscribe', email }))}`;
}

/** The List-Unsubscribe target: one POST unsubscribes (RFC 8058), no page, no sign-in. */
export async function oneClickUnsubscribeUrl(email: string): Promise<string> {
  return `${env().APP_URL}/api/v1/public/email/unsubscribe?token=${encodeURIComponent(await signEmailToken({ purpose: 'unsubscribe', email }))}`;
}

export async function confirmPageUrl(token: EmailToken): Promise<string> {
  return `${env().APP_URL}/email/confirm?token=${encodeURIComponent(await signEmailToken(token))}`;
}
