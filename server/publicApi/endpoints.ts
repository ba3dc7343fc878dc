/**
 * The public API (auth: an organisation's `arb_` key): GET v1/apps and GET v1/apps/{store}__{appId}/reviews, in the
 * shape of the seed product's public API, so clients written for it (its n8n node, scripts) only change the base URL.
 */
import { z } from 'zod';
import { endpoint, pageAnswer, taggedAnswer } from '../http/api';
import { appJson, appKeyParam, appShape } from '../orgApps/endpoints';
import { list, reviewShape } from '../reviews/endpoints';
import { appsOfKey, reviewsOfKey } from './service';
import { cachedAppsAnswer, loadAppsAnswer } from './appsCache';

const unixSeconds = (name: string) =>
  z
    .string()
    .regex(/^\d{1,11}$/, `${name} must be unix seconds (a whole number, e.g. 1714550400).`)
    .transform((s) => new Date(Number(s) * 1000))
    .optional()
    .meta({ description: `Unix seconds; ${name === 'from' ? 'on or after' : 'on or before'} this time (content_updated_at).` });

export const publicAppsEndpoint = endpoint({
  statuses: [304],
  summary: "The apps of the API key's organisation (use `id` in the reviews call)",
  tags: ['public API'],
  auth: 'api_key',
  response: z.array(appShape.extend({ id: z.string().meta({ description: '{app_store}__{app_id}, the app in the reviews call.' }) })),
  paged: true,
  // From memory when warm (appsCache.ts): answered without a promise, its body and ETag made once.
  handler: ({ apiKey }) =>
    cachedAppsAnswer(apiKey!.orgId) ??
    loadAppsAnswer(apiKey!.orgId, async () => {
      const apps = (await appsOfKey(apiKey!)).map((a) => ({ id: a.app_key, ...appJson(a) }));
      // Counts change with every new review: clients revalidate each time (If-None-Match), and an unchanged list costs
      // a 304 with no body. Private: the answer is one organisation's.
      return taggedAnswer(pageAnswer(apps, false), 'private, no-cache');
    }),
});

export const publicAppReviewsEndpoint = endpoint({
  statuses: [404],
  summary: "One app's stored reviews, newest first (content_updated_at), paged with starting_after = the last review's id",
  tags: ['public API'],
  auth: 'api_key',
  params: appKeyParam,
  query: z
    .object({
      limit: z.coerce.number('limit must be a number.').int('limit must be a whole number.').min(1, 'limit must be 1 to 100.').max(100, 'limit must be 1 to 100.').default(20),
      starting_after: z.string().regex(/^\d{1,19}$/, 'starting_after must be a review id (the id of the last review of the previous page).').optional(),
      country: list('country', z.string().regex(/^[A-Za-z]{2}$/).transform((c) => c.toLowerCase()), 'a two-letter country code').meta({ description: 'Two-letter country codes, comma-separated.' }),
      rating: list('rating', z.coerce.number().int().min(1).max(5), 'a star rating 1 to 5', 5).meta({ description: 'Star ratings, comma-separated.' }),
      from: unixSeconds('from'),
      to: unixSeconds('to'),
    })
    .refine((q) => !q.from || !q.to || q.from <= q.to, { message: 'from must not be after to.', path: ['from'] }),
  response: z.array(reviewShape),
  paged: true,
  handler: async ({ apiKey, params, query }) => {
    const page = await reviewsOfKey(apiKey!, params.appKey, {
      limit: query.limit,
      startingAfter: query.starting_after,
      countries: query.country,
      ratings: query.rating,
      from: query.from,
      to: query.to,
    });
    return pageAnswer(page.data, page.has_more);
  },
});
