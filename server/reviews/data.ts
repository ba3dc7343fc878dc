/**
 * The review inbox's reads: one page of an organisation's reviews, newest first (updated_at, then id), with its filters
 * and full-text search. The only place with their SQL.
 *
 * How a page stays fast at a million reviews: each app (and each chosen star rating or country) is read newest first
 * from its own index (app_key[, rating | country], updated_at desc, id desc) — at most one page per app — and those
 * short lists are merged, so a page costs about (apps × page size) index entries whatever the table holds. The other
 * filters are columns those indexes carry (migration 0012), so checking them reads no table rows. A text search with few matches starts from the GIN index of search_vector.
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
 * A search with at most this many matches is read from the GIN index and sorted; more, by walking each app's newest
 * reviews. Walking costs about apps × page / (share of reviews matching) rows, the index about the matches: at a
 * million reviews over 20 apps they meet near 20,000 matches (bench/inbox.ts).
 */
export const RARE_MATCHES = 20_000;

/**
 * The ids and times of one page, before the rows are read. Each app (× rating or × country when filtered) is read in
 * its index's order, one page at most, and the parts merged. A text search whose matches are few (`rare`: the words
 * are rare, or common words that seldom meet) is read from the GIN index and sorted instead: walking the apps would
 * check every review of an app that has few or no matches.
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

/** Whether a text search has few matches in these apps (counted up to RARE_MATCHES + 1, from the GIN index). */
async function hasFewMatches(f: InboxQuery, db: DB): Promise<boolean> {
  const r = await sql<{ n: number }>`
    select count(*)::int as n from (select 1 from reviews r where r.app_key = any(${f.appKeys}::text[]) and ${and(conditions(f))}
                                     limit ${RARE_MATCHES + 1}) x`.execute(db);
  return r.rows[0].n <= RARE_MATCHES;
}

/** The statement of one page (also for EXPLAIN in bench/inbox.ts); `rare`: see pageIds. */
export function inboxPageQuery(f: InboxQuery, rare = false): RawBuilder<InboxRow> {
  return sql<InboxRow>`
    with page as (${pageIds(f, rare)})
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
  const rare = f.q ? await hasFewMatches(f, d) : false;
  return (await inboxPageQuery(f, rare).execute(d)).rows;
}

/** The inbox position of review `id` of app `appKey`, or null when the app has no such review. */
export async function reviewPosition(appKey: string, id: string, db?: DB): Promise<ReviewPosition | null> {
  const r = await sql<{ us: string }>`
    select ((extract(epoch from updated_at) * 1000000)::bigint)::text as us
      from reviews where id = ${id}::bigint and app_key = ${appKey}`.execute(db ?? (await getDb()));
  return r.rows[0] ? { us: r.rows[0].us, id } : null;
}
