/**
 * Anonymous connections — made from the public site without signing in — are bounded in time: a chat connection runs
 * ANONYMOUS_CONNECTION_DAYS (30 by default), then pauses with a reason its public status shows. Signing in with the
 * e-mail address the connection was made with claims it (claimAnonymousConnections, called from the sign-in path):
 * it joins the owner's organisation, never expires, and resumes at once if it had paused. Connecting the same webhook
 * again also resumes it, for another period. E-mail destinations are not timed: the address itself confirms them.
 */
import type { DB } from '../db/client';
import { env } from '../env';
import { adoptDestinations, appKeysOfDestinations, lockAnonymousByEmail, pauseExpiredAnonymous, resumeDestinations } from './data';
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

/**
 * The anonymous connections made with this address join the organisation: no expiry any more, and those the engine
 * paused (their time ran out, or a receiver that only answered 429) resume. Returns their apps (to poll again).
 */
export async function claimConnections(db: DB, input: { orgId: string; email: string }): Promise<{ claimed: number; ids: string[]; appKeys: string[] }> {
  const email = input.email.trim().toLowerCase();
  return db.transaction().execute(async (trx) => {
    const rows = await lockAnonymousByEmail(trx, email);
    if (rows.length === 0) return { claimed: 0, ids: [], appKeys: [] };
    const ids = rows.map((r) => r.id);
    await adoptDestinations(trx, ids, input.orgId);
    await resumeDestinations(trx, rows.filter((r) => isEnginePause(r.status, r.disabled_cause)).map((r) => r.id));
    return { claimed: rows.length, ids, appKeys: await appKeysOfDestinations(trx, ids) };
  });
}
