/**
 * The delivery worker's writes while it holds destinations — "this delivery is being sent" (committed BEFORE its HTTP
 * call), "the previous one was delivered", "the destination is given back" — grouped across every destination this
 * process holds at the moment (grouped.ts): one statement, one commit, for all the marks waiting at that moment.
 *
 * Why: each destination sends one message at a time, and each message needs one committed write before it may go out.
 * Written one by one, that is a statement per message: on PGlite, a single in-process connection with a fixed cost of
 * about a millisecond per statement, those were most of the engine's CPU; on PostgreSQL, a round trip and a server
 * wake-up per message. Grouped, the cost per message falls as the worker gets busier.
 *
 * What does not change (server/monitor/README.md §7, §10): a message's 'sending' mark — its attempt counted,
 * `last_attempt_at` set — is committed before its HTTP call starts (the caller awaits it); the previous success of the
 * same destination rides in that same statement; a 'sending' mark is only written, and a destination only given back,
 * while its lease is still this worker's. The groups of two workers touch disjoint destinations (leases), so they do
 * not wait on each other's row locks.
 *
 * The mark leaves the delivery's status as it is (pending or retry): an attempt with no outcome recorded after it is
 * one whose `last_attempt_at` is at or after its `next_attempt_at` (an outcome either closes the delivery or sets a
 * later `next_attempt_at`), which the queue read reports as `interrupted`. Changing the status would change a column
 * of the open-queue indexes' predicate, so every mark wrote four index entries; left alone, PostgreSQL can update the
 * row in place (a HOT update): in bench/deliver.ts the marks' statements spent ~30 % less time in the database.
 *
 * The same statement counts interruptions in a row (`interrupted_sends`, not indexed: the update stays in place): an
 * attempt marked while the previous one has no outcome adds one, any other resets it. The worker parks a message
 * interrupted PARK_AFTER_INTERRUPTIONS times in a row instead of sending it again (deliveryWorker.ts).
 */
import { sql } from 'kysely';
import type { DB } from '../db/client';
import { msInterval } from '../db/interval';
import { INTERRUPTED, OPEN } from './deliveryStatus';
import { grouped } from './grouped';
import { PREPARED } from '../db/preparedStatements';

/** A success not recorded yet: the delivery and the HTTP status it got. */
export type Delivered = { id: number; status: number };

export type DeliveryMarks = {
  /**
   * Commits the start of an attempt to send `deliveryId` (attempt counted, lease renewed), together with the
   * destination's previous success when given. Resolves false — nothing marked — when the lease is no longer ours;
   * `previous` is recorded either way.
   */
  sending(destinationId: string, deliveryId: number, previous: Delivered | null): Promise<boolean>;
  /** Records a success on its own: before the destination waits (pace, backoff, a refusal's record). */
  delivered(destinationId: string, d: Delivered): Promise<void>;
  /**
   * Gives the destination back (if still ours) with its pace timestamp, not to be claimed again before `notBefore`
   * (ms; null = now), recording its last success in the same statement.
   */
  release(destinationId: string, previous: Delivered | null, paceTat: number | null, notBefore: number | null): Promise<void>;
};

type Mark = {
  destinationId: string;
  /** The delivery to mark 'sending', if any. */
  send: number | null;
  done: Delivered | null;
  release: { paceTat: number | null; notBefore: number | null } | null;
};

type Column = { name: string; type: string; of: (m: Mark) => unknown };
const at = (ms: number | null | undefined) => (ms === null || ms === undefined ? null : new Date(ms).toISOString());
const COLUMNS = {
  dest: { name: 'dest', type: 'text', of: (m) => m.destinationId },
  send: { name: 'send_id', type: 'bigint', of: (m) => m.send },
  done: { name: 'done_id', type: 'bigint', of: (m) => m.done?.id ?? null },
  doneStatus: { name: 'done_status', type: 'int', of: (m) => m.done?.status ?? null },
  release: { name: 'release', type: 'boolean', of: (m) => m.release !== null },
  paceTat: { name: 'pace_tat', type: 'timestamptz', of: (m) => at(m.release?.paceTat) },
  notBefore: { name: 'not_before', type: 'timestamptz', of: (m) => at(m.release?.notBefore) },
} satisfies Record<string, Column>;

/**
 * The group's marks as a row source `r` with these columns. A lone mark (the common case on a quiet worker) is written
 * inline, which the planner treats as constants; a group is unnested from one array per column. (A shared CTE of the
 * rows would be simpler to read, but costs a third more per statement on both databases.)
 */
