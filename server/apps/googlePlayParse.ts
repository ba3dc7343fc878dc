/**
 * Reading Google Play's store pages. Play has no public API: its pages embed their data as JavaScript calls
 *
 *   <script class="ds:5" nonce="…">AF_initDataCallback({key: 'ds:5', hash: '7', data:[…], sideChannel: {}});</script>
 *
 * plus a table `var AF_dataServiceRequests = {'ds:5' : {id:'Ws7gDc',request:[…]}, …}` naming the RPC behind each
 * block. This module finds the blocks (by RPC id first, because the ds numbers shift between page versions; by the
 * usual ds key when the table is missing) and reads fields at fixed paths inside the nested arrays, the way the
 * well-known google-play-scraper package does.
 *
 * Every path lives in PLAY_PATHS below: when Google moves a field, the fix is one line there. When a block or a
 * required field is missing, PlayFormatError says which one, and the API answers a clear 502 instead of wrong data.
 */
import { cleanText } from '../sources/cleanText';
import { countOrNull, roundRating, type AppDetails, type AppSummary } from './types';

type Path = readonly (number | string)[];

export const PLAY_PATHS = {
  details: {
    block: { rpcId: 'Ws7gDc', key: 'ds:5' },
    title: [1, 2, 0, 0],
    developer: [1, 2, 68, 0],
    icon: [1, 2, 95, 0, 3, 2],
    score: [1, 2, 51, 0, 1],
    ratings: [1, 2, 51, 2, 1],
    /** [null, [null, n1], [null, n2], …, [null, n5]]: the ratings per star, index = stars (google-play-scraper's). */
    histogram: [1, 2, 51, 1],
    summary: [1, 2, 73, 0, 1],
    genre: [1, 2, 79, 0, 0, 0],
    version: [1, 2, 140, 0, 0, 0],
    priceMicros: [1, 2, 57, 0, 0, 0, 0, 1, 0, 0],
    currency: [1, 2, 57, 0, 0, 0, 0, 1, 0, 1],
    updatedSeconds: [1, 2, 145, 0, 1, 0],
  },
  search: {
    block: { rpcId: 'lGYRle', key: 'ds:4' },
    /** The list of result sections (about-these-results notices, the top app card, "more results"…). */
    sections: [0, 1],
    /**
     * In a section: the big card Play shows when the query names one app. Its [16][2] mirrors details' [1][2]; the
     * package name is not in there but in the object beside it, under the key "12": [16][3] = {"12": [["id", 7]]}.
     */
    topApp: {
      card: [23],
      appId: [23, 16, 3, '12', 0, 0],
      title: [23, 16, 2, 0, 0],
      developer: [23, 16, 2, 68, 0],
      icon: [23, 16, 2, 95, 0, 3, 2],
      score: [23, 16, 2, 51, 0, 1],
      ratings: [23, 16, 2, 51, 2, 1],
    },
    /** In a section: the result list. */
    list: [22, 0],
    /** In an entry of the result list. The list carries no ratings count. */
    item: {
      card: [],
      appId: [0, 0, 0],
      title: [0, 3],
      developer: [0, 14],
      icon: [0, 1, 3, 2],
      score: [0, 4, 1],
    },
  },
} as const satisfies Record<string, Record<string, unknown>>;

export class PlayFormatError extends Error {}

export type ScriptData = {
  /** Parsed `data` of each AF_initDataCallback block, by key (ds:N). */
  blocks: Map<string, unknown>;
  /** RPC id of each block, from AF_dataServiceRequests (empty when the page has no such table). */
  rpcByKey: Map<string, string>;
};

/** Every AF_initDataCallback block of a page. Blocks whose data is not plain JSON are skipped. */
export function parseScriptData(html: string): ScriptData {
  const blocks = new Map<string, unknown>();
  const marker = 'AF_initDataCallback(';
  for (let at = html.indexOf(marker); at !== -1; at = html.indexOf(marker, at + marker.length)) {
    const head = html.slice(at, at + 200);
    const key = /key:\s*'([^']+)'/.exec(head)?.[1];
    const dataAt = html.indexOf('data:', at);
    if (!key || dataAt === -1) continue;
    const json = scanJsonValue(html, dataAt + 'data:'.length);
    if (json === null) continue;
    try {
      blocks.set(key, JSON.parse(json));
    } catch {
      /* not JSON (e.g. an old-style data:function(){…}): not a block we read */
    }
  }
  const rpcByKey = new Map<string, string>();
  const table = /var AF_dataServiceRequests\s*=\s*([\s\S]*?);\s*var /.exec(html)?.[1] ?? '';
  for (const m of table.matchAll(/'(ds:\d+)'\s*:\s*\{\s*id\s*:\s*'([\w-]+)'/g)) rpcByKey.set(m[1], m[2]);
  return { blocks, rpcByKey };
}

/**
 * The text of the JSON array or object that starts at `from` (after spaces), by bracket matching that respects
 * strings — no regex over the whole value, which could stop inside a string that happens to contain "});".
 */
