/** Reviews by e-mail: recent reviews now, or a summary. Throw ApiError with the server's message. */
import type { AppStore } from '@/lib/appStores';
import { api, call } from './client';

export type ReviewsByEmailRequest = { email: string; app_id: string; app_store: AppStore; country?: string };

/** POST v1/public/reviews — queue the app's recent reviews to the e-mail address. */
export function requestReviewsByEmail(request: ReviewsByEmailRequest): Promise<{ queued: boolean }> {
  return call(api.post('v1/public/reviews', request));
}

/** POST v1/public/send-summary — queue a review summary to the e-mail address. */
export function requestSummaryByEmail(request: Omit<ReviewsByEmailRequest, 'country'>): Promise<{ queued: boolean }> {
  return call(api.post('v1/public/send-summary', request));
}
