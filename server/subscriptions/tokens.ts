/**
 * The links in review e-mails work without signing in: each carries a signed token (an HS256 JWT of
 * server/signedTokens.ts) that says exactly one thing, and its purpose keeps the kinds apart: an unsubscribe token
 * cannot confirm a digest, and no e-mail token is accepted as a sign-in token or an OAuth state.
 *   unsubscribe  { ea }                 never expires: the link in a year-old e-mail must still work
 *   digest       { sub, g }             turn on the daily digest for one subscription (30 days)
 *   confirm      { sub, kind, g }       an unsubscribed address confirms a new request (3 days)
 *   destination  { sub, g }             a mailbox agrees to a new e-mail destination (48 hours)
 *   weekly       { sub, g }             turn on the weekly summary of one subscription's app (30 days)
 *
 * A JWT's claims are only base64, readable by anyone who sees the link (forwarded mails, proxy logs): so the
 * unsubscribe token carries the address encrypted (AES-GCM, ENCRYPTION_KEY), never in clear. Unsubscribe tokens
 * already e-mailed with the address in clear (`em`) keep working.
 * `g` is the address's unsubscribe generation when the link was made (email_recipients.generation): every unsubscribe
 * moves it on, so a link made before an unsubscribe can never undo it. A token without `g` was made in generation 0.
 */
import type { JWTPayload } from 'jose';
import { env } from '../env';
import { decryptSecret, encryptSecret } from '../crypto';
import { nowSeconds, signToken, verifyToken, type TokenPurpose } from '../signedTokens';


export type ConfirmKind = 'recent_reviews' | 'summary';

export type EmailToken =
  | { purpose: 'unsubscribe'; email: string }
  | { purpose: 'digest'; subscriptionId: string; generation: number }
  | { purpose: 'confirm'; subscriptionId: string; kind: ConfirmKind; generation: number }
  | { purpose: 'destination'; destinationId: string; generation: number }
  | { purpose: 'weekly'; subscriptionId: string; generation: number };

export const EMAIL_TOKEN_TTL_SECONDS: Record<EmailToken['purpose'], number | null> = {
  unsubscribe: null,
  digest: 30 * 86_400,
  confirm: 3 * 86_400,
  destination: 48 * 3600,
  weekly: 30 * 86_400,
};

function claimsOf(token: EmailToken): JWTPayload {
  switch (token.purpose) {
    case 'unsubscribe':
      return { ea: encryptSecret(token.email) };
    case 'digest':
    case 'weekly':
      return { sub: token.subscriptionId, g: token.generation };
    case 'confirm':
      return { sub: token.subscriptionId, k: token.kind, g: token.generation };
    case 'destination':
      return { sub: token.destinationId, g: token.generation };
  }
}

const PURPOSES = {
  unsubscribe: 'email_unsubscribe',
  digest: 'email_digest',
  confirm: 'email_confirm',
  destination: 'email_destination',
  weekly: 'email_weekly',
} as const satisfies Record<EmailToken['purpose'], TokenPurpose>;

/** `now` (seconds) lets tests make a link that is already expired. */
export function signEmailToken(token: EmailToken, now = nowSeconds()): Promise<string> {
  const ttl = EMAIL_TOKEN_TTL_SECONDS[token.purpose];
  return signToken(PURPOSES[token.purpose], claimsOf(token), { issuedAt: now, expiresAt: ttl ? now + ttl : null });
}

export type TokenCheck<T> = { ok: true; value: T } | { ok: false; expired: boolean };

function unsubscribeAddress(payload: JWTPayload): string | null {
  if (typeof payload.ea === 'string') {
    try {
      return decryptSecret(payload.ea);
    } catch {
      return null;
    }
  }
  return typeof payload.em === 'string' ? payload.em : null;
}

function valueOf(purpose: EmailToken['purpose'], payload: JWTPayload): EmailToken | null {
  const generation = payload.g === undefined ? 0 : typeof payload.g === 'number' && Number.isSafeInteger(payload.g) && payload.g >= 0 ? payload.g : null;
  if (purpose === 'unsubscribe') {
    const email = unsubscribeAddress(payload);
    return email ? { purpose, email } : null;
  }
  if (typeof payload.sub !== 'string' || generation === null) return null;
  if (purpose === 'digest' || purpose === 'weekly') return { purpose, subscriptionId: payload.sub, generation };
  if (purpose === 'destination') return { purpose, destinationId: payload.sub, generation };
  if (payload.k === 'recent_reviews' || payload.k === 'summary') return { purpose, subscriptionId: payload.sub, kind: payload.k, generation };
  return null;
}

export async function verifyEmailToken<P extends EmailToken['purpose']>(raw: string, purpose: P): Promise<TokenCheck<Extract<EmailToken, { purpose: P }>>> {
  const checked = await verifyToken(raw, PURPOSES[purpose]);
  if (!checked.ok) return checked;
  const value = valueOf(purpose, checked.claims);
  return value ? { ok: true, value: value as Extract<EmailToken, { purpose: P }> } : { ok: false, expired: false };
}

/** The page behind an e-mail's "Unsubscribe" link: it asks before doing it (mail scanners open links). */
export async function unsubscribePageUrl(email: string): Promise<string> {
  return `${env().APP_URL}/email/unsubscribe?token=${encodeURIComponent(await signEmailToken({ purpose: 'unsubscribe', email }))}`;
}

/** The List-Unsubscribe target: one POST unsubscribes (RFC 8058), no page, no sign-in. */
export async function oneClickUnsubscribeUrl(email: string): Promise<string> {
  return `${env().APP_URL}/api/v1/public/email/unsubscribe?token=${encodeURIComponent(await signEmailToken({ purpose: 'unsubscribe', email }))}`;
}

/** The confirm page (it asks for a click, then POSTs): digest and weekly summary offers, confirmations, new e-mail destinations. */
export async function confirmPageUrl(token: EmailToken): Promise<string> {
  return `${env().APP_URL}/email/confirm?token=${encodeURIComponent(await signEmailToken(token))}`;
}
