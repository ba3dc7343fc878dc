/**
 * Public App Store reviews: the customer-reviews RSS feed in its JSON variant, one storefront (country) at a time.
 *   {ITUNES_BASE_URL}/{cc}/rss/customerreviews/page={1..10}/id={appId}/sortby=mostrecent/json
 * 50 entries a page, 10 pages at most. The feed's traps (store-sources.md), each handled here:
 * - an entry carrying `im:name` is the app itself, not a review → skipped;
 * - a page with a single entry carries it as an object, not an array → normalised to an array;
 * - the feed intermittently answers an empty page → retried once; if it is still empty where reviews are known to
 *   exist, the poll reports complete: false so the engine keeps its watermark instead of skipping what it did not see;
 * - entries without their own `updated` date (the feed had none in 2018–2020) → dated with the page's own `updated`
 *   (see feedDateFallback for when that is safe);
 * - a page whose entries yield no review at all is a format change, never "no new reviews" → SourceFormatError.
 */
import { isAppStoreAppId } from '@/shared/appIds';
import { env } from '../env';
import { cleanReview } from './cleanText';
import { isPastWatermark, newestFirstUnique, parseJson, sourceFetch } from './http';
import { SourceError, SourceFormatError, type NormalizedReview, type PollOptions, type PollResult, type SourceAdapter, type SourceConfig } from './types';

const SERVICE = 'The App Store reviews feed';
export const FEED_PAGE_SIZE = 50;
export const FEED_MAX_PAGES = 10;

type Label = { label?: string };
type FeedLink = { attributes?: { rel?: string; href?: string } };
export type FeedEntry = {
  id?: Label & { attributes?: Record<string, string> };
  'im:name'?: Label;
  title?: Label;
  content?: Label & { attributes?: { type?: string } };
  author?: { name?: Label; uri?: Label };
  updated?: Label;
  'im:rating'?: Label;
  'im:version'?: Label;
  link?: FeedLink | FeedLink[];
};
export type FeedDocument = { feed?: { entry?: FeedEntry | FeedEntry[]; link?: FeedLink | FeedLink[]; updated?: Label } };

type ParsedPage = {
  /** Every entry the page carried, the app entry included: a page with fewer than 50 is the last one. */
  entryCount: number;
  /** Entries that are reviews (not the app entry) but could not be read as one. */
  unreadable: number;
  reviews: NormalizedReview[];
  /** The page number of the feed's `rel="last"` link, when it gives one. */
  lastPage: number | null;
  /** The feed's own `updated` date (when Apple generated the page), when it parses. */
  feedUpdated: Date | null;
};

function asArray<T>(value: T | T[] | undefined): T[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}

export function appStorePageUrl(appId: string, country: string): string {
  return `https://apps.apple.com/${country}/app/id${appId}?see-all=reviews`;
}

