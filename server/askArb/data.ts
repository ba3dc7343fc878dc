/**
 * Ask ARB's reads: figures over a filtered set of reviews (count and rating sum, whole or grouped by star, version,
 * country, day or week), full-text retrieval with ranking, the newest reviews of a filter, and reviews by id. The only
 * place with Ask ARB's SQL; every statement is a read, and every one is limited to the app keys it is given (the
 * caller's scope, checked before).
 *
 * A review counts on the day the store last dated it (updated_at, UTC), as on the stats page and in the inbox, so an
 * answer's "12 reviews on 3 March" is that day's inbox list. Rating, country, version, language and sentiment are
 * columns the inbox's (app_key, updated_at) index carries (migration 0012), so a figure over an app's span reads the
 * index, not the table; the language filter (the text's language when detected) reads the row.
 */
import { sql, type RawBuilder } from 'kysely';
import { getDb, type DB } from '../db/client';

export type AskQuery = {
  /** The apps to read: already the scope's, narrowed by the question. */
  appKeys: string[];
  from?: Date;
  toExclusive?: Date;
  ratings?: number[];
  /** Lower case, as stored. */
  country?: string;
  /** A version and its sub-versions: '2.3' is 2.3, 2.3.1… */
  version?: string;
  language?: string;
  sentiment?: string;
  /** A text query in to_tsquery syntax over the 'simple' configuration (made by tools.ts from plain words). */
  tsquery?: string;
  /**
   * The text query has few matches in the whole table (`fewTextMatches`): its reads start from the GIN index alone.
   * Left to itself the planner misjudges a prefix query's matches and intersects the GIN index with a range of the
   * inbox index holding a quarter of a million entries, to check 200 reviews.
   */
  rare?: boolean;
};

export type AskGroup = 'none' | 'rating' | 'version' | 'country' | 'day' | 'week';
export type AskGroupRow = { key: string | null; reviews: number; rating_sum: number };

export type AskReviewRow = {
  id: string;
  store: string;
  app_id: string;
  author_name: string;
  rating: number;
  title: string | null;
  body: string;
  updated_at: Date;
  country: string | null;
  app_version: string | null;
  language: string | null;
  permalink: string | null;
  store_url: string | null;
  rank?: number;
};

const and = (parts: RawBuilder<unknown>[]) => (parts.length ? sql.join(parts, sql` and `) : sql`true`);

/** The reviews a read starts from: the table, or the few rows matching a rare text query (see AskQuery.rare). */
const source = (q: AskQuery) =>
  q.rare && q.tsquery ? sql`(select * from reviews r0 where r0.search_vector @@ to_tsquery('simple', ${q.tsquery}) offset 0) r` : sql`reviews r`;

/** The filters as SQL over alias `r` (the app keys included). */
function conditions(q: AskQuery, appKey?: RawBuilder<unknown>): RawBuilder<unknown>[] {
  const c: RawBuilder<unknown>[] = [appKey ?? sql`r.app_key = any(${q.appKeys}::text[])`];
  if (q.from) c.push(sql`r.updated_at >= ${q.from}`);
  if (q.toExclusive) c.push(sql`r.updated_at < ${q.toExclusive}`);
  if (q.ratings?.length) c.push(sql`r.rating = any(${q.ratings}::int[])`);
  if (q.country) c.push(sql`r.country = ${q.country}`);
  if (q.version) {
    // The version and its sub-versions ('2.3' → 2.3, 2.3.1…): the byte range ['2.3', '2.3/') in the "C" collation
    // ('/' follows '.'), which the (app_key, app_version "C") index of migration 0025 reads, then the exact rule.
    c.push(sql`r.app_version collate "C" >= ${q.version} and r.app_version collate "C" < ${`${q.version}/`}`);
    c.push(sql`(r.app_version = ${q.version} or r.app_version like ${`${q.version.replace(/[\\%_]/g, '\\$&')}.%`})`);
  }
  if (q.language) c.push(sql`coalesce(r.text_language, nullif(r.language, '')) = ${q.language}`);
  if (q.sentiment) c.push(sql`r.sentiment = ${q.sentiment}`);
  if (q.tsquery) c.push(sql`r.search_vector @@ to_tsquery('simple', ${q.tsquery})`);
  return c;
}

