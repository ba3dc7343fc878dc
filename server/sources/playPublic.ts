/**
 * Public Google Play reviews, newest first, in one language. Google offers no public API: this speaks the store web
 * app's own `batchexecute` RPC (rpc id UsvDTd) exactly as the google-play-scraper packages do.
 *   POST {GOOGLE_PLAY_BASE_URL}/_/PlayStoreUi/data/batchexecute?rpcids=UsvDTd&hl={lang}&gl=us&…
 *   body f.req=[[["UsvDTd","[null,null,[2,2,[150,null,<token|null>],null,[]],[\"<package>\",7]]",null,"generic"]]]
 * The answer starts with the `)]}'` anti-JSON-hijacking prefix; the review list is a JSON string inside the envelope.
 * `hl` (language) filters the reviews, `gl` (country) does not. Deep pages start repeating: reviews are deduped by id.
 */
import { env } from '../env';
import { cleanReview } from './cleanText';
import { isPastWatermark, newestFirstUnique, sourceFetch } from './http';
import { playReviewUrl, validPackageName } from './playDeveloper';
import { SourceError, SourceFormatError, type NormalizedReview, type PollOptions, type PollResult, type SourceAdapter, type SourceConfig } from './types';

const SERVICE = 'Google Play';
export const REVIEWS_RPC_ID = 'UsvDTd';
const SORT_NEWEST = 2;
export const PLAY_PUBLIC_PAGE_SIZE = 150;
const DEFAULT_MAX_PAGES = 5;

/** The f.req form value for one page of reviews (token null for the first page). */
export function reviewsRequestBody(packageName: string, token: string | null, count = PLAY_PUBLIC_PAGE_SIZE): string {
  const inner = JSON.stringify([null, null, [2, SORT_NEWEST, [count, null, token], null, []], [packageName, 7]]);
  return new URLSearchParams({ 'f.req': JSON.stringify([[[REVIEWS_RPC_ID, inner, null, 'generic']]]) }).toString();
}

export function reviewsRequestUrl(language: string): string {
  const base = env().GOOGLE_PLAY_BASE_URL.replace(/\/$/, '');
  const query = new URLSearchParams({
    rpcids: REVIEWS_RPC_ID,
    'source-path': '/store/apps/details',
    hl: language,
    gl: 'us',
    'soc-app': '121',
    'soc-platform': '1',
    'soc-device': '1',
  });
  return `${base}/_/PlayStoreUi/data/batchexecute?${query}`;
}

/**
 * The envelope entries of a batchexecute answer. Both framings occur: one JSON array after the prefix, or (`rt=c`)
 * chunks each preceded by a length line. The lengths are not trusted (they count bytes or characters depending on
 * the server build): each chunk is a JSON array on its own line, so lines are parsed instead.
 */
export function parseBatchExecute(text: string): unknown[][] {
  const rest = text.replace(/^\)\]\}'\s*/, '');
  const entries: unknown[][] = [];
  const take = (value: unknown) => {
    if (Array.isArray(value)) for (const e of value) if (Array.isArray(e)) entries.push(e as unknown[]);
  };
  if (rest.startsWith('[')) {
    take(JSON.parse(rest));
    return entries;
  }
  for (const line of rest.split('\n')) if (line.startsWith('[')) take(JSON.parse(line));
  return entries;
}

type Tuple = unknown[] | null | undefined;
const at = (v: unknown, ...path: number[]): unknown => {
  let cur: unknown = v;
  for (const i of path) {
    if (!Array.isArray(cur)) return undefined;
    cur = cur[i];
  }
  return cur;
};

function tupleDate(v: unknown): Date | null {
  const seconds = at(v, 0);
  if (typeof seconds !== 'number') return null;
  const nanos = at(v, 1);
  return new Date(seconds * 1000 + (typeof nanos === 'number' ? Math.floor(nanos / 1e6) : 0));
}

export type PlayPublicPage = { reviews: NormalizedReview[]; nextToken: string | null };

