import { sql, type Kysely } from 'kysely';

// The /dashboard overview (server/overview): per app and UTC day (the day the store last dated the review, updated_at,
// as the inbox and the stats count it), how many reviews, the sum of their ratings, how many are 1–2★, how many are
// unanswered (reply_text is null) and how many of those are 1–2★. Kept like app_review_stats (0018): statement-level
// triggers with transition tables on reviews, in the same transaction as the change, one upsert per app and day a
// statement touches. The overview then reads at most 60 rows per app instead of the ~13,000 index entries of a busy
// app's last 60 days (~100 ms for 20 apps at a million reviews on PostgreSQL, against ~2 ms). Rows are upserted in
// key order, so two statements touching the same days lock them in the same order. The functions read reply_text,
// not the generated `replied` (0012), which a bench drops while it bulk-loads.
//
// reviews_replied_idx: the replied reviews per app by the reply's date, with the review's dates, so the median time to
// reply of the last 30 days reads a partial index, not review rows.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table app_review_days (
    app_key text not null,
    day date not null,
    reviews integer not null default 0,
    rating_sum integer not null default 0,
    low integer not null default 0,
    unanswered integer not null default 0,
    unanswered_low integer not null default 0,
    primary key (app_key, day)
  )`.execute(db);
  await sql`insert into app_review_days (app_key, day, reviews, rating_sum, low, unanswered, unanswered_low)
            select app_key, (updated_at at time zone 'UTC')::date, count(*), sum(rating),
                   count(*) filter (where rating <= 2), count(*) filter (where reply_text is null),
                   count(*) filter (where reply_text is null and rating <= 2)
              from reviews group by 1, 2`.execute(db);

  // One function for the three statements: the difference per app and day between the new rows and the old ones.
  await sql`create function app_review_days_apply() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        insert into app_review_days as s (app_key, day, reviews, rating_sum, low, unanswered, unanswered_low)
          select app_key, (updated_at at time zone 'UTC')::date, count(*), sum(rating), count(*) filter (where rating <= 2),
                 count(*) filter (where reply_text is null), count(*) filter (where reply_text is null and rating <= 2)
            from new_rows group by 1, 2 order by 1, 2
          on conflict (app_key, day) do update set reviews = s.reviews + excluded.reviews, rating_sum = s.rating_sum + excluded.rating_sum,
             low = s.low + excluded.low, unanswered = s.unanswered + excluded.unanswered, unanswered_low = s.unanswered_low + excluded.unanswered_low;
      elsif tg_op = 'DELETE' then
        update app_review_days s set reviews = s.reviews - d.reviews, rating_sum = s.rating_sum - d.rating_sum, low = s.low - d.low,
               unanswered = s.unanswered - d.unanswered, unanswered_low = s.unanswered_low - d.unanswered_low
          from (select app_key, (updated_at at time zone 'UTC')::date as day, count(*) as reviews, sum(rating) as rating_sum,
                       count(*) filter (where rating <= 2) as low, count(*) filter (where reply_text is null) as unanswered,
                       count(*) filter (where reply_text is null and rating <= 2) as unanswered_low
                  from old_rows group by 1, 2 order by 1, 2) d
         where s.app_key = d.app_key and s.day = d.day;
      else
        insert into app_review_days as s (app_key, day, reviews, rating_sum, low, unanswered, unanswered_low)
          select app_key, day, sum(reviews), sum(rating_sum), sum(low), sum(unanswered), sum(unanswered_low) from (
            select app_key, (updated_at at time zone 'UTC')::date as day, -1 as reviews, -rating as rating_sum, -(rating <= 2)::int as low,
                   -(reply_text is null)::int as unanswered, -(reply_text is null and rating <= 2)::int as unanswered_low
              from old_rows
            union all
            select app_key, (updated_at at time zone 'UTC')::date, 1, rating, (rating <= 2)::int, (reply_text is null)::int,
                   (reply_text is null and rating <= 2)::int
              from new_rows) d
           group by 1, 2
          having sum(reviews) <> 0 or sum(rating_sum) <> 0 or sum(low) <> 0 or sum(unanswered) <> 0 or sum(unanswered_low) <> 0
           order by 1, 2
          on conflict (app_key, day) do update set reviews = s.reviews + excluded.reviews, rating_sum = s.rating_sum + excluded.rating_sum,
             low = s.low + excluded.low, unanswered = s.unanswered + excluded.unanswered, unanswered_low = s.unanswered_low + excluded.unanswered_low;
      end if;
      return null;
    end $$`.execute(db);
  await sql`create trigger reviews_days_insert after insert on reviews referencing new table as new_rows
            for each statement execute function app_review_days_apply()`.execute(db);
  await sql`create trigger reviews_days_delete after delete on reviews referencing old table as old_rows
            for each statement execute function app_review_days_apply()`.execute(db);
  await sql`create trigger reviews_days_update after update on reviews referencing old table as old_rows new table as new_rows
            for each statement execute function app_review_days_apply()`.execute(db);

  await sql`create index reviews_replied_idx on reviews (app_key, reply_updated_at desc)
              include (updated_at, written_at) where reply_text is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists reviews_replied_idx`.execute(db);
  for (const t of ['reviews_days_insert', 'reviews_days_delete', 'reviews_days_update']) await sql`drop trigger if exists ${sql.raw(t)} on reviews`.execute(db);
  await sql`drop function if exists app_review_days_apply()`.execute(db);
  await sql`drop table if exists app_review_days`.execute(db);
}