/** Only the app keys are given: the per-app counters answer (migration 0018), no review is read. */
const onlyApps = (q: AskQuery) => !q.from && !q.toExclusive && !q.ratings?.length && !q.country && !q.version && !q.language && !q.sentiment && !q.tsquery;

/** The grouped statement of askGroups (the bench EXPLAINs it). */
export function askGroupsQuery(q: AskQuery, group: AskGroup): RawBuilder<AskGroupRow> {
  // date_trunc's unit as a literal, as in server/stats/data.ts: a parameter would keep the grouping from matching.
  const key =
    group === 'rating' ? sql`r.rating::text`
    : group === 'version' ? sql`coalesce(r.app_version, '')`
    : group === 'country' ? sql`coalesce(r.country, '')`
    : group === 'day' || group === 'week' ? sql`to_char(date_trunc(${sql.lit(group)}, r.updated_at at time zone 'UTC'), 'YYYY-MM-DD')`
    : sql`null`;
  return sql<AskGroupRow>`
    select ${key} as key, count(*)::int as reviews, coalesce(sum(r.rating), 0)::int as rating_sum
      from ${source(q)}
     where ${and(conditions(q))}
     ${group === 'none' ? sql`` : sql`group by 1`}`;
}

/** How many reviews and the sum of their ratings, whole (`none`) or per group; empty groups are absent. */
export async function askGroups(q: AskQuery, group: AskGroup, db?: DB): Promise<AskGroupRow[]> {
  const d = db ?? (await getDb());
  if (!q.appKeys.length) return [];
  if (group === 'none' && onlyApps(q)) {
    const r = await sql<AskGroupRow>`
      select null as key, coalesce(sum(review_count), 0)::int as reviews, coalesce(sum(rating_sum), 0)::int as rating_sum
        from app_review_stats where app_key = any(${q.appKeys}::text[])`.execute(d);
    return r.rows;
  }
  return (await askGroupsQuery(q, group).execute(d)).rows;
}

const REVIEW_COLUMNS = sql`r.id::text as id, r.store, a.app_id, r.author_name, r.rating, r.title, r.body, r.updated_at, r.country,
  r.app_version, coalesce(r.text_language, nullif(r.language, '')) as language, r.permalink, a.store_url`;

/**
 * The reviews matching `q.tsquery`: how many per star (count, rating sum) and the best `limit` of them, in one
 * statement, so a question about a topic gathers its matches once. Best first is ts_rank_cd (how often and how close
 * together the words are, over the text's length), then the newest, ranked among the newest `candidates` matches: a
 * word in a fifth of a million reviews costs a bounded sort, not a rank of every match. The matches are gathered
 * first (materialized: from the GIN index, never by walking an app's reviews newest first and testing each, which the
 * planner would pick for a single app and a word it thinks common).
 */
export async function searchReviews(
  q: AskQuery & { tsquery: string },
  limit: number,
  candidates: number,
  db?: DB,
): Promise<{ groups: AskGroupRow[]; rows: AskReviewRow[] }> {
  const r = await sql<{ groups: AskGroupRow[] | null; rows: Array<Omit<AskReviewRow, 'updated_at'> & { updated_at: string }> | null }>`
    with matched as materialized (select r.id, r.updated_at, r.rating from ${source(q)} where ${and(conditions(q))}),
         newest as (select id from matched order by updated_at desc, id desc limit ${candidates}),
         best as (select ${REVIEW_COLUMNS}, ts_rank_cd(r.search_vector, to_tsquery('simple', ${q.tsquery}), 1)::float8 as rank
                    from newest n join reviews r on r.id = n.id join apps a on a.key = r.app_key
                   order by rank desc, r.updated_at desc, r.id desc
                   limit ${limit})
    select (select json_agg(g) from (select rating::text as key, count(*)::int as reviews, sum(rating)::int as rating_sum
                                       from matched group by rating) g) as groups,
           (select json_agg(b order by b.rank desc, b.updated_at desc, b.id::bigint desc) from best b) as rows`.execute(db ?? (await getDb()));
  const row = r.rows[0];
  return {
    groups: row?.groups ?? [],
    rows: (row?.rows ?? []).map((x) => ({ ...x, updated_at: new Date(x.updated_at) })),
  };
}

