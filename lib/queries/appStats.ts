/** React Query hook of an app's ratings and trends; kept under the apps' key, so adding or removing apps refreshes it. */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { appStats, type StatsSpan } from '@/lib/api/appStats';
import { orgAppKeys } from './orgApps';

export const useAppStats = (appKey: string | undefined, span: StatsSpan) =>
  useQuery({
    queryKey: [...orgAppKeys.all, appKey, 'stats', span],
    queryFn: () => appStats(appKey!, span),
    enabled: Boolean(appKey),
    // A new span keeps the previous figures on screen until its own arrive, instead of flashing the skeleton.
    placeholderData: keepPreviousData,
  });
