import { describe, expect, test } from 'vitest';
import { readQuestion } from '@/server/askArb/conversation';
import type { AskScope } from '@/server/askArb/types';

const scope: AskScope = { orgId: null, apps: [{ appStore: 'apple_app_store', appId: '1', title: 'Acme' }] };
const now = new Date('2026-11-25T12:00:00Z');
type Previous = Parameters<typeof readQuestion>[0]['previous'];
const afterCount: Previous = { filters: { from: '2026-11-16', to: '2026-11-22', ratings: [1] }, intent: 'count', topic: null };
const read = (question: string, previous: Previous = afterCount) => readQuestion({ scope, question, previous }, now);

describe('a follow-up keeps asking the same thing', () => {
  test('"and 5 stars?" after a count is a count of 5★ reviews in the same week', () => {
    expect(read('and 5 stars?')).toMatchObject({ intent: 'count', filters: { from: '2026-11-16', to: '2026-11-22', ratings: [5] } });
  });
  test('"what about 5-star ones?" too', () => expect(read('what about 5-star ones?').intent).toBe('count'));
  test('"and in Germany?" keeps the count and adds the country', () => {
    expect(read('and in Germany?')).toMatchObject({ intent: 'count', filters: { country: 'DE', ratings: [1] } });
  });
  test('a follow-up that asks for reviews gets them', () => expect(read('and show me the 5-star ones').intent).toBe('reviews_about'));
  test('a follow-up that names its own intent keeps it', () => expect(read('and the average rating in Germany?').intent).toBe('average'));
  test('a follow-up after a topic keeps the topic', () => {
    const previous: Previous = { filters: {}, intent: 'reviews_about', topic: 'login' };
    expect(read('and 1 star?', previous)).toMatchObject({ intent: 'reviews_about', topic: 'login', filters: { ratings: [1] } });
  });
  test('a new question is not a follow-up', () => expect(read('show me 5-star reviews').intent).toBe('reviews_about'));
});
