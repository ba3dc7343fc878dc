// The days an Ask ARB answer used, in words: named when they are a period people say ("this week", "last month",
// "the last 30 days"), always with the days themselves, the year only when it is not this year's.
import { describe, expect, test } from 'vitest';
import { dayWords, periodWords } from '@/server/askArb/dates';
import { parseQuestion } from '@/server/askArb/question';

const now = new Date('2026-12-02T15:00:00Z'); // a Wednesday
const scope = { orgId: null, apps: [{ appStore: 'google_play_store' as const, appId: 'x', title: 'Lantern' }] };
const wordsOf = (question: string) => {
  const f = parseQuestion(question, { scope, now }).filters;
  return periodWords(f.from, f.to, now);
};

describe('periodWords', () => {
  test.each([
    ['How many reviews this week?', 'this week (Mon 30 Nov – Wed 2 Dec)'],
    ['How many reviews last week?', 'last week (Mon 23 Nov – Sun 29 Nov)'],
    ['How many reviews today?', 'today (Wed 2 Dec)'],
    ['How many reviews yesterday?', 'yesterday (Tue 1 Dec)'],
    ['summarise this month', 'this month (Tue 1 Dec – Wed 2 Dec)'],
    ['How many reviews last month?', 'last month (Sun 1 Nov – Mon 30 Nov)'],
    ['How many reviews in the last 30 days?', 'the last 30 days (Tue 3 Nov – Wed 2 Dec)'],
    ['How many reviews in October 2025?', 'Wed 1 Oct 2025 – Fri 31 Oct 2025'],
    ['How many reviews since 1 November?', 'since Sun 1 Nov (Sun 1 Nov – Wed 2 Dec)'],
    ['How many reviews?', 'all time'],
  ])('%s → %s', (question, words) => {
    expect(wordsOf(question)).toBe(words);
  });

  test('a day of another year says its year', () => {
    expect(dayWords('2025-11-30', now)).toBe('Sun 30 Nov 2025');
    expect(dayWords('2026-11-30', now)).toBe('Mon 30 Nov');
  });
});

describe('the questions of issue 31', () => {
  test('"since the last version" compares versions; "summarise …" is a summary; both keep their dates', () => {
    expect(parseQuestion('How did ratings change since the last version?', { scope, now })).toEqual({ filters: {}, intent: 'version_change' });
    expect(parseQuestion('Is the latest release worse than the previous one?', { scope, now }).intent).toBe('version_change');
    expect(parseQuestion('summarise this month', { scope, now })).toEqual({ filters: { from: '2026-12-01', to: '2026-12-02' }, intent: 'summary' });
    expect(parseQuestion('Give me a summary of last week', { scope, now })).toMatchObject({ intent: 'summary', filters: { from: '2026-11-23', to: '2026-11-29' } });
    // A trend is still a trend, a version still a filter.
    expect(parseQuestion('How did the rating change over time?', { scope, now }).intent).toBe('trend');
    expect(parseQuestion('average rating of version 2.3', { scope, now })).toMatchObject({ intent: 'average', filters: { version: '2.3' } });
  });
});
