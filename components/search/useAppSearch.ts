/**
 * Search-as-you-type over both stores. Typing is debounced (250 ms); when a new query goes out, the request of the
 * previous one is aborted (AbortController), so a slow old answer can never overwrite a newer one. The HTTP module
 * is imported on the first search, keeping axios out of the home page's first load.
 */
import { useEffect, useRef, useState } from 'react';
import type { AppSearchResult } from '@/lib/api/types';
import type { AppStore } from '@/lib/appStores';

export const SEARCH_DEBOUNCE_MS = 250;
const PER_STORE = 8;
const SEARCHED_STORES: AppStore[] = ['apple_app_store', 'google_play_store'];

export type AppSearchStatus = 'idle' | 'loading' | 'done' | 'error';
export type AppSearchState = { status: AppSearchStatus; results: AppSearchResult[]; query: string };

/** a1, g1, a2, g2…: the best matches of both stores stay near the top. */
export function interleave(lists: AppSearchResult[][], perList = PER_STORE): AppSearchResult[] {
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

export async function searchBothStores(query: string, country: string, signal: AbortSignal): Promise<AppSearchResult[] | null> {
  const { searchApps } = await import('@/lib/api/apps');
  const answers = await Promise.all(SEARCHED_STORES.map((appStore) => searchApps({ query, country, appStore }, signal)));
  if (answers.every((a) => a === null)) return null;
  return interleave(answers.map((a) => a ?? []));
}

const IDLE: AppSearchState = { status: 'idle', results: [], query: '' };

/** `enabled` is false while the results list is closed (e.g. right after an app was picked). */
export function useAppSearch(query: string, country: string, enabled: boolean): AppSearchState {
  const [state, setState] = useState<AppSearchState>(IDLE);
  const controllerRef = useRef<AbortController | null>(null);
  // An emptied box forgets the last results at once (adjusting state while rendering, as React recommends, rather
  // than in an effect after a render that showed them).
  const empty = !query.trim();
  const [wasEmpty, setWasEmpty] = useState(empty);
  if (empty !== wasEmpty) {
    setWasEmpty(empty);
    if (empty) setState(IDLE);
  }

  useEffect(() => {
    const term = query.trim();
    if (!enabled || !term) {
      controllerRef.current?.abort();
      controllerRef.current = null;
      return undefined;
    }
    const timer = setTimeout(() => {
      controllerRef.current?.abort();
      const controller = new AbortController();
      controllerRef.current = controller;
      setState((s) => ({ ...s, status: 'loading' }));
      void searchBothStores(term, country, controller.signal)
        // The search module itself failed to load (offline after the page was opened): same as a failed search.
        .catch(() => null)
        .then((results) => {
          if (controller.signal.aborted) return;
          setState(results === null ? { status: 'error', results: [], query: term } : { status: 'done', results, query: term });
        });
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [query, country, enabled]);

  useEffect(() => () => controllerRef.current?.abort(), []);

  return state;
}
