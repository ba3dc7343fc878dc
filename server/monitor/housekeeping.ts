/**
 * The review outbox's housekeeping, run by periodic jobs (housekeepingJobs.ts) and by tests directly:
 *  - delivered messages older than the retention are deleted (retention.ts says which rows must stay to stop a
 *    repeat: welcome intros, and everything not delivered — open, failed, parked);
 *  - e-mail destinations whose address never confirmed are deleted once their confirmation link has expired.
 * Both delete in short statements (a batch of rows, a short pause between) so no lock is held for long and the engine's
 * own statements keep their pace.
 */
import { sql } from 'kysely';
import type { DB } from '../db/client';
import { msInterval } from '../db/interval';
import { EMAIL_TOKEN_TTL_SECONDS } from '../subscriptions/tokens';
import { deleteDestinationsLocked } from './destinationDelete';
import { deliveryRetentionMs } from './retention';

/** Rows one statement looks at (by primary key) and deletes at most. */
export const PRUNE_BATCH = 1000;
/** Between two statements: lets the engine's statements in, and spreads the I/O. */
export const PRUNE_PAUSE_MS = 50;

export type PruneOptions = { batch?: number; pauseMs?: number; retentionMs?: number };
export type PruneResult = { deleted: number; statements: number };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * One step: the next `batch` deliveries after `after` by id, and of them those delivered (not welcome intros) before
 * the retention, deleted. The rows are read by primary key — no index on age or status needed, and a statement touches
 * at most `batch` rows. Ids grow with time, so the walk ends at the first batch made entirely after the cutoff. Each
 * destination's count of what was deleted goes on its row in the same statement (its status still counts them).
 */
async function pruneStep(db: DB, after: string, batch: number, retentionMs: number) {
  const cutoff = sql`now() - ${msInterval(retentionMs)}`;
  const r = await sql<{ last_id: string | null; scanned: number; deleted: number; all_recent: boolean | null }>`
    with win as (
      select id, status, kind, created_at from deliveries where id > ${after}::bigint order by id limit ${batch}),
    gone as (
      delete from deliveries x using win
       where x.id = win.id and win.status = 'delivered' and win.kind <> 'welcome' and win.created_at < ${cutoff}
      returning x.destination_id),
    counted as (
      update destinations d set delivered_pruned = d.delivered_pruned + g.n
        from (select destination_id, count(*) as n from gone group by destination_id) g
       where d.id = g.destination_id)
    select (select max(id) from win)::text as last_id, (select count(*) from win)::int as scanned,
           (select count(*) from gone)::int as deleted, (select bool_and(created_at >= ${cutoff}) from win) as all_recent`.execute(db);
  return r.rows[0];
}

/** Deletes the delivered messages older than the retention (DELIVERY_RETENTION_DAYS), a batch per statement. */
export async function pruneDeliveredMessages(db: DB, opts: PruneOptions = {}): Promise<PruneResult> {
  const batch = opts.batch ?? PRUNE_BATCH;
  const retentionMs = opts.retentionMs ?? deliveryRetentionMs();
  let after = '0';
  let deleted = 0;
  let statements = 0;
  for (;;) {
    const step = await pruneStep(db, after, batch, retentionMs);
    statements++;
    deleted += step.deleted;
    if (step.scanned < batch || step.all_recent || step.last_id === null) break;
    after = step.last_id;
    await sleep(opts.pauseMs ?? PRUNE_PAUSE_MS);
  }
  return { deleted, statements };
}

/**
 * How long after its last confirmation e-mail (or its creation) a pending e-mail destination is kept: the link's
 * validity and a day, so a link clicked in its last minute still finds its destination.
 */
export function unconfirmedKeepMs(): number {
  return ((EMAIL_TOKEN_TTL_SECONDS.destination ?? 48 * 3600) + 24 * 3600) * 1000;
}

/**
 * Deletes the e-mail destinations still waiting for their mailbox whose confirmation link has expired (with a day's
 * margin): nothing was ever sent to them but that one e-mail, and asking again makes a new one. Each is deleted under
 * its apps' locks, and only if it is still pending then (a click at that moment wins).
 */
export async function pruneUnconfirmedEmailDestinations(db: DB, opts: { batch?: number; keepMs?: number } = {}): Promise<number> {
  const keep = msInterval(opts.keepMs ?? unconfirmedKeepMs());
  const stale = sql<boolean>`status = 'pending_confirmation' and greatest(created_at, coalesce(confirmation_sent_at, created_at)) < now() - ${keep}`;
  let deleted = 0;
  for (;;) {
    const rows = await db.selectFrom('destinations').select('id').where(stale).orderBy('created_at').limit(opts.batch ?? 100).execute();
    if (rows.length === 0) return deleted;
    const gone = [];
    for (const { id } of rows) gone.push(...(await deleteDestinationsLocked(db, [id], stale)));
    deleted += gone.length;
    if (gone.length === 0) return deleted; // all confirmed meanwhile: the next run looks again
  }
}
