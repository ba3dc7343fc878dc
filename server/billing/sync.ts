/**
 * The organisation's plan as its Stripe subscription says: plan (from the subscription's price), status, end of the
 * period paid for, customer and subscription ids. Every event is applied by reading the subscription's current state
 * from Stripe, so events arriving late or out of order, or twice, end in the same state. After each change the
 * organisation's apps and channels are fitted to the plan it now has: paused over a lower limit, resumed under a
 * higher one (server/plans/pauses.ts).
 *
 * One subscription per organisation: a different live subscription arriving while the stored one still runs (Stripe
 * is asked, not our copy) is refused and cancelled (refused.ts), never stored over the running one. The write is a
 * compare-and-set on the stored subscription id, so two processes applying two newcomers at once keep exactly one.
 */
import { log } from '../log';
import { getOrgPlan } from '../plans/data';
import { fitToPlan } from '../plans/pauses';
import { hasLiveSubscription } from '../plans/plans';
import { stripePriceFor } from '../plans/prices';
import { PAID_PLAN_IDS, type PaidPlanId } from '@/shared/plans';
import { orgExists, orgIdForStripe, saveOrgSubscriptionIfUnchanged } from './data';
import { handleRefusedAgain, LIVE_STATUSES, refuseSubscription } from './refused';
import { sendGraceNotice } from './grace';
import { stripeClient, type Stripe } from './stripe';
import { forgetOrgPlan } from '../apiKeys/keyState';

const LIVE = LIVE_STATUSES;
/** Compare-and-set rounds before giving up (each lost round means another process stored a subscription meanwhile). */
const APPLY_ATTEMPTS = 4;

/** The catalogue plan a Stripe price is this server's price of. */
export function planOfPrice(priceId: string | undefined): PaidPlanId | undefined {
  return priceId ? PAID_PLAN_IDS.find((p) => stripePriceFor(p) === priceId) : undefined;
}

/** The id of a Stripe reference, whether it came expanded or as an id. */
export const idOf = (v: string | { id: string } | null | undefined) => (typeof v === 'string' ? v : v?.id);

/** Whether Stripe still says subscription `id` is running (our stored status may be behind its events). */
async function stillRunning(id: string): Promise<boolean> {
  try {
    return LIVE.has((await stripeClient().subscriptions.retrieve(id)).status);
  } catch (err) {
    if ((err as { code?: string }).code === 'resource_missing') return false;
    throw err;
  }
}

/** Stores what `sub` says for the organisation and fits its apps and channels to the plan it gives. */
export async function applySubscription(orgId: string, sub: Stripe.Subscription, now = new Date()): Promise<void> {
  if (await handleRefusedAgain(sub)) return void log.info('stripe event of a refused subscription: not applied', { subscription: sub.id, status: sub.status });
  const item = sub.items.data[0];
  const plan = planOfPrice(item?.price.id);
  for (let attempt = 0; attempt < APPLY_ATTEMPTS; attempt++) {
    const before = await getOrgPlan(orgId);
    if (!before) return void log.warn('stripe subscription for an organisation that no longer exists', { subscription: sub.id });
    const stored = before.stripe_subscription_id;
    if (stored && stored !== sub.id && hasLiveSubscription(before)) {
      // News of an older subscription (its cancellation, say) never replaces the running one.
      if (!LIVE.has(sub.status)) return void log.info('stripe event of a replaced subscription ignored', { subscription: sub.id, status: sub.status });
      // A second live one (a stale Checkout paid late): the running one stays, the newcomer is cancelled.
      if (await stillRunning(stored)) return refuseSubscription(orgId, sub, stored, plan ?? null);
    }
    if (!plan) log.warn('stripe subscription price is not a plan of this server: the plan is kept', { subscription: sub.id, price: item?.price.id });
    const pastDue = sub.status === 'past_due';
    const pastDueSince = pastDue ? (before.past_due_since ?? now) : null;
    const saved = await saveOrgSubscriptionIfUnchanged(orgId, stored, {
      plan: plan ?? before.plan,
      plan_status: sub.status,
      current_period_end: item?.current_period_end ? new Date(item.current_period_end * 1000) : null,
      stripe_customer_id: idOf(sub.customer)!,
      stripe_subscription_id: sub.id,
      past_due_since: pastDueSince,
      grace_notice: pastDue ? before.grace_notice : null,
    });
    // Another process stored a subscription since we read: decide again against what it stored.
    if (!saved) continue;
    // The public API reads the plan from memory: the next call here reads it again (other processes within PUBLIC_API_CACHE_MS).
    forgetOrgPlan(orgId);
    if (pastDue && !before.past_due_since) await sendGraceNotice(orgId, 'started', pastDueSince!);
    await fitToPlan(orgId);
    return;
  }
  throw new Error('the organisation’s subscription kept changing while this event was applied');
}

/** Reads subscription `id` from Stripe and applies it to its organisation (`orgId` when known, else from its ids). */
export async function syncSubscription(id: string, orgIdHint?: string | null): Promise<string | undefined> {
  const sub = await stripeClient().subscriptions.retrieve(id);
  const orgId =
    orgIdHint ??
    (await orgIdForStripe({ subscriptionId: sub.id })) ??
    // Set by our checkout on the subscription; then the customer the organisation already pays with.
    ((sub.metadata?.org_id && (await orgExists(sub.metadata.org_id)) ? sub.metadata.org_id : undefined) ||
      (await orgIdForStripe({ customerId: idOf(sub.customer) })));
  if (!orgId) {
    log.warn('stripe subscription of no organisation', { subscription: sub.id });
    return undefined;
  }
  await applySubscription(orgId, sub);
  return orgId;
}
