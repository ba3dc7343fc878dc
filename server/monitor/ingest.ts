/**
 * Poll result → database, in ONE transaction: upsert the reviews (recording edits as history), queue pending welcomes,
 * insert one delivery per (review × matching destination) with ON CONFLICT DO NOTHING, and advance the source's
 * watermark and schedule. All of it commits together or not at all, so a crash anywhere before COMMIT leaves the
 * source exactly as it was: the next poll sees the same reviews and produces the same rows, and the unique
 * constraints turn any repeat into a no-op. The common poll with new reviews writes all of that in ONE statement
 * instead, after a read without the lock that the statement checks is still current (storeWithoutLock).
 */
import { sql, type Selectable, type Transaction } from 'kysely';
import type { DB } from '../db/client';
import type { Database } from '../db/types';
import type { NormalizedReview, PollResult } from '../sources/types';
import { appLockSql, type AppRow } from './apps';
import { matchesFilters, readFilters, type DestinationFilters } from './filters';
import type { SourceRow } from './sources';
import { adoptSameReviews, SWITCHING_SQL, type StoredReviewRow } from './sameReviews';
import { queueWelcome, unreadStorefronts, wantsStorefront, welcomeDueAfter } from './welcome';
import { confirmPublished } from '../replies/data';
import { onRepliesShown, onReviewsEdited } from '../workflow/edits';
import { tagIdsOfReviews } from '../workflow/data';
import { NOT_PLAN_PAUSED } from './sourceDemand';
import { enrichReviews, prepareEnrichment } from '../ai/enrich';
import { queueSentimentRefinement, refinesSentiment } from '../ai/enrich/refine';
import { PREPARED } from '../db/preparedStatements';
import { log } from '../log';
import { findRefusedReviews, isDataError } from './unstorable';
import { wake } from './wake';

/** A review first seen after the first complete poll is announced even if the store dates it a little earlier:
 * the App Store feed publishes reviews hours after they were written. Older than this, it is history we never saw. */
export const LATE_ARRIVAL_WINDOW_MS = 7 * 24 * 3600_000;

/** The polling worker (whose lease the writes check) and the source's poll interval (the next poll's time). */
export type IngestOptions = { workerId: string; intervalSeconds: number };

export type IngestOutcome = {
  fetched: number;
  inserted: number;
  edited: number;
  /** Delivery rows created for new and edited reviews (welcomes not included). */
  deliveries: number;
  welcomed: number;
  watermark: Date | null;
};

/**
 * Is a review we have never stored "new" (announced to existing destinations) or history (stored quietly)?
 *  - before the source's first complete poll: only reviews written since the source was created are new — the first
 *    poll must not dump history into channels (store times are to the second, hence the rounding);
 *  - afterwards: everything we had not seen is new, unless the store dates it older than the late-arrival window.
 */
export function isAnnouncedAsNew(updatedAt: Date, source: Pick<SourceRow, 'watermark' | 'created_at'>): boolean {
  if (source.watermark) return updatedAt.getTime() > source.watermark.getTime() - LATE_ARRIVAL_WINDOW_MS;
  return updatedAt.getTime() >= Math.floor(source.created_at.getTime() / 1000) * 1000;
}

/**
 * A review is announced as new to a destination only if the store dates it at or after the destination started
 * watching the app (to the second, as the feeds are): anything written before the connection is history for it — the
 * welcome's few recent reviews are its only look back. The source-level rule above cannot see this: a review the
 * store publishes late (the App Store feed does, by hours) is new to a destination that has watched for a week, and
 * history to one connected a minute ago.
 */
export function isNewFor(updatedAt: Date, subscribedAt: Date): boolean {
  return updatedAt.getTime() >= Math.floor(subscribedAt.getTime() / 1000) * 1000;
}

type ExistingReview = StoredReviewRow;

type StoredReview = { id: number; review: Pick<NormalizedReview, 'rating' | 'country' | 'language' | 'title' | 'body' | 'updatedAt'> };

const CHUNK = 2000;
/** Delivery rows per statement. */
const DELIVERY_CHUNK = 5000;

