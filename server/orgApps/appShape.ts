/**
 * An organisation's app as the dashboard's Apps page and the public API's app list answer it. Its own file so the
 * public API's cache (publicApi/appsCache.ts) can type its entries without importing the endpoints and, through them,
 * the service that clears that cache.
 */
import { z } from 'zod';

export const appShape = z.object({
  key: z.string().meta({ description: '{app_store}__{app_id}' }),
  app_id: z.string(),
  app_store: z.enum(['apple_app_store', 'google_play_store']),
  title: z.string(),
  icon_url: z.string().nullable(),
  developer: z.string().nullable(),
  countries: z.array(z.string()).meta({ description: 'App Store storefronts watched; empty for Google Play apps.' }),
  added_by: z.string().nullable(),
  added_at: z.string(),
  rating: z.number().nullable().meta({ description: 'Review average: the average star rating of the written reviews ARB stored (not the store\'s rating).' }),
  store_rating: z
    .object({
      rating: z.number().nullable().meta({ description: 'The store\'s own rating: App Store storefronts weighted by their ratings counts; Google Play\'s worldwide score.' }),
      ratings_count: z.number().nullable().meta({ description: 'All ratings the store counts, with or without text.' }),
      as_of: z.string().meta({ description: 'When the newest snapshot was fetched (daily).' }),
      change_7d: z.number().nullable().meta({ description: 'The rating now minus 7 days before; null without that history.' }),
    })
    .nullable()
    .meta({ description: 'The store rating from the daily snapshot (GET /api/v1/org/apps/{appKey}/ratings for its history); null before the first one.' }),
  review_count: z.number(),
  reviews_this_week: z.number().meta({ description: 'Reviews written or edited in the last 7 days.' }),
  last_review: z.object({ at: z.string(), rating: z.number() }).nullable(),
  credentials: z
    .object({
      kind: z.enum(['app_store_connect', 'google_play']),
      label: z.string().meta({ description: 'Not secret: the key id, or the service account\'s e-mail address.' }),
      checked_at: z.string().meta({ description: 'When the store accepted them (the check before saving).' }),
    })
    .nullable()
    .meta({ description: "The organisation's store credentials for the app, if any: never the key itself." }),
  paused: z.boolean().meta({ description: 'Paused because the plan allows fewer apps: not read for the organisation until the owner chooses it on the Billing page or upgrades.' }),
});