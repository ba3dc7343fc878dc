/** Billing calls. Like the auth calls they log and resolve null on error; `onError` receives the server's message. */
import { api, call, withBearer } from './client';
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
