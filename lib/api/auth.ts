/** Sign-in calls (spec section 7). The e-mail, exchange, refresh and crm-exchange calls resolve null on error. */
import { api, call, withBearer } from './client';
import { orNull, type QuietOptions } from './quiet';
import type { AttributionMetadata, SignedInUser } from './types';

/** POST v1/auth/email — e-mails a 6-digit code. Null on error. */
export function sendEmailCode(email: string, captchaToken: string, options?: QuietOptions): Promise<{ sent: boolean } | null> {
  return orNull(call(api.post('v1/auth/email', { email, captcha_token: captchaToken })), options);
}

/** POST v1/auth/email/confirm — the code for a one-time sign-in token. Throws ApiError so the page can say why. */
export function confirmEmailCode(email: string, code: string, captchaToken: string): Promise<{ token: string }> {
  return call(api.post('v1/auth/email/confirm', { email, code, captcha_token: captchaToken }));
}

/** POST v1/auth/token/exchange — the one-time token (plus attribution) for the session. Null on error. */
export function exchangeToken(token: string, metadata: AttributionMetadata, options?: QuietOptions): Promise<SignedInUser | null> {
  return orNull(call(api.post('v1/auth/token/exchange', { token, metadata })), options);
}

/** GET v1/auth/token/refresh — a fresh token for opening the dashboard. Null on error. */
export async function refreshAuthToken(authToken: string, options?: QuietOptions): Promise<string | null> {
  const data = await orNull(call<{ token: string }>(api.get('v1/auth/token/refresh', withBearer(authToken))), options);
  return data?.token ?? null;
}

/** POST v1/auth/token/crm-exchange — the org authentication call of /subscribe (billing-only token). Null on error. */
export function crmExchange(orgId: string, options?: QuietOptions): Promise<{ authToken: string; email: string } | null> {
  return orNull(call(api.post('v1/auth/token/crm-exchange', { org_id: orgId })), options);
}
