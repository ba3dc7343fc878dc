/**
 * An app's ratings and trends for a span of days: the series per day or week (count, average, sentiment: positive,
 * neutral, mixed, negative and not yet classified, adding up to the count), the 1–5
 * distribution, and the average by app version and by country. Shaped from the grouped rows of server/stats/data.ts;
 * every number here is computed from stored reviews, none estimated.
 */
import type { Membership } from '../org/membership';
import { notFound } from '../http/errors';
import { dayOf, periodStarts, type StatsInterval } from './buckets';
import { orgAppName, statsGroups, type StatsGroupRow } from './data';

const DAY_MS = 86_400_000;
/** Versions listed, the most reviewed first; the rest are summed into "other versions". */
export const STATS_TOP_VERSIONS = 15;

/** The four classes and the reviews without one yet: together they are the review count. */
export type SentimentCounts = { positive: number; neutral: number; negative: number; mixed: number; unclassified: number };
export const SENTIMENT_KEYS = ['positive', 'neutral', 'mixed', 'negative', 'unclassified'] as const;
export type StatsPoint = { start: string; reviews: number; average_rating: number | null } & SentimentCounts;
export type StatsSlice = { reviews: number; average_rating: number | null };

export type AppStats = {
  app: { key: string; title: string; store: string };
  from: string;
  to: string;
  interval: StatsInterval;
  totals: StatsPoint;
  series: StatsPoint[];
  distribution: Array<{ rating: number; reviews: number }>;
  by_version: Array<StatsSlice & { version: string | null }>;
  by_country: Array<StatsSlice & { country: string | null }>;
};

const average = (sum: number, n: number) => (n ? Math.round((sum / n) * 100) / 100 : null);
const point = (start: string, r: Pick<StatsGroupRow, 'reviews' | 'rating_sum' | keyof SentimentCounts> | undefined): StatsPoint => ({
  start,
  reviews: r?.reviews ?? 0,
  average_rating: r ? average(r.rating_sum, r.reviews) : null,
  positive: r?.positive ?? 0,
  neutral: r?.neutral ?? 0,
  negative: r?.negative ?? 0,
  mixed: r?.mixed ?? 0,
  unclassified: r?.unclassified ?? 0,
});
const byReviews = <T extends { reviews: number }>(a: T, b: T) => b.reviews - a.reviews;

/** The figures from the grouped rows, pure: `from` and `to` are UTC days, both included. */
export function shapeStats(rows: StatsGroupRow[], span: { from: Date; to: Date; interval: StatsInterval }) {
  const periods = new Map(rows.filter((r) => r.dim === 'period').map((r) => [r.period!, r]));
  const series = periodStarts(span.from, span.to, span.interval).map((start) => point(dayOf(start), periods.get(dayOf(start))));
  const sum = (k: 'reviews' | 'rating_sum' | keyof SentimentCounts) => [...periods.values()].reduce((n, r) => n + r[k], 0);
  const totals = point(dayOf(span.from), {
    reviews: sum('reviews'),
    rating_sum: sum('rating_sum'),
    ...(Object.fromEntries(SENTIMENT_KEYS.map((k) => [k, sum(k)])) as SentimentCounts),
  });

  const ratings = new Map(rows.filter((r) => r.dim === 'rating').map((r) => [r.rating!, r.reviews]));
  const distribution = [1, 2, 3, 4, 5].map((rating) => ({ rating, reviews: ratings.get(rating) ?? 0 }));

  const versions = rows
    .filter((r) => r.dim === 'version')
    .map((r) => ({ version: r.version || null, reviews: r.reviews, rating_sum: r.rating_sum }))
    .sort(byReviews);
  const shown = versions.slice(0, STATS_TOP_VERSIONS).map((v) => ({ version: v.version, reviews: v.reviews, average_rating: average(v.rating_sum, v.reviews) }));
  const rest = versions.slice(STATS_TOP_VERSIONS);
  if (rest.length) {
    const n = rest.reduce((a, v) => a + v.reviews, 0);
    shown.push({ version: `${rest.length} other versions`, reviews: n, average_rating: average(rest.reduce((a, v) => a + v.rating_sum, 0), n) });
  }

  const by_country = rows
    .filter((r) => r.dim === 'country')
    .map((r) => ({ country: r.country || null, reviews: r.reviews, average_rating: average(r.rating_sum, r.reviews) }))
    .sort(byReviews);
  return { totals, series, distribution, by_version: shown, by_country };
}

/** The stats of the organisation's app `appKey` (404 when it is not the organisation's). */
export async function appStatsOf(m: Pick<Membership, 'orgId'>, appKey: string, span: { from: Date; to: Date; interval: StatsInterval }): Promise<AppStats> {
  const app = await orgAppName(m.orgId, appKey);
  if (!app) throw notFound('This app is not in your organisation. Add it on the Apps page first.');
  const rows = await statsGroups({ appKey: app.key, from: span.from, toExclusive: new Date(span.to.getTime() + DAY_MS), interval: span.interval });
  return {
    app,
    from: dayOf(span.from),
    to: dayOf(span.to),
    interval: span.interval,
    ...shapeStats(rows, span),
  };
}
