import type { Kysely } from 'kysely';

// When a source last answered in a shape we could not read (a store format change: a page with entries but no
// readable review). A format error is current while it is newer than the source's last successful poll; a later
// success ends it without anyone clearing the column. /api/health counts the current ones (across every process, which
// the in-memory counters cannot), and the public destination status tells the app's owner in plain words.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('monitored_sources').addColumn('format_error_at', 'timestamptz').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('monitored_sources').dropColumn('format_error_at').execute();
}
