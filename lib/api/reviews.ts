/** The review inbox (GET v1/org/reviews) and its CSV export (GET v1/org/reviews/export.csv). */
import { api } from './client';
import type { ApiData } from './openapi';
import { signedIn } from './org';
import type { ReviewFilters } from './reviewFilters';
import { filtersToQuery } from '@/shared/reviewFilters';

export type InboxReview = ApiData<'/api/v1/org/reviews', 'get'>[number];
/** `total`: how many reviews the whole view has (the first page says): exact, or beyond the cap when `total_is_estimate`. */
export type InboxPage = { data: InboxReview[]; has_more: boolean; next_cursor: string | null; total?: number | null; total_is_estimate?: boolean };

export const INBOX_PAGE_SIZE = 25;

export async function reviewsPage(filters: ReviewFilters, startingAfter?: string): Promise<InboxPage> {
  const params = { ...filtersToQuery(filters), limit: INBOX_PAGE_SIZE, ...(startingAfter ? { starting_after: startingAfter } : {}) };
  return (await api.get<InboxPage>('v1/org/reviews', { ...(await signedIn()), params })).data;
}

/**
 * The view as a CSV file (the server streams it; the browser saves the whole file). Read as text, not as a blob, so a
 * refusal's JSON still reaches the client's error handling and its message the toast.
 */
export async function exportReviewsCsv(filters: ReviewFilters): Promise<Blob> {
  // No responseType: axios then tries JSON on every answer, which a CSV silently fails (it stays text) and an error passes.
  const r = await api.get<string>('v1/org/reviews/export.csv', { ...(await signedIn()), params: filtersToQuery(filters) });
  return new Blob([r.data], { type: 'text/csv;charset=utf-8' });
}
