/**
 * The public API (auth: an organisation's `arb_` key): GET v1/apps and GET v1/apps/{store}__{appId}/reviews, answering
 * the seed product's public API's requests in its shapes — what its n8n node sends (an empty parameter is an absent
 * one, `from`/`to` as unix seconds or ISO 8601) and reads (times in unix seconds, each app's `app_store_slug`).
 */
import { z } from 'zod';
import { apiReviewSchema } from '@/shared/review';
import { APP_STORE_NAMES, isAppStore } from '@/shared/appStores';
import { endpoint, pageAnswer, taggedAnswer } from '../http/api';
import { appJson, appKeyParam, appShape } from '../orgApps/endpoints';
import { list } from '../reviews/endpoints';
import { apiReviewJson } from './apiReview';
import { appsOfKey, reviewsOfKey } from './service';
import { cachedAppsAnswer, loadAppsAnswer } from './appsCache';
import { boundMessage, boundSecond, instantOf, type BoundName } from './timeBounds';

/**
 * `name=` is `name` left out: n8n's generic pagination sends `starting_after=` on its first page, the seed node's
 * "Any" rating sends `rating=`, and an emptied field of a workflow sends its name with nothing.
 */
const emptyIsAbsent = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema);

/** `from`/`to`: unix seconds or ISO 8601 (timeBounds.ts), as the whole second it compares with. */
const timeBound = (name: BoundName) =>
  emptyIsAbsent(
    z
      .string()
      .max(40, boundMessage(name))
      .transform((s, ctx) => {
        const t = instantOf(s, name);
        if (t === null) {
          ctx.addIssue({ code: 'custom', message: boundMessage(name) });
          return z.NEVER;
        }
        return new Date(boundSecond(t, name));
      })
      .optional(),
  ).meta({
    description: `${name === 'from' ? 'On or after' : 'On or before'} this time, on content_updated_at (compared at whole seconds, as it is answered): unix seconds (1714550400) or ISO 8601 (2024-05-01T00:00:00Z, offsets too; a date alone is ${name === 'from' ? 'the start of' : 'the whole of'} that UTC day). Empty is the same as absent.`,
  });

export const publicAppsEndpoint = endpoint({
  statuses: [304],
  summary: "The apps of the API key's organisation (use `id` in the reviews call)",
  tags: ['public API'],
  auth: 'api_key',
  response: z.array(
    appShape.extend({
      id: z.string().meta({ description: '{app_store}__{app_id}, the app in the reviews call.' }),
      app_store_slug: z.string().meta({ description: 'The store as a short label ("App Store", "Google Play"), as the seed product\'s API names it.' }),
    }),
  ),
  paged: true,
  // From memory when warm (appsCache.ts): answered without a promise, its body and ETag made once.
  handler: ({ apiKey }) =>
    cachedAppsAnswer(apiKey!.orgId) ??
    loadAppsAnswer(apiKey!.orgId, async () => {
      const apps = (await appsOfKey(apiKey!)).map((a) => ({ id: a.app_key, ...appJson(a), app_store_slug: isAppStore(a.store) ? APP_STORE_NAMES[a.store] : a.store }));
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
      starting_after: emptyIsAbsent(z.string().regex(/^\d{1,19}$/, 'starting_after must be a review id (the id of the last review of the previous page).').optional()).meta({
        description: 'The id of the last review of the previous page. Empty is the same as absent (the first page).',
      }),
      country: emptyIsAbsent(list('country', z.string().regex(/^[A-Za-z]{2}$/).transform((c) => c.toLowerCase()), 'a two-letter country code')).meta({
        description: 'Two-letter country codes, comma-separated. Empty is the same as absent.',
      }),
      rating: emptyIsAbsent(list('rating', z.coerce.number().int().min(1).max(5), 'a star rating 1 to 5', 5)).meta({ description: 'Star ratings, comma-separated. Empty is the same as absent (any rating).' }),
      from: timeBound('from'),
      to: timeBound('to'),
    })
    .refine((q) => !q.from || !q.to || q.from <= q.to, { message: 'from must not be after to.', path: ['from'] }),
  response: z.array(apiReviewSchema),
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
    return pageAnswer(page.data.map(apiReviewJson), page.has_more);
  },
});
