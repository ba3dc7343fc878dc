/**
 * Billing calls. Each first checks that billing is configured (503 "Billing is not configured on this server."
 * otherwise), then talks to Stripe. A billing-only token (from /auth/token/crm-exchange, which anyone holding an org
 * id can get) may only start a checkout for its organisation; the customer portal (cancel, card, invoices) needs a
 * signed-in session.
 */
import { z } from 'zod';
import { endpoint } from '../http/api';
import { emailAddress } from '../http/schemas';
import { checkoutEmail, createCheckoutSession, createPortalSession } from './checkout';
import { stripeSecretKey } from './stripe';

const priceId = z
  .string('price_id must be a string.')
  .regex(/^[\w-]{1,200}$/, 'price_id must be a Stripe price id such as price_1Nx….')
  .meta({ description: 'Stripe price id of the plan.' });

const referralCode = z.string().max(200).nullish().meta({ description: 'Affiliate referral code, when the visitor came through one.' });

const checkoutAnswer = z.object({ url: z.string().meta({ description: 'Stripe-hosted page to open.' }) });

export const billingPurchase = endpoint({
  summary: 'Start a checkout for a plan (Stripe Checkout URL)',
  tags: ['billing'],
  auth: 'billing',
  // Extra fields the site passes through are accepted and ignored.
  body: z.looseObject({ price_id: priceId, referral_code: referralCode }),
  response: checkoutAnswer,
  handler: async ({ body, auth }) => {
    stripeSecretKey();
    return createCheckoutSession({ priceId: body.price_id, email: await checkoutEmail(auth!), orgId: auth!.orgId, referralCode: body.referral_code });
  },
});

export const stripeQuickPay = endpoint({
  summary: 'Checkout for a plan without an account or with the current one (Stripe Checkout URL)',
  tags: ['billing'],
  auth: 'optional',
  body: z.looseObject({ price_id: priceId, email: emailAddress.optional(), referral_code: referralCode }),
  response: checkoutAnswer,
  handler: ({ body, auth }) => {
    stripeSecretKey();
    return createCheckoutSession({
      priceId: body.price_id,
      email: auth?.email ?? body.email,
      orgId: auth?.orgId,
      referralCode: body.referral_code,
    });
  },
});

export const stripePortal = endpoint({
  summary: 'Open the Stripe customer portal (manage plan, invoices, payment method); needs a signed-in session',
  tags: ['billing'],
  auth: 'user',
  // Whatever body the site sends is not needed: the portal is for the token's account.
  response: checkoutAnswer,
  handler: ({ auth }) => {
    stripeSecretKey();
    return createPortalSession({ email: auth!.email });
  },
});
