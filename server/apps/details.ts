/**
 * One app's details for the app pages and the connect flow: cached for an hour per (store, app, country) and
 * coalesced. "No such app" is cached too, for a few minutes, so a mistyped id in a shared link does not hit the store
 * on every visit.
 */
import { createLoadingCache } from './cache';
import { lookupItunes } from './itunes';
import { getPlayDetails } from './googlePlay';
import type { AppDetails, AppStore } from './types';

const DETAILS_TTL_MS = 60 * 60_000;
const NOT_FOUND_TTL_MS = 5 * 60_000;

export type DetailsInput = { appId: string; appStore: AppStore; country: string };

const detailsCache = createLoadingCache<Readonly<AppDetails> | null, DetailsInput>({
  ttlMs: DETAILS_TTL_MS,
  max: 5000,
  ttlFor: (value) => (value === null ? NOT_FOUND_TTL_MS : DETAILS_TTL_MS),
  load: async (input) => {
    const details =
      input.appStore === 'apple_app_store'
        ? await lookupItunes({ id: input.appId, country: input.country })
        : await getPlayDetails({ appId: input.appId, country: input.country });
    return details ? Object.freeze(details) : null;
  },
});

const detailsKey = (input: DetailsInput) => `${input.appStore}|${input.country}|${input.appId}`;

/** The details, or null when the store has no such app. Throws StoreError when the store fails. */
export function getAppDetails(input: DetailsInput): Promise<Readonly<AppDetails> | null> {
  return detailsCache.load(detailsKey(input), input);
}

/**
 * The cached answer for `input` — details, or null for "no such app" — or undefined when it has to be loaded
 * (getAppDetails). Synchronous, so that the endpoint answers a cached app without waiting for a promise.
 */
export function cachedAppDetails(input: DetailsInput): Readonly<AppDetails> | null | undefined {
  return detailsCache.get(detailsKey(input));
}

/** Tests and benchmarks: start from an empty cache. */
export function clearDetailsCache(): void {
  detailsCache.clear();
}
