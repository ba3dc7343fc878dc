/**
 * Google Play store pages as play.google.com serves them: an HTML document whose data sits in
 *   <script class="ds:N" nonce="…">AF_initDataCallback({key: 'ds:N', hash: '…', data:[…], sideChannel: {}});</script>
 * blocks, plus the `AF_dataServiceRequests` table naming the RPC behind each block (Ws7gDc = app details,
 * lGYRle = search). Positions inside the nested arrays follow google-play-scraper's mappings
 * (google-play-scraper/lib/app.js and /lib/search.js in that package). They are written out here on purpose instead of importing the app's PLAY_PATHS: the fake must
 * describe the real pages on its own, so that a wrong path in the app makes a test fail.
 */

export type PlayApp = {
  appId: string;
  title: string;
  developer: string;
  developerId: string;
  icon: string;
  headerImage: string | null;
  score: number;
  ratings: number;
  reviews: number;
  installs: string;
  minInstalls: number;
  maxInstalls: number;
  summary: string;
  description: string;
  genre: string;
  genreId: string;
  version: string;
  androidVersion: string;
  /** 1 000 000 = 1.00 in `currency`. */
  priceMicros: number;
  currency: string;
  contentRating: string;
  released: string;
  releasedSeconds: number;
  updatedSeconds: number;
  recentChanges: string;
  website: string | null;
  email: string;
};

type Json = null | string | number | boolean | Json[] | { [k: string]: Json };

/** Put `value` at `path`, growing arrays with nulls — how sparse Play data looks. */
function put(root: Json[], path: number[], value: Json): void {
  let cur: Json[] = root;
  path.forEach((step, i) => {
    while (cur.length <= step) cur.push(null);
    if (i === path.length - 1) {
      cur[step] = value;
      return;
    }
    if (!Array.isArray(cur[step])) cur[step] = [];
    cur = cur[step] as Json[];
  });
}

const image = (url: string): Json => [null, 2, [512, 512], [null, 2, url]];
const priceText = (app: PlayApp) => (app.priceMicros === 0 ? '' : `$${(app.priceMicros / 1_000_000).toFixed(2)}`);
const detailsPath = (app: PlayApp) => `/store/apps/details?id=${app.appId}`;

/** The app part of a details page, ds:5 data[1][2] (and [16][2] of a search page's top card). */
function appRoot(app: PlayApp): Json[] {
  const d: Json[] = [];
  put(d, [0, 0], app.title);
  put(d, [9, 0], app.contentRating);
  put(d, [9, 2, 1], 'Everyone');
  put(d, [10, 0], app.released);
  put(d, [10, 1], [app.releasedSeconds, 0]);
  put(d, [13], [app.installs, app.minInstalls, app.maxInstalls, `${app.maxInstalls}`]);
  put(d, [18, 0], 1);
  put(d, [51, 0], [app.score.toFixed(1), app.score]);
  put(d, [51, 1], [null, [null, Math.round(app.ratings * 0.04)], [null, Math.round(app.ratings * 0.02)], [null, Math.round(app.ratings * 0.05)], [null, Math.round(app.ratings * 0.14)], [null, Math.round(app.ratings * 0.75)]]);
  put(d, [51, 2], [app.ratings.toLocaleString('en-US'), app.ratings]);
  put(d, [51, 3], [app.reviews.toLocaleString('en-US'), app.reviews]);
  put(d, [57, 0, 0, 0, 0, 1, 0], [app.priceMicros, app.currency, priceText(app)]);
  put(d, [68, 0], app.developer);
  put(d, [68, 1, 4, 2], `/store/apps/dev?id=${app.developerId}`);
  put(d, [69, 0, 5, 2], app.website);
  put(d, [69, 1, 0], app.email);
  put(d, [72, 0, 1], app.description);
  put(d, [73, 0, 1], app.summary);
  put(d, [78, 0], [image(`${app.icon}-shot1`), image(`${app.icon}-shot2`)]);
  put(d, [79, 0, 0], [app.genre, null, app.genreId, [null, 2, [512, 512]]]);
  put(d, [95, 0], image(app.icon));
  if (app.headerImage) put(d, [96, 0], image(app.headerImage));
  put(d, [99, 0, 5, 2], 'https://policies.example/privacy');
  put(d, [140, 0, 0, 0], app.version);
  put(d, [140, 1, 1, 0, 0, 1], app.androidVersion);
  put(d, [144, 1, 1], app.recentChanges);
  put(d, [145, 0], [new Date(app.updatedSeconds * 1000).toDateString().slice(4), [app.updatedSeconds, 0]]);
  return d;
}

