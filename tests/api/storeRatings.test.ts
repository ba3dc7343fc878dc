// The stores' own ratings of the apps on a real database (PGlite and PostgreSQL), through the real routes and the
// store fakes in their real formats (the iTunes lookup per storefront, Google Play's details page with its
// histogram): the daily snapshot job, several storefronts weighted by their counts, a missing day left as a gap,
// a store failing for one app without failing the run, the apps list's store rating next to the review average,
// latestStoreRatings for the overview, and GET /api/v1/org/apps/{appKey}/ratings.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { getDb } from '@/server/db/client';
import { latestStoreRatings, saveSnapshot } from '@/server/storeRatings/data';
import { addDays } from '@/server/storeRatings/aggregate';
import { snapshotStoreRatings } from '@/server/storeRatings/snapshot';
import { newOwner } from '../helpers/orgs';
import { call } from '../helpers/request';
import { newIosApp, newIp, newPlayApp, startConnectWorld, type ConnectWorld } from './support/connectWorld';

let w: ConnectWorld;
beforeAll(async () => {
  w = await startConnectWorld();
}, 60_000);
afterAll(() => w.close());

type Figure = { rating: number | null; ratings_count: number | null };
type Ratings = {
  current: (Figure & { as_of: string; change_7d: number | null; countries: Array<Figure & { country: string }> }) | null;
  series: Array<Figure & { date: string; new_ratings: number | null }>;
};
type ListedApp = { key: string; rating: number | null; store_rating: (Figure & { as_of: string; change_7d: number | null }) | null };

const ratings = (token: string, key: string, query = '') =>
  call<Ratings>(w.api, 'GET', `/api/v1/org/apps/${encodeURIComponent(key)}/ratings${query}`, undefined, { token, ip: newIp() });
const add = (token: string, body: unknown) => call<{ key: string }>(w.api, 'POST', '/api/v1/org/apps', body, { token, ip: newIp() });
const list = (token: string) => call<ListedApp[]>(w.api, 'GET', '/api/v1/org/apps', undefined, { token, ip: newIp() });

/** The iTunes lookup's figures of an app in a storefront, as that storefront answers them. */
function storefront(country: string, trackId: string, fields: { averageUserRating?: number; userRatingCount?: number } | null) {
  w.stores.catalog.storefronts ??= {};
  w.stores.catalog.storefronts[country] ??= {};
  w.stores.catalog.storefronts[country][trackId] = fields;
}
const at = (day: string) => new Date(`${day}T06:00:00Z`);

/** Adding an app takes its first snapshot at once (today): tests that script their own days start without it. */
async function forgetSnapshots(...keys: string[]) {
  await (await getDb()).deleteFrom('store_rating_snapshots').where('app_key', 'in', keys).execute();
}

async function snapshots(key: string) {
  const db = await getDb();
  const rows = await db.selectFrom('store_rating_snapshots').select(['country', 'rating', 'ratings_count', 'histogram']).where('app_key', '=', key).where('day', '=', '2026-10-01').orderBy('country').execute();
  return rows;
}

