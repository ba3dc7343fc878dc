/**
 * Search-as-you-type over both stores. Typing is debounced (250 ms): the term searched is the box's text once it has
 * not changed for that long, and an emptied box forgets the last results at once. The searching itself is a React
 * Query hook (useAppSearchQuery in lib/queries/apps.ts) inside LiveSearch, a component downloaded when the first term
 * is searched, so the home page's first load carries neither React Query nor the HTTP client.
 */
import dynamic from 'next/dynamic';
import { useEffect, useState } from 'react';
import type { AppSearchResult } from '@/lib/api/types';
import { APP_STORE_NAMES, type AppStore } from '@/shared/appStores';

const SEARCH_DEBOUNCE_MS = 250;

export type AppSearchStatus = 'idle' | 'loading' | 'done' | 'error';
/** `query` is the term the results answer (while a newer one loads, the previous results stay listed); `failed` the
 *  stores whose search failed while the other answered. */
export type AppSearchState = { status: AppSearchStatus; results: AppSearchResult[]; query: string; failed?: AppStore[] };

export const IDLE_SEARCH: AppSearchState = { status: 'idle', results: [], query: '' };

/** Under the results of one store when the other's search failed: "Google Play search failed: …". */
export function failedStoresNote(failed: readonly AppStore[] | undefined): string | null {
  if (!failed?.length) return null;
  const names = failed.map((s) => APP_STORE_NAMES[s]);
  return `${names.join(' and ')} search failed, so its apps are missing here. Try again in a moment.`;
}

/** 'loading': a search started (the results shown so far stay until it answers); otherwise its answer. */
export type AppSearchReport = 'loading' | AppSearchState;

/** The state the box shows after `report`. */
export function nextSearchState(current: AppSearchState, report: AppSearchReport): AppSearchState {
  return report === 'loading' ? { ...current, status: 'loading' } : report;
}

/** The term to search: the trimmed text once it stopped changing, '' at once when emptied or while `enabled` is false. */
export function useDebouncedTerm(text: string, enabled: boolean): string {
  const wanted = enabled ? text.trim() : '';
  const [term, setTerm] = useState(wanted);
  // An emptied box (or a closed list) stops searching at once, while rendering rather than in an effect.
  if (wanted === '' && term !== '') setTerm('');
  useEffect(() => {
    if (wanted === '') return undefined;
    const timer = setTimeout(() => setTerm(wanted), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [wanted]);
  return term;
}

/** Runs the search for `term` and reports its state; rendered in the browser only, from the first search on. */
export const LiveSearch = dynamic(() => import('./LiveSearch'), { ssr: false });
