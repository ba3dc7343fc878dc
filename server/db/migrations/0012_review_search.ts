import { sql, type Kysely } from 'kysely';

// The review inbox: full-text search over title + body, and the indexes its pages read by.
//
// - search_vector: a stored generated column with the 'simple' configuration (lower-cased words, no stemming and no
//   stop words), so a search finds the words of every language alike; a GIN index serves `@@`.
// - (app_key, updated_at desc, id desc) exists since 0002 (reviews_app_recent_idx): the inbox reads each app's newest
//   reviews from it and merges the apps (server/reviews/data.ts).
// - reviews_app_rating_recent_idx: the same order per app and star rating, for the rating filter (each app × rating
//   is read newest first and merged), and for the apps list's average and counts (an index-only scan).
// - reviews_app_country_recent_idx: the same per app and country, for the country filter.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table reviews add column search_vector tsvector
              generated always as (to_tsvector('simple', coalesce(title, '') || ' ' || body)) stored`.execute(db);
  await sql`create index reviews_search_idx on reviews using gin (search_vector)`.execute(db);
  await sql`create index reviews_app_rating_recent_idx on reviews (app_key, rating, updated_at desc, id desc)`.execute(db);
  await sql`create index reviews_app_country_recent_idx on reviews (app_key, country, updated_at desc, id desc)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const i of ['reviews_app_country_recent_idx', 'reviews_app_rating_recent_idx', 'reviews_search_idx']) await db.schema.dropIndex(i).ifExists().execute();
  await sql`alter table reviews drop column if exists search_vector`.execute(db);
}
