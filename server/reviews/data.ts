/**
 * The review inbox's reads: one page of an organisation's reviews, newest first (updated_at, then id), with its filters
 * and full-text search. The only place with their SQL.
 *
 * How a page stays fast at a million reviews: each app (and each chosen star rating or country) is read newest first
 * from its own index (app_key[, rating | country], updated_at desc, id desc) — at most one page per app — and those
 * short lists are merged, so a page costs about (apps × page size) index entries whatever the table holds. The other
 * filters are columns those indexes carry (migration 0012), so checking them reads no table rows. A text search walks
 * the apps' newest reviews within a budget, and starts from the GIN index of search_vector only when that walk cannot
 * give the page exactly.
 */
import { sql, type RawBuilder } from 'kysely';
import { getDb, type DB } from '../db/client';

export type InboxQuery = {
  /** The apps to read (already scoped to the caller's organisation and narrowed by the app and store filters). */
  appKeys: string[];
  ratings?: number[];
  countries?: string[];
  languages?: string[];
  sentiments?: string[];
  replied?: boolean;
  /** Words to find in the title or text (websearch syntax: "a phrase", -word, or). */
  q?: string;
  /** One review (still only among appKeys). */
  reviewId?: string;
  from?: Date;
  to?: Date;
  /** Only reviews after this one in the order (older, or as old with a smaller id). */
  after?: ReviewPosition;
  limit: number;
  /** The organisation whose replies (server/replies) are shown with the reviews. */
  orgId?: string;
};

/** A review's place in the inbox order: its updated_at in microseconds since 1970 (exact), and its id. */
export type ReviewPosition = { us: string; id: string };

export type InboxRow = {
  id: string;
  app_key: string;
  store: string;
  app_id: string;
  app_title: string;
  author_name: string;
  title: string | null;
  body: string;
  rating: number;
  app_version: string | null;
  updated_at: Date;
  written_at: Date | null;
  reply_text: string | null;
  reply_updated_at: Date | null;
  country: string | null;
  language: string | null;
  permalink: string | null;
  sentiment: string | null;
  version: number;
  previous_rating: number | null;
  position_us: string;
  /** The organisation's reply through ARB (server/replies), when there is one. */
  own_reply_state: string | null;
  own_reply_text: string | null;
  own_reply_failure: string | null;
  own_reply_by: string | null;
  own_reply_at: Date | null;
  own_reply_review_updated_at: Date | null;
};

const and = (parts: RawBuilder<unknown>[]) => (parts.length ? sql.join(parts, sql` and `) : sql`true`);

/** The filters other than the app, as SQL over alias `r`. */
function conditions(f: InboxQuery, except: { rating?: boolean; country?: boolean } = {}): RawBuilder<unknown>[] {
  const c: RawBuilder<unknown>[] = [];
  if (f.ratings?.length && !except.rating) c.push(sql`r.rating = any(${f.ratings}::int[])`);
  if (f.countries?.length && !except.country) c.push(sql`r.country = any(${f.countries}::text[])`);
  // The language the text is written in when it was detected, else what the store said.
  if (f.languages?.length) c.push(sql`coalesce(r.text_language, nullif(r.language, '')) = any(${f.languages}::text[])`);
  if (f.sentiments?.length) c.push(sql`r.sentiment = any(${f.sentiments}::text[])`);
  if (f.replied !== undefined) c.push(sql`r.replied = ${f.replied}`);
  if (f.q) c.push(sql`r.search_vector @@ websearch_to_tsquery('simple', ${f.q})`);
  if (f.reviewId) c.push(sql`r.id = ${f.reviewId}::bigint`);
  if (f.from) c.push(sql`r.updated_at >= ${f.from}`);
  if (f.to) c.push(sql`r.updated_at < ${f.to}`);
  if (f.after) c.push(sql`(r.updated_at, r.id) < (timestamptz 'epoch' + ${f.after.us}::bigint * interval '1 microsecond', ${f.after.id}::bigint)`);
  return c;
}

