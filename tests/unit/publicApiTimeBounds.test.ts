// The public API's `from`/`to` parser (server/publicApi/timeBounds.ts): the two forms the seed product's n8n node
// sends (unix seconds from its trigger, ISO 8601 from its Get Many), the other ISO forms people type, what is refused,
// and the whole second each bound compares with (the second the API answers content_updated_at in).
import { describe, expect, test } from 'vitest';
import { boundMessage, boundSecond, instantOf, unixSeconds } from '@/server/publicApi/timeBounds';

const at = (iso: string) => Date.parse(iso);

describe('instantOf', () => {
  test('unix seconds, as the trigger sends String(watermark + 1)', () => {
    expect(instantOf('1714550401', 'from')).toBe(1714550401_000);
    expect(instantOf('0', 'to')).toBe(0);
    expect(instantOf('1714550401', 'to')).toBe(1714550401_000);
  });

  test('ISO 8601 as Get Many sends new Date(value).toISOString(), and with other offsets or none (UTC)', () => {
    expect(instantOf('2024-05-01T00:00:00.000Z', 'from')).toBe(at('2024-05-01T00:00:00Z'));
    expect(instantOf('2024-05-01T12:00:00.700Z', 'from')).toBe(at('2024-05-01T12:00:00.700Z'));
    expect(instantOf('2024-05-01T02:00:00+02:00', 'from')).toBe(at('2024-05-01T00:00:00Z'));
    expect(instantOf('2024-05-01T02:00:00+0200', 'from')).toBe(at('2024-05-01T00:00:00Z'));
    expect(instantOf('2024-04-30T18:30:00-05:30', 'to')).toBe(at('2024-05-01T00:00:00Z'));
    expect(instantOf('2024-05-01T00:00:00', 'from')).toBe(at('2024-05-01T00:00:00Z'));
    expect(instantOf('2024-05-01T00:00', 'from')).toBe(at('2024-05-01T00:00:00Z'));
    expect(instantOf('2024-05-01t00:00:00z', 'from')).toBe(at('2024-05-01T00:00:00Z'));
    expect(instantOf('2024-05-01T00:00:00.123456789Z', 'from')).toBe(at('2024-05-01T00:00:00.123Z'));
  });

  test('a date alone is that UTC day: its start as from, its last second as to', () => {
    expect(instantOf('2024-05-01', 'from')).toBe(at('2024-05-01T00:00:00Z'));
    expect(instantOf('2024-05-01', 'to')).toBe(at('2024-05-01T23:59:59Z'));
    expect(instantOf('2024-02-29', 'to')).toBe(at('2024-02-29T23:59:59Z'));
  });

  test('anything else, or no real date, is refused', () => {
    for (const bad of [
      'yesterday', '', ' 1714550400', '1714550400.5', '-1', '171455040000000', '2024-5-1', '2024/05/01', '2024-05-01 00:00:00',
      '2024-13-01', '2024-02-30', '2023-02-29', '2024-05-00', '2024-05-01T24:00:00Z', '2024-05-01T12:60Z', '2024-05-01T12:00:61Z',
      '2024-05-01T12:00:00+25:00', '2024-05-01T12:00:00+02:75', '2024-05-01T12:00:00GMT', '2024-05-01Z', 'Wed, 01 May 2024 00:00:00 GMT',
    ]) {
      expect(instantOf(bad, 'from'), bad).toBeNull();
    }
  });

  test('the message names the parameter and both forms', () => {
    expect(boundMessage('from')).toMatch(/^from must be unix seconds .* or an ISO 8601 date or time/);
    expect(boundMessage('to')).toContain('to must be unix seconds');
  });
});

describe('the second a bound compares with', () => {
  test('from rounds up to a whole second, to down: a review is returned when its answered second is within', () => {
    expect(boundSecond(at('2024-05-01T12:00:00.000Z'), 'from')).toBe(at('2024-05-01T12:00:00Z'));
    expect(boundSecond(at('2024-05-01T12:00:00.001Z'), 'from')).toBe(at('2024-05-01T12:00:01Z'));
    expect(boundSecond(at('2024-05-01T12:00:00.999Z'), 'to')).toBe(at('2024-05-01T12:00:00Z'));
  });

  test('a stored time is answered as the second it falls in (truncated), the one a from in unix seconds matches', () => {
    const stored = new Date('2024-05-01T12:00:00.700Z');
    expect(unixSeconds(stored)).toBe(1714564800);
    expect(unixSeconds('2024-05-01T12:00:00.999Z')).toBe(1714564800);
    expect(unixSeconds(at('2024-05-01T12:00:01.000Z'))).toBe(1714564801);
    // from = its second includes it (its second ≥ from), from = its second + 1 does not.
    expect(unixSeconds(stored) * 1000 >= boundSecond(instantOf('1714564800', 'from')!, 'from')).toBe(true);
    expect(unixSeconds(stored) * 1000 >= boundSecond(instantOf('1714564801', 'from')!, 'from')).toBe(false);
  });
});
