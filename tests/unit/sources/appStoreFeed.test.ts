import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { setEnvForTests } from '@/server/env';
import { appStoreFeedAdapter, feedDateFallback } from '@/server/sources/appStoreFeed';
import { getAdapter } from '@/server/sources';
import { SourceError, SourceFormatError } from '@/server/sources/types';
import { appStoreFeedRoutes, createAppStoreFeed, type AppStoreFeedStore } from '@/tests/fakes/appStoreFeed';
import { json, startFakeServer, type FakeHandler, type FakeServer } from '@/tests/fakes/http';

const fixture = (name: string, dir = 'appstore') => fs.readFileSync(path.resolve(__dirname, '../../fixtures', dir, name), 'utf8');

/** Serves a fixture file verbatim for one app, so parsing is checked against the real shape, not our fake's output. */
const fixtureRoute = (appId: string, country: string, file: string, dir = 'appstore'): FakeHandler => (req, res) => {
  if (!req.path.startsWith(`/${country}/rss/customerreviews/page=1/id=${appId}/`)) return false;
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.end(fixture(file, dir));
  return true;
};
/** Page 2 of the captured feed was not kept: answer it like the feed's empty-page glitch (no entries). */
const emptyPage2 = (appId: string, country: string): FakeHandler => (req, res) => {
  if (!req.path.startsWith(`/${country}/rss/customerreviews/page=`) || !req.path.includes(`/id=${appId}/`)) return false;
  json(res, 200, { feed: { author: { name: { label: 'iTunes Store' } } } });
  return true;
};

let feed: AppStoreFeedStore;
let failNext = 0;
let server: FakeServer;
let restoreEnv: () => void;

beforeAll(async () => {
  feed = createAppStoreFeed();
  const flaky: FakeHandler = (req, res) => {
    if (failNext <= 0 || !req.path.includes('/rss/customerreviews/')) return false;
    failNext--;
    json(res, 503, { error: 'Service Unavailable' });
    return true;
  };
  server = await startFakeServer([
    flaky,
    fixtureRoute('1488000123', 'us', 'customer-reviews-page.json'),
    fixtureRoute('1488000123', 'fr', 'customer-reviews-single-entry.json'),
    fixtureRoute('1488000123', 'de', 'customer-reviews-empty.json'),
    // Captured from the live feed in 2020, when entries carried no `updated` of their own.
    fixtureRoute('1404176564', 'jp', 'appstore-customer-reviews-jp-2020-no-entry-dates.json', 'real'),
    emptyPage2('1404176564', 'jp'),
    appStoreFeedRoutes(feed),
  ]);
  restoreEnv = setEnvForTests({ ITUNES_BASE_URL: server.url });
});
afterAll(async () => {
  restoreEnv();
  await server.close();
});
afterEach(() => {
  feed.traps.appEntry = false;
  feed.traps.noEntryDates = false;
  feed.traps.noFeedDate = false;
  failNext = 0;
});

let appSeq = 1000;
/** A fresh app id per test so reviews and hit counters never leak between tests. */
const newApp = () => String(++appSeq);
const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000);
/** Publishes `n` reviews one minute apart, the newest first in the returned list. */
function publishMany(appId: string, n: number, country = 'us') {
  return Array.from({ length: n }, (_, i) => feed.publish(appId, country, { title: `Review ${i}`, updated: minutesAgo(i + 1) }));
}
const pageHits = (appId: string, country = 'us') =>
  [...feed.hits].filter(([k]) => k.startsWith(`${appId}/${country}/`)).map(([k, n]) => [Number(k.split('/')[2]), n]);

