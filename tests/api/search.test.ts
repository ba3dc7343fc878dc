import { describe, expect, test } from 'vitest';
import { setUpStoreApi } from '../helpers/apiWorld';
import { renderCaptchaPage } from '../fakes/googlePlayPages';
import { DEMO_APPS, itunesApp, playApp } from '../fixtures/catalog';

const w = setUpStoreApi();

async function search(body: unknown) {
  const res = await fetch(`${w.api.url}/api/search`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, json: (await res.json()) as { data?: unknown; error?: { code: string; message: string } } };
}

const itunesSearches = () => w.fakes.itunes.requests.filter((r) => r.path === '/search');
const playSearches = () => w.fakes.play.requests.filter((r) => r.path === '/store/search');

describe('POST /api/search on the App Store', () => {
  test('answers normalised results from the iTunes Search API', async () => {
    const { status, json } = await search({ query: 'habit', country: 'us', app_store: 'apple_app_store' });
    expect(status).toBe(200);
    const data = json.data as Array<Record<string, unknown>>;
    expect(data.map((a) => a.app_id)).toEqual([DEMO_APPS.streakly.ios, DEMO_APPS.habitJournal.ios]);
    expect(data[0]).toEqual({
      app_id: '1488223190',
      app_store: 'apple_app_store',
      title: 'Streakly: Habit Tracker',
      developer: 'Brightloop Labs Ltd',
      icon: expect.stringMatching(/^https:\/\/is1-ssl\.mzstatic\.com\/.+\/512x512bb\.jpg$/),
      rating: 4.73,
      ratings_count: 18234,
    });
    const [req] = itunesSearches();
    expect(Object.fromEntries(req.query)).toEqual({ term: 'habit', country: 'us', media: 'software', entity: 'software', limit: '10' });
  });

  test('passes the country (lower case) and defaults it to us', async () => {
    await search({ query: 'trailmate', country: 'DE', app_store: 'apple_app_store' });
    await search({ query: 'calmwave', app_store: 'apple_app_store' });
    expect(itunesSearches().map((r) => r.query.get('country'))).toEqual(['de', 'us']);
  });

  test('an App Store country that does not exist is a 400 naming the field', async () => {
    const { status, json } = await search({ query: 'habit', country: 'zz', app_store: 'apple_app_store' });
    expect(status).toBe(400);
    expect(json.error?.message).toBe("country: the App Store has no storefront 'zz'");
  });

  test('finds an app added to the store while the fake runs', async () => {
    w.fakes.catalog.itunes.push(itunesApp({ trackId: 6470000001, trackName: 'Focus Forest Timer', artistName: 'Grove Apps' }));
    try {
      const { json } = await search({ query: 'focus forest', app_store: 'apple_app_store' });
      expect(json.data).toEqual([expect.objectContaining({ app_id: '6470000001', title: 'Focus Forest Timer', developer: 'Grove Apps' })]);
    } finally {
      w.fakes.catalog.itunes.pop();
    }
  });
});