/** One page: [reviews, [null, token]]; each review [id, [name, …], score, null, text, [sec, nanos], thumbs, reply, …, version]. */
export function parseReviewsPage(text: string, packageName: string, language: string | null): PlayPublicPage {
  let entries: unknown[][];
  try {
    entries = parseBatchExecute(text);
  } catch {
    throw new SourceError(`${SERVICE} sent a reviews answer that could not be read`, false);
  }
  const envelope = entries.find((e) => e[0] === 'wrb.fr' && e[1] === REVIEWS_RPC_ID);
  if (!envelope) throw new SourceError(`${SERVICE} sent an answer without the reviews`, false);
  // No payload: an app without reviews in this language (or one Google does not know).
  if (typeof envelope[2] !== 'string') return { reviews: [], nextToken: null };
  let data: unknown;
  try {
    data = JSON.parse(envelope[2]);
  } catch {
    throw new SourceError(`${SERVICE} sent a reviews payload that is not JSON`, false);
  }
  const list = (at(data, 0) as Tuple) ?? [];
  const reviews: NormalizedReview[] = [];
  for (const item of Array.isArray(list) ? list : []) {
    const id = at(item, 0);
    const rating = at(item, 2);
    const updatedAt = tupleDate(at(item, 5));
    if (typeof id !== 'string' || typeof rating !== 'number' || !(rating >= 1 && rating <= 5) || !updatedAt) continue;
    const replyText = at(item, 7, 1);
    const version = at(item, 10);
    const author = at(item, 1, 0);
    const body = at(item, 4);
    reviews.push(cleanReview({
      store: 'google_play_store',
      appId: packageName,
      storeReviewId: id,
      country: null,
      language,
      authorName: typeof author === 'string' ? author : '',
      title: null, // Play reviews have no title
      body: typeof body === 'string' ? body : '',
      rating,
      appVersion: typeof version === 'string' && version ? version : null,
      createdAt: null,
      updatedAt,
      replyText: typeof replyText === 'string' && replyText ? replyText : null,
      replyUpdatedAt: typeof replyText === 'string' && replyText ? tupleDate(at(item, 7, 2)) : null,
      permalink: playReviewUrl(packageName, id),
    }));
  }
  if (Array.isArray(list) && list.length > 0 && reviews.length === 0) {
    // Entries without a single readable review: Google moved a field. Not "no reviews", or the watermark would move on.
    throw new SourceFormatError(`${SERVICE} changed the format of its reviews: ${list.length} entries, none with an id, a rating and a date`);
  }
  const token = at(data, 1, 1);
  return { reviews, nextToken: typeof token === 'string' && token ? token : null };
}

export const playPublicAdapter: SourceAdapter = {
  kind: 'play_public',
  async poll(config: SourceConfig, options: PollOptions = {}): Promise<PollResult> {
    const pkg = validPackageName(config.appId);
    const language = (config.language ?? 'en').trim() || 'en';
    if (!/^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})*$/.test(language)) {
      throw new SourceError(`"${config.language}" is not a language code (like en or pt-BR)`, true);
    }
    const since = options.since ?? null;
    const maxPages = Math.max(options.maxPages ?? DEFAULT_MAX_PAGES, 1);
    const seen = new Set<string>();
    const collected: NormalizedReview[] = [];
    let token: string | null = null;
    let pages = 0;
    let reachedWatermark = false;
    do {
      const res = await sourceFetch(reviewsRequestUrl(language), {
        method: 'POST',
        service: SERVICE,
        signal: options.signal,
        headers: { 'Content-Type': 'application/x-www-form-urlencoded;charset=UTF-8', Accept: '*/*' },
        body: reviewsRequestBody(pkg, token),
      });
      pages++;
      const page = parseReviewsPage(res.text, pkg, language);
      const fresh = page.reviews.filter((r) => !seen.has(r.storeReviewId));
      fresh.forEach((r) => seen.add(r.storeReviewId));
      collected.push(...fresh);
      token = page.nextToken;
      if (page.reviews.some((r) => isPastWatermark(r.updatedAt, since))) {
        reachedWatermark = true;
        break;
      }
      // A page of nothing but repeats means the listing has started over: there is nothing further to read.
      if (page.reviews.length > 0 && fresh.length === 0) {
        token = null;
        break;
      }
    } while (token && pages < maxPages);

    const complete = since == null || reachedWatermark || !token;
    return { reviews: newestFirstUnique(collected), complete };
  },
};