function rowsOf(marks: Mark[], ...columns: Column[]) {
  if (marks.length === 1) {
    return sql`(select ${sql.join(columns.map((c) => sql`${c.of(marks[0])}::${sql.raw(c.type)} as ${sql.ref(c.name)}`))}) r`;
  }
  const arrays = columns.map((c) => sql`${marks.map(c.of)}::${sql.raw(c.type)}[]`);
  return sql`unnest(${sql.join(arrays)}) as r(${sql.join(columns.map((c) => sql.ref(c.name)))})`;
}

/**
 * One statement for a group of marks (one per destination; a statement may update a row only once). Each destination
 * row is updated by one of two parts — kept (lease renewed) or given back — and only while its lease is ours, except
 * that a success is recorded on it (last_delivery_at) even when the lease was lost meanwhile: the status page should
 * still say when the last message arrived. The parts a group doesn't need are left out (planning them costs more than
 * running them). Resolves, per mark, whether its 'sending' mark was written.
 */
async function writeMarks(db: DB, workerId: string, leaseMs: number, marks: Mark[]): Promise<boolean[]> {
  const C = COLUMNS;
  const rows = (...columns: Column[]) => rowsOf(marks, ...columns);
  const lease = msInterval(leaseMs);
  const ours = sql`d.lease_owner = ${workerId}`;
  /** `value` when the lease is ours, the column unchanged otherwise. */
  const ifOurs = (column: string, value: ReturnType<typeof sql>) => sql`case when ${ours} then ${value} else d.${sql.ref(column)} end`;
  const success = sql`last_delivery_at = case when r.done_id is not null then now() else d.last_delivery_at end,
                      consecutive_failures = case when r.done_id is not null then 0 else d.consecutive_failures end`;
  const anyDone = marks.some((m) => m.done);
  const anyRelease = marks.some((m) => m.release);
  const r = await sql<{ id: number | string }>`${PREPARED}
    with
    ${anyDone ? sql`done as (
      update deliveries x set status = 'delivered', delivered_at = now(), last_status = r.done_status, last_error = null
        from ${rows(C.done, C.doneStatus)}
       where r.done_id is not null and x.id = r.done_id),` : sql``}
    ${anyRelease ? sql`given_back as (
      update destinations d
         set lease_owner = ${ifOurs('lease_owner', sql`null`)}, lease_until = ${ifOurs('lease_until', sql`null`)},
             pace_tat = ${ifOurs('pace_tat', sql`r.pace_tat`)},
             next_send_at = ${ifOurs('next_send_at', sql`greatest(d.next_send_at, coalesce(r.not_before, now()))`)},
             ${success}
        from ${rows(C.dest, C.done, C.release, C.paceTat, C.notBefore)}
       where d.id = r.dest and r.release and (${ours} or r.done_id is not null)),` : sql``}
    kept as (
      update destinations d set lease_until = ${ifOurs('lease_until', sql`now() + ${lease}`)}, ${success}
        from ${rows(C.dest, C.done, C.release)}
       where d.id = r.dest and not r.release and (${ours} or r.done_id is not null)
      returning d.id, ${ours} as ours)
    update deliveries x
       set attempts = x.attempts + 1, last_attempt_at = now(),
           first_attempt_at = coalesce(x.first_attempt_at, now()), worker = ${workerId},
           interrupted_sends = case when ${INTERRUPTED('x')} then x.interrupted_sends + 1 else 0 end
      from ${rows(C.dest, C.send)}
     where x.id = r.send_id and x.status in ${OPEN} and exists (select 1 from kept where kept.id = r.dest and kept.ours)
    returning x.id`.execute(db);
  const marked = new Set(r.rows.map((row) => Number(row.id)));
  return marks.map((m) => m.send !== null && marked.has(m.send));
}

/** One per engine (or per drainDeliveries call), shared by the destinations it holds. */
export function createDeliveryMarks(db: DB, workerId: string, leaseMs: number): DeliveryMarks {
  const mark = grouped<Mark, boolean>((marks) => writeMarks(db, workerId, leaseMs, marks), (m) => m.destinationId);
  return {
    sending: (destinationId, deliveryId, previous) => mark({ destinationId, send: deliveryId, done: previous, release: null }),
    delivered: async (destinationId, d) => {
      await mark({ destinationId, send: null, done: d, release: null });
    },
    release: async (destinationId, previous, paceTat, notBefore) => {
      await mark({ destinationId, send: null, done: previous, release: { paceTat, notBefore } });
    },
  };
}
