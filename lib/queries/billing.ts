/** React Query hooks of billing: a checkout with the billing-only token of a CRM link, and the dashboard's Billing page. */
import { useMutation, useQuery } from '@tanstack/react-query';
import { billingPortal, checkoutPlan, chooseActive, getBilling, purchase, type PlanChoice, type PlanChoiceResult } from '@/lib/api/billing';
import { orgKeys, useInvalidatingMutation, type Outcome } from './team';
import type { Callbacks } from './auth';

const CHECKOUT_FAILED = 'We could not open the checkout. Please try again in a minute.';

/** POST v1/org/billing/purchase with the billing token: the checkout page's URL. */
export function useCheckout(authToken: string, callbacks: Callbacks<string, string> = {}) {
  return useMutation({
    mutationFn: async (priceId: string) => {
      let message = '';
      const result = await purchase({ price_id: priceId }, authToken, { onError: (e) => (message = e.message) });
      if (!result?.url) throw new Error(message || CHECKOUT_FAILED);
      return result.url;
    },
    ...callbacks,
  });
}

export const billingKeys = { overview: ['org', 'billing'] as const };

/** The Billing page's overview (admins and owners: `enabled` false for members, who are refused). */
export const useBilling = (enabled: boolean) => useQuery({ queryKey: billingKeys.overview, queryFn: getBilling, enabled });

/** Owners: open Stripe Checkout for a plan, or the customer portal; the page sends the browser to the URL. */
export const usePlanCheckout = (callbacks: Callbacks<string, string> = {}) => useMutation({ mutationFn: checkoutPlan, ...callbacks });
export const useBillingPortal = (callbacks: Callbacks<string, void> = {}) => useMutation({ mutationFn: () => billingPortal(), ...callbacks });

/** Owners: choose which apps and channels stay active within the plan; the organisation's data (billing included) refreshes. */
export const useChooseActive = (outcome: Outcome<PlanChoice, PlanChoiceResult> = {}) => useInvalidatingMutation(chooseActive, [orgKeys.org], outcome);
