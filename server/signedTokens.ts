/**
 * Every token ARB signs for itself: HS256 JWTs with AUTH_SECRET (jose). A token is signed for one purpose, and the
 * purpose fixes the claims that tell the kinds apart (issuer, audience, `typ`), so a token is only ever accepted for
 * the purpose it was signed for: an OAuth state is not an unsubscribe link, an e-mail link is not a sign-in, a refresh
 * token is not an access token. A purpose matches a token only when all three agree exactly, a claim the purpose does
 * not use included (it must be absent).
 *
 * Each purpose keeps the claims its tokens carried before this module existed, so tokens already out there stay valid:
 * refresh tokens stored in browsers, and unsubscribe links in e-mails, which never expire.
 */
import { SignJWT, errors, jwtVerify, type JWTPayload } from 'jose';
import { env } from './env';

type Kind = { iss: string; aud?: string; typ?: string };

const KINDS = {
  /** Sign-in: 15-minute access tokens, the session's refresh token, billing-only tokens (server/auth/tokens.ts). */
  access: { iss: 'arb', typ: 'access' },
  refresh: { iss: 'arb', typ: 'refresh' },
  billing: { iss: 'arb', typ: 'billing' },
  /** The OAuth `state` that carries a connection through Slack or Discord (server/connect/state.ts). */
  oauth_state: { iss: 'arb-oauth', aud: 'oauth-state' },
  /** The links in e-mails (server/subscriptions/tokens.ts). */
  email_unsubscribe: { iss: 'arb-email', aud: 'unsubscribe' },
  email_digest: { iss: 'arb-email', aud: 'digest' },
  email_confirm: { iss: 'arb-email', aud: 'confirm' },
  email_destination: { iss: 'arb-email', aud: 'destination' },
  email_weekly: { iss: 'arb-email', aud: 'weekly' },
  /** The httpOnly cookie naming the connections this browser made without an account (server/monitor/anonymous.ts). */
  connect_claim: { iss: 'arb-connect', aud: 'claim' },
  /** A one-time "Link your Slack account" link, sent to the Slack user who clicked Reply (server/slack/links.ts). */
  slack_link: { iss: 'arb-slack', aud: 'slack-link' },
} as const satisfies Record<string, Kind>;

export type TokenPurpose = keyof typeof KINDS;
export const TOKEN_PURPOSES = Object.keys(KINDS) as TokenPurpose[];

const key = () => new TextEncoder().encode(env().AUTH_SECRET);
export const nowSeconds = () => Math.floor(Date.now() / 1000);

export type SignOptions = {
  subject?: string;
  /** Unix seconds; null: the token never expires (unsubscribe links). */
  expiresAt: number | null;
  /** Unix seconds, by default now (tests make tokens that are already expired). */
  issuedAt?: number;
};

/** `claims` are the purpose's own; `iss`, `aud` and `typ` come from the purpose and cannot be overridden by them. */
export function signToken(purpose: TokenPurpose, claims: JWTPayload, options: SignOptions): Promise<string> {
  const kind: Kind = KINDS[purpose];
  const { iss: _iss, aud: _aud, typ: _typ, ...own } = claims;
  let jwt = new SignJWT(kind.typ ? { ...own, typ: kind.typ } : own)
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer(kind.iss)
    .setIssuedAt(options.issuedAt ?? nowSeconds());
  if (kind.aud) jwt = jwt.setAudience(kind.aud);
  if (options.subject !== undefined) jwt = jwt.setSubject(options.subject);
  if (options.expiresAt !== null) jwt = jwt.setExpirationTime(options.expiresAt);
  return jwt.sign(key());
}

function matches(kind: Kind, claims: JWTPayload): boolean {
  return claims.iss === kind.iss && claims.aud === kind.aud && claims.typ === kind.typ;
}

export type VerifiedToken<P extends TokenPurpose> = { ok: true; purpose: P; claims: JWTPayload } | { ok: false; expired: boolean };

/**
 * Checks signature, algorithm and expiry, then that the token was signed for one of `purposes` (which one is in the
 * answer). `expired` tells a token that was valid once from one that never was, for the message the caller shows.
 */
export async function verifyToken<P extends TokenPurpose>(token: string, purposes: P | readonly P[]): Promise<VerifiedToken<P>> {
  const list: readonly P[] = typeof purposes === 'string' ? [purposes] : purposes;
  let claims: JWTPayload;
  try {
    ({ payload: claims } = await jwtVerify(token, key(), { algorithms: ['HS256'] }));
  } catch (err) {
    // Expired, but only said so for a token of the purposes asked for: any other token was never valid here.
    return { ok: false, expired: err instanceof errors.JWTExpired && list.some((p) => matches(KINDS[p], err.payload)) };
  }
  const purpose = list.find((p) => matches(KINDS[p], claims));
  return purpose ? { ok: true, purpose, claims } : { ok: false, expired: false };
}
