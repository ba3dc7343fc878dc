/**
 * Which plan an organisation is on, what it may have, and what it has.
 *
 * With billing on (STRIPE_SECRET_KEY set) an organisation has the limits of its stored plan while its subscription is
 * in good standing (active, trialing, or past_due for GRACE_PERIOD_DAYS after the payment failed); any other state — canceled, unpaid,
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
  /** A failed payment's grace period: when the plan drops to Free unless a payment succeeds. */
  graceEndsAt: Date | null;
  /** The plan stored for the organisation (what it pays for), even while its status does not grant it. */
  storedPlan: string;
};

/** Subscription states that keep the paid plan's limits (past_due only during the grace period). */
const GOOD_STANDING = new Set(['active', 'trialing', 'past_due']);

/**
 * How long a subscription whose payment failed keeps its plan. Stripe retries the card for up to weeks; a week is
 * enough for an owner who reads the e-mails to fix the card, and short enough that an abandoned subscription does not
 * keep a paid plan's allowances for a month. Then the organisation has the Free plan's limits (what is over them is
 * paused, never deleted) until a payment succeeds.
 */
export const GRACE_PERIOD_DAYS = 7;
const GRACE_MS = GRACE_PERIOD_DAYS * 86_400_000;

/** When the grace period of an organisation whose payment failed ends (null while it is paid). */
export function graceEndsAt(org: Pick<OrgPlanRow, 'plan_status' | 'past_due_since'>): Date | null {
  if (org.plan_status !== 'past_due' || !org.past_due_since) return null;
  return new Date(new Date(org.past_due_since).getTime() + GRACE_MS);
}

/** The stored plan still applies: the subscription is in good standing, and a failed payment is within its grace period. */
function inGoodStanding(org: Pick<OrgPlanRow, 'plan_status'> & Partial<Pick<OrgPlanRow, 'past_due_since'>>, now: Date): boolean {
  if (!GOOD_STANDING.has(org.plan_status)) return false;
  const ends = graceEndsAt({ plan_status: org.plan_status, past_due_since: org.past_due_since ?? null });
  return !ends || now < ends;
}

export const billingEnabled = () => !!env().STRIPE_SECRET_KEY;

function catalogue(id: PlanId): EffectivePlan {
  const p = planById(id)!;
  return { id: p.id, name: p.name, limits: p.limits, features: p.features };
}

/** Whether the organisation pays for a subscription that is still running (so deleting it must wait for a cancellation). */
export function hasLiveSubscription(org: Pick<OrgPlanRow, 'plan_status' | 'stripe_subscription_id'>): boolean {
  return billingEnabled() && !!org.stripe_subscription_id && GOOD_STANDING.has(org.plan_status);
}

/** The plan whose limits `org` has at `now`. */
export function planFor(org: Pick<OrgPlanRow, 'plan' | 'plan_status'> & Partial<Pick<OrgPlanRow, 'past_due_since'>>, now = new Date()): EffectivePlan {
  if (!billingEnabled()) {
    const selfHosted = env().SELF_HOSTED_PLAN;
    return selfHosted === 'unlimited' ? { id: 'unlimited', name: 'Self-hosted', ...UNLIMITED } : catalogue(selfHosted);
  }
  return isPlanId(org.plan) && inGoodStanding(org, now) ? catalogue(org.plan) : catalogue('free');
}

export async function orgPlanOf(orgId: string, now = new Date()): Promise<OrgPlan> {
  const row = await getOrgPlan(orgId);
  if (!row) throw notFound('This organisation no longer exists.');
  const billing = billingEnabled();
  return {
    ...planFor(row, now),
    billingEnabled: billing,
    status: billing ? row.plan_status : 'active',
    currentPeriodEnd: billing ? row.current_period_end : null,
    graceEndsAt: billing ? graceEndsAt(row) : null,
    storedPlan: row.plan,
  };
}

/** What the organisation has (apps, channels, members, API keys) and used this calendar month (Ask ARB questions). */
export function usageFor(orgId: string, now = new Date()): Promise<UsageCounts> {
  return countUsage(orgId, usageMonth(now));
}
