/**
 * React Query hooks of app search and app details. The HTTP module is imported when a query first runs, so the page
 * that renders the search box downloads neither axios nor the calls before someone types.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ApiError } from '@/lib/api/client';
import type { AppDetails, AppSearchResult } from '@/lib/api/types';
import type { AppStore } from '@/shared/appStores';

const PER_STORE = 8;
const SEARCHED_STORES: AppStore[] = ['apple_app_store', 'google_play_store'];

/** a1, g1, a2, g2…: the best matches of both stores stay near the top. */
function interleave(lists: AppSearchResult[][], perList = PER_STORE): AppSearchResult[] {
  const out: AppSearchResult[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < perList; i += 1) {
    for (const list of lists) {
      const item = list[i];
      if (!item) continue;
      const key = `${item.app_store}:${item.app_id}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(item);
    }
  }
  return out;
}

class SearchUnavailableError extends Error {}

/**
 * Both stores at once, with the term the results answer; one store failing still shows the other's apps (and `failed`
 * names it, so the list can say so), both failing is an error.
 */
async function searchBothStores(term: string, country: string, signal: AbortSignal): Promise<{ term: string; results: AppSearchResult[]; failed: AppStore[] }> {
  const { searchApps } = await import('@/lib/api/apps');
  const answers = await Promise.all(SEARCHED_STORES.map((appStore) => searchApps({ query: term, country, appStore }, signal)));
  if (answers.every((a) => a === null)) throw new SearchUnavailableError('Search is not available right now.');
  return { term, results: interleave(answers.map((a) => a ?? [])), failed: SEARCHED_STORES.filter((_, i) => answers[i] === null) };
}

/**
 * The query of one search term. A newer term leaves the older query without observers, and React Query aborts its
 * requests (the query function takes the signal), so a slow old answer never replaces a newer one. Not retried: the
 * visitor is typing, and the message says to try again.
 */
const appSearchQuery = (term: string, country: string) =>
  queryOptions({
    queryKey: ['appSearch', { term, country }],
    queryFn: ({ signal }) => searchBothStores(term, country, signal),
    enabled: term !== '',
    staleTime: 5 * 60_000,
    retry: false,
  });

export function useAppSearchQuery(term: string, country: string) {
  return useQuery(appSearchQuery(term, country));
}

/** A store's 4xx (no such app, malformed id) will not change on a second try; a network or server failure might. */
function retryUnlessRefused(failureCount: number, error: Error): boolean {
  const status = (error as Partial<ApiError>).status ?? 0;
  return !(status >= 400 && status < 500) && failureCount < 3;
}

const appDetailsQuery = (app: { appId: string; appStore: AppStore; country?: string } | null) =>
  queryOptions({
    queryKey: ['appDetails', app],
    queryFn: async (): Promise<AppDetails> => {
      const { getAppDetails } = await import('@/lib/api/apps');
      return getAppDetails(app!.appId, app!.appStore, app!.country);
    },
    enabled: app !== null,
    staleTime: 10 * 60_000,
    retry: retryUnlessRefused,
  });

/** GET v1/public/app-details for `app`; idle while `app` is null. */
export function useAppDetailsQuery(app: { appId: string; appStore: AppStore; country?: string } | null) {
  return useQuery(appDetailsQuery(app));
}
