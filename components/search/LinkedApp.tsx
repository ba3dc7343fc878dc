/**
 * Selects the app a link names (`/?app_id=…&app_store=…`), unless an app was already chosen when the page opened or
 * is chosen before the details arrive. Renders nothing; downloaded (with React Query) only for such links.
 */
import { useEffect, useState } from 'react';
import QueryProvider from '@/components/common/QueryProvider';
import { isAppStore } from '@/shared/appStores';
import { useAppDetailsQuery } from '@/lib/queries/apps';
import { useConnectionStore } from '@/stores/connection';
import type { LinkedAppRequest } from './useAppFromUrl';
import { useSelectApp } from './useSelectApp';

function Select({ app }: { app: LinkedAppRequest }) {
  const [wanted] = useState(() => useConnectionStore.getState().selectedAppDetails === null);
  const selectApp = useSelectApp();
  const details = useAppDetailsQuery(wanted ? app : null);
  const { data, error } = details;

  useEffect(() => {
    if (!data) return;
    const state = useConnectionStore.getState();
    if (state.selectedAppDetails) return;
    selectApp({
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
  }, [data, app, selectApp]);

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