function scanJsonValue(text: string, from: number): string | null {
  let i = from;
  while (i < text.length && /\s/.test(text[i])) i++;
  const open = text[i];
  if (open !== '[' && open !== '{') return null;
  const start = i;
  let depth = 0;
  let inString = false;
  for (; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '[' || c === '{') depth++;
    else if (c === ']' || c === '}') {
      depth--;
      if (depth === 0) return text.slice(start, i + 1);
    }
  }
  return null;
}

/** Every block a page serves for an RPC, in page order (by the usual ds key when the page has no RPC table). */
export function findBlocks(data: ScriptData, block: { rpcId: string; key: string }): unknown[] {
  if (data.rpcByKey.size > 0) {
    return [...data.rpcByKey].filter(([key, rpc]) => rpc === block.rpcId && data.blocks.has(key)).map(([key]) => data.blocks.get(key));
  }
  return data.blocks.has(block.key) ? [data.blocks.get(block.key)] : [];
}

/** The (first) block a page serves for an RPC, or undefined when the page does not have it. */
export function findBlock(data: ScriptData, block: { rpcId: string; key: string }): unknown {
  return findBlocks(data, block)[0];
}

export function readPath(value: unknown, path: Path): unknown {
  let cur: unknown = value;
  for (const step of path) {
    if (cur === null || cur === undefined || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string | number, unknown>)[step];
  }
  return cur;
}

/** A text field of the page, cleaned of what the database refuses (server/sources/cleanText.ts): app names are stored. */
const str = (v: unknown): string | null => {
  const text = typeof v === 'string' ? cleanText(v) : '';
  return text.trim() !== '' ? text : null;
};

