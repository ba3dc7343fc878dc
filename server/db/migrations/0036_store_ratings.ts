import { sql, type Kysely } from 'kysely';

// The stores' own rating of each watched app, one snapshot a day per storefront (server/storeRatings/README.md):
// App Store: the iTunes lookup's `averageUserRating` / `userRatingCount` for that country; Google Play: the details
// page's worldwide score, ratings count and 1–5 histogram, stored under the source's country. `rating` and
// `ratings_count` are null when the store shows none (an app without ratings in a storefront). One row per app,
// country and UTC day: a second fetch on the same day overwrites it; a day without a fetch has no row (a gap in the
// history, never interpolated). The (app_key, day) index serves the reads: an app's latest day (one probe) and its
// range of days, whatever the number of storefronts, from the index alone (it carries the figures the reads return).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('store_rating_snapshots')
    .addColumn('app_key', 'text', (c) => c.notNull().references('apps.key').onDelete('cascade'))
    .addColumn('country', 'text', (c) => c.notNull())
    .addColumn('day', 'date', (c) => c.notNull())
    .addColumn('rating', 'double precision')
    .addColumn('ratings_count', 'bigint')
    .addColumn('histogram', 'jsonb')
    .addColumn('fetched_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('store_rating_snapshots_pkey', ['app_key', 'country', 'day'])
    .execute();
  await sql`create index store_rating_snapshots_app_day_idx on store_rating_snapshots (app_key, day) include (country, rating, ratings_count, fetched_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('store_rating_snapshots').ifExists().execute();
}
