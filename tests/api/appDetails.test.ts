import { describe, expect, test } from 'vitest';
import { setUpStoreApi } from '../helpers/apiWorld';
import { DEMO_APPS, playApp } from '../fixtures/catalog';

const w = setUpStoreApi();

async function details(query: Record<string, string>) {
  const res = await fetch(`${w.api.url}/api/v1/public/app-details?${new URLSearchParams(query)}`);
  return { status: res.status, json: (await res.json()) as { data?: Record<string, unknown>; error?: { code: string; message: string } } };
}

const lookups = () => w.fakes.itunes.requests.filter((r) => r.path === '/lookup');
const playPages = () => w.fakes.play.requests.filter((r) => r.path === '/store/apps/details');

describe('GET /api/v1/public/app-details', () => {
  test('answers an App Store app from the iTunes lookup', async () => {
    const { status, json } = await details({ app_id: DEMO_APPS.streakly.ios, app_store: 'apple_app_store' });
    expect(status).toBe(200);
    expect(json.data).toEqual({
      app_id: '1488223190',
      app_store: 'apple_app_store',
      title: 'Streakly: Habit Tracker',
      developer: 'Brightloop Labs Ltd',
      icon: expect.stringMatching(/512x512bb\.jpg$/),
      rating: 4.73,
      ratings_count: 18234,
      country: 'us',
      store_url: 'https://apps.apple.com/us/app/streakly-habit-tracker/id1488223190?uo=4',
      bundle_id: 'com.brightloop.streakly',
      version: '5.12.1',
      price: 0,
      currency: 'USD',
      genre: 'Health & Fitness',
      summary: 'Build habits that stick. Streakly turns your goals into daily streaks you actually want to keep.',
      updated_at: '2024-05-28T14:21:07.000Z',
    });
    expect(Object.fromEntries(lookups()[0].query)).toEqual({ id: '1488223190', country: 'us' });
  });

  test('reads the storefront given by country', async () => {
    const { json } = await details({ app_id: DEMO_APPS.ledgerleaf.ios, app_store: 'apple_app_store', country: 'GB' });
    expect(json.data?.country).toBe('gb');
    expect(lookups()[0].query.get('country')).toBe('gb');
  });

  test('accepts an App Store id pasted from a link ("id…")', async () => {
    const { status, json } = await details({ app_id: `id${DEMO_APPS.calmwave.ios}`, app_store: 'apple_app_store' });
    expect(status).toBe(200);
    expect(json.data?.app_id).toBe(DEMO_APPS.calmwave.ios);
  });

  test('answers a Google Play app from its store page', async () => {
    const { status, json } = await details({ app_id: DEMO_APPS.habitGarden.play, app_store: 'google_play_store' });
    expect(status).toBe(200);
    expect(json.data).toEqual({
      app_id: 'com.sproutworks.habitgarden',
      app_store: 'google_play_store',
      title: 'Habit Garden: Grow Good Habits',
      developer: 'Sproutworks',
      icon: expect.stringMatching(/^https:\/\/play-lh\.googleusercontent\.com\//),
      rating: 4.19,
      ratings_count: 3411,
      country: 'us',
      store_url: `${w.fakes.play.url}/store/apps/details?id=com.sproutworks.habitgarden`,
      bundle_id: 'com.sproutworks.habitgarden',
      version: '1.6.0',
      price: 1.99,
      currency: 'USD',
      genre: 'Lifestyle',
      summary: 'Every habit you keep grows a plant in your garden.',
      updated_at: '2024-01-15T10:00:00.000Z',
    });
    expect(Object.fromEntries(playPages()[0].query)).toEqual({ id: 'com.sproutworks.habitgarden', hl: 'en', gl: 'us' });
  });

  test('answers an app added to the store while the fake runs', async () => {
    w.fakes.catalog.play.push(playApp({ appId: 'io.tidy.rooms', title: 'Tidy Rooms' }));
    try {
      const { json } = await details({ app_id: 'io.tidy.rooms', app_store: 'google_play_store' });
      expect(json.data).toMatchObject({ title: 'Tidy Rooms', developer: 'Example Developer' });
    } finally {
      w.fakes.catalog.play.pop();
    }
  });

  test('an unknown App Store app is a 404 with a message', async () => {
    const { status, json } = await details({ app_id: '999000111', app_store: 'apple_app_store' });
    expect(status).toBe(404);
    expect(json.error).toEqual({ code: 'not_found', message: "We couldn't find the app 999000111 on the App Store (US store)." });
  });

  test('an unknown Google Play app is a 404 with a message', async () => {
    const { status, json } = await details({ app_id: 'com.nobody.nothing', app_store: 'google_play_store' });
    expect(status).toBe(404);
    expect(json.error).toEqual({ code: 'not_found', message: "We couldn't find the app com.nobody.nothing on Google Play." });
  });
});

describe('GET /api/v1/public/app-details validation', () => {
  test.each([
    [{ app_store: 'apple_app_store' }, 'app_id: is required'],
    [{ app_id: '1488223190' }, "app_store: must be 'apple_app_store' or 'google_play_store'"],
    [{ app_id: 'streakly', app_store: 'apple_app_store' }, 'app_id: must be an App Store app id (digits, e.g. 1488223190)'],
    [{ app_id: 'not a package', app_store: 'google_play_store' }, 'app_id: must be a Google Play package name (e.g. com.example.app)'],
    [{ app_id: 'streakly', app_store: 'google_play_store' }, 'app_id: must be a Google Play package name (e.g. com.example.app)'],
    [{ app_id: '1488223190', app_store: 'apple_app_store', country: 'u' }, 'country: must be a two-letter country code, e.g. us'],
  ])('%j → 400 "%s"', async (query, message) => {
    const { status, json } = await details(query);
    expect(status).toBe(400);
    expect(json.error).toEqual({ code: 'invalid_request', message });
    expect(w.fakes.itunes.requests.length + w.fakes.play.requests.length).toBe(0);
  });
});

describe('GET /api/v1/public/app-details when a store fails', () => {
  test('an App Store 500 is a 502 with a message', async () => {
    w.fakes.itunesTrouble.set({ status: 500 });
    const { status, json } = await details({ app_id: DEMO_APPS.streakly.ios, app_store: 'apple_app_store' });
    expect(status).toBe(502);
    expect(json.error).toEqual({ code: 'upstream_error', message: 'The App Store is not answering right now. Try again in a minute.' });
  });

  test('Google Play that never answers is a 502 after the timeout', async () => {
    w.fakes.playTrouble.set({ hang: true });
    const started = Date.now();
    const { status, json } = await details({ app_id: DEMO_APPS.streakly.play, app_store: 'google_play_store' });
    expect(status).toBe(502);
    expect(json.error?.message).toBe('Google Play is not answering right now. Try again in a minute.');
    expect(Date.now() - started).toBeLessThan(3000);
  });

  test('a Google Play 503 without a captcha is an outage (502), not a rate limit', async () => {
    w.fakes.playTrouble.set({ status: 503, body: '<html><body>Service Unavailable</body></html>' });
    const { status } = await details({ app_id: DEMO_APPS.streakly.play, app_store: 'google_play_store' });
    expect(status).toBe(502);
  });

  test('a Play details page in an unknown layout is a 502 that says so', async () => {
    w.fakes.playTrouble.set({ status: 200, body: '<!doctype html><html><body>redesigned</body></html>' });
    const { status, json } = await details({ app_id: DEMO_APPS.streakly.play, app_store: 'google_play_store' });
    expect(status).toBe(502);
    expect(json.error?.code).toBe('upstream_format');
  });
});

describe('GET /api/v1/public/app-details caching', () => {
  test('a second request is answered from the cache', async () => {
    const first = await details({ app_id: DEMO_APPS.trailmate.play, app_store: 'google_play_store' });
    const second = await details({ app_id: DEMO_APPS.trailmate.play, app_store: 'google_play_store' });
    expect(second.json).toEqual(first.json);
    expect(playPages()).toHaveLength(1);
  });

  test('"not found" is remembered too', async () => {
    await details({ app_id: '999000111', app_store: 'apple_app_store' });
    expect((await details({ app_id: '999000111', app_store: 'apple_app_store' })).status).toBe(404);
    expect(lookups()).toHaveLength(1);
  });

  test('ten concurrent requests for one app cause one store request', async () => {
    w.fakes.itunesTrouble.set({ delayMs: 150 });
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => details({ app_id: DEMO_APPS.streakly.ios, app_store: 'apple_app_store' })),
    );
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(lookups()).toHaveLength(1);
  });

  test('a failure is not cached', async () => {
    w.fakes.itunesTrouble.set({ status: 500 });
    await details({ app_id: DEMO_APPS.streakly.ios, app_store: 'apple_app_store' });
    w.fakes.itunesTrouble.clear();
    expect((await details({ app_id: DEMO_APPS.streakly.ios, app_store: 'apple_app_store' })).status).toBe(200);
    expect(lookups()).toHaveLength(2);
  });
});
