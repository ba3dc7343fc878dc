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
  /** The organisation whose replies (server/replies) are shown with the reviews, and whose queue the next filters read. */
  orgId?: string;
  /** Workflow statuses (server/workflow): a review without a row is new, or replied when the store shows a reply. */
  statuses?: string[];
  /** Tag ids of the organisation: reviews with any of them. */
  tagIds?: string[];
  /** Assigned to one of these members, or (`none`) to nobody. */
  assignees?: { ids: string[]; none: boolean };
};

/** A review's place in the inbox order: its updated_at in microseconds since 1970 (exact), and its id. */
export type ReviewPosition = { us: string; id: string };

/** A review of one of the organisation's apps as every reader of one starts: the review, its app and the store. */
export type ReviewOfApp = {
  id: string;
  app_key: string;
  store: string;
  app_title: string;
  author_name: string;
  rating: number;
  title: string | null;
  body: string;
};

export type InboxRow = ReviewOfApp & {
  app_id: string;
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
  /** The organisation's tags of the review (json: parsed by the driver, or text). */
  tags: Array<{ id: string; name: string; color: string }> | string;
  /** Its queue row (server/workflow), when it has one. */
  wf_status: string | null;
  wf_reason: string | null;
  wf_assignee_id: string | null;
  /** The assignee's e-mail while still a member (null after a removal). */
  wf_assignee_email: string | null;
  notes_count: number;
};

const and = (parts: RawBuilder<unknown>[]) => (parts.length ? sql.join(parts, sql` and `) : sql`true`);

/** Filters on the organisation's queue (review_workflow, review_tags): not in the apps' indexes, read per review. */
const hasQueueFilter = (f: InboxQuery) => !!(f.statuses?.length || f.tagIds?.length || f.assignees);

/** The queue's filters as SQL over alias `r` (each an index probe of the review's row). */
function queueConditions(f: InboxQuery): RawBuilder<unknown>[] {
  const c: RawBuilder<unknown>[] = [];
  const org = f.orgId ?? '';
  if (f.statuses?.length) {
    c.push(sql`coalesce((select w.status from review_workflow w where w.org_id = ${org} and w.review_id = r.id),
                        case when r.replied then 'replied' else 'new' end) = any(${f.statuses}::text[])`);
  }
  if (f.tagIds?.length) c.push(sql`exists (select 1 from review_tags t where t.org_id = ${org} and t.review_id = r.id and t.tag_id = any(${f.tagIds}::text[]))`);
  if (f.assignees) {
    const parts: RawBuilder<unknown>[] = [];
    if (f.assignees.ids.length) parts.push(sql`exists (select 1 from review_workflow w where w.org_id = ${org} and w.review_id = r.id and w.assignee_id = any(${f.assignees.ids}::text[]))`);
    if (f.assignees.none) parts.push(sql`not exists (select 1 from review_workflow w where w.org_id = ${org} and w.review_id = r.id and w.assignee_id is not null)`);
    c.push(parts.length ? sql`(${sql.join(parts, sql` or `)})` : sql`false`);
  }
  return c;
}

/**
 * Where the reviews a queue filter keeps can be read from when they are few: the organisation's rows with one of the
 * tags, one of the statuses (only needs_reply and done: new and replied are also what has no row) or one of the
 * assignees. Null when the filter has none of these.
 */
function queueDriver(f: InboxQuery): RawBuilder<unknown> | null {
  const org = f.orgId ?? '';
  if (f.tagIds?.length === 1) return sql`select t.review_id from review_tags t where t.tag_id = ${f.tagIds[0]} and t.org_id = ${org}`;
  // A review with two of the tags once: at its first tag (a probe of the primary key), not by `select distinct`, which
  // reads every row of the tags before giving the first (150,000 for two common tags at a million reviews).
  if (f.tagIds?.length) {
    return sql`select t.review_id from review_tags t where t.tag_id = any(${f.tagIds}::text[]) and t.org_id = ${org}
                  and not exists (select 1 from review_tags o where o.org_id = ${org} and o.review_id = t.review_id
                                     and o.tag_id = any(${f.tagIds}::text[]) and o.tag_id < t.tag_id)`;
  }
  // A member's reviews before a status's: what is assigned to someone is a part of some status, usually small.
  if (f.assignees && !f.assignees.none && f.assignees.ids.length) {
    return sql`select w.review_id from review_workflow w where w.org_id = ${org} and w.assignee_id = any(${f.assignees.ids}::text[])`;
  }
  if (f.statuses?.length && f.statuses.every((s) => s === 'needs_reply' || s === 'done')) {
    return sql`select w.review_id from review_workflow w where w.org_id = ${org} and w.status = any(${f.statuses}::text[])`;
  }
  return null;
}

