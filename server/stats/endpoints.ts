/**
 * GET v1/org/apps/{appKey}/stats: an app's ratings and trends over chosen days. Everyone in the organisation reads it;
 * another organisation's app is not found (404). Days are UTC; `from` and `to` are both included.
 */
import { z } from 'zod';
import { endpoint } from '../http/api';
import { badRequest } from '../http/errors';
import { membershipOf } from '../org/membership';
import { appKeyParam } from '../orgApps/endpoints';
import { appStatsOf, STATS_TOP_VERSIONS } from './appStats';

const DAY_MS = 86_400_000;
/** Days shown when the query names none: the last 90, today included. */
export const STATS_DEFAULT_DAYS = 90;
/** The longest span per interval: a year of days, five years of weeks (a chart of ~365 or ~261 points). */
export const STATS_MAX_DAYS = { day: 366, week: 5 * 366 } as const;

/** A UTC day query parameter (2026-05-01), checked against the calendar. */
export const day = (name: string) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${name} must be a day like 2026-05-01.`)
    .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s), `${name} is not a day of the calendar.`)
    .transform((s) => new Date(`${s}T00:00:00Z`))
    .optional();

/** `from` and `to` as UTC days, both included; absent, the last 90 days up to today (each endpoint applies that). */
export const daySpanQuery = {
  from: day('from').meta({ description: 'First day (UTC), included; default: 89 days before to.' }),
  to: day('to').meta({ description: 'Last day (UTC), included; default: today.' }),
};

const point = { reviews: z.number(), average_rating: z.number().nullable() };
const counts = {
  positive: z.number(),
  neutral: z.number(),
  negative: z.number(),
  mixed: z.number().meta({ description: 'Clear praise and a clear complaint in one review.' }),
  unclassified: z.number().meta({ description: 'Reviews without a sentiment yet; with the four classes they add up to `reviews`.' }),
};
const statsShape = z.object({
  app: z.object({ key: z.string(), title: z.string(), store: z.string() }),
  from: z.string(),
  to: z.string(),
  interval: z.enum(['day', 'week']),
  totals: z.object({ start: z.string(), ...point, ...counts }),
  series: z.array(z.object({ start: z.string().meta({ description: "The period's first day (a Monday for weeks)." }), ...point, ...counts })),
  distribution: z.array(z.object({ rating: z.number(), reviews: z.number() })),
  by_version: z.array(z.object({ version: z.string().nullable(), ...point })).meta({ description: `The ${STATS_TOP_VERSIONS} most reviewed versions, then the others summed.` }),
  by_country: z.array(z.object({ country: z.string().nullable(), ...point })),
});

/** The span asked for, checked: `to` defaults to today, `from` to 90 days before it. */
export function statsSpan(q: { from?: Date; to?: Date; interval: 'day' | 'week' }, now = new Date()) {
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const to = q.to ?? today;
  const from = q.from ?? new Date(to.getTime() - (STATS_DEFAULT_DAYS - 1) * DAY_MS);
  if (from > to) throw badRequest('from must be on or before to.');
  const days = (to.getTime() - from.getTime()) / DAY_MS + 1;
  if (days > STATS_MAX_DAYS[q.interval]) {
    throw badRequest(
      q.interval === 'day'
        ? `A series by day covers at most ${STATS_MAX_DAYS.day} days: choose interval=week, or fewer days.`
        : `A series by week covers at most ${STATS_MAX_DAYS.week} days (five years): choose fewer days.`,
    );
  }
  return { from, to, interval: q.interval };
}

export const appStatsEndpoint = endpoint({
  statuses: [404],
  summary: "An app's ratings and trends: the series per day or week, the 1–5 distribution, by version and by country",
  tags: ['apps'],
  auth: 'user',
  params: appKeyParam,
  query: z.object({
    ...daySpanQuery,
    interval: z.enum(['day', 'week'], 'interval must be day or week.').default('day'),
  }),
  response: statsShape,
  handler: async ({ auth, params, query }) => {
    return appStatsOf(await membershipOf(auth), params.appKey, statsSpan(query));
  },
});
