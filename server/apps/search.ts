/**
 * App search for the home search box: cached for 10 minutes per (store, country, query, limit) and coalesced, so
 * people typing the same name at the same time cause one store request.
 */
import { createLoadingCache } from './cache';
import { searchItunes } from './itunes';
import { searchPlay } from './googlePlay';
import type { AppStore, AppSummary } from './types';

const SEARCH_TTL_MS = 10 * 60_000;

export type SearchInput = { query: string; country: string; appStore: AppStore; limit: number };

const searchCache = createLoadingCache<readonly AppSummary[], SearchInput>({
  ttlMs: SEARCH_TTL_MS,
  max: 2000,
  load: async (input) => {
    const term = input.query.trim().replace(/\s+/g, ' ');
    const results =
      input.appStore === 'apple_app_store'
        ? await searchItunes({ term, country: input.country, limit: input.limit })
        : await searchPlay({ term, country: input.country, limit: input.limit });
    return Object.freeze(results.map((r) => Object.freeze(r)));
  },
});

/** Queries that differ only in case or spacing are the same search for both stores. */
export function searchKey(input: SearchInput): string {
  const q = input.query.trim().toLowerCase().replace(/\s+/g, ' ');
  return `${input.appStore}|${input.country}|${input.limit}|${q}`;
}

/** Throws StoreError when the store fails (nothing is cached then). The array is shared: never mutate it. */
export function searchApps(input: SearchInput): Promise<readonly AppSummary[]> {
  return searchCache.load(searchKey(input), input);
}

/**
 * The cached results for `input`, or undefined when they have to be loaded (searchApps). Synchronous, so that the
 * endpoint answers a cached search without waiting for a promise.
 */
export function cachedSearchApps(input: SearchInput): readonly AppSummary[] | undefined {
  return searchCache.get(searchKey(input));
}

/** Tests and benchmarks: start from an empty cache. */
export function clearSearchCache(): void {
  searchCache.clear();
}