function isoFromSeconds(value: unknown): string | null {
  if (typeof value !== 'number') return null;
  const date = new Date(value * 1000);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** The package name of a details page (its canonical link, or the details RPC's request). */
export function detailsPageAppId(html: string): string | null {
  const canonical = /<link rel="canonical" href="[^"]*\/store\/apps\/details\?id=([\w.]+)/.exec(html)?.[1];
  if (canonical) return canonical;
  return /\{id:'Ws7gDc',request:[\s\S]*?\[\[(?:&quot;|")([\w.]+)(?:&quot;|"),\d+\]\]/.exec(html)?.[1] ?? null;
}

export type PlayStoreRating = { rating: number | null; ratings_count: number | null; histogram: Record<'1' | '2' | '3' | '4' | '5', number> | null };

/**
 * The store's own rating of an app from its details page (one worldwide figure, whatever `gl` asked for), unrounded:
 * score, ratings count and the 1–5 histogram (null unless all five counts are there). Same block as the details.
 */
export function parsePlayRating(html: string, appId: string): PlayStoreRating {
  const p = PLAY_PATHS.details;
  const blocks = findBlocks(parseScriptData(html), p.block);
  const block = blocks.find((b) => str(readPath(b, p.title)) !== null);
  if (!block) throw new PlayFormatError(`details page of ${appId}: no ${p.block.rpcId} (${p.block.key}) block with a title`);
  const score = readPath(block, p.score);
  // The histogram is in the full block; the rating-only block (asked for [51] alone) carries it too.
  let histogram: PlayStoreRating['histogram'] = null;
  for (const b of [block, ...blocks]) {
    const raw = readPath(b, p.histogram);
    const stars = [1, 2, 3, 4, 5].map((k) => countOrNull(readPath(raw, [k, 1])));
    if (!Array.isArray(raw) || stars.some((n) => n === null)) continue;
    histogram = { '1': stars[0]!, '2': stars[1]!, '3': stars[2]!, '4': stars[3]!, '5': stars[4]! };
    break;
  }
  return {
    rating: typeof score === 'number' && Number.isFinite(score) && score > 0 ? score : null,
    ratings_count: countOrNull(readPath(block, p.ratings)),
    histogram,
  };
}

/** Details of one app from its page. `storeUrl` and `country` are what the caller asked for. */
export function parsePlayDetails(html: string, input: { appId: string; country: string; storeUrl: string }): AppDetails {
  const p = PLAY_PATHS.details;
  const blocks = findBlocks(parseScriptData(html), p.block);
  if (blocks.length === 0) {
    throw new PlayFormatError(`details page of ${input.appId}: no ${p.block.rpcId} (${p.block.key}) data block`);
  }
  // Real pages carry two Ws7gDc blocks, the full details and a rating-only one, in no promised order: the details
  // are the one with a title.
  const block = blocks.find((b) => str(readPath(b, p.title)) !== null);
  const title = block === undefined ? null : str(readPath(block, p.title));
  if (!block || !title) throw new PlayFormatError(`details page of ${input.appId}: no title at [${p.title.join(', ')}]`);
  const priceMicros = readPath(block, p.priceMicros);
  const updatedSeconds = readPath(block, p.updatedSeconds);
  return {
    app_id: input.appId,
    app_store: 'google_play_store',
    title,
    developer: str(readPath(block, p.developer)) ?? '',
    icon: str(readPath(block, p.icon)),
    rating: roundRating(readPath(block, p.score)),
    ratings_count: countOrNull(readPath(block, p.ratings)),
    country: input.country,
    store_url: input.storeUrl,
    bundle_id: input.appId,
    version: str(readPath(block, p.version)),
    // Prices come in micros (1 000 000 = 1.00); free apps say 0.
    price: typeof priceMicros === 'number' ? priceMicros / 1_000_000 : null,
    currency: str(readPath(block, p.currency)),
    genre: str(readPath(block, p.genre)),
    summary: str(readPath(block, p.summary)),
    updated_at: isoFromSeconds(updatedSeconds),
  };
}

export type PlaySearchReport = {
  /** The results, the top app card first, without duplicates. */
  apps: AppSummary[];
  /**
   * Cards the page carries that did not yield an app (a required field missing at its path), in words naming the
   * card and the path. Empty on a page we fully understand.
   */
  problems: string[];
};

/**
 * A search page's results plus what could not be read. The top card and every list entry are known cards: when one is
 * present but its id or title is not where PLAY_PATHS says, that is a problem of ours (a moved path), reported here
 * instead of silently dropping the app.
 */
export function readPlaySearch(html: string): PlaySearchReport {
  const data = parseScriptData(html);
  const p = PLAY_PATHS.search;
  const block = findBlock(data, p.block);
  if (block === undefined) {
    // A query that names one app exactly can land on that app's page instead of a result list.
    const appId = findBlock(data, PLAY_PATHS.details.block) !== undefined ? detailsPageAppId(html) : null;
    if (appId) {
      const { app_id, app_store, title, developer, icon, rating, ratings_count } = parsePlayDetails(html, {
        appId,
        country: '',
        storeUrl: '',
      });
      return { apps: [{ app_id, app_store, title, developer, icon, rating, ratings_count }], problems: [] };
    }
    throw new PlayFormatError(`search page: no ${p.block.rpcId} (${p.block.key}) data block`);
  }
  const sections = readPath(block, p.sections);
  if (!Array.isArray(sections)) throw new PlayFormatError(`search page: no section list at [${p.sections.join(', ')}]`);

  const apps: AppSummary[] = [];
  const problems: string[] = [];
  const seen = new Set<string>();
  let listed = 0;
  const add = (app: AppSummary | null) => {
    if (app && !seen.has(app.app_id)) {
      seen.add(app.app_id);
      apps.push(app);
    }
  };
  const readCard = (node: unknown, fields: AppFields, name: string) => {
    const card = readPath(node, fields.card);
    if (card === null || card === undefined) return;
    const app = readApp(node, fields);
    if (!app) problems.push(`${name}: no id at [${fields.appId.join(', ')}] or no title at [${fields.title.join(', ')}]`);
    add(app);
  };
  sections.forEach((section, s) => {
    readCard(section, p.topApp, `top app card (section ${s})`);
    const list = readPath(section, p.list);
    if (Array.isArray(list)) {
      listed += list.length;
      list.forEach((item, i) => readCard(item, p.item, `result ${i} (section ${s})`));
    }
  });
  if (listed > 0 && apps.length === 0) {
    throw new PlayFormatError(
      `search page: ${listed} results but none has an id at [${p.item.appId.join(', ')}] and a title at [${p.item.title.join(', ')}]`,
    );
  }
  return { apps, problems };
}

/**
 * A search page's results, the top app card first, without duplicates. `strict` (what the tests use) turns any card
 * that yielded nothing into a PlayFormatError; otherwise the readable results are returned and `onProblems` hears
 * about the rest (the live client logs them).
 */
export function parsePlaySearch(html: string, options: { strict?: boolean; onProblems?: (problems: string[]) => void } = {}): AppSummary[] {
  const report = readPlaySearch(html);
  if (report.problems.length > 0) {
    if (options.strict) throw new PlayFormatError(`search page: ${report.problems.join('; ')}`);
    options.onProblems?.(report.problems);
  }
  return report.apps;
}

type AppFields = { card: Path; appId: Path; title: Path; developer: Path; icon: Path; score: Path; ratings?: Path };

function readApp(node: unknown, f: AppFields): AppSummary | null {
  const appId = str(readPath(node, f.appId));
  const title = str(readPath(node, f.title));
  if (!appId || !title) return null;
  return {
    app_id: appId,
    app_store: 'google_play_store',
    title,
    developer: str(readPath(node, f.developer)) ?? '',
    icon: str(readPath(node, f.icon)),
    rating: roundRating(readPath(node, f.score)),
    ratings_count: f.ratings ? countOrNull(readPath(node, f.ratings)) : null,
  };
}

/**
 * Sometimes the first search page is a set of clusters with a link to the full result list; google-play-scraper
 * follows that link, and so do we.
 */
export function moreResultsLink(html: string): string | null {
  const href = /href="(\/store\/apps\/collection\/search_collection_more_results_cluster\?[^"]*)"/.exec(html)?.[1];
  return href ? href.replace(/&amp;/g, '&') : null;
}
