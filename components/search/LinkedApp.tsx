/**
 * Selects the app a link names (`/?app_id=…&app_store=…`), unless an app was already chosen when the page opened or
 * is chosen before the details arrive. Renders nothing; downloaded (with React Query) only for such links.
 */
import { useEffect, useState } from 'react';
import QueryProvider from '@/components/common/QueryProvider';
import { isAppStore } from '@/lib/appStores';
import { useAppDetailsQuery } from '@/lib/queries/apps';
import { useAppSelectionStore } from '@/stores/appSelection';
import type { LinkedAppRequest } from './useAppFromUrl';

function Select({ app }: { app: LinkedAppRequest }) {
  const [wanted] = useState(() => useAppSelectionStore.getState().selectedAppDetails === null);
  const details = useAppDetailsQuery(wanted ? app : null);
  const { data, error } = details;

  useEffect(() => {
    if (!data) return;
    const state = useAppSelectionStore.getState();
    if (state.selectedAppDetails) return;
    state.setSelectedAppDetails({
      id: data.app_id || app.appId,
      store: isAppStore(data.app_store) ? data.app_store : app.appStore,
      title: data.title,
      developer: data.developer ?? null,
      icon: data.icon ?? null,
      rating: data.rating ?? null,
      ratings_count: data.ratings_count ?? null,
    });
    state.setShowSignupBanner(true);
    state.setQuery(data.title);
  }, [data, app]);

  useEffect(() => {
    if (error) console.warn('Could not load the app from the link', error);
  }, [error]);
  return null;
}

export default function LinkedApp({ app }: { app: LinkedAppRequest }) {
  return (
    <QueryProvider>
      <Select app={app} />
    </QueryProvider>
  );
}
