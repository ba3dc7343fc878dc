/**
 * Choosing an app (the search box, a link naming one): it becomes the flow's selection and an app_selected event is
 * recorded (GET v1/apps/event, docs/PRODUCT.md, Browser state). The event is analytics: fire and forget, the selection
 * never waits for it, and the API module is loaded on demand so a page never carries axios for it.
 */
import { useCallback } from 'react';
import { useConnectionStore, type SelectedApp } from '@/stores/connection';

function recordAppSelected(app: SelectedApp): Promise<boolean> {
  return import('@/lib/api/apps').then((m) => m.sendAppSelectedEvent(app.id, app.store));
}

export function useSelectApp(): (app: SelectedApp) => void {
  const setSelectedAppDetails = useConnectionStore((s) => s.setSelectedAppDetails);
  return useCallback(
    (app: SelectedApp) => {
      setSelectedAppDetails(app);
      void recordAppSelected(app);
    },
    [setSelectedAppDetails],
  );
}
