/**
 * Our own Google Play client over the public store pages (there is no official search API):
 *   search  GET {GOOGLE_PLAY_BASE_URL}/store/search?q=…&c=apps&hl=…&gl=…
 *   details GET {GOOGLE_PLAY_BASE_URL}/store/apps/details?id=…&hl=…&gl=…
 * Parsing lives in googlePlayParse.ts. Play answers bursts with 429/503 or a redirect to its captcha ("sorry") page,
 * so requests are spaced by GOOGLE_PLAY_MIN_INTERVAL_MS and a captcha becomes a "busy, try again in a minute" answer.
 */
import { env } from '../env';
import { log } from '../log';
import { StoreError, fetchUpstream, type UpstreamResponse } from './upstream';
import { PlayFormatError, moreResultsLink, parsePlayDetails, parsePlayRating, parsePlaySearch, type PlayStoreRating } from './googlePlayParse';
import type { AppDetails, AppSummary } from './types';

const STORE = 'google_play_store' as const;
// Play serves its full pages (with the embedded data) to browsers; an unknown client can get a reduced page.
const HEADERS = {
  'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36',
  Accept: 'text/html,application/xhtml+xml',
  'Accept-Language': 'en-US,en;q=0.9',
};
const LANGUAGE = 'en';

const base = () => env().GOOGLE_PLAY_BASE_URL.replace(/\/$/, '');

let nextSlotAt = 0;

/** Space request starts by the configured interval; refuse (busy) rather than queue longer than a request may take. */
async function throttle(): Promise<void> {
  const interval = env().GOOGLE_PLAY_MIN_INTERVAL_MS;
  if (interval <= 0) return;
  const now = Date.now();
  const startAt = Math.max(now, nextSlotAt);
  if (startAt - now > env().APPS_UPSTREAM_TIMEOUT_MS) {
    throw new StoreError('blocked', STORE, 'too many Google Play requests are waiting');
  }
  nextSlotAt = startAt + interval;
  if (startAt > now) await new Promise((r) => setTimeout(r, startAt - now));
}

const looksLikeCaptcha = (text: string) => /\/sorry\/|unusual traffic|captcha-form/i.test(text);

/** A page, after throttling; 200 and 404 are returned, everything else becomes a StoreError. */
async function getPage(pathAndQuery: string): Promise<UpstreamResponse> {
  await throttle();
  let url = `${base()}${pathAndQuery}`;
  for (let hop = 0; ; hop++) {
    const res = await fetchUpstream(STORE, url, HEADERS);
    if (res.status >= 300 && res.status < 400) {
      if (!res.location || /\/sorry\//.test(res.location)) throw new StoreError('blocked', STORE, 'redirected to the captcha page');
      const next = new URL(res.location, url);
      if (next.origin !== new URL(base()).origin || hop >= 2) {
        throw new StoreError('unavailable', STORE, `unexpected redirect to ${next.origin}${next.pathname}`);
      }
      url = next.toString();
      continue;
    }
    if (res.status === 429 || (res.status === 503 && looksLikeCaptcha(res.text))) {
      throw new StoreError('blocked', STORE, `Google Play answered ${res.status}`);
    }
    if (res.status === 200 && looksLikeCaptcha(res.text) && !res.text.includes('AF_initDataCallback')) {
      throw new StoreError('blocked', STORE, 'Google Play answered its captcha page');
    }
    if (res.status === 200 || res.status === 404) return res;
    throw new StoreError('unavailable', STORE, `Google Play answered ${res.status}`);
  }
}

function formatError(err: unknown): never {
  if (err instanceof PlayFormatError) {
    // Ours to fix (a path in PLAY_PATHS moved): loud in the logs, a clear 502 for the person searching.
    log.error('google play page format not understood', { detail: err.message });
    throw new StoreError('format', STORE, err.message);
  }
  throw err;
}

export async function searchPlay(input: { term: string; country: string; limit: number }): Promise<AppSummary[]> {
  const query = new URLSearchParams({ q: input.term, c: 'apps', hl: LANGUAGE, gl: input.country });
  let res = await getPage(`/store/search?${query}`);
  if (res.status !== 200) throw new StoreError('unavailable', STORE, `Google Play search answered ${res.status}`);
  const more = moreResultsLink(res.text);
  if (more) {
    res = await getPage(more);
    if (res.status !== 200) throw new StoreError('unavailable', STORE, `Google Play result list answered ${res.status}`);
  }
  try {
    // Cards we could not read are our bug (a moved path): say so loudly, but still answer with what was readable.
    const onProblems = (problems: string[]) => log.error('google play search cards not understood', { problems });
    return parsePlaySearch(res.text, { onProblems }).slice(0, input.limit);
  } catch (err) {
    return formatError(err);
  }
}

export function playStoreUrl(appId: string): string {
  return `${base()}/store/apps/details?id=${encodeURIComponent(appId)}`;
}

/** One app's details; null when Play has no such app (its details page answers 404). */
export async function getPlayDetails(input: { appId: string; country: string }): Promise<AppDetails | null> {
  const query = new URLSearchParams({ id: input.appId, hl: LANGUAGE, gl: input.country });
  const res = await getPage(`/store/apps/details?${query}`);
  if (res.status === 404) return null;
  try {
    return parsePlayDetails(res.text, { appId: input.appId, country: input.country, storeUrl: playStoreUrl(input.appId) });
  } catch (err) {
    return formatError(err);
  }
}

/** The store's own rating of an app (server/storeRatings); null when Play has no such app. */
export async function getPlayStoreRating(input: { appId: string; country: string }): Promise<PlayStoreRating | null> {
  const query = new URLSearchParams({ id: input.appId, hl: LANGUAGE, gl: input.country });
  const res = await getPage(`/store/apps/details?${query}`);
  if (res.status === 404) return null;
  try {
    return parsePlayRating(res.text, input.appId);
  } catch (err) {
    return formatError(err);
  }
}
