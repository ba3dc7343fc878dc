/** The pages behind the links in review e-mails: confirm a request or the digest, unsubscribe. Throw ApiError. */
import { api, call } from './client';
import type { ApiData } from './openapi';

export type ConfirmResult = ApiData<'/api/v1/public/email/confirm', 'post'>;

/** POST v1/public/email/confirm */
export function confirmEmailLink(token: string): Promise<ConfirmResult> {
  return call(api.post('v1/public/email/confirm', { token }));
}

/** GET v1/public/email/unsubscribe — who the link is for (masked), without changing anything. */
export function describeUnsubscribeLink(token: string): Promise<ApiData<'/api/v1/public/email/unsubscribe', 'get'>> {
  return call(api.get('v1/public/email/unsubscribe', { params: { token } }));
}

/** POST v1/public/email/unsubscribe */
export function unsubscribeWithLink(token: string): Promise<ApiData<'/api/v1/public/email/unsubscribe', 'post'>> {
  return call(api.post('v1/public/email/unsubscribe', undefined, { params: { token } }));
}
