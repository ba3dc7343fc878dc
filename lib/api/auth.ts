/**
 * Sign-in and session calls (docs/PRODUCT.md, Sign-in and the dashboard). The e-mail, exchange, refresh, hand-off, renew and crm-exchange calls
 * resolve null on error.
 */
import { api, call, withBearer } from './client';
import { orNull, type QuietOptions } from './quiet';
import type { ApiData } from './openapi';
import type { AttributionMetadata, SignedInUser } from './types';

/** POST v1/auth/email — e-mails a 6-digit code. Null on error. */
export function sendEmailCode(email: string, captchaToken: string, options?: QuietOptions): Promise<ApiData<'/api/v1/auth/email', 'post'> | null> {
  return orNull(call(api.post('v1/auth/email', { email, captcha_token: captchaToken })), options);
}

/** POST v1/auth/email/confirm — the code for a one-time sign-in token. Throws ApiError so the page can say why. */
export function confirmEmailCode(email: string, code: string, captchaToken: string): Promise<ApiData<'/api/v1/auth/email/confirm', 'post'>> {
  return call(api.post('v1/auth/email/confirm', { email, code, captcha_token: captchaToken }));
}

/** POST v1/auth/token/exchange — the one-time token (plus attribution) for the session. Null on error. */
export function exchangeToken(token: string, metadata: AttributionMetadata, options?: QuietOptions): Promise<SignedInUser | null> {
  return orNull(call(api.post('v1/auth/token/exchange', { token, metadata })), options);
}

/**
 * GET v1/auth/token/refresh — a one-time hand-off code (60 s) for opening the dashboard (`?token=home__<code>`).
 * The answer also sets this browser's hand-off nonce cookie (the client sends credentials): the code then works only
 * here. Send a live access token: the caller renews it first (freshAccessToken in lib/session.ts, which imports this
 * module, so this one never imports it back). Null on error.
 */
export async function refreshAuthToken(authToken: string, options?: QuietOptions): Promise<string | null> {
  const data = await orNull(call<ApiData<'/api/v1/auth/token/refresh', 'get'>>(api.get('v1/auth/token/refresh', withBearer(authToken))), options);
  return data?.token ?? null;
}

/** POST v1/auth/token/handoff — the dashboard's one-time code for the session's tokens (with the nonce cookie). Null on error. */
export function exchangeHandoffCode(code: string, options?: QuietOptions): Promise<SignedInUser | null> {
  return orNull(call(api.post('v1/auth/token/handoff', { code })), options);
}

/** POST v1/auth/token/renew — a new access token for the session of `refreshToken`. Null on error (session ended). */
export async function renewAccessToken(refreshToken: string, options?: QuietOptions): Promise<string | null> {
  const data = await orNull(call<ApiData<'/api/v1/auth/token/renew', 'post'>>(api.post('v1/auth/token/renew', { refresh_token: refreshToken })), options);
  return data?.authToken ?? null;
}

/** POST v1/auth/logout/everywhere — ends every session of the user. Throws ApiError so the page can say why. */
export async function signOutEverywhere(authToken: string): Promise<ApiData<'/api/v1/auth/logout/everywhere', 'post'>> {
  return call(api.post('v1/auth/logout/everywhere', {}, withBearer(authToken)));
}

/**
 * POST v1/auth/token/crm-exchange — the org authentication call of /subscribe: a token that can only start a checkout,
 * and the owner's masked address (o***@example.com). Null on error.
 */
export function crmExchange(orgId: string, options?: QuietOptions): Promise<ApiData<'/api/v1/auth/token/crm-exchange', 'post'> | null> {
  return orNull(call(api.post('v1/auth/token/crm-exchange', { org_id: orgId })), options);
}