/** The filters other than the app, as SQL over alias `r`. */
function conditions(f: InboxQuery, except: { rating?: boolean; country?: boolean } = {}): RawBuilder<unknown>[] {
  const c: RawBuilder<unknown>[] = [...queueConditions(f)];
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
  const driver = rare ? queueDriver(f) : null;
  if (driver) {
    return sql`select r.id, r.updated_at from (${driver}) d join reviews r on r.id = d.review_id
                where r.app_key = any(${f.appKeys}::text[]) and ${and(conditions(f))}
                order by r.updated_at desc, r.id desc limit ${n}`;
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

/** The filters the apps' indexes carry: all but the text search and the queue's. */
const denseConditions = (f: InboxQuery) => conditions({ ...f, q: undefined, statuses: undefined, tagIds: undefined, assignees: undefined });

/** How many of each app's newest reviews (under the other filters) a text search walks before it turns to the GIN index. */
const walkBudget = (f: InboxQuery) => Math.max(4 * f.limit, Math.ceil((f.q ? RARE_MATCHES : QUEUE_WALK) / f.appKeys.length));

/**
 * A queue filter alone (status, tag, assignee) walks at most this many reviews in all: each costs an index probe of the
 * queue's tables, and a filter that keeps fewer reviews than a page in QUEUE_WALK is read from those tables instead
 * (queueDriver), which then hold at most about page × total / QUEUE_WALK of them (bench/inbox-queue.ts).
 */
export const QUEUE_WALK = 2000;

/**
 * A text search's page read by a bounded walk: each app's newest `walkBudget` reviews under the other filters, newest
 * first from its own index (one branch per app, merged: the walk stops at a page of matches in all, so a common word
 * reads about page / (share of reviews matching) rows), the first page of matches. Exact when walkComplete says so.
 * Each branch keeps its own `order by`: without it PostgreSQL appends the branches whole and sorts (every app's
 * budget read); with it the branches are merged (Merge Append) and read only as far as the page needs.
 */
function walkIds(f: InboxQuery): RawBuilder<unknown> {
  const others = and(denseConditions(f));
  const sparse: RawBuilder<unknown>[] = [...queueConditions(f)];
  if (f.q) sparse.push(sql`r.search_vector @@ websearch_to_tsquery('simple', ${f.q})`);
  const branches = f.appKeys.map(
    (k) => sql`(select r.id, r.updated_at from (
                  select r.id, r.updated_at, r.search_vector, r.replied from reviews r where r.app_key = ${k} and ${others}
                   order by r.updated_at desc, r.id desc limit ${walkBudget(f)}::int) r
                 where ${and(sparse)}
                 order by r.updated_at desc, r.id desc)`,
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
  const others = and(denseConditions(f));
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
           rp.updated_at as own_reply_at, rp.review_updated_at as own_reply_review_updated_at,
           coalesce((select json_agg(json_build_object('id', t.id, 'name', t.name, 'color', t.color) order by lower(t.name), t.id)
                       from review_tags rt join tags t on t.id = rt.tag_id
                      where rt.org_id = ${f.orgId ?? null} and rt.review_id = r.id), '[]'::json) as tags,
           w.status as wf_status, w.status_reason as wf_reason, w.assignee_id as wf_assignee_id, au.email as wf_assignee_email,
           (select count(*)::int from review_notes n where n.org_id = ${f.orgId ?? null} and n.review_id = r.id) as notes_count
      from page p
      join reviews r on r.id = p.id
      join apps a on a.key = r.app_key
      left join review_versions pv on pv.review_id = r.id and pv.version = r.version - 1
      left join replies rp on rp.review_id = r.id and rp.org_id = ${f.orgId ?? null}
      left join review_workflow w on w.review_id = r.id and w.org_id = ${f.orgId ?? null}
      left join users au on au.id = w.assignee_id and au.org_id = w.org_id
     order by p.updated_at desc, p.id desc`;
}

/** Whether the view can be read from the queue's own rows (queueDriver): a tag, needs_reply or done, an assignee. */
export const readsFromQueueRows = (f: Omit<InboxQuery, 'limit' | 'after'>): boolean => queueDriver({ ...f, limit: 1 } as InboxQuery) !== null;

/**
 * One page of the inbox, in order. `few`: the caller counted the view exactly (at most COUNT_CAP reviews), so a queue
 * filter's page is read from the queue's rows at once, without the bounded walk that cannot fill it.
 */
export async function inboxPage(f: InboxQuery, db?: DB, opts: { few?: boolean } = {}): Promise<InboxRow[]> {
  if (f.appKeys.length === 0) return [];
  const d = db ?? (await getDb());
  if (opts.few && !f.q && !f.reviewId && queueDriver(f)) return (await inboxPageQuery(f, true).execute(d)).rows;
  if ((f.q || hasQueueFilter(f)) && !f.reviewId) {
    // The bounded walk's page when no app's unread reviews could come before its end, else the GIN index's (a text
    // search) or the queue's rows (a tag, needs_reply or done, an assignee: queueDriver), else every app's reviews.
    const walked = (await inboxPageQuery(f, 'walk').execute(d)).rows;
    const last = walked.length >= f.limit ? walked[f.limit - 1] : undefined;
    if (await walkComplete(f, last && { us: last.position_us, id: last.id }, d)) return walked;
    return (await inboxPageQuery(f, !!f.q || !!queueDriver(f)).execute(d)).rows;
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

/** The inbox counts its results exactly up to this many; beyond, it says only "more" (the dashboard: "1,000+"). */
export const COUNT_CAP = 1000;

/**
 * How many reviews the view holds: exact up to COUNT_CAP, else COUNT_CAP + 1 with `estimate` (more than COUNT_CAP).
 * Not the planner's estimate: it was wrong by orders of magnitude on the queue's filters (3,208 reviews for a
 * status=new of ~525,000) and cost a planning round of its own.
 */
export async function inboxCount(f: Omit<InboxQuery, 'limit' | 'after'>, db?: DB): Promise<{ total: number; estimate: boolean }> {
  if (f.appKeys.length === 0) return { total: 0, estimate: false };
  const exact = await inboxCountQuery(f).execute(db ?? (await getDb()));
  const n = exact.rows[0]?.n ?? 0;
  return n <= COUNT_CAP ? { total: n, estimate: false } : { total: COUNT_CAP + 1, estimate: true };
}

/** The count's statement (exported for the benchmark's query plans): up to COUNT_CAP + 1 matches of the view. */
export function inboxCountQuery(f: Omit<InboxQuery, 'limit' | 'after'>): RawBuilder<{ n: number }> {
  const q = { ...f, limit: COUNT_CAP + 1 } as InboxQuery;
  const driver = queueDriver(q);
  // The count stops at COUNT_CAP + 1 matches. Each source row is read one at a time so that it can stop: a queue
  // filter's rows (queueDriver) each probe their review (offset 0 keeps the planner from joining all of them first),
  // else each app's reviews from its own index, one app after another. As one join over every app, a filter PostgreSQL
  // cannot estimate (a review's status) made it build the bitmap of every review first: hundreds of milliseconds at a
  // million (bench/inbox-queue.ts).
  const from = driver
    ? sql`(${driver}) d cross join lateral (select 1 from reviews r where r.id = d.review_id and r.app_key = any(${f.appKeys}::text[]) and ${and(conditions(q))} offset 0) x`
    : sql`unnest(${f.appKeys}::text[]) as k(app_key) cross join lateral (
            select 1 from reviews r where r.app_key = k.app_key and ${and(conditions(q))} limit ${COUNT_CAP + 1}) x`;
  return sql<{ n: number }>`select count(*)::int as n from (select 1 from ${from} limit ${COUNT_CAP + 1}) y`;
}
