import { describe, expect, test } from 'vitest';
import { summarizeReviews } from '@/server/subscriptions/summary';
import type { StoredReview } from '@/server/subscriptions/reviews';

let id = 0;
function review(rating: number, body: string, minutesAgo: number, title: string | null = null): StoredReview {
  const at = new Date(Date.parse('2024-06-01T12:00:00Z') - minutesAgo * 60_000);
  id += 1;
  return {
    id, store_review_id: String(id), country: 'us', language: 'en', author_name: 'A', title, body, rating, app_version: null,
    written_at: at, updated_at: at, permalink: null, sentiment: null, sentiment_score: null, first_seen_at: at,
  };
}

describe('the review summary', () => {
  test('counts, average, date span and the latest negative reviews are recountable', () => {
    const reviews = [review(5, 'Great', 50), review(1, 'Awful crash', 40), review(2, 'Meh crash', 30), review(4, 'Good', 20), review(1, 'Crash again', 10)];
    const s = summarizeReviews(reviews);
    expect(s.total).toBe(5);
    expect(s.counts).toEqual({ 1: 2, 2: 1, 3: 0, 4: 1, 5: 1 });
    expect(s.average).toBe(2.6);
    expect(s.from!.toISOString()).toBe('2024-06-01T11:10:00.000Z');
    expect(s.to!.toISOString()).toBe('2024-06-01T11:50:00.000Z');
    expect(s.latestNegative.map((r) => r.body)).toEqual(['Crash again', 'Meh crash', 'Awful crash']);
  });

  test('terms count reviews, not repetitions; stopwords and one-off words are left out; a phrase hides its words', () => {
    const s = summarizeReviews([
      review(1, 'Dark mode dark mode dark mode, please!', 3),
      review(4, 'I love the dark mode', 2),
      review(3, 'The battery drains fast', 1),
      review(2, 'Battery life is bad', 0),
    ]);
    expect(s.terms).toEqual([
      { term: 'dark mode', reviews: 2 },
      { term: 'battery', reviews: 2 },
    ]);
  });

  test('no reviews: zero counts, no average, nothing invented', () => {
    const s = summarizeReviews([]);
    expect(s).toMatchObject({ total: 0, average: null, from: null, to: null, terms: [], latestNegative: [] });
  });
});
