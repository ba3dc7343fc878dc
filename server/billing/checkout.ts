/**
 * Checkout and the customer portal, hosted by Stripe: ARB creates a session and the browser goes to its URL.
 * The org id travels as client_reference_id and metadata, so Stripe's webhooks can be matched to the org.
 */
import type { AuthClaims } from '../auth/tokens';
import { getUserById } from '../auth/data';
import { env } from '../env';
import { notFound, unauthorized } from '../http/errors';
import { requireRole } from '../org/membership';
import { stripePriceFor } from '../plans/prices';
import { PAID_PLAN_IDS, type PaidPlanId } from '@/shared/plans';
import { stripeRequest, toHttpError } from './stripe';

type StripePrice = { id: string; active: boolean; type: 'one_time' | 'recurring' };
type StripeSession = { id: string; url: string };
type StripeList<T> = { data: T[] };

export type CheckoutInput = {
  priceId: string;
  email?: string;
  orgId?: string;
  referralCode?: string | null;
};

/**
 * The billing e-mail for a checkout. A billing-only token carries no address (its holder may be anyone with the org
 * id): the owner's is read here, and only Stripe sees it.
 */
export async function checkoutEmail(auth: AuthClaims): Promise<string> {
  if (auth.scope === 'full') return auth.email;
  const owner = await getUserById(auth.userId);
  if (!owner || owner.org_id !== auth.orgId) throw unauthorized('This billing link has expired. Ask for a new one.');
  return owner.email;
}

/**
 * Buying or changing the plan is the owner's: a signed-in caller must be one. A billing-only token was issued for the
 * owner of its organisation and can do nothing else, so it passes.
 */
export async function requireBillingOwner(auth: AuthClaims): Promise<void> {
  if (auth.scope === 'full') await requireRole(auth, 'owner', 'change the plan');
}

const PLAN_MISSING = 'That plan does not exist. Pick a plan on the pricing page.';

/** The Stripe price to check out: a catalogue plan's id names its price on this server; anything else is a price id. */
export function checkoutPrice(priceIdOrPlan: string): string {
  if (!(PAID_PLAN_IDS as readonly string[]).includes(priceIdOrPlan)) return priceIdOrPlan;
  const price = stripePriceFor(priceIdOrPlan as PaidPlanId);
  if (!price) throw notFound(`The ${priceIdOrPlan} plan cannot be bought on this server yet. Contact us to subscribe.`);
  return price;
}

async function getActivePrice(priceId: string): Promise<StripePrice> {
  const message = PLAN_MISSING;
  let price: StripePrice;
  try {
    price = await stripeRequest<StripePrice>('GET', `v1/prices/${encodeURIComponent(priceId)}`);
  } catch (err) {
    throw toHttpError(err, message);
  }
  if (!price.active) throw notFound(message);
  return price;
}

export async function createCheckoutSession(input: CheckoutInput): Promise<{ url: string }> {
  const price = await getActivePrice(input.priceId);
  const site = env().APP_URL;
  try {
    const session = await stripeRequest<StripeSession>('POST', 'v1/checkout/sessions', {
      mode: price.type === 'recurring' ? 'subscription' : 'payment',
      line_items: { 0: { price: price.id, quantity: 1 } },
      success_url: `${site}/dashboard?checkout=success`,
      cancel_url: `${site}/pricing`,
      customer_email: input.email,
      client_reference_id: input.orgId,
      allow_promotion_codes: true,
      metadata: { org_id: input.orgId, referral_code: input.referralCode ?? undefined },
    });
    return { url: session.url };
  } catch (err) {
    throw toHttpError(err, PLAN_MISSING);
  }
}

/** The Stripe customer portal for the account's billing e-mail. */
export async function createPortalSession(input: { email: string }): Promise<{ url: string }> {
  try {
    const customers = await stripeRequest<StripeList<{ id: string }>>('GET', 'v1/customers', { email: input.email, limit: 1 });
    const customer = customers.data[0];
    if (!customer) throw notFound('There is no subscription for this account yet. Choose a plan first.');
    const session = await stripeRequest<StripeSession>('POST', 'v1/billing_portal/sessions', {
      customer: customer.id,
      return_url: `${env().APP_URL}/dashboard`,
    });
    return { url: session.url };
  } catch (err) {
    throw toHttpError(err, 'There is no subscription for this account yet. Choose a plan first.');
  }
}