/**
 * A search walks at most RARE_MATCHES reviews in all (each app's newest RARE_MATCHES / apps under the other filters,
 * merged newest first: walkIds) and uses that page when it is exact (walkComplete), else reads the GIN index and sorts
 * the matches. The walk costs about page / (share of reviews matching) rows whatever the table holds; the index about
 * the matches, which grow with it, so it is left for words too rare to fill a page within the walk.
 */
export const RARE_MATCHES = 20_000;

/**
 * The ids and times of one page, before the rows are read. Each app (× rating or × country when filtered) is read in
 * its index's order, one page at most, and the parts merged. A text search is read by walkIds, or (`rare`: the walk
 * could not give the page) from the GIN index and sorted: walking the apps without a bound would check every review
 * of an app that has few or no matches.
 */
function pageIds(f: InboxQuery, rare = false): RawBuilder<unknown> {
  const n = f.limit;
  // One review: read by its primary key (walking the apps would scan each one's reviews to find it).
  if (f.reviewId) {
    return sql`select r.id, r.updated_at from reviews r
                where r.id = ${f.reviewId}::bigint and r.app_key = any(${f.appKeys}::text[]) and ${and(conditions(f))}`;
  }
  if (f.q && rare) {
    return sql`select r.id, r.updated_at from reviews r
                where r.app_key = any(${f.appKeys}::text[]) and ${and(conditions(f))}
                order by r.updated_at desc, r.id desc limit ${n}`;
  }
  let parts = sql`unnest(${f.appKeys}::text[]) as k(app_key)`;
  let match = sql`r.app_key = k.app_key`;
  let except = {};
  if (f.ratings?.length) {
    parts = sql`${parts} cross join unnest(${f.ratings}::int[]) as kr(rating)`;
    match = sql`${match} and r.rating = kr.rating`;
    except = { rating: true };
  } else if (f.countries?.length) {
    parts = sql`${parts} cross join unnest(${f.countries}::text[]) as kc(country)`;
    match = sql`${match} and r.country = kc.country`;
    except = { country: true };
  }
  return sql`select x.id, x.updated_at from ${parts} cross join lateral (
               select r.id, r.updated_at from reviews r where ${match} and ${and(conditions(f, except))}
                order by r.updated_at desc, r.id desc limit ${n}) x
             order by x.updated_at desc, x.id desc limit ${n}`;
}

/** How many of each app's newest reviews (under the other filters) a text search walks before it turns to the GIN index. */
const walkBudget = (f: InboxQuery) => Math.max(4 * f.limit, Math.ceil(RARE_MATCHES / f.appKeys.length));

/**
 * A text search's page read by a bounded walk: each app's newest `walkBudget` reviews under the other filters, newest
 * first from its own index (one branch per app, merged: the walk stops at a page of matches in all, so a common word
 * reads about page / (share of reviews matching) rows), the first page of matches. Exact when walkComplete says so.
 * Each branch keeps its own `order by`: without it PostgreSQL appends the branches whole and sorts (every app's
 * budget read); with it the branches are merged (Merge Append) and read only as far as the page needs.
 */
function walkIds(f: InboxQuery): RawBuilder<unknown> {
  const others = and(conditions({ ...f, q: undefined }));
  const branches = f.appKeys.map(
    (k) => sql`(select w.id, w.updated_at from (
                  select r.id, r.updated_at, r.search_vector from reviews r where r.app_key = ${k} and ${others}
                   order by r.updated_at desc, r.id desc limit ${walkBudget(f)}::int) w
                 where w.search_vector @@ websearch_to_tsquery('simple', ${f.q!})
                 order by w.updated_at desc, w.id desc)`,
  );
  return sql`select x.id, x.updated_at from (${sql.join(branches, sql` union all `)}) x
              order by x.updated_at desc, x.id desc limit ${f.limit}::int`;
}

