import type { Kysely } from 'kysely';
import { sql } from 'kysely';

// Housekeeping of the review outbox (server/monitor/README.md "Retention and parked messages"):
// - deliveries.interrupted_sends: how many attempts in a row before the latest one ended with no outcome recorded
//   (the worker stopped while sending: deliveryMarks.ts counts it when it marks the next attempt). A message whose
//   sending was interrupted PARK_AFTER_INTERRUPTIONS times in a row is parked (status 'parked', with its reason) instead
//   of being sent again: it may be what stops the worker.
// - deliveries_parked_idx: a destination's parked messages, for its status (few rows: an index of almost nothing).
// - destinations.delivered_pruned: the delivered messages the retention deleted, so "messages delivered" on the
//   status keeps counting them.
// - an index for the pruning of unconfirmed e-mail destinations, which reads only the pending ones.
// Adding a column with a constant default rewrites nothing (PostgreSQL 11+), and the column is in no index: the
// marks' row updates stay in place (HOT).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('deliveries').addColumn('interrupted_sends', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await sql`create index deliveries_parked_idx on deliveries (destination_id) where status = 'parked'`.execute(db);
  await db.schema.alterTable('destinations').addColumn('delivered_pruned', 'bigint', (c) => c.notNull().defaultTo(sql`0`)).execute();
  await sql`create index destinations_pending_confirmation_idx on destinations (created_at) where status = 'pending_confirmation'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists destinations_pending_confirmation_idx`.execute(db);
  await db.schema.alterTable('destinations').dropColumn('delivered_pruned').execute();
  await sql`drop index if exists deliveries_parked_idx`.execute(db);
  await sql`update deliveries set status = 'failed' where status = 'parked'`.execute(db);
  await db.schema.alterTable('deliveries').dropColumn('interrupted_sends').execute();
}
