/**
 * Anonymous connections — made from the public site without signing in — are bounded in time: a chat connection runs
 * ANONYMOUS_CONNECTION_DAYS (30 by default), then pauses with a reason its public status shows. Connecting the same
 * webhook again resumes it, for another period. E-mail destinations are not timed: the address itself confirms them.
 *
 * Signing in claims a connection (claimAnonymousConnections, called from the sign-in path: it joins the organisation,
 * never expires, and resumes at once if it had paused) only with proof that it is that person's, never because an
 * address typed into the connect payload matches:
 *   - the browser that made it: each anonymous connect sets an httpOnly cookie holding a signed token of the
 *     connections it made (claimToken; server/connect/claimCookie.ts sets and reads the cookie), and the sign-in
 *     sends it back;
 *   - for an e-mail destination, its confirmation link: the mailbox confirmed it (confirmed_at), and signing in with
 *     that very address proves the same mailbox again.
 */
import type { DB } from '../db/client';
import { env } from '../env';
import { nowSeconds, signToken, verifyToken } from '../signedTokens';
import { adoptDestinations, anonymousProved, appKeysOfDestinations, pauseExpiredAnonymous, resumeDestinations, type ProvedBy } from './data';
import { anonymousExpiryReason, isEnginePause } from './pauses';

/** When a connection made now without an account pauses; null for e-mail destinations and signed-in owners. */
export function anonymousExpiry(orgId: string | null, platform: string): Date | null {
  if (orgId || platform === 'email') return null;
  return new Date(Date.now() + env().ANONYMOUS_CONNECTION_DAYS * 86400_000);
}

/** Pauses the anonymous connections whose time is up; returns how many. */
export async function pauseExpiredAnonymousConnections(db: DB): Promise<number> {
  return pauseExpiredAnonymous(db, anonymousExpiryReason(env().ANONYMOUS_CONNECTION_DAYS));
}

/** At most this many connections are named by one browser's claim cookie (the latest kept). */
export const CLAIM_TOKEN_MAX_CONNECTIONS = 20;

const DESTINATION_ID = /^dst_[0-9A-Za-z]{24}$/;

/** The connections a claim token names (none when it is missing, altered, expired or not a claim token). */
export async function connectionsInClaimToken(token: string | null | undefined): Promise<string[]> {
  if (!token) return [];
  const checked = await verifyToken(token, 'connect_claim');
  if (!checked.ok || !Array.isArray(checked.claims.dst)) return [];
  return checked.claims.dst.filter((id): id is string => typeof id === 'string' && DESTINATION_ID.test(id));
}

/** Days a claim token (and its cookie) lasts: the connection's time, and 60 days after it paused for lack of an owner. */
export const claimTokenDays = () => env().ANONYMOUS_CONNECTION_DAYS + 60;

/**
 * A claim token naming `ids` (and the connections of `previous`, a claim token the browser already holds), so a
 * sign-in in this browser finds what it made while the connections run, and for a while after they paused.
 */
export async function claimToken(ids: string[], previous?: string | null): Promise<string> {
  const all = [...new Set([...(await connectionsInClaimToken(previous)), ...ids])].slice(-CLAIM_TOKEN_MAX_CONNECTIONS);
  return signToken('connect_claim', { dst: all }, { expiresAt: nowSeconds() + claimTokenDays() * 86_400 });
}

/**
 * The anonymous connections proved to be the signing-in person's: those the browser's claim token names, and the
 * e-mail destinations of the signed-in address that its mailbox confirmed. Still-anonymous ones only.
 */
export async function provedConnections(db: DB, proof: ProvedBy): Promise<string[]> {
  return (await anonymousProved(db, proof)).map((r) => r.id);
}

/**
 * The proved anonymous connections join the organisation: no expiry any more, and those the engine paused (their
 * time ran out, or a receiver that only answered 429) resume. Returns their apps (to poll again).
 */
export async function claimConnections(db: DB, input: { orgId: string } & ProvedBy): Promise<{ claimed: number; ids: string[]; appKeys: string[] }> {
  return db.transaction().execute(async (trx) => {
    const rows = await anonymousProved(trx, input, { forUpdate: true });
    if (rows.length === 0) return { claimed: 0, ids: [], appKeys: [] };
    const ids = rows.map((r) => r.id);
    await adoptDestinations(trx, ids, input.orgId);
    await resumeDestinations(trx, rows.filter((r) => isEnginePause(r.status, r.disabled_cause)).map((r) => r.id));
    return { claimed: rows.length, ids, appKeys: await appKeysOfDestinations(trx, ids) };
  });
}