/**
 * Whether the bounded walk's page (walkIds; `last`: its last review when it is a full page) is the page: no app has
 * more than its walked reviews newer than `last` (or, short of a page, at all), so no match the walk left unread comes
 * before it. Reads at most walkBudget index entries an app, and for a common word only those newer than the page's end.
 * (Counting the matches from the GIN index instead made the index list every match first, 5 × the time at 5 × the
 * reviews: bench/scale.ts.)
 */
async function walkComplete(f: InboxQuery, last: ReviewPosition | undefined, db: DB): Promise<boolean> {
  const others = and(conditions({ ...f, q: undefined }));
  const newer = last ? sql`(r.updated_at, r.id) > (timestamptz 'epoch' + ${last.us}::bigint * interval '1 microsecond', ${last.id}::bigint)` : sql`true`;
  const r = await sql<{ complete: boolean }>`
    select not exists (
      select 1 from unnest(${f.appKeys}::text[]) as k(app_key)
       where exists (select 1 from reviews r where r.app_key = k.app_key and ${others} and ${newer}
                      order by r.updated_at desc, r.id desc offset ${walkBudget(f)}::int limit 1)) as complete`.execute(db);
  return r.rows[0].complete;
}

/** The statement of one page (also for EXPLAIN in bench/inbox.ts); `rare`: see pageIds; 'walk': walkIds. */
export function inboxPageQuery(f: InboxQuery, rare: boolean | 'walk' = false): RawBuilder<InboxRow> {
  return sql<InboxRow>`
    with page as (${rare === 'walk' ? walkIds(f) : pageIds(f, rare)})
    select r.id::text as id, r.app_key, r.store, a.app_id, a.title as app_title, r.author_name, r.title, r.body, r.rating,
           r.app_version, r.updated_at, r.written_at, r.reply_text, r.reply_updated_at, r.country,
           coalesce(r.text_language, nullif(r.language, '')) as language, r.permalink,
           r.sentiment, r.version, pv.rating as previous_rating,
           ((extract(epoch from r.updated_at) * 1000000)::bigint)::text as position_us,
           rp.state as own_reply_state, rp.text as own_reply_text, rp.failure as own_reply_failure, rp.author_label as own_reply_by,
           rp.updated_at as own_reply_at, rp.review_updated_at as own_reply_review_updated_at
      from page p
      join reviews r on r.id = p.id
      join apps a on a.key = r.app_key
      left join review_versions pv on pv.review_id = r.id and pv.version = r.version - 1
      left join replies rp on rp.review_id = r.id and rp.org_id = ${f.orgId ?? null}
     order by p.updated_at desc, p.id desc`;
}

/** One page of the inbox, in order. */
export async function inboxPage(f: InboxQuery, db?: DB): Promise<InboxRow[]> {
  if (f.appKeys.length === 0) return [];
  const d = db ?? (await getDb());
  if (f.q && !f.reviewId) {
    // The bounded walk's page when no app's unread reviews could come before its end, else the GIN index's.
    const walked = (await inboxPageQuery(f, 'walk').execute(d)).rows;
    const last = walked.length >= f.limit ? walked[f.limit - 1] : undefined;
    if (await walkComplete(f, last && { us: last.position_us, id: last.id }, d)) return walked;
    return (await inboxPageQuery(f, true).execute(d)).rows;
  }
  return (await inboxPageQuery(f).execute(d)).rows;
}

/** The inbox position of review `id` of app `appKey`, or null when the app has no such review. */
export async function reviewPosition(appKey: string, id: string, db?: DB): Promise<ReviewPosition | null> {
  const r = await sql<{ us: string }>`
    select ((extract(epoch from updated_at) * 1000000)::bigint)::text as us
      from reviews where id = ${id}::bigint and app_key = ${appKey}`.execute(db ?? (await getDb()));
  return r.rows[0] ? { us: r.rows[0].us, id } : null;
}
