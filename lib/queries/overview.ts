/**
 * React Query hook of the /dashboard overview. While some apps' terms are still being counted on the server
 * (`terms_pending`), it asks again every few seconds; otherwise the defaults of lib/queryClient.ts apply.
 */
import { useQuery } from '@tanstack/react-query';
import { getOverview } from '@/lib/api/overview';

export const overviewKeys = { all: ['org', 'overview'] as const };

export const useOverview = () =>
  useQuery({
    queryKey: overviewKeys.all,
    queryFn: getOverview,
    refetchInterval: (q) => (q.state.data?.terms_pending ? 3000 : false),
  });
