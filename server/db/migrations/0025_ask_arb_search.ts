import { sql, type Kysely } from 'kysely';

// Ask ARB's reads (server/askArb/data.ts). Full-text retrieval uses 0012's search_vector and its GIN index as they are.
// What it adds: one app version's figures over all of an app's reviews ("average rating of version 2.3 in Germany")
// read that version's index entries, not every review of the app. The version is compared byte-wise (collate "C"),
// so a version and its sub-versions (2.3, 2.3.1…) are one range ['2.3', '2.3/') whatever the database's collation
// (PGlite and PostgreSQL alike); the included columns are the other filters and the rating, so the read stays in the
// index.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index reviews_app_version_idx on reviews (app_key, app_version collate "C", updated_at desc)
              include (rating, country, sentiment)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('reviews_app_version_idx').ifExists().execute();
}
