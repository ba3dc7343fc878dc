/** React Query hook of an app's store rating history; kept under the apps' key, so adding or removing apps refreshes it. */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { appRatings, type RatingsSpan } from '@/lib/api/storeRatings';
import { orgAppKeys } from './orgApps';

export const useAppRatings = (appKey: string | undefined, span: RatingsSpan) =>
  useQuery({
    queryKey: [...orgAppKeys.all, appKey, 'ratings', span],
    queryFn: () => appRatings(appKey!, span),
    enabled: Boolean(appKey),
    placeholderData: keepPreviousData,
  });
