/**
 * A million reviews for the benches that read them (bench/inbox.ts, bench/ask-arb-retrieval.ts; bench/scale.ts grows
 * them to 5,000,000 with addReviews): one organisation
 * with `apps` App Store apps (`apple_app_store__7100000` + n, titled "Bench app n"), bulk-inserted with
 * generate_series — every app alike, each with 8 countries, 10 languages, 5 ratings, 30 versions, a quarter replied,
 * one review every 20 seconds back from now (a million span ~231 days), words from a 40-word vocabulary plus rarer
 * ones (`rare0`…`rare4999`) — then migration 0012's columns and indexes built over them, vacuumed and analyzed.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../server/db/types';

/** The words reviews are made of: each in the title of 1 in 40 reviews and in the body of about 2 in 40. */
export const VOCABULARY = [
  'crash', 'sync', 'login', 'battery', 'great', 'love', 'slow', 'update', 'price', 'support', 'widget', 'dark', 'mode', 'backup',
  'export', 'ads', 'subscription', 'refund', 'bug', 'fast', 'design', 'simple', 'useful', 'broken', 'freeze', 'notification',
  'calendar', 'reminder', 'streak', 'habit', 'offline', 'cloud', 'icon', 'font', 'tablet', 'watch', 'privacy', 'account',
  'password', 'language',
];

export const benchAppKey = (n: number) => `apple_app_store__${7_100_000 + n}`;

export type MillionReviews = { orgId: string; userId: string; apps: number; reviews: number };

/** Loads the organisation, its apps and their reviews (see the top of the file). Run it on one connection. */
export async function seedMillionReviews(db: Kysely<Database>, o: MillionReviews): Promise<void> {
  const { sql } = await import('kysely');
  await db.insertInto('orgs').values({ id: o.orgId, name: 'Bench' }).execute();
  await db
    .insertInto('users')
    .values({ id: o.userId, email: 'bench@example.com', name: null, display_name: null, org_id: o.orgId, role: 'owner', utm_source: null, utm_medium: null, utm_campaign: null, referral: null, last_sign_in_at: null })
    .execute();
  for (let a = 0; a < o.apps; a++) {
    const key = benchAppKey(a);
    await db.insertInto('apps').values({ key, store: 'apple_app_store', app_id: String(7_100_000 + a), title: `Bench app ${a}`, icon_url: null, store_url: null, developer: null }).execute();
    await db.insertInto('org_apps').values({ org_id: o.orgId, app_key: key, countries: ['us'], added_by: o.userId, added_by_email: 'bench@example.com' }).execute();
  }
  // Loaded the way a database that grew before the inbox existed would be: the rows first, then migration 0012 (its
  // generated columns and indexes, built in bulk), then the statistics and visibility map a running server's
  // autovacuum keeps.
  const inboxMigration = await import('../../server/db/migrations/0012_review_search');
  await inboxMigration.down(db as never);
  await insertReviews(db, o, 1, o.reviews);
  await inboxMigration.up(db as never);
  await sql`vacuum analyze reviews`.execute(db);
}

/**
 * Reviews `from`…`to` of the series above (each next one 20 s older) for the apps of `seedMillionReviews`: a database
 * that holds 1…from−1 grows into its past (bench/scale.ts: 100,000 → 1,000,000 → 5,000,000). The reviews' indexes
 * other than their constraints' are dropped while the rows go in and built again after (as they are defined then,
 * whichever migrations made them), then vacuum analyze.
 */
export async function addReviews(db: Kysely<Database>, o: Pick<MillionReviews, 'apps'>, from: number, to: number): Promise<void> {
  const { sql } = await import('kysely');
  const indexes = await sql<{ name: string; definition: string }>`
    select i.indexname as name, i.indexdef as definition from pg_indexes i
     where i.schemaname = current_schema() and i.tablename = 'reviews'
       and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`.execute(db);
  for (const i of indexes.rows) await sql`drop index ${sql.id(i.name)}`.execute(db);
  await insertReviews(db, o, from, to);
  for (const i of indexes.rows) await sql.raw(i.definition).execute(db);
  await sql`vacuum analyze reviews`.execute(db);
}

async function insertReviews(db: Kysely<Database>, o: Pick<MillionReviews, 'apps'>, from: number, to: number): Promise<void> {
  const { sql } = await import('kysely');
  const vocabulary = sql.raw(`(array[${VOCABULARY.map((w) => `'${w}'`).join(',')}])`);
  // In slices, so PGlite's single connection never holds one enormous statement's work at once.
  const slice = 100_000;
  for (let start = from; start <= to; start += slice) {
    const end = Math.min(to, start + slice - 1);
    await sql`
      insert into reviews (app_key, store, store_review_id, country, language, author_name, title, body, rating, app_version,
                           updated_at, reply_text, reply_updated_at, sentiment)
      select 'apple_app_store__' || (7100000 + g % ${o.apps}), 'apple_app_store', 'bench-' || g,
             (array['us','gb','de','fr','jp','ca','au','br'])[1 + (i / 7) % 8],
             (array['en','en','de','fr','ja','en','en','pt','es','it'])[1 + (i / 3) % 10],
             'Author ' || (g % 50000),
             'Title ' || ${vocabulary}[1 + (i * 7 + i / 40) % 40],
             'This app ' || ${vocabulary}[1 + (i * 13 + i / 40 + 5) % 40] || ' and ' || ${vocabulary}[1 + (i * 17 + i / 80 + 11) % 40] || ' rare' || (i % 5000) || ' works',
             1 + (i * 3 + i / 5) % 5,
             '1.' || (i % 30),
             now() - g * interval '20 seconds',
             case when i % 4 = 0 then 'Thanks for the feedback' end,
             case when i % 4 = 0 then now() - g * interval '10 seconds' end,
             (array['positive','neutral','negative'])[1 + i % 3]
        from generate_series(${start}::int, ${end}::int) g, lateral (select g / ${o.apps} as i) row_in_app`.execute(db);
  }
}
