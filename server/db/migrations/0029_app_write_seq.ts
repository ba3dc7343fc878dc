import { sql, type Kysely } from 'kysely';

// A count of the writes to an app's reviews and subscriptions: every writer bumps it under the app's row lock
// (server/monitor/apps.ts lockApp, and the ingest's own lock). A poll with new reviews reads what it needs without
// the lock, then stores them in one statement that bumps the count only if it is still what it read — nobody wrote
// in between — and otherwise takes the locked path (server/monitor/ingest.ts).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('apps').addColumn('write_seq', 'bigint', (c) => c.notNull().defaultTo(sql`0`)).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('apps').dropColumn('write_seq').execute();
}
