/**
 * Leases on rows that any number of processes work at once (the e-mail outbox and digests, the replies outbox,
 * pending AI summaries, periodic jobs' job_runs). A row is held while its lease column lies in the future; a holder
 * that dies mid-work frees it when the lease runs out, with nothing to clean up. The shape is graphile-worker's
 * (src/sql/getJobs.ts, completeJobs.ts): a claim is ONE update of rows whose lease ran out — picked FOR UPDATE SKIP
 * LOCKED when it takes several, so concurrent claimers take different rows without waiting for each other — that sets
 * the lease and returns them; completing writes the outcome and clears the lease, guarded so that only the holder may.
 * The delivery engine's claims (server/monitor: sources.ts, deliveryWorker.ts) are tuned on their own and stay there.
 */
import { sql, type RawBuilder } from 'kysely';
import { msInterval } from './interval';

/** Nobody holds the row: its lease column (`lease_until`, `running_until`, `replies.lease_until`, …) is empty or past. */
export function leaseRanOut(column = 'lease_until'): RawBuilder<boolean> {
  const c = sql.ref(column);
  return sql<boolean>`(${c} is null or ${c} < now())`;
}

/** The same for a column that records when the row was taken (`claimed_at`): the lease ends `heldMs` after it. */
export function leaseTakenAtRanOut(column: string, heldMs: number): RawBuilder<boolean> {
  const c = sql.ref(column);
  return sql<boolean>`(${c} is null or ${c} < now() - ${msInterval(heldMs)})`;
}

/** The end of a lease of `ms` taken now (database time): `set lease_until = ${leaseEnd(ms)}`. */
export function leaseEnd(ms: number): RawBuilder<Date> {
  return sql<Date>`now() + ${msInterval(ms)}`;
}

/**
 * Claims up to `limit` rows of `table` that match `where` (which says when a row is due and free), the first by
 * `orderBy`: one update sets `set` on them and returns `returning`. `alias` names the updated row in `set` and
 * `returning`. The rows are picked FOR UPDATE SKIP LOCKED: a row another claim is taking is skipped, not waited for,
 * and `where` is all that makes a row claimable (a lease test belongs in it). Usable as a CTE (`with claimed as (…)`).
 */
export function claimRows<Row>(q: {
  table: string;
  alias: string;
  key: string;
  set: RawBuilder<unknown>;
  where: RawBuilder<unknown>;
  orderBy: RawBuilder<unknown>;
  limit: number;
  returning: RawBuilder<unknown>;
}): RawBuilder<Row> {
  const key = sql.ref(q.key);
  return sql<Row>`
    update ${sql.table(q.table)} ${sql.id(q.alias)}
       set ${q.set}
     where ${sql.ref(`${q.alias}.${q.key}`)} in (
       select ${key} from ${sql.table(q.table)}
        where ${q.where}
        order by ${q.orderBy}
        limit ${q.limit}
        for update skip locked)
    returning ${q.returning}`;
}
