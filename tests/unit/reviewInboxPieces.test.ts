// The inbox's pure pieces: its view as a URL query and back (what a shared link carries), the opaque cursor, and the
// CSV cells a spreadsheet opens safely.
import { describe, expect, test } from 'vitest';
import { filtersFromQuery } from '@/lib/api/reviewFilters';
import { filtersToQuery, hasFilters } from '@/shared/reviewFilters';
import { csvCell, csvRecord } from '@/server/reviews/csv';
import { decodeCursor, encodeCursor } from '@/server/reviews/cursor';

describe('the view in the URL', () => {
  test('lists are comma-separated, both ways; what is malformed is left out', () => {
    const view = filtersFromQuery({
      app: 'apple_app_store__1,google_play_store__com.x',
      rating: '2,1,9,x',
      country: 'us,gb',
      store: 'google_play_store',
      replied: 'false',
      q: '  crash on sync ',
      from: '2026-01-01',
      to: 'tomorrow',
      sentiment: ['negative'],
    });
    expect(view).toEqual({
      app: ['apple_app_store__1', 'google_play_store__com.x'],
      rating: [1, 2],
      country: ['us', 'gb'],
      store: 'google_play_store',
      replied: 'false',
      q: 'crash on sync',
      from: '2026-01-01',
      sentiment: ['negative'],
    });
    expect(filtersFromQuery(filtersToQuery(view))).toEqual(view);
    expect(filtersToQuery({ rating: [], q: '' })).toEqual({});
    expect(hasFilters({})).toBe(false);
    expect(filtersFromQuery({ store: 'itunes', replied: 'maybe' })).toEqual({});
  });
});

describe('the cursor', () => {
  test('round-trips a position and refuses anything else with a 400 that says what to send', () => {
    const c = encodeCursor({ us: '1767225600123456', id: '42' });
    expect(c).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(c)).toEqual({ us: '1767225600123456', id: '42' });
    for (const bad of ['nonsense', '', 'a'.repeat(65), Buffer.from('1:2:3').toString('base64url'), Buffer.from("1'; drop").toString('base64url')]) {
      expect(() => decodeCursor(bad)).toThrow(/starting_after: not a cursor/);
    }
  });
});

describe('CSV cells', () => {
  test('quoted, quotes doubled, formulas defused, numbers and empties plain', () => {
    expect(csvCell('say "hi", ok')).toBe('"say ""hi"", ok"');
    for (const start of ['=', '+', '-', '@', '\t', '\r']) expect(csvCell(`${start}1+1`)).toBe(`"'${start}1+1"`);
    expect(csvCell(-3)).toBe('"-3"');
    expect(csvCell(null)).toBe('""');
    expect(csvCell(true)).toBe('"true"');
    expect(csvRecord(['a', 1, null])).toBe('"a","1",""\r\n');
  });
});
