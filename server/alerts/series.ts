/**
 * Daily counts as the database gives them (one row per day × country × version) → one series per scope: the whole
 * app, each country, each version. Pure, so the job's only SQL is the grouped count (data.ts).
 */
import { addCounts, SPIKE_SETTINGS, type DayCounts, type ScopeSeries } from './detector';

/** `day` 0 is the last 24 hours, 1 the 24 hours before, … ; country and version '' when the store does not say. */
export type CountRow = { day: number; country: string; version: string } & DayCounts;

const EMPTY: DayCounts = { n: 0, low: 0, sum: 0, sumSq: 0 };

export function seriesOf(rows: CountRow[], days = 1 + SPIKE_SETTINGS.baselineDays): ScopeSeries[] {
  const byScope = new Map<string, ScopeSeries>();
  const add = (kind: 'app' | 'country' | 'version', value: string, row: CountRow) => {
    const key = `${kind}:${value}`;
    let s = byScope.get(key);
    if (!s) byScope.set(key, (s = { scope: { kind, value }, days: Array.from({ length: days }, () => EMPTY) }));
    s.days[row.day] = addCounts(s.days[row.day], row);
  };
  for (const row of rows) {
    if (row.day < 0 || row.day >= days) continue;
    add('app', '', row);
    if (row.country) add('country', row.country, row);
    if (row.version) add('version', row.version, row);
  }
  return [...byScope.values()];
}
