/**
 * Fake of the iTunes Search API (itunes.apple.com): `/search` and `/lookup`, answering the real shape
 * `{ resultCount, results: [...] }` as text/javascript with the real leading newlines, and the real 400 for an unknown
 * storefront. Apps come from a catalog (tests/fixtures/catalog.ts, built from tests/fixtures/itunes/*.json) that a test
 * may extend while the fake runs. Paths that are not ours are left to other handlers on the same host (the App Store
 * review feed lives there too).
 *
 *   const catalog = createDemoCatalog();
 *   const itunes = await startFakeServer([itunesRoutes(catalog)]);
 */
import { randomUUID } from 'node:crypto';
import type http from 'node:http';
import type { FakeHandler, RecordedRequest } from './http';

/** One iTunes result object as the API sends it (the fields we read, plus whatever else the fixture carries). */
export type ItunesApp = {
  wrapperType: 'software';
  kind: 'software';
  trackId: number;
  trackName: string;
  bundleId: string;
  artistName: string;
  artworkUrl60: string;
  artworkUrl100: string;
  artworkUrl512: string;
  trackViewUrl: string;
  version: string;
  price: number;
  currency: string;
  averageUserRating?: number;
  userRatingCount?: number;
  primaryGenreName?: string;
  description?: string;
  [field: string]: unknown;
};

/**
 * `storefronts[country][trackId]`: how an app differs in one storefront (the real lookup answers each storefront's
 * own `averageUserRating` and `userRatingCount`); null: not sold there (left out of the results, as iTunes does).
 */
export type ItunesCatalog = { itunes: ItunesApp[]; storefronts?: Record<string, Record<string, Partial<ItunesApp> | null>> };

// The App Store's storefronts (alpha-2). A code outside this list gets the real 400 answer.
const STOREFRONTS = new Set(
  (
    'ae ag ai al am ao ar at au az bb be bf bg bh bj bm bn bo br bs bt bw by bz ca cg ch cl cn co cr cv cy cz de dk dm ' +
    'do dz ec ee eg es fi fj fm fr gb gd gh gm gr gt gw gy hk hn hr hu id ie il in is it jm jo jp ke kg kh kn kr kw ky ' +
    'kz la lb lc lk lr lt lu lv md mg mk ml mn mo mr ms mt mu mw mx my mz na ne ng ni nl no np nz om pa pe pg ph pk pl ' +
    'pt pw py qa ro ru sa sb sc se sg si sk sl sn sr st sv sz tc td th tj tm tn tr tt tw tz ua ug us uy uz vc ve vg vn ' +
    'ye za zw'
  ).split(' '),
);

const INVALID_COUNTRY = {
  errorMessage: 'Invalid value(s) for key(s): [country]',
  queryParameters: {
    output: 'json',
    callback: 'A javascript function to handle your search results',
    country: 'ISO-2A country code',
    limit: 'The number of search results to return',
    term: 'A search string',
    lang: 'ISO-2A language code',
  },
};

function answer(res: http.ServerResponse, status: number, body: unknown) {
  // iTunes really sends JSON as text/javascript, preceded by three newlines.
  res.writeHead(status, { 'Content-Type': 'text/javascript; charset=utf-8', 'X-Apple-Request-UUID': randomUUID() });
  res.end(`\n\n\n${JSON.stringify(body)}\n`);
}

const words = (text: string) => text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);

/** Every word of the term starts a word of the app's name, developer or genre — close enough to iTunes' matching. */
export function matchesTerm(term: string, haystack: string): boolean {
  const wanted = words(term);
  const have = words(haystack);
  return wanted.length > 0 && wanted.every((w) => have.some((h) => h.startsWith(w)));
}

export function itunesRoutes(catalog: ItunesCatalog): FakeHandler {
  return (req: RecordedRequest, res) => {
    if (req.method !== 'GET' || (req.path !== '/search' && req.path !== '/lookup')) return false;
    const country = (req.query.get('country') ?? 'us').toLowerCase();
    if (!STOREFRONTS.has(country)) {
      answer(res, 400, INVALID_COUNTRY);
      return true;
    }
    if (req.path === '/lookup') {
      const ids = (req.query.get('id') ?? '').split(',').filter(Boolean);
      const local = catalog.storefronts?.[country] ?? {};
      const results = catalog.itunes
        .filter((a) => ids.includes(String(a.trackId)) && local[String(a.trackId)] !== null)
        .map((a) => ({ ...a, ...local[String(a.trackId)] }));
      answer(res, 200, { resultCount: results.length, results });
      return true;
    }
    const term = req.query.get('term') ?? '';
    const limit = Math.min(200, Math.max(1, Number(req.query.get('limit') ?? 50) || 50));
    const matching = catalog.itunes.filter((a) =>
      matchesTerm(term, `${a.trackName} ${a.artistName} ${a.primaryGenreName ?? ''} ${String(a.bundleId)}`),
    );
    // Name matches first, as the store ranks them.
    matching.sort((a, b) => Number(matchesTerm(term, b.trackName)) - Number(matchesTerm(term, a.trackName)));
    const results = matching.slice(0, limit);
    answer(res, 200, { resultCount: results.length, results });
    return true;
  };
}
