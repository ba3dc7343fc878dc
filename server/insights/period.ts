/**
 * The period an insight covers and the one it is compared with: UTC days, both included, and the same number of days
 * just before. Pure.
 */
import { badRequest } from '../http/errors';

const DAY_MS = 86_400_000;
/** Days covered when the request names none: the last 30, today included. */
export const INSIGHT_DEFAULT_DAYS = 30;
/** The longest period: a year. */
export const INSIGHT_MAX_DAYS = 366;

export type Period = { from: Date; to: Date; toExclusive: Date; days: number };
export type Periods = { current: Period; previous: Period };

const period = (from: Date, days: number): Period => ({
  from,
  to: new Date(from.getTime() + (days - 1) * DAY_MS),
  toExclusive: new Date(from.getTime() + days * DAY_MS),
  days,
});

/** The days asked for (`to` defaults to today, `from` to `defaultDays` − 1 days before it), checked, and the period before them. */
export function periodsOf(q: { from?: Date; to?: Date }, now = new Date(), defaultDays = INSIGHT_DEFAULT_DAYS): Periods {
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const to = q.to ?? today;
  const from = q.from ?? new Date(to.getTime() - (defaultDays - 1) * DAY_MS);
  if (from > to) throw badRequest('from must be on or before to.');
  const days = Math.round((to.getTime() - from.getTime()) / DAY_MS) + 1;
  if (days > INSIGHT_MAX_DAYS) throw badRequest(`A period covers at most ${INSIGHT_MAX_DAYS} days: choose fewer days.`);
  return { current: period(from, days), previous: period(new Date(from.getTime() - days * DAY_MS), days) };
}