function chunks<T>(items: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

function clampRating(r: number): number {
  return Math.min(5, Math.max(1, Math.round(r)));
}

function isEdit(incoming: NormalizedReview, existing: ExistingReview): boolean {
  // An edit bumps the store's modification time; two sources that spell the same review differently at the same
  // time must not flip-flop it into endless "updated" announcements.
  if (incoming.updatedAt.getTime() <= existing.updated_at.getTime()) return false;
  return clampRating(incoming.rating) !== existing.rating || (incoming.title ?? null) !== existing.title || incoming.body !== existing.body;
}

/**
 * The poll path's statements are written as SQL templates rather than with Kysely's query builder: they run for every
 * poll of every source, and building and compiling a builder query costs this process more CPU than the database
 * spends answering it (bench/poll-cpu.ts).
 */
async function loadExisting(trx: Transaction<Database> | DB, store: string, ids: string[]): Promise<Map<string, ExistingReview>> {
  const map = new Map<string, ExistingReview>();
  for (const part of chunks(ids)) {
    const r = await sql<ExistingReview>`${PREPARED}
      select id, store_review_id, rating, title, body, updated_at, version, reply_text
        from reviews where store = ${store} and store_review_id = any(${part}::text[])`.execute(trx);
    for (const row of r.rows) map.set(row.store_review_id, row);
  }
  return map;
}

type ActiveDestination = Pick<Selectable<Database['destinations']>, 'id' | 'filters' | 'welcome_count' | 'backfill'> & {
  welcomed_at: Date | null;
  subscribed_at: Date;
};

/** What a poll read of its app without the lock: its write count then, and whether a switch of sources is on. */
type AppSeen = { writeSeq: string; switching: boolean };

/**
 * What is stored of the poll's first `CHUNK` reviews, the app's active destinations, and (`app`) the app's write count
 * and whether a switch of sources is on, in one statement: inside the ingest transaction after the locks, or before
 * it for storeWithoutLock. The kinds of rows share the columns; `row_kind` tells them apart. The rest of a long
 * poll's reviews are read with loadExisting.
 */
async function loadStoredAndDestinations(q: Transaction<Database> | DB, source: Pick<SourceRow, 'id' | 'app_key'>, store: string, ids: string[]) {
  const [first = [], ...rest] = chunks(ids);
  type Row = Omit<ExistingReview, 'id'> & ActiveDestination & { row_kind: 'review' | 'destination' | 'app'; write_seq: string | null; switching: boolean | null };
  const r = await sql<Row>`${PREPARED}
    select 'review' as row_kind, id::text as id, store_review_id, rating, title, body, updated_at, version, reply_text,
           null::jsonb as filters, null::int as welcome_count, null::boolean as backfill,
           null::timestamptz as welcomed_at, null::timestamptz as subscribed_at, null::text as write_seq, null::boolean as switching
      from reviews where store = ${store} and store_review_id = any(${first}::text[])
    union all
    select 'destination', d.id, null, null, null, null, null, null, null, d.filters, d.welcome_count, d.backfill, da.welcomed_at, da.created_at, null, null
      from destination_apps da join destinations d on d.id = da.destination_id
     where da.app_key = ${source.app_key} and d.status = 'active' and ${NOT_PLAN_PAUSED}
    union all
    select 'app', null, null, null, null, null, null, null, null, null, null, null, null, null, a.write_seq::text, ${SWITCHING_SQL}
      from apps a join monitored_sources s on s.id = ${source.id}
     where a.key = ${source.app_key}`.execute(q);
  const existing = rest.length ? await loadExisting(q, store, rest.flat()) : new Map<string, ExistingReview>();
  const destinations: ActiveDestination[] = [];
  let app: AppSeen | null = null;
  for (const { row_kind, id, store_review_id, rating, title, body, updated_at, version, reply_text, write_seq, switching, ...d } of r.rows) {
    if (row_kind === 'destination') destinations.push({ id, filters: d.filters, welcome_count: d.welcome_count, backfill: d.backfill, welcomed_at: d.welcomed_at, subscribed_at: d.subscribed_at });
    else if (row_kind === 'review') existing.set(store_review_id, { id: Number(id), store_review_id, rating, title, body, updated_at, version, reply_text });
    else app = { writeSeq: write_seq!, switching: switching === true };
  }
  return { existing, destinations, app };
}

/** Reschedules the source after a successful poll and gives its lease back; only while the lease is `workerId`'s. */
function finishPollSql(sourceId: number, workerId: string, watermark: Date | null, intervalSeconds: number) {
  return sql`
    update monitored_sources
       set watermark = ${watermark}, last_success_at = now(), failure_count = 0, last_error = null,
           next_poll_at = ${nextPollSql(intervalSeconds)}, lease_owner = null, lease_until = null
     where id = ${sourceId} and lease_owner = ${workerId}`;
}

async function finishPoll(trx: Transaction<Database> | DB, sourceId: number, workerId: string, watermark: Date | null, intervalSeconds: number): Promise<boolean> {
  const r = await sql`${PREPARED}${finishPollSql(sourceId, workerId, watermark, intervalSeconds)}`.execute(trx);
  return Number(r.numAffectedRows ?? 0) > 0;
}

function reviewValues(appKey: string, r: NormalizedReview) {
  return {
    app_key: appKey,
    store: r.store,
    store_review_id: r.storeReviewId,
    country: r.country,
    language: r.language,
    author_name: r.authorName,
    title: r.title,
    body: r.body,
    rating: clampRating(r.rating),
    app_version: r.appVersion,
    written_at: r.createdAt,
    updated_at: r.updatedAt,
    reply_text: r.replyText,
    reply_updated_at: r.replyUpdatedAt,
    permalink: r.permalink,
  };
}

/**
 * Bulk inserts go through unnest(): one array parameter per column, whatever the row count. A VALUES list of 500
 * rows × 15 columns costs more to build, send and plan than to store.
 */
async function insertReviewsSql(appKey: string, store: string, rows: NormalizedReview[], onlyIf = sql`true`) {
  const col = <T>(f: (r: NormalizedReview) => T) => rows.map(f);
  const e = await enrichReviews(rows.map((x) => ({ title: x.title, body: x.body, rating: clampRating(x.rating) })));
  return sql<{ id: number; store_review_id: string }>`
    insert into reviews (app_key, store, store_review_id, country, language, author_name, title, body, rating, app_version,
                         written_at, updated_at, reply_text, reply_updated_at, permalink,
                         text_language, sentiment, sentiment_score, sentiment_method)
    select ${appKey}, ${store}, * from unnest(
      ${col((x) => x.storeReviewId)}::text[], ${col((x) => x.country)}::text[], ${col((x) => x.language)}::text[],
      ${col((x) => x.authorName)}::text[], ${col((x) => x.title)}::text[], ${col((x) => x.body)}::text[],
      ${col((x) => clampRating(x.rating))}::smallint[], ${col((x) => x.appVersion)}::text[],
      ${col((x) => x.createdAt)}::timestamptz[], ${col((x) => x.updatedAt)}::timestamptz[],
      ${col((x) => x.replyText)}::text[], ${col((x) => x.replyUpdatedAt)}::timestamptz[], ${col((x) => x.permalink)}::text[],
      ${e.map((x) => x.text_language)}::text[], ${e.map((x) => x.sentiment)}::text[], ${e.map((x) => x.sentiment_score)}::real[],
      ${e.map((x) => x.sentiment_method)}::text[])
    where ${onlyIf}
    on conflict (store, store_review_id) do nothing
    returning id, store_review_id`;
}

async function insertReviews(trx: Transaction<Database>, appKey: string, store: string, rows: NormalizedReview[]) {
  const r = await (await insertReviewsSql(appKey, store, rows)).execute(trx);
  await queueSentimentRefinement(trx, r.rows.map((x) => x.id));
  return r.rows;
}

function insertDeliveriesSql(rows: DeliveryInsert[]) {
  return sql`
    insert into deliveries (destination_id, review_id, app_key, kind, review_version)
    select * from unnest(${rows.map((d) => d.destination_id)}::text[], ${rows.map((d) => d.review_id)}::bigint[],
                         ${rows.map((d) => d.app_key)}::text[], ${rows.map((d) => d.kind)}::text[], ${rows.map((d) => d.review_version)}::int[])
    on conflict do nothing`;
}

async function insertDeliveries(trx: Transaction<Database>, rows: DeliveryInsert[]): Promise<number> {
  const r = await insertDeliveriesSql(rows).execute(trx);
  return Number(r.numAffectedRows ?? 0);
}

/** finishPoll and insertDeliveries in one statement; resolves with the number of deliveries inserted. */
async function finishPollWithDeliveries(
  trx: Transaction<Database>,
  sourceId: number,
  workerId: string,
  watermark: Date | null,
  intervalSeconds: number,
  rows: DeliveryInsert[],
): Promise<number> {
  if (rows.length === 0) {
    await finishPoll(trx, sourceId, workerId, watermark, intervalSeconds);
    return 0;
  }
  const r = await sql<{ inserted: number }>`
    with inserted as (${insertDeliveriesSql(rows)} returning 1)
    ${finishPollSql(sourceId, workerId, watermark, intervalSeconds)}
    returning (select count(*)::int from inserted) as inserted`.execute(trx);
  return r.rows[0]?.inserted ?? 0;
}

/**
 * A poll's new reviews (one batch), the deliveries of the new and edited ones, and the reschedule, in one statement.
 * Deliveries of new reviews name them by store id and are only queued for the reviews this insert stored (ON CONFLICT
 * DO NOTHING skips one stored meanwhile under another source of the store), in the order given.
 *
 * `seen` (storeWithoutLock: no transaction, nothing locked yet): the statement first takes the app's lock by bumping
 * its write count, only if the count is still the one read, and the source's, only if its lease is still ours, and
 * writes nothing unless it got both. A writer that committed since the read, or that holds the lock now and commits
 * first, changed the count: PostgreSQL checks the condition again on the row's newest version once the lock is free.
 * Resolves null when nothing was written.
 */
async function storeAndFinishPoll(
  q: Transaction<Database> | DB,
  source: Pick<SourceRow, 'id' | 'app_key'>,
  opts: { workerId: string; intervalSeconds: number },
  watermark: Date | null,
  store: string,
  fresh: NormalizedReview[],
  rows: DeliveryInsert[],
  seen?: AppSeen,
): Promise<{ reviews: number; deliveries: number } | null> {
  const col = <T>(f: (d: DeliveryInsert) => T) => rows.map(f);
  const guard = seen ? sql`exists (select 1 from owned)` : sql`true`;
  const r = await sql<{ reviews: number; deliveries: number }>`${PREPARED}
    with
    ${seen ? sql`bumped as (${appLockSql(source.app_key, seen.writeSeq)}),
    owned as materialized (
      select id from monitored_sources
       where id = ${source.id} and lease_owner = ${opts.workerId} and exists (select 1 from bumped)
         for update),` : sql``}
    ins as (${await insertReviewsSql(source.app_key, store, fresh, guard)}),
    dl as (
      insert into deliveries (destination_id, review_id, app_key, kind, review_version)
      select n.destination_id, coalesce(n.review_id, ins.id), n.app_key, n.kind, n.review_version
        from unnest(${col((d) => d.destination_id)}::text[], ${col((d) => d.review_id)}::bigint[], ${col((d) => d.store_review_id)}::text[],
                    ${col((d) => d.app_key)}::text[], ${col((d) => d.kind)}::text[], ${col((d) => d.review_version)}::int[])
             with ordinality as n(destination_id, review_id, store_review_id, app_key, kind, review_version, ord)
        left join ins on ins.store_review_id = n.store_review_id
       where (n.review_id is not null or ins.id is not null) and ${guard}
       order by n.ord
      on conflict do nothing
      returning 1)
    ${finishPollSql(source.id, opts.workerId, watermark, opts.intervalSeconds)} and ${guard}
    returning (select count(*)::int from ins) as reviews, (select count(*)::int from dl) as deliveries`.execute(q);
  return r.rows[0] ?? (seen ? null : { reviews: 0, deliveries: 0 });
}

function uniqueForStore(result: PollResult, store: string): NormalizedReview[] {
  // Newest first, one per store id (adapters already do this; a repeat here would only cost work).
  const seen = new Set<string>();
  return result.reviews.filter((r) => r.store === store && !seen.has(r.storeReviewId) && seen.add(r.storeReviewId));
}

function newWatermark(current: Date | null, createdAt: Date, result: PollResult, incoming: NormalizedReview[]): Date | null {
  // Advance only past what a COMPLETE poll saw; an incomplete one stores what it got but keeps the old watermark, so
  // the next poll asks again from the same point.
  if (!result.complete) return current;
  if (incoming.length === 0) return current ?? new Date(Math.floor(createdAt.getTime() / 1000) * 1000);
  const newest = incoming.reduce((m, r) => (r.updatedAt > m ? r.updatedAt : m), incoming[0].updatedAt);
  return !current || newest > current ? newest : current;
}

function nextPollSql(intervalSeconds: number) {
  // ±10% jitter spreads sources created together over the interval instead of polling them in bursts.
  return sql<Date>`now() + ${intervalSeconds * (0.9 + Math.random() * 0.2)} * interval '1 second'`;
}

/**
 * The common case — a poll that found nothing new, edited or re-replied on a source that has polled before — needs
 * no transaction and no lock: one read to compare, one guarded update to reschedule. Returns 'changes' when the full
 * ingest is needed.
 */
async function recordQuietPoll(db: DB, source: SourceRow, app: Pick<AppRow, 'store'>, result: PollResult, incoming: NormalizedReview[], opts: IngestOptions): Promise<IngestOutcome | null | 'changes'> {
  if (!source.last_success_at) return 'changes'; // first poll: welcomes may be waiting
  // Dated after the newest review of the last complete poll: new or edited since, so the full ingest is needed (and
  // reads what is stored itself) — comparing first would only read the same rows twice.
  const watermark = source.watermark?.getTime();
  if (watermark !== undefined && incoming.some((r) => r.updatedAt.getTime() > watermark)) return 'changes';
  const existing = await loadExisting(db, app.store, incoming.map((r) => r.storeReviewId));
  const changed = incoming.some((r) => {
    const old = existing.get(r.storeReviewId);
    return !old || changesStored(r, old);
  });
  if (changed) return 'changes';
  const next = newWatermark(source.watermark, source.created_at, result, incoming);
  if (!(await finishPoll(db, source.id, opts.workerId, next, opts.intervalSeconds))) return null;
  return { fetched: incoming.length, inserted: 0, edited: 0, deliveries: 0, welcomed: 0, watermark: next };
}

/** review_id null: a review stored in the same statement (storeAndFinishPoll), found by its store id. */
type DeliveryInsert = { destination_id: string; review_id: number | null; store_review_id: string | null; app_key: string; kind: 'new' | 'updated'; review_version: number };

/** A review to announce; id null: stored by storeAndFinishPoll, referred to by its store id until then. */
type Announced = { id: number | null; review: NormalizedReview };

/** Is a review this poll stores for the first time announced as new? A review dated only by its page (no date of its own) cannot be told from history on a first poll. */
function announces(r: NormalizedReview, source: Pick<SourceRow, 'watermark' | 'created_at'>): boolean {
  return !(r.dateFromPage && !source.watermark) && isAnnouncedAsNew(r.updatedAt, source);
}

/** A stored review whose developer reply the store shows changed (and the poll is not older than what is stored). */
function replyChanged(r: NormalizedReview, old: ExistingReview): boolean {
  return r.replyText !== old.reply_text && r.updatedAt.getTime() >= old.updated_at.getTime();
}

/** The poll brings something to write about a review already stored: an edit or a changed reply. */
function changesStored(r: NormalizedReview, old: ExistingReview): boolean {
  return isEdit(r, old) || replyChanged(r, old);
}

/**
 * The common poll with news — one batch of new reviews, no welcome waiting (a welcome picks from the reviews stored
 * before it), no model to queue the reviews for, a bounded fan-out — stores its new reviews with their deliveries and
 * the reschedule in one statement (storeAndFinishPoll): a round trip less.
 */
function storesTogether(source: Pick<SourceRow, 'country'>, fresh: NormalizedReview[], existing: Map<string, ExistingReview>, destinations: ActiveDestination[], filtersOf: DestinationFilters[]): boolean {
  return (
    fresh.length > 0 &&
    fresh.length <= CHUNK &&
    (fresh.length + existing.size) * destinations.length <= DELIVERY_CHUNK &&
    !refinesSentiment() &&
    !destinations.some((d, i) => !d.welcomed_at && wantsStorefront(filtersOf[i], source.country))
  );
}

/** One delivery per (announced or edited review × destination that wants it), oldest first within the poll, so a channel reads in the order reviews were written. */
function fanOut(
  appKey: string,
  destinations: ActiveDestination[],
  filtersOf: DestinationFilters[],
  announced: Announced[],
  edits: Array<StoredReview & { version: number }>,
  editTags: Map<number, string[]> = new Map(),
): DeliveryInsert[] {
  const rows: DeliveryInsert[] = [];
  for (const [i, d] of destinations.entries()) {
    for (const a of announced) {
      if (isNewFor(a.review.updatedAt, d.subscribed_at) && matchesFilters(filtersOf[i], a.review)) {
        rows.push({ destination_id: d.id, review_id: a.id, store_review_id: a.id === null ? a.review.storeReviewId : null, app_key: appKey, kind: 'new', review_version: 0 });
      }
    }
    for (const e of edits) {
      if (matchesFilters(filtersOf[i], { ...e.review, tags: editTags.get(e.id) })) rows.push({ destination_id: d.id, review_id: e.id, store_review_id: null, app_key: appKey, kind: 'updated', review_version: e.version });
    }
  }
  return rows.reverse();
}

/**
 * The common poll with news (storesTogether: new reviews only — no edit, no reply changed — on a source that has
 * polled before, outside a switch of sources) in two statements and no transaction: what is stored and the app's
 * destinations read without the lock, then the reviews, their deliveries and the reschedule written in one statement
 * that takes the app's lock only if nobody wrote the app's reviews or subscriptions since the read (storeAndFinishPoll
 * with `seen`). The locked path was five round trips — BEGIN, the locks, the read, the write, COMMIT — each of which
 * this process pays for (bench/poll-cpu.ts). Anything else, or a write in between, takes the locked path ('locked').
 */
async function storeWithoutLock(db: DB, source: SourceRow, app: Pick<AppRow, 'store'>, result: PollResult, incoming: NormalizedReview[], opts: IngestOptions): Promise<IngestOutcome | null | 'locked'> {
  if (!source.last_success_at) return 'locked'; // first poll: welcomes may be waiting, nothing is announced yet
  const { existing, destinations, app: seen } = await loadStoredAndDestinations(db, source, app.store, incoming.map((r) => r.storeReviewId));
  if (!seen || seen.switching) return 'locked';
  if (incoming.some((r) => existing.has(r.storeReviewId) && changesStored(r, existing.get(r.storeReviewId)!))) return 'locked';
  const fresh = incoming.filter((r) => !existing.has(r.storeReviewId));
  const filtersOf = destinations.map((d) => readFilters(d.filters));
  if (!storesTogether(source, fresh, existing, destinations, filtersOf)) return 'locked';
  const announced: Announced[] = fresh.filter((r) => announces(r, source)).map((review) => ({ id: null, review }));
  const rows = fanOut(source.app_key, destinations, filtersOf, announced, []);
  const watermark = newWatermark(source.watermark, source.created_at, result, incoming);
  const stored = await storeAndFinishPoll(db, source, opts, watermark, app.store, fresh, rows, seen);
  if (!stored) return 'locked';
  return { fetched: incoming.length, inserted: stored.reviews, edited: 0, deliveries: stored.deliveries, welcomed: 0, watermark };
}

/**
 * Stores one poll's result. Returns null — and changes nothing — when this worker no longer holds the source's lease
 * (it expired and another worker took over; that worker's poll will store the same reviews).
 * A review the database refuses (a value the adapters' cleanText did not foresee) does not fail the poll: the others
 * are stored without it and it is logged with the database's reason (unstorable.ts). Nothing was written by the failed
 * attempt (one statement, or one transaction), so the second one starts from the same state.
 */
export async function ingestPollResult(db: DB, source: SourceRow, app: Pick<AppRow, 'store'>, result: PollResult, opts: IngestOptions): Promise<IngestOutcome | null> {
  const outcome = await ingestWithoutRefused(db, source, app, result, opts);
  // Migration 0040's triggers queued what was stored or edited for the organisations' rules (server/rules/jobs.ts).
  if (outcome && (outcome.inserted > 0 || outcome.edited > 0)) wake('rules');
  return outcome;
}

async function ingestWithoutRefused(db: DB, source: SourceRow, app: Pick<AppRow, 'store'>, result: PollResult, opts: IngestOptions): Promise<IngestOutcome | null> {
  try {
    return await ingestOnce(db, source, app, result, opts);
  } catch (err) {
    if (!isDataError(err)) throw err;
    await prepareEnrichment(); // the trial's insert enriches, as the ingest's does
    const refused = await findRefusedReviews(db, err, uniqueForStore(result, app.store), async (trx, rows) =>
      (await insertReviewsSql(source.app_key, app.store, rows)).execute(trx),
    );
    if (refused.length === 0) throw err;
    for (const { review, reason } of refused) {
      log.error('review not stored: the database refused it', { sourceId: source.id, kind: source.kind, app: source.app_key, storeReviewId: review.storeReviewId, reason });
    }
    const skip = new Set(refused.map((r) => r.review.storeReviewId));
    return ingestOnce(db, source, app, { ...result, reviews: result.reviews.filter((r) => !skip.has(r.storeReviewId)) }, opts);
  }
}

async function ingestOnce(db: DB, source: SourceRow, app: Pick<AppRow, 'store'>, result: PollResult, opts: IngestOptions): Promise<IngestOutcome | null> {
  const incoming = uniqueForStore(result, app.store);
  const quiet = await recordQuietPoll(db, source, app, result, incoming, opts);
  if (quiet !== 'changes') return quiet;
  await prepareEnrichment(); // once per process, seconds: never inside the transaction below
  const unlocked = await storeWithoutLock(db, source, app, result, incoming, opts);
  if (unlocked !== 'locked') return unlocked;
  return db.transaction().execute(async (trx) => {
    // The app's row lock (as lockApp in apps.ts takes it: every writer of the app's reviews and subscriptions takes it
    // first, bumping the app's write count) and the source's. Everything read after it sees what the writers before
    // us committed.
    const [owned] = (
      await sql<{ id: number; watermark: Date | null; created_at: Date; switching: boolean }>`${PREPARED}
        with a as (${appLockSql(source.app_key)})
        select s.id, s.watermark, s.created_at, ${SWITCHING_SQL} as switching
          from monitored_sources s
         where s.id = ${source.id} and s.lease_owner = ${opts.workerId} and exists (select 1 from a)
           for update of s`.execute(trx)
    ).rows;
    if (!owned) return null;

    // Destinations read after the app lock: one created meanwhile either committed before it (and is fanned out to
    // here) or waits for it (and its welcome sees these reviews).
    const { existing, destinations } = await loadStoredAndDestinations(trx, source, app.store, incoming.map((r) => r.storeReviewId));

    const ids = incoming.map((r) => r.storeReviewId);
    // A review read under another source's id before a switch of sources is the same review, not a new one.
    const unknown = incoming.filter((r) => !existing.has(r.storeReviewId));
    const fresh = owned.switching ? await adoptSameReviews(trx, source, unknown, ids, existing) : unknown;
    const filtersOf = destinations.map((d) => readFilters(d.filters));
    const together = storesTogether(source, fresh, existing, destinations, filtersOf);
    const announced: Announced[] = [];
    let inserted = 0;
    if (together) {
      for (const r of fresh) if (announces(r, owned)) announced.push({ id: null, review: r });
    } else {
      for (const part of chunks(fresh)) {
        const rows = await insertReviews(trx, source.app_key, app.store, part);
        inserted += rows.length;
        const byId = new Map(part.map((r) => [r.storeReviewId, r]));
        for (const row of rows) {
          const r = byId.get(row.store_review_id)!;
          if (announces(r, owned)) announced.push({ id: row.id, review: r });
        }
      }
    }

    const edits: Array<StoredReview & { version: number }> = [];
    const repliesChanged: number[] = [];
    for (const r of incoming) {
      const old = existing.get(r.storeReviewId);
      if (!old) continue;
      if (isEdit(r, old)) {
        await trx
          .insertInto('review_versions')
          .values({ review_id: old.id, version: old.version, rating: old.rating, title: old.title, body: old.body, updated_at: old.updated_at })
          .onConflict((oc) => oc.columns(['review_id', 'version']).doNothing())
          .execute();
        const { app_key: _a, store: _s, store_review_id: _i, ...fields } = reviewValues(source.app_key, r);
        const [enrichment] = await enrichReviews([fields]);
        await trx
          .updateTable('reviews')
          .set({ ...fields, ...enrichment, version: old.version + 1, last_changed_at: sql`now()` })
          .where('id', '=', old.id)
          .execute();
        await queueSentimentRefinement(trx, [old.id]);
        edits.push({ id: old.id, review: r, version: old.version + 1 });
        if (r.replyText !== old.reply_text) repliesChanged.push(old.id);
      } else if (replyChanged(r, old)) {
        repliesChanged.push(old.id);
        // A developer reply changes nothing worth announcing; keep it current for the dashboard and the API.
        await trx
          .updateTable('reviews')
          .set({ reply_text: r.replyText, reply_updated_at: r.replyUpdatedAt, last_changed_at: sql`now()` })
          .where('id', '=', old.id)
          .execute();
      }
    }

    // Replies sent through ARB that the store now shows are published (server/replies).
    await confirmPublished(trx, repliesChanged);
    // The queue (server/workflow): an edit of a replied or done review needs a reply again; a reply the store shows
    // makes it replied (in that order: an edit that comes with a new reply is answered).
    await onReviewsEdited(trx, edits.map((e) => e.id));
    await onRepliesShown(trx, repliesChanged);

    let welcomed = 0;
    const waiting = destinations.some((d, i) => !d.welcomed_at && wantsStorefront(filtersOf[i], source.country));
    const unread = waiting ? await unreadStorefronts(trx, source) : [];
    for (const [i, d] of destinations.entries()) {
      const filters: DestinationFilters = filtersOf[i];
      if (!d.welcomed_at && welcomeDueAfter(filters, source, unread)) {
        // Welcome first, so its intro gets the lower delivery id and reaches the channel before anything else.
        await queueWelcome(trx, { destinationId: d.id, appKey: source.app_key, filters, count: d.welcome_count, backfill: d.backfill });
        welcomed++;
      }
    }
    // An edited review goes to a destination filtered by tags when it has one of them (new reviews have none yet).
    const editTags = edits.length && filtersOf.some((f) => f.tags?.length) ? await tagIdsOfReviews(edits.map((e) => e.id), trx) : undefined;
    const rows = fanOut(source.app_key, destinations, filtersOf, announced, edits, editTags);
    const watermark = newWatermark(owned.watermark, owned.created_at, result, incoming);
    let deliveries = 0;
    if (together) {
      const stored = (await storeAndFinishPoll(trx, source, opts, watermark, app.store, fresh, rows))!;
      inserted = stored.reviews;
      deliveries = stored.deliveries;
    } else {
      const parts = chunks(rows, DELIVERY_CHUNK);
      const last = parts.pop() ?? [];
      for (const part of parts) deliveries += await insertDeliveries(trx, part);
      // The lease is ours (row locked above). The last deliveries go in with it: one statement less per poll with news.
      deliveries += await finishPollWithDeliveries(trx, source.id, opts.workerId, watermark, opts.intervalSeconds, last);
    }

    return { fetched: incoming.length, inserted, edited: edits.length, deliveries, welcomed, watermark };
  });
}
