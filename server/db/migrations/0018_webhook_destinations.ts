import { sql, type Kysely } from 'kysely';

// Signed webhook destinations: each has its own signing secret (`whsec_…`), encrypted at rest like the webhook URL
// (server/crypto.ts). Null for every other platform.
//
// Per-app review counters (app_review_stats: how many reviews, the sum of their ratings), kept by statement-level
// triggers on reviews, in the same transaction as the change: the apps lists (dashboard, public API) read the count
// and the average rating from one row instead of counting an app's reviews on every call (a million reviews: ~120 ms
// on PostgreSQL, ~230 ms on PGlite). Statement-level with transition tables, so a poll's batch insert costs one
// upsert per app, not one per review. No foreign key: an app's reviews are deleted by cascade with the app, and the
// delete trigger must still be able to write its row.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('destinations').addColumn('signing_secret_enc', 'text').execute();

  await sql`create table app_review_stats (
    app_key text primary key,
    review_count bigint not null default 0,
    rating_sum bigint not null default 0
  )`.execute(db);
  await sql`insert into app_review_stats (app_key, review_count, rating_sum)
            select app_key, count(*), sum(rating) from reviews group by app_key`.execute(db);

  await sql`create function app_review_stats_add() returns trigger language plpgsql as $$
    begin
      insert into app_review_stats as s (app_key, review_count, rating_sum)
        select app_key, count(*), sum(rating) from new_rows group by app_key
        on conflict (app_key) do update set review_count = s.review_count + excluded.review_count, rating_sum = s.rating_sum + excluded.rating_sum;
      return null;
    end $$`.execute(db);
  await sql`create function app_review_stats_remove() returns trigger language plpgsql as $$
    begin
      update app_review_stats s set review_count = s.review_count - d.n, rating_sum = s.rating_sum - d.total
        from (select app_key, count(*) as n, sum(rating) as total from old_rows group by app_key) d
       where s.app_key = d.app_key;
      return null;
    end $$`.execute(db);
  // An edit changes a rating (or, in principle, which app a review belongs to): the difference per app.
  await sql`create function app_review_stats_change() returns trigger language plpgsql as $$
    begin
      insert into app_review_stats as s (app_key, review_count, rating_sum)
        select app_key, sum(n), sum(total) from (
          select app_key, -count(*) as n, -sum(rating) as total from old_rows group by app_key
          union all
          select app_key, count(*), sum(rating) from new_rows group by app_key) d
         group by app_key
        having sum(n) <> 0 or sum(total) <> 0
        on conflict (app_key) do update set review_count = s.review_count + excluded.review_count, rating_sum = s.rating_sum + excluded.rating_sum;
      return null;
    end $$`.execute(db);
  await sql`create trigger reviews_stats_insert after insert on reviews referencing new table as new_rows
            for each statement execute function app_review_stats_add()`.execute(db);
  await sql`create trigger reviews_stats_delete after delete on reviews referencing old table as old_rows
            for each statement execute function app_review_stats_remove()`.execute(db);
  await sql`create trigger reviews_stats_update after update on reviews referencing old table as old_rows new table as new_rows
            for each statement execute function app_review_stats_change()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists reviews_stats_insert on reviews`.execute(db);
  await sql`drop trigger if exists reviews_stats_delete on reviews`.execute(db);
  await sql`drop trigger if exists reviews_stats_update on reviews`.execute(db);
  await sql`drop function if exists app_review_stats_add()`.execute(db);
  await sql`drop function if exists app_review_stats_remove()`.execute(db);
  await sql`drop function if exists app_review_stats_change()`.execute(db);
  await sql`drop table if exists app_review_stats`.execute(db);
  await sql`alter table destinations drop column if exists signing_secret_enc`.execute(db);
}
