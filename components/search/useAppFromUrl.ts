/**
 * Links into the flow carry the app: `/?app_id=…&app_store=…` . When they do and no app is chosen
 * yet, the app's details are fetched; on success the app becomes the selection, the signup banner shows and the
 * search box shows the app's title. A missing, malformed or unknown app leaves the page as it was (a malformed id is
 * not even asked about).
 */
import { useRouter } from 'next/router';
import { useEffect } from 'react';
import { normalizeAppId } from '@/lib/appIds';
import { isAppStore } from '@/lib/appStores';
import { useAppSelectionStore } from '@/stores/appSelection';

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

export function useAppFromUrl(): void {
  const router = useRouter();
  const appStore = single(router.query.app_store);
  const rawAppId = single(router.query.app_id);
  const appId = rawAppId && isAppStore(appStore) ? normalizeAppId(appStore, rawAppId) : null;
  const country = single(router.query.country);

  useEffect(() => {
    if (!router.isReady || !appId || !isAppStore(appStore)) return undefined;
    if (useAppSelectionStore.getState().selectedAppDetails) return undefined;
    let cancelled = false;
    import('@/lib/api/apps')
      .then(({ getAppDetails }) => getAppDetails(appId, appStore, country))
      .then((details) => {
        const state = useAppSelectionStore.getState();
        if (cancelled || state.selectedAppDetails) return;
        state.setSelectedAppDetails({
          id: details.app_id || appId,
          store: isAppStore(details.app_store) ? details.app_store : appStore,
          title: details.title,
          developer: details.developer ?? null,
          icon: details.icon ?? null,
          rating: details.rating ?? null,
          ratings_count: details.ratings_count ?? null,
        });
        state.setShowSignupBanner(true);
        state.setQuery(details.title);
      })
      .catch((err: unknown) => {
        console.warn('Could not load the app from the link', err);
      });
    return () => {
      cancelled = true;
    };
  }, [router.isReady, appId, appStore, country]);
}
