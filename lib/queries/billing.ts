/** React Query hooks of billing: opening a checkout with the billing-only token of a CRM link. */
import { useMutation } from '@tanstack/react-query';
import { purchase } from '@/lib/api/billing';
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
