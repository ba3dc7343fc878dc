/** React Query hooks of an app's words and summaries; kept under the apps' key, like its stats. */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { appTerms, type InsightPeriod } from '@/lib/api/insights';
import { orgAppKeys } from './orgApps';

export const useAppTerms = (appKey: string | undefined, period: InsightPeriod) =>
  useQuery({
    queryKey: [...orgAppKeys.all, appKey, 'terms', period],
    queryFn: () => appTerms(appKey!, period),
    enabled: Boolean(appKey),
    placeholderData: keepPreviousData,
    // A plan without the feature answers 402: asking again will not change that.
    retry: false,
  });