describe('App Store feed: parsing the real JSON shape', () => {
  test('maps a fixture page and skips the entry that is the app itself', async () => {
    const { reviews, complete } = await appStoreFeedAdapter.poll({ kind: 'appstore_feed', appId: '1488000123', country: 'us' });
    expect(complete).toBe(true);
    expect(reviews.map((r) => r.storeReviewId)).toEqual(['11092938471', '11092811102', '11091200931']);
    expect(reviews[0]).toEqual({
      store: 'apple_app_store',
      appId: '1488000123',
      storeReviewId: '11092938471',
      country: 'us',
      language: null,
      authorName: 'kayak_dad',
      title: 'Sync broke after the update',
      body: 'Since 5.12 my notes don’t sync between iPad and iPhone anymore.\nPlease fix, I pay for Pro!',
      rating: 2,
      appVersion: '5.12.0',
      createdAt: null,
      updatedAt: new Date('2024-05-14T15:41:09Z'),
      replyText: null,
      replyUpdatedAt: null,
      permalink: 'https://apps.apple.com/us/app/id1488000123?see-all=reviews',
    });
    expect(reviews[1].authorName).toBe('Mei 🌸');
  });

  test('reads a page whose single entry is an object, not an array', async () => {
    const { reviews } = await appStoreFeedAdapter.poll({ kind: 'appstore_feed', appId: '1488000123', country: 'fr' });
    expect(reviews).toHaveLength(1);
    expect(reviews[0]).toMatchObject({ storeReviewId: '10987600012', rating: 1, title: 'Plante au démarrage', country: 'fr' });
  });

  test('an app without reviews in a storefront is an empty, complete poll on the first run', async () => {
    const result = await appStoreFeedAdapter.poll({ kind: 'appstore_feed', appId: '1488000123', country: 'de' });
    expect(result).toEqual({ reviews: [], complete: true });
  });

  test("the fake's pages have the fixture's shape, a lone review included (served as an object)", async () => {
    const appId = newApp();
    feed.traps.appEntry = true;
    feed.publish(appId, 'us', { title: 'Only one' });
    const doc = feed.page(appId, 'us', 1) as { feed: { entry: unknown[] } };
    const real = JSON.parse(fixture('customer-reviews-page.json')) as { feed: { entry: Array<Record<string, unknown>> } };
    expect(Object.keys(doc.feed).sort()).toEqual(Object.keys(real.feed).sort());
    expect(Object.keys(doc.feed.entry[0] as object).sort()).toEqual(Object.keys(real.feed.entry[0]).sort());
    expect(Object.keys(doc.feed.entry[1] as object).sort()).toEqual(Object.keys(real.feed.entry[1]).sort());

    feed.traps.appEntry = false;
    const single = feed.page(appId, 'us', 1) as { feed: { entry: unknown } };
    expect(Array.isArray(single.feed.entry)).toBe(false);
    const { reviews } = await appStoreFeedAdapter.poll({ kind: 'appstore_feed', appId, country: 'us' });
    expect(reviews.map((r) => r.title)).toEqual(['Only one']);
  });

  test('the registry hands out the feed adapter', () => {
    expect(getAdapter('appstore_feed')).toBe(appStoreFeedAdapter);
  });
});

