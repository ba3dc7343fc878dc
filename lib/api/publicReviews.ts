/** Reviews by e-mail: recent reviews now, or a summary. Throw ApiError with the server's message. */
import { api, call } from './client';
import type { ApiBody, ApiData } from './openapi';

export type ReviewsByEmailRequest = ApiBody<'/api/v1/public/reviews', 'post'>;

/** POST v1/public/reviews — queue the app's recent reviews to the e-mail address. */
export function requestReviewsByEmail(request: ReviewsByEmailRequest): Promise<ApiData<'/api/v1/public/reviews', 'post'>> {
  return call(api.post('v1/public/reviews', request));
}

/** POST v1/public/send-summary — queue a review summary to the e-mail address. */
export function requestSummaryByEmail(request: ApiBody<'/api/v1/public/send-summary', 'post'>): Promise<ApiData<'/api/v1/public/send-summary', 'post'>> {
  return call(api.post('v1/public/send-summary', request));
}
