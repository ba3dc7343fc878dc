/**
 * Which plan an organisation is on, what it may have, and what it has.
 *
 * With billing on (STRIPE_SECRET_KEY set) an organisation has the limits of its stored plan while its subscription is
 * in good standing (active, trialing, or past_due during the payment retries); any other state — canceled, unpaid,
 * incomplete — has the Free plan's. With billing off (a self-hosted server) every organisation has the limits of
 * SELF_HOSTED_PLAN, unlimited by default, and nothing about billing is shown as actionable.
 */
import { env } from '../env';
import { notFound } from '../http/errors';
import { countUsage, getOrgPlan, usageMonth, type OrgPlanRow, type UsageCounts } from './data';
import { isPlanId, planById, UNLIMITED, type Features, type Limits, type PlanId } from '@/shared/plans';

export type EffectivePlan = {
  /** A catalogue plan, or 'unlimited' on a self-hosted server without billing. */
  id: PlanId | 'unlimited';
  name: string;
  limits: Limits;
  features: Features;
};

export type OrgPlan = EffectivePlan & {
  billingEnabled: boolean;
  /** The subscription's state as Stripe last reported it; 'active' for Free and on self-hosted servers. */
  status: string;
  currentPeriodEnd: Date | null;
  /** The plan stored for the organisation (what it pays for), even while its status does not grant it. */
  storedPlan: string;
};

/** Subscription states that keep the paid plan's limits. */
const GOOD_STANDING = new Set(['active', 'trialing', 'past_due']);

export const billingEnabled = () => !!env().STRIPE_SECRET_KEY;

function catalogue(id: PlanId): EffectivePlan {
  const p = planById(id)!;
  return { id: p.id, name: p.name, limits: p.limits, features: p.features };
}

/** Whether the organisation pays for a subscription that is still running (so deleting it must wait for a cancellation). */
export function hasLiveSubscription(org: Pick<OrgPlanRow, 'plan_status' | 'stripe_subscription_id'>): boolean {
  return billingEnabled() && !!org.stripe_subscription_id && GOOD_STANDING.has(org.plan_status);
}

/** The plan whose limits `org` has now. */
export function planFor(org: Pick<OrgPlanRow, 'plan' | 'plan_status'>): EffectivePlan {
  if (!billingEnabled()) {
    const selfHosted = env().SELF_HOSTED_PLAN;
    return selfHosted === 'unlimited' ? { id: 'unlimited', name: 'Self-hosted', ...UNLIMITED } : catalogue(selfHosted);
  }
  return isPlanId(org.plan) && GOOD_STANDING.has(org.plan_status) ? catalogue(org.plan) : catalogue('free');
}

export async function orgPlanOf(orgId: string): Promise<OrgPlan> {
  const row = await getOrgPlan(orgId);
  if (!row) throw notFound('This organisation no longer exists.');
  const billing = billingEnabled();
  return {
    ...planFor(row),
    billingEnabled: billing,
    status: billing ? row.plan_status : 'active',
    currentPeriodEnd: billing ? row.current_period_end : null,
    storedPlan: row.plan,
  };
}

/** What the organisation has (apps, channels, members, API keys) and used this calendar month (Ask ARB questions). */
export function usageFor(orgId: string, now = new Date()): Promise<UsageCounts> {
  return countUsage(orgId, usageMonth(now));
}
