/**
 * App search, app details and app events (CONTRACT.md): validate → call the service → answer.
 * Store failures become the clear 502/503 answers of storeHttpError; an unknown app is a 404.
 */
import { z } from 'zod';
import { cachedAnswer, endpoint } from '../http/api';
import type { Logger } from '../log';
import { notFound } from '../http/errors';
import { cachedSearchApps, searchApps } from './search';
import { cachedAppDetails, getAppDetails } from './details';
import { APP_EVENTS, recordAppEvent } from './events';
import { appRefSchema, appStoreSchema, countrySchema, searchQuerySchema, withCheckedAppId } from './params';
import { StoreError, storeHttpError } from './upstream';
import { APP_STORES, type AppDetails, type AppStore } from './types';

const appSummarySchema = z.object({
  app_id: z.string(),
  app_store: z.enum(APP_STORES),
  title: z.string(),
  developer: z.string(),
  icon: z.string().nullable(),
  rating: z.number().nullable(),
  ratings_count: z.number().int().nullable(),
});

const appDetailsSchema = appSummarySchema.extend({
  country: z.string(),
  store_url: z.string(),
  bundle_id: z.string(),
  version: z.string().nullable(),
  price: z.number().nullable(),
  currency: z.string().nullable(),
  genre: z.string().nullable(),
  summary: z.string().nullable(),
  updated_at: z.string().nullable(),
});

/** The person gets storeHttpError's message; the log keeps what the store actually did. */
function rethrowStoreError(err: unknown, action: 'search' | 'details', log: Logger): never {
  if (!(err instanceof StoreError)) throw err;
  log.warn('store request failed', { store: err.store, kind: err.kind, detail: err.message });
  throw storeHttpError(err, action);
}

export const searchAppsEndpoint = endpoint({
  statuses: [502, 503],
  summary: 'Search the App Store or Google Play by app name',
  tags: ['apps'],
  body: z.object({
    query: searchQuerySchema,
    country: countrySchema,
    app_store: appStoreSchema,
    limit: z.number().int().min(1).max(50).default(10),
  }),
  response: z.array(appSummarySchema),
  handler: ({ body, log }) => {
    const input = { query: body.query, country: body.country, appStore: body.app_store, limit: body.limit };
    // The results are a frozen cache entry, shared by every request for the same search: serialized once. A cached
    // search is answered right away, without a promise.
    const cached = cachedSearchApps(input);
    if (cached) return cachedAnswer(cached);
    return searchApps(input).then(cachedAnswer, (err: unknown) => rethrowStoreError(err, 'search', log));
  },
});

const STORE_LABEL = { apple_app_store: 'the App Store', google_play_store: 'Google Play' } as const;

/** The answer to app-details: the (cached, frozen) details, or 404 when the store has no such app. */
function detailsAnswer(details: Readonly<AppDetails> | null, query: { app_id: string; app_store: AppStore; country: string }) {
  if (!details) {
    throw notFound(
      `We couldn't find the app ${query.app_id} on ${STORE_LABEL[query.app_store]}` +
        (query.app_store === 'apple_app_store' ? ` (${query.country.toUpperCase()} store).` : '.'),
    );
  }
  return cachedAnswer(details); // a frozen cache entry, like the search results
}

export const appDetailsEndpoint = endpoint({
  statuses: [404, 502, 503],
  summary: "One app's details from its store",
  tags: ['apps'],
  query: appRefSchema.extend({ country: countrySchema }).transform(withCheckedAppId),
  response: appDetailsSchema,
  handler: ({ query, log }) => {
    const input = { appId: query.app_id, appStore: query.app_store, country: query.country };
    // Most calls are for an app in the cache: answered right away, without a promise.
    const cached = cachedAppDetails(input);
    if (cached !== undefined) return detailsAnswer(cached, query);
    return getAppDetails(input).then(
      (details) => detailsAnswer(details, query),
      (err: unknown) => rethrowStoreError(err, 'details', log),
    );
  },
});

export const appEventEndpoint = endpoint({
  summary: 'Record a product event about an app (e.g. app_selected)',
  tags: ['apps'],
  auth: 'optional',
  query: appRefSchema
    .extend({ event: z.enum(APP_EVENTS, { error: `must be one of: ${APP_EVENTS.join(', ')}` }) })
    .transform(withCheckedAppId),
  response: z.object({ ok: z.literal(true) }),
  handler: async ({ query, auth }) => {
    await recordAppEvent({ event: query.event, appId: query.app_id, appStore: query.app_store, userId: auth?.userId ?? null });
    return { ok: true as const };
  },
});