describe('App Store feed: paging', () => {
  test('reads every page of 50 until the feed ends, newest first', async () => {
    const appId = newApp();
    const published = publishMany(appId, 120);
    const { reviews, complete } = await appStoreFeedAdapter.poll({ kind: 'appstore_feed', appId, country: 'us' });
    expect(complete).toBe(true);
    expect(reviews.map((r) => r.storeReviewId)).toEqual(published.map((r) => r.id));
    expect(pageHits(appId)).toEqual([[1, 1], [2, 1], [3, 1]]);
  });

  test('stops at the last page the feed declares instead of asking for an empty one', async () => {
    const appId = newApp();
    publishMany(appId, 100);
    const { reviews } = await appStoreFeedAdapter.poll({ kind: 'appstore_feed', appId, country: 'us' });
    expect(reviews).toHaveLength(100);
    expect(pageHits(appId)).toEqual([[1, 1], [2, 1]]);
  });

  test('never asks for more than 10 pages (the feed keeps 500 reviews)', async () => {
    const appId = newApp();
    publishMany(appId, 560);
    const { reviews, complete } = await appStoreFeedAdapter.poll({ kind: 'appstore_feed', appId, country: 'us' });
    expect(reviews).toHaveLength(500);
    expect(complete).toBe(true);
    expect(Math.max(...pageHits(appId).map(([p]) => p))).toBe(10);
  });

  test('stops paging once past the watermark, and sees reviews published during the test', async () => {
    const appId = newApp();
    const published = publishMany(appId, 150);
    const first = await appStoreFeedAdapter.poll({ kind: 'appstore_feed', appId, country: 'us' });
    const watermark = first.reviews[0].updatedAt;

    const fresh = feed.publish(appId, 'us', { title: 'Just now', rating: 1 });
    feed.hits.clear();
    const second = await appStoreFeedAdapter.poll({ kind: 'appstore_feed', appId, country: 'us' }, { since: watermark });
    expect(second.complete).toBe(true);
    expect(second.reviews[0]).toMatchObject({ storeReviewId: fresh.id, title: 'Just now', rating: 1 });
    expect(second.reviews.map((r) => r.storeReviewId)).toContain(published[0].id);
    expect(pageHits(appId)).toEqual([[1, 1]]);
  });

  test('an edited review comes back with the same id and its new text', async () => {
    const appId = newApp();
    const [original] = publishMany(appId, 3);
    const before = await appStoreFeedAdapter.poll({ kind: 'appstore_feed', appId, country: 'us' });
    feed.edit(appId, 'us', original.id, { content: 'Changed my mind', rating: 2 });
    const after = await appStoreFeedAdapter.poll({ kind: 'appstore_feed', appId, country: 'us' }, { since: before.reviews[0].updatedAt });
    expect(after.reviews[0]).toMatchObject({ storeReviewId: original.id, body: 'Changed my mind', rating: 2 });
    expect(after.reviews[0].updatedAt.getTime()).toBeGreaterThan(before.reviews[0].updatedAt.getTime());
  });
});

describe('App Store feed: traps', () => {
  test('skips the app entry on page 1 and still reads on to page 2', async () => {
    const appId = newApp();
    feed.traps.appEntry = true;
    feed.setAppName(appId, 'us', 'Lumen Notes');
    publishMany(appId, 60);
    const { reviews } = await appStoreFeedAdapter.poll({ kind: 'appstore_feed', appId, country: 'us' });
    expect(reviews).toHaveLength(60);
    expect(reviews.some((r) => r.title?.includes('Lumen Notes'))).toBe(false);
  });

  test('retries an empty page once and carries on when the retry has the reviews', async () => {
    const appId = newApp();
    publishMany(appId, 70);
    feed.emptyPageOnce(appId, 'us', 1);
    const { reviews, complete } = await appStoreFeedAdapter.poll({ kind: 'appstore_feed', appId, country: 'us' }, { since: minutesAgo(1000) });
    expect(complete).toBe(true);
    expect(reviews).toHaveLength(70);
    expect(pageHits(appId)).toEqual([[1, 2], [2, 1]]);
  });

  test('an empty first page twice after reviews were seen reports an incomplete poll', async () => {
    const appId = newApp();
    publishMany(appId, 10);
    feed.emptyPageOnce(appId, 'us', 1, 2);
    const result = await appStoreFeedAdapter.poll({ kind: 'appstore_feed', appId, country: 'us' }, { since: minutesAgo(5) });
    expect(result).toEqual({ reviews: [], complete: false });
    expect(pageHits(appId)).toEqual([[1, 2]]);
  });

  test('an empty page inside the declared range reports an incomplete poll but keeps what was read', async () => {
    const appId = newApp();
    publishMany(appId, 140);
    feed.emptyPageOnce(appId, 'us', 2, 2);
    const result = await appStoreFeedAdapter.poll({ kind: 'appstore_feed', appId, country: 'us' }, { since: minutesAgo(1000) });
    expect(result.complete).toBe(false);
    expect(result.reviews).toHaveLength(50);
    expect(pageHits(appId)).toEqual([[1, 1], [2, 2]]);
  });

  test('a page budget that ends before the watermark reports an incomplete poll', async () => {
    const appId = newApp();
    publishMany(appId, 200);
    const result = await appStoreFeedAdapter.poll({ kind: 'appstore_feed', appId, country: 'us' }, { since: minutesAgo(1000), maxPages: 2 });
    expect(result.reviews).toHaveLength(100);
    expect(result.complete).toBe(false);
  });
});

