/**
 * Links into the flow carry the app: `/?app_id=…&app_store=…` . When they do and no app is chosen yet, the app's
 * details are fetched (LinkedApp, downloaded only for such links); on success the app becomes the selection, the
 * signup banner shows and the search box shows the app's title. A missing, malformed or unknown app leaves the page
 * as it was (a malformed id is not even asked about).
 */
import dynamic from 'next/dynamic';
import { useRouter } from 'next/router';
import { normalizeAppId } from '@/shared/appIds';
import { isAppStore, type AppStore } from '@/shared/appStores';

export type LinkedAppRequest = { appId: string; appStore: AppStore; country?: string };

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The app the address asks for, once the router knows the query; null when it names none (or a malformed one). */
export function useAppFromUrl(): LinkedAppRequest | null {
  const router = useRouter();
  const appStore = single(router.query.app_store);
  const rawAppId = single(router.query.app_id);
  if (!router.isReady || !rawAppId || !isAppStore(appStore)) return null;
  const appId = normalizeAppId(appStore, rawAppId);
  if (!appId) return null;
  const country = single(router.query.country);
  return { appId, appStore, ...(country ? { country } : {}) };
}

export const linkedAppKey = (app: LinkedAppRequest) => `${app.appStore}:${app.appId}:${app.country ?? ''}`;

/** Selects the linked app once its details arrive; renders nothing. */
export const LinkedApp = dynamic(() => import('./LinkedApp'), { ssr: false });