describe('the daily snapshot and GET /api/v1/org/apps/{appKey}/ratings', () => {
  test('App Store storefronts weighted by their counts, Google Play with its histogram, a missing day left as a gap', async () => {
    const owner = await newOwner();
    const ios = newIosApp(w);
    const play = newPlayApp(w);
    const iosKey = (await add(owner.token, { app_id: ios.appId, app_store: 'apple_app_store', countries: ['us', 'gb', 'de'] })).json.data.key;
    const playKey = (await add(owner.token, { app_id: play.appId, app_store: 'google_play_store' })).json.data.key;
    const playApp = w.stores.catalog.play.find((a) => a.appId === play.appId)!;
    await forgetSnapshots(iosKey, playKey);

    // Day 1: us 4.6 from 18,000, gb 4.0 from 2,000; de does not sell it.
    storefront('us', ios.appId, { averageUserRating: 4.6, userRatingCount: 18_000 });
    storefront('gb', ios.appId, { averageUserRating: 4.0, userRatingCount: 2_000 });
    storefront('de', ios.appId, null);
    Object.assign(playApp, { score: 4.31, ratings: 1000 });
    w.stores.resetRequests();
    const first = await snapshotStoreRatings({ now: at('2026-10-01'), gapMs: 0 });
    expect(first.failed).toBe(0);
    expect(await snapshots(iosKey)).toEqual([
      { country: 'de', rating: null, ratings_count: null, histogram: null },
      { country: 'gb', rating: 4.0, ratings_count: 2000, histogram: null },
      { country: 'us', rating: 4.6, ratings_count: 18000, histogram: null },
    ]);
    // The fake's page says 4 % 1★, 2 % 2★, 5 % 3★, 14 % 4★, 75 % 5★.
    expect(await snapshots(playKey)).toEqual([{ country: 'us', rating: 4.31, ratings_count: 1000, histogram: { '1': 40, '2': 20, '3': 50, '4': 140, '5': 750 } }]);
    // One lookup per storefront (our app among the others, by id list), one details page for the Play app.
    const lookups = w.stores.itunes.requests.filter((r) => r.path === '/lookup');
    expect(lookups.filter((r) => r.query.get('id')!.split(',').includes(ios.appId)).map((r) => r.query.get('country')).sort()).toEqual(['de', 'gb', 'us']);
    expect(w.stores.play.requests.filter((r) => r.query.get('id') === play.appId)).toHaveLength(1);

    // The same day again: nothing left to fetch.
    w.stores.resetRequests();
    await snapshotStoreRatings({ now: at('2026-10-01'), gapMs: 0 });
    expect(w.stores.itunes.requests.filter((r) => r.query.get('id')?.includes(ios.appId))).toHaveLength(0);

    // Day 2: counts grow. Day 3: no snapshot (the job did not run). Day 4: grows again.
    storefront('us', ios.appId, { averageUserRating: 4.6, userRatingCount: 18_120 });
    storefront('gb', ios.appId, { averageUserRating: 4.1, userRatingCount: 2_010 });
    Object.assign(playApp, { score: 4.3, ratings: 1012 });
    await snapshotStoreRatings({ now: at('2026-10-02'), gapMs: 0 });
    storefront('us', ios.appId, { averageUserRating: 4.5, userRatingCount: 18_300 });
    storefront('gb', ios.appId, { averageUserRating: 4.1, userRatingCount: 2_030 });
    await snapshotStoreRatings({ now: at('2026-10-04'), gapMs: 0 });

    const r = await ratings(owner.token, iosKey, '?from=2026-10-01&to=2026-10-05');
    expect(r.status, r.text).toBe(200);
    const weighted = (a: [number, number][]) => a.reduce((s, [x, n]) => s + x * n, 0) / a.reduce((s, [, n]) => s + n, 0);
    expect(r.json.data.series.map((p) => [p.date, p.ratings_count, p.new_ratings])).toEqual([
      ['2026-10-01', 20_000, null], // nothing the day before
      ['2026-10-02', 20_130, 130],
      // 2026-10-03: no point (a gap, not interpolated)
      ['2026-10-04', 20_330, null], // its growth spans two days: not one day's
    ]);
    expect(r.json.data.series[0].rating).toBeCloseTo(weighted([[4.6, 18_000], [4.0, 2_000]]), 3);
    expect(r.json.data.series[2].rating).toBeCloseTo(weighted([[4.5, 18_300], [4.1, 2_030]]), 3);
    expect(r.json.data.current).toMatchObject({ ratings_count: 20_330 });
    expect(r.json.data.current!.rating).toBeCloseTo(weighted([[4.5, 18_300], [4.1, 2_030]]), 3);
    expect(r.json.data.current!.countries).toEqual([
      { country: 'de', rating: null, ratings_count: null },
      { country: 'gb', rating: 4.1, ratings_count: 2030 },
      { country: 'us', rating: 4.5, ratings_count: 18300 },
    ]);

    const p = await ratings(owner.token, playKey, '?from=2026-10-02&to=2026-10-04');
    expect(p.json.data.series.map((x) => [x.date, x.rating, x.ratings_count, x.new_ratings])).toEqual([
      ['2026-10-02', 4.3, 1012, 12],
      ['2026-10-04', 4.3, 1012, null],
    ]);
    expect(p.json.data.current).toMatchObject({ rating: 4.3, ratings_count: 1012, countries: [{ country: 'us', rating: 4.3, ratings_count: 1012 }] });

    // The apps list: the store rating beside the review average (no reviews stored here).
    const listed = (await list(owner.token)).json.data.find((a) => a.key === iosKey)!;
    expect(listed.rating).toBeNull();
    expect(listed.store_rating).toMatchObject({ ratings_count: 20_330 });
    expect(listed.store_rating!.rating).toBe(Math.round(weighted([[4.5, 18_300], [4.1, 2_030]]) * 100) / 100);
  });

  test('a page the parser cannot read fails that app only; a failing store fails nothing else and is retried next run', async () => {
    const owner = await newOwner();
    const ok = newPlayApp(w);
    const broken = newPlayApp(w);
    const gone = newPlayApp(w);
    const okKey = (await add(owner.token, { app_id: ok.appId, app_store: 'google_play_store' })).json.data.key;
    const brokenKey = (await add(owner.token, { app_id: broken.appId, app_store: 'google_play_store' })).json.data.key;
    const goneKey = (await add(owner.token, { app_id: gone.appId, app_store: 'google_play_store' })).json.data.key;
    const db = await getDb();
    const dayOf = async (key: string, day: string) =>
      db.selectFrom('store_rating_snapshots').select(['rating', 'ratings_count']).where('app_key', '=', key).where('day', '=', day).execute();
    // A details page without a title is a format error (ours to fix); an app Play no longer has answers 404.
    w.stores.catalog.play.find((a) => a.appId === broken.appId)!.title = '';
    w.stores.catalog.play.splice(w.stores.catalog.play.findIndex((a) => a.appId === gone.appId), 1);
    const run = await snapshotStoreRatings({ now: at('2026-10-10'), gapMs: 0 });
    expect(await dayOf(okKey, '2026-10-10')).toEqual([{ rating: 4.2, ratings_count: 1200 }]);
    expect(await dayOf(brokenKey, '2026-10-10')).toEqual([]);
    // Not on Play any more: stored as "no rating" for the day, not asked again every hour.
    expect(await dayOf(goneKey, '2026-10-10')).toEqual([{ rating: null, ratings_count: null }]);
    expect(run.failed).toBe(1);

    // Google Play answering 500 to everything: nothing of Play saved, nothing thrown; the next run fetches the day.
    w.stores.catalog.play.find((a) => a.appId === broken.appId)!.title = broken.title;
    w.stores.playTrouble.set({ status: 500 });
    const failing = await snapshotStoreRatings({ now: at('2026-10-11'), gapMs: 0 });
    expect(failing.failed).toBeGreaterThanOrEqual(2);
    expect(await dayOf(okKey, '2026-10-11')).toEqual([]);
    w.stores.playTrouble.clear();
    await snapshotStoreRatings({ now: at('2026-10-11'), gapMs: 0 });
    expect(await dayOf(okKey, '2026-10-11')).toEqual([{ rating: 4.2, ratings_count: 1200 }]);
    expect(await dayOf(brokenKey, '2026-10-11')).toEqual([{ rating: 4.2, ratings_count: 1200 }]);
  });

  test('adding an app reads its store rating at once; bad spans are refused with words; another organisation\'s app is not found', async () => {
    const owner = await newOwner();
    const other = await newOwner('other');
    const ios = newIosApp(w);
    const key = (await add(owner.token, { app_id: ios.appId, app_store: 'apple_app_store' })).json.data.key;
    // Adding the app read its store rating at once (the fake's 4.5 from 100 in the one storefront).
    const today = new Date().toISOString().slice(0, 10);
    const first = await ratings(owner.token, key);
    expect(first.status, first.text).toBe(200);
    expect(first.json.data.current).toMatchObject({ rating: 4.5, ratings_count: 100, countries: [{ country: 'us', rating: 4.5, ratings_count: 100 }] });
    expect(first.json.data.series).toEqual([{ date: today, rating: 4.5, ratings_count: 100, new_ratings: null }]);
    await forgetSnapshots(key);
    const none = await ratings(owner.token, key);
    expect(none.json.data).toEqual({ current: null, series: [] });
    const cases: Array<[string, RegExp]> = [
      ['?from=2026-10-05&to=2026-10-01', /from must be on or before to/],
      ['?from=2026-13-01', /from is not a day of the calendar|from must be a day/],
      ['?from=2020-01-01&to=2026-01-01', /at most 731 days/],
    ];
    for (const [q, message] of cases) {
      const r = await ratings(owner.token, key, q);
      expect(r.status, q).toBe(400);
      expect(r.json.error.message).toMatch(message);
    }
    expect((await ratings(other.token, key)).status).toBe(404);
  });
});

