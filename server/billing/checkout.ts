/**
 * Checkout and the customer portal, hosted by Stripe: ARB creates a session and the browser goes to its URL.
 * The org id travels as client_reference_id and in the metadata (the session's and the subscription's), so Stripe's
 * webhooks can be matched to the organisation. An organisation that already pays changes its subscription's price in
 * place instead (a second subscription would bill it twice), and the new plan applies at once.
 */
import type { AuthClaims } from '../auth/tokens';
import { getUserById } from '../auth/data';
import { env } from '../env';
import { HttpError, notFound, unauthorized } from '../http/errors';
import { requireRole } from '../org/membership';
import { getOrgPlan } from '../plans/data';
import { hasLiveSubscription } from '../plans/plans';
import { stripePriceFor } from '../plans/prices';
import { PAID_PLAN_IDS, type PaidPlanId } from '@/shared/plans';
import { stripeClient, toHttpError, type Stripe } from './stripe';
import { applySubscription } from './sync';

export type CheckoutInput = {
  priceId: string;
  email?: string;
  orgId?: string;
  referralCode?: string | null;
  /**
   * The caller is the organisation's signed-in owner: a running subscription's price may be changed in place. Anyone
   * else (a billing-only token, which anyone holding the org id can get) may only open a checkout, which needs a card.
   */
  owner?: boolean;
};

/** Who is buying, for which organisation: read from the database, never from the token's `org` claim. */
export type Buyer = { orgId: string; email: string; owner: boolean };

const LINK_EXPIRED = 'This billing link has expired. Ask for a new one.';

/**
 * The buyer of a purchase. A signed-in caller buys for the organisation the database says they are in, and must be
 * its owner (a member moved to another organisation, whose access token still names the old one, buys for the new
 * one — if they own it). A billing-only token (from /subscribe) names its organisation by design: it is honoured only
 * while that organisation exists and the token's user is still its owner. It carries no address (its holder may be
 * anyone with the org id): the owner's is read here, and only Stripe sees it.
 */
export async function billingBuyer(auth: AuthClaims): Promise<Buyer> {
  if (auth.scope === 'full') {
    const m = await requireRole(auth, 'owner', 'change the plan');
    return { orgId: m.orgId, email: m.email, owner: true };
  }
  const [user, org] = await Promise.all([getUserById(auth.userId), getOrgPlan(auth.orgId)]);
  if (!org || !user || user.org_id !== auth.orgId || user.role !== 'owner') throw unauthorized(LINK_EXPIRED);
  return { orgId: org.id, email: user.email, owner: false };
}

const PLAN_MISSING = 'That plan does not exist. Pick a plan on the pricing page.';

/**
 * How long a Checkout page can be paid: Stripe's shortest (30 minutes) and a minute for clocks, instead of its 24 hours.
 * A tab left open is what makes a second subscription: the shorter it lives, the rarer that is (and the webhook still
 * refuses one that gets through, sync.ts).
 */
export const CHECKOUT_EXPIRES_SECONDS = 31 * 60;

/** The Stripe price to check out: a catalogue plan's id names its price on this server; anything else is a price id. */
export function checkoutPrice(priceIdOrPlan: string): string {
  if (!(PAID_PLAN_IDS as readonly string[]).includes(priceIdOrPlan)) return priceIdOrPlan;
  const price = stripePriceFor(priceIdOrPlan as PaidPlanId);
  if (!price) throw notFound(`The ${priceIdOrPlan} plan cannot be bought on this server yet. Contact us to subscribe.`);
  return price;
}

async function getActivePrice(stripe: Stripe, priceId: string): Promise<Stripe.Price> {
  let price: Stripe.Price;
  try {
    price = await stripe.prices.retrieve(priceId);
  } catch (err) {
    throw toHttpError(err, PLAN_MISSING);
  }
  if (!price.active) throw notFound(PLAN_MISSING);
  return price;
}

/**
 * A checkout for a plan. For an organisation whose subscription is live, the subscription's price is changed instead
 * (prorated, invoiced now) and the organisation gets the new plan's limits in this same request; the answer's URL is
 * then the dashboard's Billing page.
 */
export async function createCheckoutSession(input: CheckoutInput): Promise<{ url: string }> {
  const stripe = stripeClient();
  const price = await getActivePrice(stripe, input.priceId);
  const site = env().APP_URL;
  const org = input.orgId ? await getOrgPlan(input.orgId) : undefined;
  if (org && price.type === 'recurring' && hasLiveSubscription(org)) {
    if (!input.owner) throw new HttpError(409, 'subscription_exists', 'This organisation already has a subscription. Its owner changes the plan on the dashboard’s Billing page.');
    return changeSubscriptionPrice(stripe, org.id, org.stripe_subscription_id!, price.id);
  }
  const metadata: Record<string, string> = {};
  if (input.orgId) metadata.org_id = input.orgId;
  if (input.referralCode) metadata.referral_code = input.referralCode;
  try {
    const session = await stripe.checkout.sessions.create({
      mode: price.type === 'recurring' ? 'subscription' : 'payment',
      line_items: [{ price: price.id, quantity: 1 }],
      success_url: `${site}/dashboard/billing?checkout=success`,
      cancel_url: input.orgId ? `${site}/dashboard/billing` : `${site}/pricing`,
      // A returning customer keeps one Stripe customer (their card, their invoices); a new one is made from the address.
      ...(org?.stripe_customer_id ? { customer: org.stripe_customer_id } : { customer_email: input.email }),
      client_reference_id: input.orgId,
      allow_promotion_codes: true,
      expires_at: Math.floor(Date.now() / 1000) + CHECKOUT_EXPIRES_SECONDS,
      metadata,
      ...(price.type === 'recurring' ? { subscription_data: { metadata } } : {}),
    });
    if (!session.url) throw new Error('Stripe answered a checkout session without a URL');
    return { url: session.url };
  } catch (err) {
    throw toHttpError(err, PLAN_MISSING);
  }
}

async function changeSubscriptionPrice(stripe: Stripe, orgId: string, subscriptionId: string, priceId: string): Promise<{ url: string }> {
  try {
    const current = await stripe.subscriptions.retrieve(subscriptionId);
    const item = current.items.data[0];
    const updated = await stripe.subscriptions.update(subscriptionId, {
      items: [{ id: item.id, price: priceId }],
      proration_behavior: 'always_invoice',
      metadata: { org_id: orgId },
    });
    await applySubscription(orgId, updated);
    return { url: `${env().APP_URL}/dashboard/billing?checkout=changed` };
  } catch (err) {
    throw toHttpError(err, 'This subscription no longer exists. Reload the Billing page.');
  }
}

const NO_SUBSCRIPTION = 'There is no subscription for this organisation yet. Choose a plan first.';

/** The Stripe customer portal of the organisation's Stripe customer (invoices, card, plan changes, cancelling). */
export async function createPortalSession(input: { orgId: string; email: string }): Promise<{ url: string }> {
  const stripe = stripeClient();
  const org = await getOrgPlan(input.orgId);
  try {
    let customer = org?.stripe_customer_id ?? undefined;
    // An organisation that paid before ARB kept its customer id: found by the owner's address.
    customer ??= (await stripe.customers.list({ email: input.email, limit: 1 })).data[0]?.id;
    if (!customer) throw notFound(NO_SUBSCRIPTION);
    const session = await stripe.billingPortal.sessions.create({ customer, return_url: `${env().APP_URL}/dashboard/billing` });
    return { url: session.url };
  } catch (err) {
    throw toHttpError(err, NO_SUBSCRIPTION);
  }
}
