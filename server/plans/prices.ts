/** The Stripe price of each paid plan, from the environment (STRIPE_PRICE_*): the browser only ever names plans. */
import { env } from '../env';
import { PAID_PLAN_IDS, type PaidPlanId } from '@/shared/plans';

export function stripePriceFor(plan: PaidPlanId): string | undefined {
  const e = env();
  return { startup: e.STRIPE_PRICE_STARTUP, business: e.STRIPE_PRICE_BUSINESS, enterprise: e.STRIPE_PRICE_ENTERPRISE }[plan];
}

/** The paid plans this server can sell (a price is configured). */
export const purchasablePlans = (): PaidPlanId[] => PAID_PLAN_IDS.filter((p) => !!stripePriceFor(p));

