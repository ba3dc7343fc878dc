/**
 * Billing calls. The site's (purchase, portal, quick-pay) log and resolve null on error like the auth calls, `onError`
 * receiving the server's message; the dashboard's throw, like every dashboard call.
 */
import { api, call, withBearer } from './client';
import type { ApiBody, ApiData } from './openapi';
import { signedIn } from './org';
import { orNull, type QuietOptions } from './quiet';
import type { CheckoutUrl, PurchaseRequest } from './types';

/** POST v1/org/billing/purchase with the bearer token → a checkout URL. */
export function purchase(request: PurchaseRequest, authToken: string, options?: QuietOptions): Promise<CheckoutUrl | null> {
  return orNull(call(api.post('v1/org/billing/purchase', request, withBearer(authToken))), options);
}

/** POST v1/stripe/portal — payload passed through; the billing portal URL. */
export function openBillingPortal(payload: Record<string, unknown>, authToken?: string, options?: QuietOptions): Promise<CheckoutUrl | null> {
  return orNull(call(api.post('v1/stripe/portal', payload, withBearer(authToken))), options);
}

/** POST v1/stripe/quick-pay — payload passed through; a checkout URL. */
export function quickPay(payload: Record<string, unknown>, authToken?: string, options?: QuietOptions): Promise<CheckoutUrl | null> {
  return orNull(call(api.post('v1/stripe/quick-pay', payload, withBearer(authToken))), options);
}

// --- the dashboard's Billing page (signed-in session; throw ApiError with the server's message) ---------------------

export type BillingOverview = ApiData<'/api/v1/org/billing', 'get'>;

/** GET v1/org/billing: plan, status, renewal, usage and limits (admins and owners). */
export const getBilling = async () => call<BillingOverview>(api.get('v1/org/billing', await signedIn()));

/** POST v1/org/billing/purchase for a plan of the catalogue (owners): the checkout page's URL. */
export const checkoutPlan = async (plan: string) => (await call<CheckoutUrl>(api.post('v1/org/billing/purchase', { price_id: plan }, await signedIn()))).url;

/** POST v1/stripe/portal with the signed-in session: the portal's URL (invoices, card, cancel). */
export const billingPortal = async () => (await call<CheckoutUrl>(api.post('v1/stripe/portal', {}, await signedIn()))).url;

export type PlanChoice = ApiBody<'/api/v1/org/billing/active', 'put'>;
export type PlanChoiceResult = ApiData<'/api/v1/org/billing/active', 'put'>;

/** PUT v1/org/billing/active (owners): exactly these apps and channels stay active; the others are paused. */
export const chooseActive = async (choice: PlanChoice) => call<PlanChoiceResult>(api.put('v1/org/billing/active', choice, await signedIn()));
