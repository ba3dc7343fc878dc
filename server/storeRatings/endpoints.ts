/**
 * GET v1/org/apps/{appKey}/ratings: the store's own rating of an app now and its daily history (README.md in this
 * folder). Everyone in the organisation reads it; another organisation's app is not found (404). Days are UTC; `from`
 * and `to` are both included. An App Store app counts the storefronts the organisation watches.
 */
import { z } from 'zod';
import { endpoint } from '../http/api';
import { badRequest, notFound } from '../http/errors';
import { membershipOf } from '../org/membership';
import { appKeyParam } from '../orgApps/endpoints';
import { getOrgAppCountries } from '../orgApps/data';
import { daySpanQuery } from '../stats/endpoints';
import { dayOf } from '../stats/buckets';
import { latestStoreRatings, storeRatingSeries } from './data';

const DAY_MS = 86_400_000;
/** Days answered when the query names none: the last 90, today included. */
export const RATINGS_DEFAULT_DAYS = 90;
/** The longest span: two years of days. */
export const RATINGS_MAX_DAYS = 731;

const figure = {
  rating: z.number().nullable().meta({ description: 'The store\'s rating (0–5); null when the store shows none.' }),
  ratings_count: z.number().nullable().meta({ description: 'All ratings the store counts, with or without text.' }),
};

const ratingsShape = z.object({
  current: z
    .object({
      ...figure,
      as_of: z.string().meta({ description: 'When the newest snapshot was fetched (ISO 8601).' }),
      change_7d: z.number().nullable().meta({ description: 'The rating now minus 7 days before, over the storefronts rated on both days.' }),
      countries: z.array(z.object({ country: z.string(), ...figure })).meta({
        description: "Each storefront's latest snapshot. Google Play's figure is worldwide, under one country.",
      }),
    })
    .nullable()
    .meta({ description: 'Storefronts weighted by their ratings counts; null before the first daily snapshot.' }),
  series: z
    .array(
      z.object({
        date: z.string().meta({ description: 'UTC day, YYYY-MM-DD.' }),
        ...figure,
        new_ratings: z.number().nullable().meta({
          description: "The count's growth since the day before (ratings without text included); null when the day before has no snapshot.",
        }),
      }),
    )
    .meta({ description: 'One point per day with a snapshot, oldest first. A day without one is left out (a gap, never interpolated).' }),
});

/** The span asked for, checked: `to` defaults to today, `from` to 89 days before it. */
export function ratingsSpan(q: { from?: Date; to?: Date }, now = new Date()): { from: string; to: string } {
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const to = q.to ?? today;
  const from = q.from ?? new Date(to.getTime() - (RATINGS_DEFAULT_DAYS - 1) * DAY_MS);
  if (from > to) throw badRequest('from must be on or before to.');
  if ((to.getTime() - from.getTime()) / DAY_MS + 1 > RATINGS_MAX_DAYS) throw badRequest(`The ratings history covers at most ${RATINGS_MAX_DAYS} days: choose fewer days.`);
  return { from: dayOf(from), to: dayOf(to) };
}

export const appRatingsEndpoint = endpoint({
  statuses: [404],
  summary: "The store's own rating of an app now and its daily history (rating, ratings count, new ratings per day)",
  tags: ['apps'],
  auth: 'user',
  params: appKeyParam,
  query: z.object(daySpanQuery),
  response: ratingsShape,
  handler: async ({ auth, params, query }) => {
    const m = await membershipOf(auth);
    const span = ratingsSpan(query);
    const countries = await getOrgAppCountries(m.orgId, params.appKey);
    if (countries === undefined) throw notFound('This app is not in your organisation. Add it on the Apps page first.');
    const [latest, series] = await Promise.all([
      latestStoreRatings(undefined, [params.appKey], { countries: new Map([[params.appKey, countries]]) }),
      storeRatingSeries({ appKey: params.appKey, ...span, countries }),
    ]);
    const now = latest.get(params.appKey);
    return {
      current: now ? { rating: now.rating, ratings_count: now.ratings_count, as_of: now.as_of, change_7d: now.change_7d, countries: now.countries } : null,
      series,
    };
  },
});
