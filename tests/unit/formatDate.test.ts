import { describe, expect, test } from 'vitest';
import { formatDate, formatDateTime, formatDay, NO_DATE } from '@/lib/formatDate';

// The reader's locale is the runtime's default: compare with what Intl itself answers for it, and pin the parts
// that must not depend on it (the year, the day, no ISO text, the same calendar day in every time zone).
const locale = new Intl.DateTimeFormat().resolvedOptions().locale;

describe('formatDate / formatDateTime', () => {
  test("a moment in the reader's locale and zone, with the month as a word, not ISO", () => {
    const iso = '2026-12-02T14:05:00Z';
    const text = formatDate(iso);
    expect(text).toBe(new Date(iso).toLocaleDateString(locale, { year: 'numeric', month: 'short', day: 'numeric' }));
    expect(text).toContain('2026');
    expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    expect(formatDate(new Date(iso))).toBe(text);
    expect(formatDate(Date.parse(iso))).toBe(text);
  });

  test('with the time', () => {
    const iso = '2026-12-02T14:05:00Z';
    const text = formatDateTime(iso);
    expect(text).toBe(new Date(iso).toLocaleString(locale, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' }));
    expect(text).toMatch(/\d{1,2}\D\d{2}/);
  });

  test.each([null, undefined, '', 'not a date'])('%j is shown as a dash', (value) => {
    expect(formatDate(value)).toBe(NO_DATE);
    expect(formatDateTime(value)).toBe(NO_DATE);
  });
});

describe('formatDay', () => {
  test('a calendar day is that day, in UTC, whatever the zone', () => {
    const text = formatDay('2026-12-02');
    expect(text).toBe(new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' }).format(Date.UTC(2026, 11, 2)));
    expect(text).toMatch(/\b2\b/);
    expect(text).not.toMatch(/\b(1|3)\b/);
    // The first and last day of a year stay in their year (a zone shift would move them across).
    expect(formatDay('2026-01-01')).toContain('2026');
    expect(formatDay('2026-12-31')).toContain('2026');
  });

  test('anything that is not a day is left as it is', () => {
    expect(formatDay('2026-W49')).toBe('2026-W49');
    expect(formatDay(null)).toBe(NO_DATE);
  });
});