describe('POST /api/search on Google Play', () => {
  test('answers normalised results read from the store search page', async () => {
    const { status, json } = await search({ query: 'habit', app_store: 'google_play_store' });
    expect(status).toBe(200);
    expect(json.data).toEqual([
      {
        app_id: 'com.brightloop.streakly',
        app_store: 'google_play_store',
        title: 'Streakly: Habit Tracker',
        developer: 'Brightloop Labs',
        icon: expect.stringMatching(/^https:\/\/play-lh\.googleusercontent\.com\//),
        rating: 4.61,
        ratings_count: null,
      },
      expect.objectContaining({ app_id: 'com.sproutworks.habitgarden', title: 'Habit Garden: Grow Good Habits', rating: 4.19 }),
    ]);
    const [req] = playSearches();
    expect(Object.fromEntries(req.query)).toEqual({ q: 'habit', c: 'apps', hl: 'en', gl: 'us' });
  });

  test('puts the app Play shows as its top card first, with its ratings count', async () => {
    w.fakes.playOptions.aboutNotice = true;
    const { json } = await search({ query: 'Streakly: Habit Tracker', country: 'fr', app_store: 'google_play_store' });
    expect((json.data as unknown[])[0]).toMatchObject({ app_id: DEMO_APPS.streakly.play, ratings_count: 52341 });
    expect(playSearches()[0].query.get('gl')).toBe('fr');
  });

  test('accepts a search that Play answers with one app page', async () => {
    const { json } = await search({ query: DEMO_APPS.trailmate.play, app_store: 'google_play_store' });
    expect(json.data).toEqual([expect.objectContaining({ app_id: DEMO_APPS.trailmate.play, title: DEMO_APPS.trailmate.title })]);
  });

  test('follows the "see more" link when the first page is a set of clusters', async () => {
    w.fakes.playOptions.clusterSearch = true;
    const { json } = await search({ query: 'habit', app_store: 'google_play_store' });
    expect((json.data as Array<{ app_id: string }>).map((a) => a.app_id)).toEqual([DEMO_APPS.streakly.play, DEMO_APPS.habitGarden.play]);
    expect(w.fakes.play.requests.map((r) => r.path)).toEqual([
      '/store/search',
      '/store/apps/collection/search_collection_more_results_cluster',
    ]);
  });

  test('answers an empty list when nothing matches', async () => {
    const { status, json } = await search({ query: 'qwxzv', app_store: 'google_play_store' });
    expect(status).toBe(200);
    expect(json.data).toEqual([]);
  });

  test('finds an app added to the store while the fake runs', async () => {
    w.fakes.catalog.play.push(playApp({ appId: 'io.gardenly.plants', title: 'Gardenly Plant Care' }));
    try {
      const { json } = await search({ query: 'gardenly', app_store: 'google_play_store' });
      expect(json.data).toEqual([expect.objectContaining({ app_id: 'io.gardenly.plants' })]);
    } finally {
      w.fakes.catalog.play.pop();
    }
  });
});

describe('POST /api/search validation', () => {
  test.each([
    [{ app_store: 'apple_app_store' }, 'query: is required'],
    [{ query: '   ', app_store: 'apple_app_store' }, 'query: must not be empty'],
    [{ query: 'x'.repeat(101), app_store: 'apple_app_store' }, 'query: must be at most 100 characters'],
    [{ query: 'habit', app_store: 'windows_store' }, "app_store: must be 'apple_app_store' or 'google_play_store'"],
    [{ query: 'habit' }, "app_store: must be 'apple_app_store' or 'google_play_store'"],
    [{ query: 'habit', country: 'usa', app_store: 'apple_app_store' }, 'country: must be a two-letter country code, e.g. us'],
  ])('%j → 400 "%s"', async (body, message) => {
    const { status, json } = await search(body);
    expect(status).toBe(400);
    expect(json.error).toEqual({ code: 'invalid_request', message });
    expect(itunesSearches()).toHaveLength(0);
  });

  test('a body that is not JSON is a 400', async () => {
    const { status, json } = await search('{"query": ');
    expect(status).toBe(400);
    expect(json.error?.code).toBe('invalid_json');
  });

  test('GET is not allowed', async () => {
    const res = await fetch(`${w.api.url}/api/search`);
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toContain('POST');
  });
});

describe('POST /api/search when a store fails', () => {
  test('an App Store 500 is a 502 with a message', async () => {
    w.fakes.itunesTrouble.set({ status: 500 });
    const { status, json } = await search({ query: 'habit', app_store: 'apple_app_store' });
    expect(status).toBe(502);
    expect(json.error).toEqual({
      code: 'upstream_error',
      message: 'The App Store search is not answering right now. Try again in a minute.',
    });
  });

  test('a store that never answers is a 502 after the timeout, not a hang', async () => {
    w.fakes.itunesTrouble.set({ hang: true });
    const started = Date.now();
    const { status, json } = await search({ query: 'habit', app_store: 'apple_app_store' });
    expect(status).toBe(502);
    expect(json.error?.message).toMatch(/not answering right now/);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  test("Google Play's captcha (429) is a 503 asking to try again in a minute", async () => {
    w.fakes.playTrouble.set({ status: 429, body: renderCaptchaPage() });
    const { status, headers, json } = await search({ query: 'habit', app_store: 'google_play_store' });
    expect(status).toBe(503);
    expect(headers.get('retry-after')).toBe('60');
    expect(json.error).toEqual({ code: 'upstream_busy', message: 'Google Play is limiting our requests right now. Try again in a minute.' });
  });

  test("a redirect to Google's sorry page is a 503 too", async () => {
    w.fakes.playTrouble.set({ status: 302, headers: { Location: 'https://www.google.com/sorry/index?continue=https://play.google.com/store/search' } });
    const { status } = await search({ query: 'habit', app_store: 'google_play_store' });
    expect(status).toBe(503);
  });

  test('a Play page in an unknown layout is a 502 that says so', async () => {
    w.fakes.playTrouble.set({ status: 200, body: '<!doctype html><html><body><c-wiz>new layout</c-wiz></body></html>' });
    const { status, json } = await search({ query: 'habit', app_store: 'google_play_store' });
    expect(status).toBe(502);
    expect(json.error).toEqual({
      code: 'upstream_format',
      message: "Google Play changed the layout of its pages and we can't read them right now. Try again later.",
    });
  });

  test('a failure is not cached: the next search asks the store again', async () => {
    w.fakes.itunesTrouble.set({ status: 500 });
    expect((await search({ query: 'habit', app_store: 'apple_app_store' })).status).toBe(502);
    w.fakes.itunesTrouble.clear();
    expect((await search({ query: 'habit', app_store: 'apple_app_store' })).status).toBe(200);
    expect(itunesSearches()).toHaveLength(2);
  });
});

describe('POST /api/search pacing', () => {
  test('spaces Google Play requests by GOOGLE_PLAY_MIN_INTERVAL_MS', async () => {
    w.setEnv({ APPS_UPSTREAM_TIMEOUT_MS: '5000', GOOGLE_PLAY_MIN_INTERVAL_MS: '400' });
    try {
      const answers = await Promise.all(['habit', 'budget', 'sleep'].map((query) => search({ query, app_store: 'google_play_store' })));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
      const arrivals = playSearches().map((r) => r.at).sort((a, b) => a - b);
      expect(arrivals).toHaveLength(3);
      // Arrival times at the fake, not send times: on a busy machine one request can reach it late and the next one on
      // time, so a gap may look up to ~100 ms shorter than the spacing the throttle kept (86 ms of 120 was seen). Without
      // the throttle the three arrive within a few milliseconds.
      for (let i = 1; i < arrivals.length; i++) expect(arrivals[i] - arrivals[i - 1]).toBeGreaterThanOrEqual(300);
    } finally {
      w.setEnv();
    }
  });
});

describe('POST /api/search caching', () => {
  test('ten identical concurrent searches cause one store request', async () => {
    w.fakes.itunesTrouble.set({ delayMs: 150 });
    const answers = await Promise.all(Array.from({ length: 10 }, () => search({ query: 'habit', app_store: 'apple_app_store' })));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(new Set(answers.map((a) => JSON.stringify(a.json.data))).size).toBe(1);
    expect(itunesSearches()).toHaveLength(1);
  });

  test('a repeated search (any case and spacing) is answered from the cache', async () => {
    await search({ query: 'habit', app_store: 'google_play_store' });
    const again = await search({ query: '  HABIT ', app_store: 'google_play_store' });
    expect(again.status).toBe(200);
    expect((again.json.data as unknown[]).length).toBe(2);
    expect(playSearches()).toHaveLength(1);
  });

  test('the cache key includes store and country', async () => {
    await search({ query: 'habit', app_store: 'apple_app_store' });
    await search({ query: 'habit', app_store: 'apple_app_store', country: 'gb' });
    await search({ query: 'habit', app_store: 'google_play_store' });
    expect(itunesSearches()).toHaveLength(2);
    expect(playSearches()).toHaveLength(1);
  });
});
