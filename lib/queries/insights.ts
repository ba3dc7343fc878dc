/** React Query hooks of an app's words and summaries; kept under the apps' key, like its stats. */
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { appTerms, requestSummary, reviewSummary, type InsightPeriod } from '@/lib/api/insights';
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

export const useRequestSummary = (appKey: string) => useMutation({ mutationFn: (period: InsightPeriod) => requestSummary(appKey, period) });

/** A summary, asked again every two seconds while a language model is still writing it. */
export const useSummary = (appKey: string, id: string | undefined) =>
  useQuery({
    queryKey: [...orgAppKeys.all, appKey, 'summary', id],
    queryFn: () => reviewSummary(appKey, id!),
    enabled: Boolean(id),
    refetchInterval: (q) => (q.state.data?.status === 'pending' ? 2000 : false),
  });
