import { sql, type Kysely } from 'kysely';

// An app's ratings and trends (server/stats/data.ts) read its reviews of a span of days and group them by day or
// week, star rating, version and country: this index holds every column that pass reads, so it can be answered from
// the index alone instead of visiting tens of thousands of table rows.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index reviews_app_stats_idx on reviews (app_key, updated_at) include (rating, app_version, country, sentiment)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('reviews_app_stats_idx').ifExists().execute();
}
