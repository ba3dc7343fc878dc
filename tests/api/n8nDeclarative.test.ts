// What n8n's DECLARATIVE engine really sends to ARB's public API, and what ARB answers. The seed product's
// (AppReviewBot's) n8n node builds its Review › Get Many requests with `routing` descriptions, not code: n8n's
// RoutingNode turns them into requests. Our own test node in that style (tests/fixtures/n8n-declarative, written from
// n8n's documentation, not the seed's code) runs in n8n's engine (integrations/n8n/test/harness.ts) against ARB's real
// server on loopback with a real `arb_` key, through a loopback proxy that records each request's path and query and
// ARB's status. publicApiSeedRequests.test.ts sends the same requests by hand, on both databases.
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startApiWorld, type ApiWorld } from '../helpers/apiWorld';
import { newOwner, type SignedInUser } from '../helpers/orgs';
import { addReviews, appWith, HOUR, type Seed } from '../helpers/seedReviews';
import { startN8n, type Item, type N8n } from '../../integrations/n8n/test/harness';
import { newApiKey } from './support/apiKeys';

/** One request as ARB received it: path and query exactly as sent, and ARB's status. */
type Seen = { url: string; status: number };

/** A loopback proxy in front of `target` keeping every request's URL and the answer's status. */
async function recordingProxy(target: string) {
  const seen: Seen[] = [];
  const { hostname, port } = new URL(target);
  const server = http.createServer((req, res) => {
    const upstream = http.request({ hostname, port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      seen.push({ url: req.url ?? '', status: answer.statusCode ?? 0 });
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    /** The requests made while `run` ran. */
    async during<T>(run: () => Promise<T>): Promise<{ result: T; sent: Seen[] }> {
      const from = seen.length;
      const result = await run();
      return { result, sent: seen.slice(from) };
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

let w: ApiWorld;
let proxy: Awaited<ReturnType<typeof recordingProxy>>;
let n8n: N8n;
let owner: SignedInUser;
let key: string;

beforeAll(async () => {
  w = await startApiWorld({ PUBLIC_API_RATE_PER_MINUTE: '10000' });
  proxy = await recordingProxy(w.api.url);
  n8n = await startN8n({ dir: path.resolve(__dirname, '../fixtures/n8n-declarative') });
  owner = await newOwner('n8n-declarative');
  key = await keyOf(owner);
}, 120_000);
afterAll(async () => {
  n8n?.close();
  await proxy?.close();
  await w?.close();
});

const keyOf = async (u: SignedInUser): Promise<string> => (await newApiKey(w.api, { token: u.token }, 'n8n')).key;

const credential = (apiKey = key) => ({ type: 'arbDeclarativeTestApi', data: { baseUrl: proxy.url, apiKey } });
const getMany = (app: string, parameters: Record<string, unknown> = {}, apiKey = key) =>
  n8n.node('arbDeclarativeTest', { resource: 'review', operation: 'getAll', appRef: { __rl: true, mode: 'id', value: app }, ...parameters } as never, credential(apiKey));
const bodies = (items: Item[]) => items.map((i) => i.content_body);

/** Runs Get Many in n8n's engine: the items, and the requests ARB received meanwhile (each answered 200). */
async function run(app: string, parameters: Record<string, unknown> = {}) {
  const { result, sent } = await proxy.during(() => n8n.run(getMany(app, parameters)));
  expect(result.error).toBeUndefined();
  expect(sent.map((s) => s.status)).toEqual(sent.map(() => 200));
  return { items: result.items, sent: sent.map((s) => s.url) };
}

test("n8n's package loader finds the declarative node and its credential", () => {
  expect(n8n.loaded).toEqual({ nodes: ['n8n-nodes-arb-declarative-test.arbDeclarativeTest'], credentials: ['arbDeclarativeTestApi'] });
});

test('the app picker (listSearch) labels each app "Title (App Store)" or "Title (Google Play)" from GET /apps', async () => {
  const u = await newOwner('picker');
  const ios = await appWith(u, 'apple_app_store', []);
  const play = await appWith(u, 'google_play_store', []);
  const picker = n8n.node('arbDeclarativeTest', { resource: 'review', operation: 'getAll' }, credential(await keyOf(u)));
  const { result, sent } = await proxy.during(() => n8n.listSearch(picker, 'getApps'));
  const title = (k: string) => `App ${k.split('__')[1]}`;
  expect(result.results).toHaveLength(2);
  expect(result.results).toEqual(expect.arrayContaining([{ name: `${title(ios)} (App Store)`, value: ios }, { name: `${title(play)} (Google Play)`, value: play }]));
  expect(sent).toEqual([{ url: '/api/v1/apps', status: 200 }]);
});

describe('Review › Get Many', () => {
  // 130 reviews an hour apart, the newest first: every 5th is 1★, odd ones from gb.
  const seeds: Seed[] = Array.from({ length: 130 }, (_, i) => ({ body: `review ${i}`, hoursAgo: i + 1, rating: i % 5 === 0 ? 1 : 4, country: i % 2 ? 'gb' : 'us' }));
  let app: string;
  let ids: string[];
  let reviews: string;
  beforeAll(async () => {
    app = await appWith(owner, 'apple_app_store', []);
    ids = await addReviews(app, seeds);
    reviews = `/api/v1/apps/${app}/reviews`;
  });
  const where = (keep: (s: Seed, i: number) => boolean) => ids.filter((_, i) => keep(seeds[i], i));
  const idsOf = (items: Item[]) => items.map((r) => r.id);

  test('Return All: every review once, in order; n8n sends `starting_after=` empty on page 1, then the last id, and no limit', async () => {
    const { items, sent } = await run(app, { returnAll: true });
    expect(idsOf(items)).toEqual(ids);
    expect(bodies(items)).toEqual(seeds.map((s) => s.body));
    // n8n's generic pagination sends each page with the request's `qs` REPLACED by the pagination's `request.qs`
    // (RoutingNode: `{ ...options, ...paginationRequest }`): Return All's `limit=100` never reaches the server, so
    // ARB answers pages of its default 20. The first page's expression has no response yet: `starting_after=`.
    expect(sent).toEqual([`${reviews}?starting_after=`, ...[19, 39, 59, 79, 99, 119].map((i) => `${reviews}?starting_after=${ids[i]}`)]);
  });

  test("Return All with Additional Fields: n8n's pagination drops them too, so every review comes back unfiltered", async () => {
    const { items, sent } = await run(app, { returnAll: true, additionalFields: { country: 'us', rating: '1', from: new Date(Date.now() - 30 * HOUR).toISOString() } });
    expect(idsOf(items)).toEqual(ids);
    expect(sent[0]).toBe(`${reviews}?starting_after=`);
    expect(sent.filter((u) => /[?&](limit|country|rating|from|to)=/.test(u))).toEqual([]);
  });

  test('Limit 5: `limit=5`, five reviews, the newest', async () => {
    const { items, sent } = await run(app, { returnAll: false, limit: 5 });
    expect(idsOf(items)).toEqual(ids.slice(0, 5));
    expect(sent).toEqual([`${reviews}?limit=5`]);
  });

  test('Country `us`, Rating "Any" (`rating=`) and 1★: sent as given, answered with the right reviews', async () => {
    const get = async (additionalFields: Record<string, unknown>) => run(app, { returnAll: false, limit: 100, additionalFields });
    const us = await get({ country: 'us' });
    expect(us.sent).toEqual([`${reviews}?limit=100&country=us`]);
    expect(idsOf(us.items)).toEqual(where((s) => s.country === 'us'));

    const any = await get({ rating: '' });
    expect(any.sent).toEqual([`${reviews}?limit=100&rating=`]);
    expect(idsOf(any.items)).toEqual(ids.slice(0, 100));

    const usAny = await get({ country: 'us', rating: '' });
    expect(usAny.sent).toEqual([`${reviews}?limit=100&country=us&rating=`]);
    expect(idsOf(usAny.items)).toEqual(where((s) => s.country === 'us'));

    const oneStar = await get({ rating: '1' });
    expect(oneStar.sent).toEqual([`${reviews}?limit=100&rating=1`]);
    expect(idsOf(oneStar.items)).toEqual(where((s) => s.rating === 1));

    const usOneStar = await get({ country: 'us', rating: '1' });
    expect(idsOf(usOneStar.items)).toEqual(where((s) => s.country === 'us' && s.rating === 1));
  });

  test('From/To go out as ISO 8601 (`new Date($value).toISOString()`) and select the reviews between them', async () => {
    const from = new Date(Date.now() - 30.5 * HOUR).toISOString();
    const to = new Date(Date.now() - 2.5 * HOUR).toISOString();
    const between = await run(app, { returnAll: false, limit: 100, additionalFields: { from, to } });
    expect(between.sent).toEqual([`${reviews}?limit=100&from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`]);
    expect(between.sent[0]).toMatch(/from=\d{4}-\d\d-\d\dT\d\d%3A\d\d%3A\d\d\.\d{3}Z&/);
    expect(idsOf(between.items)).toEqual(where((_, i) => i >= 2 && i <= 29)); // 3 … 30 hours old

    // An expression ($now minus 25 hours, a Luxon DateTime) goes through the same toISOString().
    const lastDay = await run(app, { returnAll: false, limit: 100, additionalFields: { from: '={{ $now.minus({ hours: 25 }) }}', country: 'gb' } });
    expect(lastDay.sent[0]).toMatch(new RegExp(`^${reviews}\\?limit=100&country=gb&from=\\d{4}-\\d\\d-\\d\\dT\\d\\d%3A\\d\\d%3A\\d\\d\\.\\d{3}Z$`));
    expect(idsOf(lastDay.items)).toEqual(where((s, i) => i <= 23 && s.country === 'gb'));
  });

  test("a wrong key: ARB answers 401 and n8n's node fails with it", async () => {
    const { result, sent } = await proxy.during(() => n8n.run(getMany(app, { limit: 5 }, `${key.slice(0, -2)}xx`)));
    expect(result.items).toEqual([]);
    expect(result.error?.message).toMatch(/401|Authorization|credentials/i);
    // n8n sends it a second time after a 401 (its credential refresh, a no-op for a header credential), then fails.
    expect(sent).toEqual([{ url: `${reviews}?limit=5`, status: 401 }, { url: `${reviews}?limit=5`, status: 401 }]);
  });
});