type Block = { key: string; rpc: string; data: Json; request: Json };

/** Google escapes "<" inside script data so that no string can close the script element. */
const scriptJson = (value: Json) => JSON.stringify(value).replace(/</g, '\\u003c');

function page(title: string, canonical: string, blocks: Block[]): string {
  const nonce = 'q3Zb5kX0rVt8wY2pL6nE1A';
  const requests = blocks.map((b) => `'${b.key}' : {id:'${b.rpc}',request:${scriptJson(b.request)}}`).join(',');
  const keys = blocks.map((b) => `"${b.key}"`).join(',');
  return [
    '<!doctype html><html lang="en-US" dir="ltr"><head><base href="https://play.google.com/">',
    '<meta name="referrer" content="origin"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${title}</title>`,
    `<link rel="canonical" href="https://play.google.com${canonical}">`,
    `<script nonce="${nonce}">window.WIZ_global_data = {"DpimGf":false,"EP1ykd":["/_/*"],"FdrFJe":"-4473126551012285201","Im6cmf":"/_/PlayStoreUi","LVIXXb":1,"QrtxK":"0","S06Grb":"","Yllh3e":"%.@.1717400000000000,52816001,1827741953]"};</script>`,
    `<script nonce="${nonce}">var AF_initDataKeys = [${keys}]; var AF_dataServiceLoads = {}; var AF_dataServiceRequests = {${requests}}; var AF_initDataChunkQueue = []; var AF_initDataCallback; var AF_initDataInitializeCallback; if (AF_initDataInitializeCallback) {AF_initDataInitializeCallback(AF_initDataKeys, AF_initDataChunkQueue, AF_dataServiceRequests);}if (!AF_initDataCallback) {AF_initDataCallback = function(chunk) {AF_initDataChunkQueue.push(chunk);};}</script>`,
    '</head><body id="yDmH0d" jscontroller="pjICDe"><div id="root"><c-wiz jsrenderer="ZVk5ce"></c-wiz></div>',
    ...blocks.map(
      (b, i) =>
        `<script class="${b.key}" nonce="${nonce}">AF_initDataCallback({key: '${b.key}', hash: '${i + 1}', data:${scriptJson(b.data)}, sideChannel: {}});</script>`,
    ),
    '</body></html>',
  ].join('\n');
}

// Blocks every store page carries that have nothing to do with apps (account, experiments, navigation).
const chrome = (): Block[] => [
  { key: 'ds:0', rpc: 'ZittHe', data: [[null, null, null, 'en-US']], request: [[]] },
  { key: 'ds:1', rpc: 'w3QCWb', data: [null, [[1, 'Games'], [2, 'Apps'], [3, 'Movies & TV'], [4, 'Books'], [5, 'Kids']]], request: [] },
  { key: 'ds:2', rpc: 'KPNJvb', data: [[['com.google.android.gms', 1]], null, 0], request: [null, 1] },
];

/** The second Ws7gDc block of a details page: the same RPC asked for the rating histogram only, so no title. */
function ratingOnlyRoot(app: PlayApp): Json[] {
  const full = appRoot(app);
  const d: Json[] = [];
  put(d, [51], full[51]);
  return d;
}

/**
 * A details page carries two Ws7gDc blocks, as the real ones do: a rating-only one listed first, then the full
 * details. A parser that takes the first Ws7gDc block finds no title.
 */
export function renderDetailsPage(app: PlayApp): string {
  return page(`${app.title} - Apps on Google Play`, detailsPath(app), [
    ...chrome(),
    { key: 'ds:3', rpc: 'ag2B9c', data: [null, [[null, 'Similar apps']]], request: [[app.appId, 7]] },
    { key: 'ds:4', rpc: 'Ws7gDc', data: [null, [[null, [app.appId, 7]], null, ratingOnlyRoot(app)]], request: [null, null, [[51]], null, null, [[app.appId, 7]]] },
    { key: 'ds:5', rpc: 'Ws7gDc', data: [null, [[null, [app.appId, 7]], null, appRoot(app)]], request: [null, null, [[1, 9, 10, 11, 13, 14, 19, 20]], [[[true]]], null, [[app.appId, 7]]] },
    { key: 'ds:6', rpc: 'k8610b', data: [[[null, [2, 14], ['Safety starts with understanding how developers collect and share your data.']]]], request: [[[app.appId, 7]]] },
    { key: 'ds:8', rpc: 'oCPfdb', data: [[], null], request: [null, [2, 2, [40], null, []], [app.appId, 7]] },
  ]);
}

/**
 * The big card shown above the results when the query names one app (section[23]). Its package name sits in an
 * object beside the app part, under the key "12" ([16][3] = {"12": [["id", 7]], "40": [...]}), as on real pages.
 */