describe('App Store feed: errors', () => {
  test('a 503 is a transient SourceError', async () => {
    const appId = newApp();
    publishMany(appId, 2);
    failNext = 1;
    const err = await appStoreFeedAdapter.poll({ kind: 'appstore_feed', appId, country: 'us' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SourceError);
    expect(err).toMatchObject({ permanent: false, status: 503 });
  });

  test('a bad app id or storefront is permanent and sends no request', async () => {
    const before = server.requests.length;
    await expect(appStoreFeedAdapter.poll({ kind: 'appstore_feed', appId: 'com.example', country: 'us' })).rejects.toMatchObject({ permanent: true });
    await expect(appStoreFeedAdapter.poll({ kind: 'appstore_feed', appId: '123', country: 'usa' })).rejects.toMatchObject({ permanent: true });
    expect(server.requests.length).toBe(before);
  });

  test("the caller's abort is passed through, not turned into a source failure", async () => {
    const appId = newApp();
    publishMany(appId, 2);
    const controller = new AbortController();
    controller.abort(new Error('shutting down'));
    await expect(appStoreFeedAdapter.poll({ kind: 'appstore_feed', appId, country: 'us' }, { signal: controller.signal })).rejects.toThrow('shutting down');
  });
});

describe('App Store feed: entries without a date of their own', () => {
  const REAL_FEED_DATE = new Date('2020-08-08T03:17:03Z'); // the captured page's feed.updated, 2020-08-07T20:17:03-07:00

  test('a real 2020 page (no per-entry `updated`) yields its reviews, dated with the page, in feed order', async () => {
    const { reviews } = await appStoreFeedAdapter.poll({ kind: 'appstore_feed', appId: '1404176564', country: 'jp' });
    expect(reviews.map((r) => r.storeReviewId)).toEqual(['6290024630', '6285559638', '6282758619']);
    expect(reviews[0]).toMatchObject({ title: '神アプリ', rating: 4, appVersion: '3.4.3', authorName: 'ヤミ。', country: 'jp', dateFromPage: true });
    expect(reviews[0].body).toContain('\n面白い人がたくさんいるので');
    expect(reviews.every((r) => r.updatedAt.getTime() === REAL_FEED_DATE.getTime())).toBe(true);
  });

  test("with a watermark, undated entries of every page share the first page's date and paging goes on", async () => {
    const appId = newApp();
    feed.traps.noEntryDates = true;
    publishMany(appId, 60);
    const before = Date.now();
    const { reviews, complete } = await appStoreFeedAdapter.poll({ kind: 'appstore_feed', appId, country: 'us' }, { since: minutesAgo(30) });
    expect(complete).toBe(true);
    expect(reviews).toHaveLength(60);
    expect(new Set(reviews.map((r) => r.updatedAt.getTime())).size).toBe(1);
    expect(reviews[0].updatedAt.getTime()).toBeGreaterThan(before - 2000);
    expect(reviews.every((r) => r.dateFromPage)).toBe(true);
    expect(pageHits(appId)).toEqual([[1, 1], [2, 1]]);
  });

  test('a page with entries but nothing datable is a format error, not "no new reviews"', async () => {
    const appId = newApp();
    feed.traps.noEntryDates = true;
    feed.traps.noFeedDate = true;
    publishMany(appId, 3);
    const poll = appStoreFeedAdapter.poll({ kind: 'appstore_feed', appId, country: 'us' }, { since: minutesAgo(30) });
    await expect(poll).rejects.toBeInstanceOf(SourceFormatError);
    await expect(appStoreFeedAdapter.poll({ kind: 'appstore_feed', appId, country: 'us' })).rejects.toThrow(
      /changed its format: page 1 has 3 entries and none with an id, a rating from 1 to 5 and a date/,
    );
    // Not retried like the empty-page glitch: one request per poll.
    expect(pageHits(appId)).toEqual([[1, 2]]);
  });

  test('the page date never lies in the future', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    expect(feedDateFallback(new Date('2026-01-01T05:00:00Z'), now)).toEqual(now);
    expect(feedDateFallback(new Date('2025-12-31T23:00:00Z'), now)).toEqual(new Date('2025-12-31T23:00:00Z'));
    expect(feedDateFallback(null, now)).toBeNull();
  });
});
