/**
 * The reviews an e-mail is made of. They come from the monitoring engine's store: the app's source is registered
 * (so it keeps being polled for the digest) and polled now when it has not been read recently, so "recent reviews"
 * means recent.
 */
import { sql, type Selectable } from 'kysely';
import { getDb } from '../db/client';
import type { ReviewsTable } from '../db/types';
import { addSource, appKey, pollNow, type AppRef } from '../monitor/service';
import type { ReviewMessageInput, Sentiment } from '../destinations/types';
import type { AppStore, NormalizedReview } from '../sources/types';

/** A source read less than this long ago is fresh enough for an e-mail. */
const FRESH_MS = 10 * 60_000;
/** How long to wait for another worker that is polling the same source right now. */
const WAIT_FOR_OTHER_POLL_MS = 30_000;

export class ReviewsUnavailableError extends Error {}

/** iOS: the storefront's feed; Google Play: public reviews in English (the store filters them by language). */
export async function ensureFreshReviews(app: AppRef, country: string): Promise<void> {
  const source =
    app.store === 'apple_app_store'
      ? await addSource({ ...app, kind: 'appstore_feed', country: country || 'us' })
      : await addSource({ ...app, kind: 'play_public', language: 'en' });
  if (source.last_success_at && Date.now() - source.last_success_at.getTime() < FRESH_MS) return;

  const started = new Date();
  const outcome = await pollNow(Number(source.id));
  if (outcome && outcome.ok) return;
  if (outcome && !outcome.ok) {
    if (source.last_success_at) return; // read before: what is stored is still worth sending
    throw new ReviewsUnavailableError(`The store could not be read (${outcome.error}).`);
  }
  // Another worker holds the source (the engine's poll loop picked it up first): wait for its poll to finish.
  const db = await getDb();
  const deadline = Date.now() + WAIT_FOR_OTHER_POLL_MS;
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200));
    const row = await db.selectFrom('monitored_sources').select(['last_success_at', 'lease_until', 'last_error']).where('id', '=', source.id).executeTakeFirstOrThrow();
    if (row.last_success_at && row.last_success_at >= started) return;
    if (!row.lease_until || row.lease_until < new Date()) {
      if (row.last_success_at) return;
      throw new ReviewsUnavailableError(`The store could not be read (${row.last_error ?? 'no answer'}).`);
    }
  }
  throw new ReviewsUnavailableError('The store took too long to answer.');
}

const COLUMNS = [
  'id', 'store_review_id', 'country', 'language', 'author_name', 'title', 'body', 'rating', 'app_version', 'written_at', 'updated_at',
  'permalink', 'sentiment', 'sentiment_score', 'first_seen_at',
] as const;

/** A review as the e-mails read it: the COLUMNS of its row, typed from the table so the two cannot drift apart. */
export type StoredReview = Pick<Selectable<ReviewsTable>, (typeof COLUMNS)[number]>;

/** The newest reviews of the app (of one storefront when `country` is set), newest first. */
export async function recentReviews(app: AppRef, country: string, limit: number): Promise<StoredReview[]> {
  const db = await getDb();
  let q = db.selectFrom('reviews').select([...COLUMNS]).where('app_key', '=', appKey(app));
  if (country) q = q.where('country', '=', country);
  const rows = await q.orderBy('updated_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}

/**
 * Reviews first stored after `after` and no later than `until`, oldest first. `until` trails the clock a little
 * (DIGEST_SETTLE_MS) so a poll transaction that started before it but commits after it is not skipped.
 */
export async function reviewsFirstSeenBetween(app: AppRef, country: string, after: Date, until: Date, limit: number): Promise<{ reviews: StoredReview[]; total: number }> {
  const db = await getDb();
  let q = db.selectFrom('reviews').where('app_key', '=', appKey(app)).where('first_seen_at', '>', after).where('first_seen_at', '<=', until);
  if (country) q = q.where('country', '=', country);
  const total = await q.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
  const rows = await q.select([...COLUMNS]).orderBy('first_seen_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  return { reviews: rows.map((r) => ({ ...r, id: Number(r.id) })).reverse(), total: total.n };
}

/** The formatters' input (server/destinations/format/view.ts), so an e-mail says what a chat message would. */
export function toMessageInput(app: { store: AppStore; appId: string; title: string; iconUrl: string | null; storeUrl: string | null }, r: StoredReview): ReviewMessageInput {
  const review: NormalizedReview = {
    store: app.store,
    appId: app.appId,
    storeReviewId: r.store_review_id,
    country: r.country,
    language: r.language,
    authorName: r.author_name,
    title: r.title,
    body: r.body,
    rating: r.rating,
    appVersion: r.app_version,
    createdAt: r.written_at,
    updatedAt: r.updated_at,
    replyText: null,
    replyUpdatedAt: null,
    permalink: r.permalink,
  };
  const sentiment: Sentiment | null =
    r.sentiment === 'positive' || r.sentiment === 'neutral' || r.sentiment === 'negative' ? { label: r.sentiment, score: r.sentiment_score ?? 0 } : null;
  return { kind: 'new', review, app: { appId: app.appId, store: app.store, title: app.title, iconUrl: app.iconUrl, storeUrl: app.storeUrl }, sentiment };
}