function topCard(app: PlayApp): Json {
  const card: Json[] = [];
  put(card, [16, 2], appRoot(app));
  put(card, [16, 3], { '12': [[app.appId, 7]], '40': [[1, 73, 96, 97, 50, 92, 52, 112, 69, 19, 31, 101, 123, 74, 49, 20]] });
  put(card, [17, 0, 0, 4, 2], detailsPath(app));
  put(card, [17, 0, 2, 0, 1, 0], [app.priceMicros, app.currency, priceText(app)]);
  return card;
}

/** One entry of the result list (section[22][0][n]). */
function listItem(app: PlayApp): Json {
  const item: Json[] = [];
  put(item, [0, 0], [app.appId, 7]);
  put(item, [0, 1], image(app.icon));
  put(item, [0, 3], app.title);
  put(item, [0, 4], [app.score.toFixed(1), app.score]);
  put(item, [0, 8, 1, 0], [app.priceMicros, app.currency, priceText(app)]);
  put(item, [0, 10, 4, 2], detailsPath(app));
  put(item, [0, 13, 1], app.summary);
  put(item, [0, 14], app.developer);
  return item;
}

export type SearchPageOptions = {
  /** Show this app as the top card (Play does when the query names it). */
  topApp?: PlayApp | null;
  /** EU storefronts show an "About these results" notice as the first section. */
  aboutNotice?: boolean;
};

export function renderSearchPage(query: string, apps: PlayApp[], options: SearchPageOptions = {}): string {
  const sections: Json[] = [];
  if (options.aboutNotice) {
    const about: Json[] = [];
    put(about, [31, 0], 'About these results');
    put(about, [31, 1], 'Results are ranked by relevance to your search and other signals.');
    sections.push(about);
  }
  if (apps.length === 0 && !options.topApp) {
    const none: Json[] = [];
    put(none, [25, 0, 0, 0, 1], `No results for <b>${query}</b>`);
    sections.push(none);
  }
  if (options.topApp) {
    const top: Json[] = [];
    put(top, [23], topCard(options.topApp));
    sections.push(top);
  }
  const rest = apps.filter((a) => a.appId !== options.topApp?.appId);
  if (rest.length > 0) {
    const more: Json[] = [];
    put(more, [22], [rest.map(listItem), [options.topApp ? 'More results' : 'Search results', null, null, [null, 'CgwIARIIdG9rZW4tMQ==']]]);
    sections.push(more);
  }
  return page(`${query} - Android Apps on Google Play`, `/store/search?q=${encodeURIComponent(query)}&c=apps`, [
    ...chrome(),
    { key: 'ds:3', rpc: 'qnKhOb', data: [[null, []]], request: [[]] },
    { key: 'ds:4', rpc: 'lGYRle', data: [[null, sections]], request: [[[], [[8, [20, 50]], null, null, [96, 27, 4, 8, 57]], [query], 4]] },
  ]);
}

/** The first page of some searches: clusters, with a link to the full list (google-play-scraper's skipClusterPage). */
export function renderClusterPage(query: string): string {
  const href = `/store/apps/collection/search_collection_more_results_cluster?clp=ggEKCgh${Buffer.from(query).toString('base64url')}:S:ANO1ljIjDZI&amp;gsr=Cg2CAQoKCGhhYml0IDpTOkFOTzFsaklqRFpJ:S:ANO1ljJGOaU`;
  return [
    '<!doctype html><html lang="en-US"><head>',
    `<title>${query} - Android Apps on Google Play</title></head><body>`,
    `<div class="cluster-heading"><h2>Apps</h2><a class="see-more" href="${href}">See more</a></div>`,
    '</body></html>',
  ].join('\n');
}

/** What play.google.com answers (with status 404) for an unknown package. */
export function renderNotFoundPage(): string {
  return '<!DOCTYPE html><html lang=en><meta charset=utf-8><title>Error 404 (Not Found)!!1</title><p><b>404.</b> <ins>That’s an error.</ins><p>The requested URL was not found on this server. <ins>That’s all we know.</ins></html>';
}

/** Google's answer to a burst of requests: 429 with the "unusual traffic" captcha page. */
export function renderCaptchaPage(): string {
  return '<html><head><title>https://play.google.com/store/search</title></head><body><div id="infoDiv">Our systems have detected unusual traffic from your computer network.</div><form id="captcha-form" action="index" method="post"><div class="g-recaptcha" data-sitekey="6LfwuyUTAAAAAOAmoS0fdqijC2PbbdH4kjq62Y1b"></div></form></body></html>';
}
