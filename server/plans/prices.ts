/** The Stripe price of each paid plan, from the environment (STRIPE_PRICE_*): the browser only ever names plans. */
import { env } from '../env';
import type { PaidPlanId } from '@/shared/plans';

export function stripePriceFor(plan: PaidPlanId): string | undefined {
  const e = env();
  return { startup: e.STRIPE_PRICE_STARTUP, business: e.STRIPE_PRICE_BUSINESS, enterprise: e.STRIPE_PRICE_ENTERPRISE }[plan];
}

/** The paid plans this server can sell (a price is configured). */
export function purchasablePlans(): PaidPlanId[] {
  return (['startup', 'business', 'enterprise'] as const).filter((p) => !!stripePriceFor(p));
}

/** The plan a Stripe price sells, if it is one of ours (for subscriptions reported by Stripe). */
export function planForPrice(priceId: string): PaidPlanId | undefined {
  return (['startup', 'business', 'enterprise'] as const).find((p) => stripePriceFor(p) === priceId);
}
