/**
 * The iTunes Search API (public, no key): `/search` to find apps by name, `/lookup` for one app's details.
 * Answers are `{ resultCount, results: [...] }` sent as text/javascript; every field may be missing on some apps
 * (a new app has no averageUserRating), so each result is checked on its own and bad ones are skipped.
 */
import { z } from 'zod';
import { env } from '../env';
import { StoreError, fetchUpstream } from './upstream';
import { cleanStrings } from '../sources/cleanText';
import { countOrNull, roundRating, type AppDetails, type AppSummary } from './types';

const STORE = 'apple_app_store' as const;

const itunesResult = z.looseObject({
  wrapperType: z.string().optional(),
  kind: z.string().optional(),
  trackId: z.number().int().positive(),
  trackName: z.string(),
  bundleId: z.string().optional(),
  artistName: z.string().optional(),
  sellerName: z.string().optional(),
  artworkUrl60: z.string().optional(),
  artworkUrl100: z.string().optional(),
  artworkUrl512: z.string().optional(),
  averageUserRating: z.number().optional(),
  userRatingCount: z.number().optional(),
  trackViewUrl: z.string().optional(),
  version: z.string().optional(),
  price: z.number().optional(),
  currency: z.string().optional(),
  primaryGenreName: z.string().optional(),
  description: z.string().optional(),
  currentVersionReleaseDate: z.string().optional(),
});

export type ItunesResult = z.infer<typeof itunesResult>;

const envelope = z.object({ resultCount: z.number(), results: z.array(z.unknown()) });

async function getItunes(path: string, params: Record<string, string>): Promise<ItunesResult[]> {
  const url = `${env().ITUNES_BASE_URL.replace(/\/$/, '')}${path}?${new URLSearchParams(params)}`;
  const res = await fetchUpstream(STORE, url, { Accept: 'application/json' });
  if (res.status === 400) {
    // iTunes names the rejected key: {"errorMessage":"Invalid value(s) for key(s): [country]", …}
    const rejected = /\[([a-z]+)\]/i.exec(res.text)?.[1];
    if (rejected === 'country') {
      throw new StoreError('bad_request', STORE, `the App Store has no storefront '${params.country}'`, 'country');
    }
    throw new StoreError('unavailable', STORE, `iTunes answered 400 for ${path}`);
  }
  if (res.status === 403 || res.status === 429) throw new StoreError('blocked', STORE, `iTunes answered ${res.status}`);
  if (res.status !== 200) throw new StoreError('unavailable', STORE, `iTunes answered ${res.status} for ${path}`);
  let body: unknown;
  try {
    body = JSON.parse(res.text);
  } catch {
    throw new StoreError('format', STORE, `iTunes ${path} did not answer JSON`);
  }
  const parsed = envelope.safeParse(body);
  if (!parsed.success) throw new StoreError('format', STORE, `iTunes ${path} answered an unknown shape`);
  const apps: ItunesResult[] = [];
  for (const raw of parsed.data.results) {
    const r = itunesResult.safeParse(raw);
    // entity=software still lets the odd non-app through (e.g. a developer record on lookup).
    if (r.success && (r.data.wrapperType === undefined || r.data.wrapperType === 'software')) apps.push(r.data);
  }
  return apps;
}

export async function searchItunes(input: { term: string; country: string; limit: number }): Promise<AppSummary[]> {
  const results = await getItunes('/search', {
    term: input.term,
    country: input.country,
    media: 'software',
    entity: 'software',
    limit: String(input.limit),
  });
  return results.map(toSummary);
}

/** One app by trackId in a storefront; null when the store does not have it there. */
export async function lookupItunes(input: { id: string; country: string }): Promise<AppDetails | null> {
  const results = await getItunes('/lookup', { id: input.id, country: input.country });
  const app = results.find((r) => String(r.trackId) === input.id);
  return app ? toDetails(app, input.country) : null;
}

export type StoreRatingFigure = { rating: number | null; ratings_count: number | null };

/**
 * The store's own rating of apps in one storefront, unrounded (server/storeRatings keeps its history): one lookup
 * for up to ITUNES_LOOKUP_IDS ids. An app the storefront does not sell is missing from the map; one nobody rated
 * there answers without the fields, or with 0: no rating.
 */
export async function itunesStoreRatings(input: { ids: readonly string[]; country: string }): Promise<Map<string, StoreRatingFigure>> {
  const out = new Map<string, StoreRatingFigure>();
  if (input.ids.length === 0) return out;
  const results = await getItunes('/lookup', { id: input.ids.join(','), country: input.country });
  for (const app of results) {
    const id = String(app.trackId);
    if (!input.ids.includes(id)) continue;
    const count = countOrNull(app.userRatingCount);
    const avg = app.averageUserRating;
    const rated = typeof avg === 'number' && Number.isFinite(avg) && avg > 0 && count !== 0;
    out.set(id, { rating: rated ? avg : null, ratings_count: count });
  }
  return out;
}

/** How many ids one lookup carries (iTunes takes a comma-separated list; its documented examples stop well below). */
export const ITUNES_LOOKUP_IDS = 50;

// The store's text cleaned of what the database refuses (server/sources/cleanText.ts): app names are stored.
function toSummary(r: ItunesResult): AppSummary {
  return cleanStrings({
    app_id: String(r.trackId),
    app_store: STORE,
    title: r.trackName,
    developer: r.artistName ?? r.sellerName ?? '',
    icon: r.artworkUrl512 ?? r.artworkUrl100 ?? r.artworkUrl60 ?? null,
    rating: roundRating(r.averageUserRating),
    ratings_count: countOrNull(r.userRatingCount),
  });
}

function toDetails(r: ItunesResult, country: string): AppDetails {
  const updated = r.currentVersionReleaseDate ? new Date(r.currentVersionReleaseDate) : null;
  return cleanStrings({
    ...toSummary(r),
    country,
    store_url: r.trackViewUrl ?? `https://apps.apple.com/${country}/app/id${r.trackId}`,
    bundle_id: r.bundleId ?? String(r.trackId),
    version: r.version ?? null,
    price: typeof r.price === 'number' ? r.price : null,
    currency: r.currency ?? null,
    genre: r.primaryGenreName ?? null,
    summary: r.description ? firstParagraph(r.description) : null,
    updated_at: updated && !Number.isNaN(updated.getTime()) ? updated.toISOString() : null,
  });
}

/** App Store descriptions are long; the first paragraph says what the app is. */
function firstParagraph(text: string): string {
  const first = text.split(/\n\s*\n/)[0].trim();
  return first.length > 300 ? `${first.slice(0, 297).trimEnd()}…` : first;
}
