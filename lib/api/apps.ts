/** App search (the edge search service), app details and the app_selected event. */
import axios from 'axios';
import { DEFAULT_COUNTRY, type AppStore } from '@/shared/appStores';
import { api, call } from './client';
import type { ApiBody } from './openapi';
import type { AppDetails, AppSearchResult } from './types';

/** The search service's base: NEXT_PUBLIC_SEARCH_BASE, by default this site's own API. */
export function searchBase(): string {
  const base = process.env.NEXT_PUBLIC_SEARCH_BASE || process.env.NEXT_PUBLIC_API_BASE || '/api/';
  return base.endsWith('/') ? base : `${base}/`;
}

export type SearchRequest = { query: string; country?: string; appStore: AppStore };

/**
 * POST search — one store at a time, abortable. Errors are logged and the call returns nothing (null);
 * an aborted request (a newer query replaced it) returns null silently.
 */
export async function searchApps(request: SearchRequest, signal?: AbortSignal): Promise<AppSearchResult[] | null> {
  try {
    const res = await api.post<{ data?: AppSearchResult[] } | AppSearchResult[]>(
      'search',
      { query: request.query, country: request.country || DEFAULT_COUNTRY, app_store: request.appStore } satisfies ApiBody<'/api/search', 'post'>,
      { baseURL: searchBase(), signal },
    );
    // This project's API wraps answers in { data }; a bare edge service may answer with the array itself.
    const body = res.data;
    const list = Array.isArray(body) ? body : body?.data;
    return Array.isArray(list) ? list : [];
  } catch (err) {
    if (axios.isCancel(err) || signal?.aborted) return null;
    console.error('App search failed', err);
    return null;
  }
}

/** GET v1/public/app-details — throws ApiError (the caller decides what a missing app means). */
export function getAppDetails(appId: string, appStore: AppStore, country?: string): Promise<AppDetails> {
  return call(api.get('v1/public/app-details', { params: { app_id: appId, app_store: appStore, ...(country ? { country } : {}) } }));
}

/** GET v1/apps/event?event=app_selected — best effort: a failure must never get in the visitor's way. */
export async function sendAppSelectedEvent(appId: string, appStore: AppStore): Promise<boolean> {
  try {
    await api.get('v1/apps/event', { params: { event: 'app_selected', app_id: appId, app_store: appStore } });
    return true;
  } catch (err) {
    console.warn('Could not record app_selected', err);
    return false;
  }
}