describe('latestStoreRatings', () => {
  test('each storefront weighted by its count, the change over 7 days, apps without snapshots left out', async () => {
    const ios = newIosApp(w);
    const owner = await newOwner();
    const key = (await add(owner.token, { app_id: ios.appId, app_store: 'apple_app_store', countries: ['us', 'gb', 'de'] })).json.data.key;
    const noneKey = (await add(owner.token, { app_id: newIosApp(w).appId, app_store: 'apple_app_store' })).json.data.key;
    await forgetSnapshots(key, noneKey);
    const today = '2026-11-20';
    const snap = (country: string, day: string, rating: number | null, ratingsCount: number | null) =>
      saveSnapshot({ appKey: key, country, day, rating, ratingsCount, histogram: null });
    await snap('us', addDays(today, -7), 4.0, 1000);
    await snap('gb', addDays(today, -7), 3.0, 100);
    await snap('us', today, 4.5, 3000);
    await snap('gb', today, 3.5, 1000);
    await snap('de', addDays(today, -2), 2.0, 0); // nobody rated it there: weighs nothing
    await snap('fr', addDays(today, -9), 1.0, 5000); // no longer current (older than 7 days before the newest)
    const m = await latestStoreRatings(undefined, [key, noneKey, key]);
    expect([...m.keys()]).toEqual([key]);
    const r = m.get(key)!;
    expect(r.ratings_count).toBe(4000);
    expect(r.rating).toBeCloseTo((4.5 * 3000 + 3.5 * 1000) / 4000, 4);
    // Over us + gb, rated on both days: (4.5·3000 + 3.5·1000)/4000 − (4·1000 + 3·100)/1100.
    expect(r.change_7d).toBeCloseTo(4.25 - 4300 / 1100, 3);
    expect(r.countries.map((c) => c.country)).toEqual(['de', 'gb', 'us']);
    expect(Date.parse(r.as_of)).not.toBeNaN();
    // An organisation that watches only gb sees gb's figures.
    const gbOnly = (await latestStoreRatings(undefined, [key], { countries: new Map([[key, ['gb']]]) })).get(key)!;
    expect(gbOnly).toMatchObject({ rating: 3.5, ratings_count: 1000, change_7d: 0.5 });
  });
});