/** Whether at most `cap` reviews of the whole table match `tsquery` (counted from the GIN index, up to cap + 1). */
export async function fewTextMatches(tsquery: string, cap: number, db?: DB): Promise<boolean> {
  const r = await sql<{ n: number }>`
    select count(*)::int as n from (select 1 from reviews r where r.search_vector @@ to_tsquery('simple', ${tsquery}) limit ${cap + 1}) x`.execute(db ?? (await getDb()));
  return r.rows[0].n <= cap;
}

/**
 * The newest `limit` reviews of the filter. Each app is read newest first from its own index, `perApp` at most (by
 * default `limit`: exactly the newest), and the pages merged (as the inbox does), so the cost is about apps × perApp
 * index entries, not the span's reviews.
 */
export async function newestReviews(q: AskQuery, limit: number, db?: DB, perApp = limit): Promise<AskReviewRow[]> {
  if (!q.appKeys.length) return [];
  // The page's ids first (from the indexes alone where the filters allow), then only those rows.
  const r = await sql<AskReviewRow>`
    select ${REVIEW_COLUMNS}
      from (select x.id from unnest(${q.appKeys}::text[]) as k(app_key)
              cross join lateral (select r.id, r.updated_at from reviews r where ${and(conditions(q, sql`r.app_key = k.app_key`))}
                                   order by r.updated_at desc, r.id desc limit ${perApp}) x
             order by x.updated_at desc, x.id desc limit ${limit}) page
      join reviews r on r.id = page.id join apps a on a.key = r.app_key
     order by r.updated_at desc, r.id desc`.execute(db ?? (await getDb()));
  return r.rows;
}

/** The reviews `ids` that belong to `appKeys` (any other id is left out). */
export async function reviewsByIds(appKeys: string[], ids: string[], db?: DB): Promise<AskReviewRow[]> {
  const numeric = ids.filter((id) => /^\d{1,18}$/.test(id));
  if (!numeric.length || !appKeys.length) return [];
  const r = await sql<AskReviewRow>`
    select ${REVIEW_COLUMNS} from reviews r join apps a on a.key = r.app_key
     where r.id = any(${numeric}::bigint[]) and r.app_key = any(${appKeys}::text[])`.execute(db ?? (await getDb()));
  return r.rows;
}

/** The apps of organisation `orgId` (a signed-in user's scope), titles included. */
export async function orgScopeApps(orgId: string, db?: DB): Promise<Array<{ store: string; app_id: string; title: string }>> {
  const r = await sql<{ store: string; app_id: string; title: string }>`
    select a.store, a.app_id, a.title from org_apps oa join apps a on a.key = oa.app_key
     where oa.org_id = ${orgId} order by a.title, a.key`.execute(db ?? (await getDb()));
  return r.rows;
}

export type AskVersionRow = { app_key: string; version: string; reviews: number; rating_sum: number; low: number; first: Date; last: Date };

/**
 * Each app's versions of the filter with their reviews, rating sum, 1–2★ reviews and the first and last day a review of it is
 * dated (reviews without a version are left out): what "since the last version" compares.
 */
export async function versionSpans(q: AskQuery, db?: DB): Promise<AskVersionRow[]> {
  if (!q.appKeys.length) return [];
  const r = await sql<Omit<AskVersionRow, 'first' | 'last'> & { first: Date | string; last: Date | string }>`
    select r.app_key, r.app_version as version, count(*)::int as reviews, coalesce(sum(r.rating), 0)::int as rating_sum,
           count(*) filter (where r.rating <= 2)::int as low, min(r.updated_at) as first, max(r.updated_at) as last
      from ${source(q)}
     where ${and(conditions(q))} and r.app_version is not null and r.app_version <> ''
     group by 1, 2`.execute(db ?? (await getDb()));
  return r.rows.map((x) => ({ ...x, first: new Date(x.first), last: new Date(x.last) }));
}
