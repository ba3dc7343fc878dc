/**
 * The periods of a stats series, pure: UTC days, or ISO weeks (Monday to Sunday, as PostgreSQL's
 * date_trunc('week') cuts them). A period with no reviews is still in the series, so a chart's time axis has no gaps
 * and a table shows the quiet days too.
 */
export type StatsInterval = 'day' | 'week';

const DAY_MS = 86_400_000;

/** `day` (UTC midnight) moved back to the Monday that starts its week when the interval is a week. */
export function periodStart(day: Date, interval: StatsInterval): Date {
  const t = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate());
  if (interval === 'day') return new Date(t);
  const sinceMonday = (new Date(t).getUTCDay() + 6) % 7;
  return new Date(t - sinceMonday * DAY_MS);
}

/** The start of every period that overlaps the days `from` to `to` (both included), oldest first. */
export function periodStarts(from: Date, to: Date, interval: StatsInterval): Date[] {
  const step = interval === 'day' ? DAY_MS : 7 * DAY_MS;
  const out: Date[] = [];
  for (let t = periodStart(from, interval).getTime(); t <= to.getTime(); t += step) out.push(new Date(t));
  return out;
}

/** YYYY-MM-DD of a UTC day. */
export const dayOf = (d: Date): string => d.toISOString().slice(0, 10);
