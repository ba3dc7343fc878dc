/** React Query hooks of the review inbox: cursor pages of the current view, and its CSV export. */
import { useInfiniteQuery, useMutation } from '@tanstack/react-query';
import { exportReviewsCsv, reviewsPage } from '@/lib/api/reviews';
import type { ReviewFilters } from '@/lib/api/reviewFilters';
import { reviewKeys } from './orgApps';

export const useReviews = (filters: ReviewFilters, enabled = true) =>
  useInfiniteQuery({
    queryKey: [...reviewKeys.all, filters],
    queryFn: ({ pageParam }) => reviewsPage(filters, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.has_more ? (last.next_cursor ?? undefined) : undefined),
    enabled,
  });

export const useExportReviews = (o: { onSuccess?: (file: Blob) => void; onError?: (e: Error) => void } = {}) =>
  useMutation({ mutationFn: (filters: ReviewFilters) => exportReviewsCsv(filters), onSuccess: o.onSuccess, onError: o.onError });
