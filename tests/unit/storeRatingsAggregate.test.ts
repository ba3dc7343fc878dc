// How storefronts' store ratings combine into one and how days become a history (server/storeRatings/aggregate.ts),
// and reading the store's own rating from Google Play's details page (the fake's page, built on its own from
// google-play-scraper's paths: two Ws7gDc blocks, the rating-only one first).
import { describe, expect, test } from 'vitest';
import { combineStorefronts, growth, ratingChange, seriesOf } from '@/server/storeRatings/aggregate';
import { parsePlayRating, PlayFormatError } from '@/server/apps/googlePlayParse';
import { renderDetailsPage } from '../fakes/googlePlayPages';
import { playApp } from '../fixtures/catalog';

describe('combineStorefronts', () => {
  test('weighted by counts; a storefront without ratings weighs nothing; plain mean only when no count is known', () => {
    expect(combineStorefronts([{ country: 'us', rating: 4.6, ratings_count: 18_000 }, { country: 'gb', rating: 4.0, ratings_count: 2_000 }])).toEqual({ rating: 4.54, ratings_count: 20_000 });
    expect(combineStorefronts([{ country: 'us', rating: 4.0, ratings_count: 10 }, { country: 'de', rating: null, ratings_count: 0 }])).toEqual({ rating: 4, ratings_count: 10 });
    expect(combineStorefronts([{ country: 'us', rating: 4.0, ratings_count: null }, { country: 'gb', rating: 3.0, ratings_count: null }])).toEqual({ rating: 3.5, ratings_count: null });
    expect(combineStorefronts([{ country: 'de', rating: null, ratings_count: null }])).toEqual({ rating: null, ratings_count: null });
    expect(combineStorefronts([])).toEqual({ rating: null, ratings_count: null });
  });
});

describe('seriesOf', () => {
  const row = (day: string, country: string, rating: number, count: number) => ({ day, country, rating, ratings_count: count });
  test('one point per day with snapshots; a missing day is a gap and the day after it has no one-day growth', () => {
    const series = seriesOf(
      [row('2026-05-02', 'us', 4, 110), row('2026-05-02', 'gb', 3, 50), row('2026-05-03', 'us', 4, 125), row('2026-05-05', 'us', 4, 140)],
      [row('2026-05-01', 'us', 4, 100), row('2026-05-01', 'gb', 3, 45)],
    );
    expect(series.map((p) => [p.date, p.ratings_count, p.new_ratings])).toEqual([
      ['2026-05-02', 160, 15],
      // gb missing on 05-03: its growth is over the storefronts on both days (us: +15), its count that day's own.
      ['2026-05-03', 125, 15],
      ['2026-05-05', 140, null],
    ]);
  });
  test('a count the store lowered is a negative growth, as reported', () => {
    expect(growth([{ country: 'us', rating: 4, ratings_count: 100 }], [{ country: 'us', rating: 4, ratings_count: 97 }])).toBe(-3);
    expect(growth([{ country: 'us', rating: 4, ratings_count: 100 }], [{ country: 'gb', rating: 4, ratings_count: 97 }])).toBeNull();
  });
});

describe('ratingChange', () => {
  test('over the storefronts rated on both days: a storefront added in between is no change', () => {
    const then = [{ country: 'us', rating: 4.0, ratings_count: 100 }];
    const now = [{ country: 'us', rating: 4.2, ratings_count: 120 }, { country: 'jp', rating: 2.0, ratings_count: 10_000 }];
    expect(ratingChange(then, now)).toBeCloseTo(0.2, 6);
    expect(ratingChange([], now)).toBeNull();
  });
});

describe('parsePlayRating', () => {
  test('score, ratings count and the 1–5 histogram, unrounded, from the details block', () => {
    const html = renderDetailsPage(playApp({ appId: 'com.example.rated', title: 'Rated', score: 4.3712, ratings: 52_341 }));
    expect(parsePlayRating(html, 'com.example.rated')).toEqual({
      rating: 4.3712,
      ratings_count: 52_341,
      histogram: { '1': Math.round(52_341 * 0.04), '2': Math.round(52_341 * 0.02), '3': Math.round(52_341 * 0.05), '4': Math.round(52_341 * 0.14), '5': Math.round(52_341 * 0.75) },
    });
  });
  test('an app without ratings has none; a page without the details block is a format error', () => {
    const html = renderDetailsPage(playApp({ appId: 'com.example.new', title: 'New', score: 0, ratings: 0 }));
    expect(parsePlayRating(html, 'com.example.new')).toMatchObject({ rating: null, ratings_count: 0 });
    expect(() => parsePlayRating('<html><body>nothing</body></html>', 'com.example.x')).toThrow(PlayFormatError);
  });
});

describe('the job’s start delay', () => {
  test('a random 30 s–2 min before the first request, never more than half the period', async () => {
    const { startDelayMs, STORE_RATINGS_EVERY_MS } = await import('@/server/storeRatings/jobs');
    expect(startDelayMs(STORE_RATINGS_EVERY_MS, 0)).toBe(30_000);
    expect(startDelayMs(STORE_RATINGS_EVERY_MS, 1)).toBe(120_000);
    expect(startDelayMs(1_000, 0.5)).toBe(500);
  });
});
