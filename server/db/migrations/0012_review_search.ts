import { sql, type Kysely } from 'kysely';

// The review inbox: full-text search over title + body, and the indexes its pages read by.
//
// - search_vector: a stored generated column with the 'simple' configuration (lower-cased words, no stemming and no
//   stop words), so a search finds the words of every language alike; a GIN index serves `@@`.
// - replied: a stored generated flag (reply_text is not null), so the replied filter can be read from an index.
// - reviews_inbox_idx (app_key, updated_at desc, id desc) replaces 0002's reviews_app_recent_idx (same key, so every
//   query that used it uses this one) and carries the filter columns (INCLUDE): the inbox reads each app's newest
//   reviews from it and checks rating, country, language, sentiment and replied in the index, without visiting the
//   table, so even a filter that matches nothing costs index entries, not rows (server/reviews/data.ts). It carries
//   app_version too: an app's ratings and trends (server/stats/data.ts) group a span of its reviews by day, rating,
//   version and country from this index alone.
// - the same per app and star rating, and per app and country, for those filters (each app × rating or × country is
//   read newest first and merged).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table reviews add column search_vector tsvector
              generated always as (to_tsvector('simple', coalesce(title, '') || ' ' || body)) stored`.execute(db);
  await sql`alter table reviews add column replied boolean generated always as (reply_text is not null) stored`.execute(db);
  await sql`create index reviews_search_idx on reviews using gin (search_vector)`.execute(db);
  await sql`create index reviews_inbox_idx on reviews (app_key, updated_at desc, id desc)
              include (rating, country, language, sentiment, replied, app_version)`.execute(db);
  await sql`drop index if exists reviews_app_recent_idx`.execute(db);
  await sql`create index reviews_app_rating_recent_idx on reviews (app_key, rating, updated_at desc, id desc)
              include (country, language, sentiment, replied)`.execute(db);
  await sql`create index reviews_app_country_recent_idx on reviews (app_key, country, updated_at desc, id desc)
              include (rating, language, sentiment, replied)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const i of ['reviews_app_country_recent_idx', 'reviews_app_rating_recent_idx', 'reviews_inbox_idx', 'reviews_search_idx']) {
    await db.schema.dropIndex(i).ifExists().execute();
  }
  await sql`create index if not exists reviews_app_recent_idx on reviews (app_key, updated_at desc, id desc)`.execute(db);
  await sql`alter table reviews drop column if exists replied`.execute(db);
  await sql`alter table reviews drop column if exists search_vector`.execute(db);
}
