import { describe, expect, test } from 'vitest';
import { dayOf, periodStart, periodStarts } from '@/server/stats/buckets';

const d = (s: string) => new Date(`${s}T00:00:00Z`);

describe('stats periods', () => {
  test('days: every day from the first to the last, both included', () => {
    expect(periodStarts(d('2026-02-27'), d('2026-03-02'), 'day').map(dayOf)).toEqual(['2026-02-27', '2026-02-28', '2026-03-01', '2026-03-02']);
    expect(periodStarts(d('2026-03-02'), d('2026-03-02'), 'day').map(dayOf)).toEqual(['2026-03-02']);
  });

  test('weeks start on Monday, as PostgreSQL cuts them, including a Sunday first day', () => {
    expect(dayOf(periodStart(d('2026-03-01'), 'week'))).toBe('2026-02-23'); // Sunday
    expect(dayOf(periodStart(d('2026-03-02'), 'week'))).toBe('2026-03-02'); // Monday
    expect(periodStarts(d('2026-03-01'), d('2026-03-16'), 'week').map(dayOf)).toEqual(['2026-02-23', '2026-03-02', '2026-03-09', '2026-03-16']);
  });

  test('a year boundary', () => {
    expect(dayOf(periodStart(d('2027-01-01'), 'week'))).toBe('2026-12-28');
  });
});