function parseDate(label: string | undefined): Date | null {
  if (!label) return null;
  const date = new Date(label);
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * The date given to entries that carry no `updated` of their own: the date of the page (when Apple generated it), and
 * only where that is safe.
 *  - It is an upper bound: every review on the page was written at or before it. Never later than our clock either,
 *    or a feed clock running ahead would push the watermark into the future and stop later polls after page 1.
 *  - With a watermark it decides nothing dangerous: the engine already stored what the feed showed before, so an id
 *    it has not seen is new anyway, and a known id with the same text is not an edit whatever its date.
 *  - Without a watermark (a source's first poll) dates alone separate history from new reviews, and the page date is
 *    later than the source's creation: such reviews carry `dateFromPage` and the engine stores them as history.
 *  - No page date, no fallback: the entries stay unreadable, and a page of only those is a format error.
 */
export function feedDateFallback(feedUpdated: Date | null, now = new Date()): Date | null {
  if (!feedUpdated) return null;
  return feedUpdated.getTime() > now.getTime() ? now : feedUpdated;
}

function toReview(entry: FeedEntry, appId: string, country: string, pageDate: Date | null): NormalizedReview | null {
  const id = entry.id?.label?.trim();
  const rating = Number.parseInt(entry['im:rating']?.label ?? '', 10);
  const ownDate = parseDate(entry.updated?.label);
  const updatedAt = ownDate ?? pageDate;
  // A malformed entry is skipped rather than failing the whole page: one odd review must not block the others.
  if (!id || !(rating >= 1 && rating <= 5) || !updatedAt) return null;
  return cleanReview({
    store: 'apple_app_store',
    appId,
    storeReviewId: id,
    country,
    language: null,
    authorName: entry.author?.name?.label ?? '',
    title: entry.title?.label || null,
    body: entry.content?.label ?? '',
    rating,
    appVersion: entry['im:version']?.label || null,
    createdAt: null,
    updatedAt,
    replyText: null, // the feed never carries developer replies
    replyUpdatedAt: null,
    permalink: appStorePageUrl(appId, country),
    ...(ownDate ? {} : { dateFromPage: true }),
  });
}

/**
 * One page of the feed. `pageDate` dates the entries that carry no date of their own (see feedDateFallback); by
 * default the page's own date, but a poll passes its first page's date to every page so that one poll's undated
 * reviews share one date and keep the feed's order.
 */
export function parseFeedPage(doc: FeedDocument, appId: string, country: string, pageDate?: Date | null): ParsedPage {
  const entries = asArray(doc.feed?.entry);
  const feedUpdated = parseDate(doc.feed?.updated?.label);
  const fallback = pageDate === undefined ? feedDateFallback(feedUpdated) : pageDate;
  const reviews: NormalizedReview[] = [];
  let unreadable = 0;
  for (const entry of entries) {
    if (entry['im:name']) continue; // the app itself
    const review = toReview(entry, appId, country, fallback);
    if (review) reviews.push(review);
    else unreadable++;
  }
  const last = asArray(doc.feed?.link).find((l) => l.attributes?.rel === 'last')?.attributes?.href;
  const match = last ? /\/page=(\d+)\//.exec(last) : null;
  return { entryCount: entries.length, unreadable, reviews, lastPage: match ? Number(match[1]) : null, feedUpdated };
}

function validate(config: SourceConfig): { appId: string; country: string } {
  const appId = config.appId.trim();
  const country = (config.country ?? '').trim().toLowerCase();
  if (!isAppStoreAppId(appId)) throw new SourceError(`"${config.appId}" is not an App Store app id (digits)`, true);
  if (!/^[a-z]{2}$/.test(country)) throw new SourceError('The App Store feed needs a two-letter storefront country', true);
  return { appId, country };
}

export function feedPageUrl(appId: string, country: string, page: number): string {
  const base = env().ITUNES_BASE_URL.replace(/\/$/, '');
  return `${base}/${country}/rss/customerreviews/page=${page}/id=${appId}/sortby=mostrecent/json`;
}

async function fetchPage(appId: string, country: string, page: number, pageDate: Date | null | undefined, signal?: AbortSignal): Promise<ParsedPage> {
  // 400/404: Apple answers these for an id or storefront that does not exist.
  const res = await sourceFetch(feedPageUrl(appId, country, page), { service: SERVICE, signal, permanentStatuses: [400, 404] });
  // An empty body is the same glitch as an empty page: treat it as a page without entries.
  if (res.text.trim() === '') return { entryCount: 0, unreadable: 0, reviews: [], lastPage: null, feedUpdated: null };
  const parsed = parseFeedPage(parseJson<FeedDocument>(res.text, SERVICE), appId, country, pageDate);
  if (parsed.reviews.length === 0 && parsed.unreadable > 0) {
    throw new SourceFormatError(
      `${SERVICE} changed its format: page ${page} has ${parsed.unreadable} entries and none with an id, a rating from 1 to 5 and a date`,
    );
  }
  return parsed;
}

export const appStoreFeedAdapter: SourceAdapter = {
  kind: 'appstore_feed',
  async poll(config: SourceConfig, options: PollOptions = {}): Promise<PollResult> {
    const { appId, country } = validate(config);
    const maxPages = Math.min(Math.max(options.maxPages ?? FEED_MAX_PAGES, 1), FEED_MAX_PAGES);
    const since = options.since ?? null;
    const collected: NormalizedReview[] = [];
    let declaredLast: number | null = null;
    let complete = true;
    // Undated entries of every page take the first page's date (see parseFeedPage).
    let pageDate: Date | null | undefined;

    for (let page = 1; page <= maxPages; page++) {
      let parsed = await fetchPage(appId, country, page, pageDate, options.signal);
      if (parsed.reviews.length === 0) parsed = await fetchPage(appId, country, page, pageDate, options.signal);
      if (pageDate === undefined && parsed.entryCount > 0) pageDate = feedDateFallback(parsed.feedUpdated);

      if (parsed.reviews.length === 0) {
        if (page === 1) {
          // Empty twice. With no watermark this is an app without reviews in this storefront; with one, reviews were
          // seen before, so this is the glitch: say so rather than let the engine believe nothing happened.
          complete = since == null;
        } else {
          // We only get here after a full page. The feed told us how many pages it has: an empty page inside that
          // range is the glitch; past it, the feed simply ended.
          complete = !(declaredLast != null && page <= declaredLast);
        }
        break;
      }

      declaredLast = parsed.lastPage ?? declaredLast;
      collected.push(...parsed.reviews);
      if (parsed.reviews.some((r) => isPastWatermark(r.updatedAt, since))) break;
      if (parsed.entryCount < FEED_PAGE_SIZE) break;
      if (declaredLast != null && page >= declaredLast) break;
      if (page === maxPages && maxPages < FEED_MAX_PAGES && since != null) {
        // The caller's page budget ran out before the watermark while the feed has more: reviews were left unread.
        complete = false;
      }
    }

    return { reviews: newestFirstUnique(collected), complete };
  },
};
