/**
 * Billing calls. Each first checks that billing is configured (503 "Billing is not configured on this server."
 * otherwise), then talks to Stripe. A billing-only token (from /auth/token/crm-exchange, which anyone holding an org
 * id can get) may only start a checkout for its organisation; the customer portal (cancel, card, invoices) needs a
 * signed-in session.
 */
import { z } from 'zod';
import { PLATFORM_NAMES } from '../destinations/deliver';
import type { Platform } from '../destinations/types';
import { endpoint } from '../http/api';
import { emailAddress } from '../http/schemas';
import { membershipOf, requireRole } from '../org/membership';
import { orgPlanOf, usageFor } from '../plans/plans';
import { purchasablePlans } from '../plans/prices';
import { featuresShape, limitsShape, planIdShape, planJson, usageShape } from '../plans/schemas';
import { PAID_PLAN_IDS } from '@/shared/plans';
import { refusedSubscriptionsOf } from './refused';
import { billingBuyer, checkoutPrice, createCheckoutSession, createPortalSession } from './checkout';
import { chooseActive } from '../plans/pauses';
import { listPlanItems } from '../plans/data';
import { stripeSecretKey } from './stripe';
import { handleStripeWebhook, WEBHOOK_MAX_BYTES } from './webhook';

const priceId = z
  .string('price_id must be a string.')
  .regex(/^[\w-]{1,200}$/, 'price_id must be a Stripe price id such as price_1Nx….')
  .meta({ description: 'Stripe price id of the plan, or a paid plan of the catalogue (startup, business, enterprise): its price on this server.' });

const referralCode = z.string().max(200).nullish().meta({ description: 'Affiliate referral code, when the visitor came through one.' });

const checkoutAnswer = z.object({ url: z.string().meta({ description: 'Stripe-hosted page to open.' }) });

export const billingPurchase = endpoint({
  statuses: [404, 409, 502, 503],
  summary: 'Start a checkout for a plan (Stripe Checkout URL)',
  tags: ['billing'],
  auth: 'billing',
  // Extra fields the site passes through are accepted and ignored.
  body: z.looseObject({ price_id: priceId, referral_code: referralCode }),
  response: checkoutAnswer,
  handler: async ({ body, auth }) => {
    stripeSecretKey();
    // The organisation from the database (membership, or the billing link's owner still owning it), not the token's claim.
    const buyer = await billingBuyer(auth!);
    return createCheckoutSession({
      priceId: checkoutPrice(body.price_id),
      email: buyer.email,
      orgId: buyer.orgId,
      referralCode: body.referral_code,
      // Only the signed-in owner may change a running subscription in place.
      owner: buyer.owner,
    });
  },
});

export const getBilling = endpoint({
  summary: "The organisation's plan, its subscription's state and renewal, each limit and its use (admins and owners; owners change it)",
  tags: ['billing', 'org'],
  auth: 'user',
  response: z.object({
    billing_enabled: z.boolean().meta({ description: 'false on a server without STRIPE_SECRET_KEY: every organisation has SELF_HOSTED_PLAN and nothing can be bought.' }),
    plan: planIdShape,
    plan_name: z.string(),
    status: z.string().meta({ description: "The subscription's state as the payment provider reported it (active, trialing, past_due, canceled, unpaid…)." }),
    current_period_end: z.string().nullable().meta({ description: 'When the period paid for ends (renewal, or the end of a canceled plan).' }),
    usage: usageShape,
    limits: limitsShape,
    features: featuresShape,
    can_manage: z.boolean().meta({ description: 'The caller is an owner: they may buy or change the plan.' }),
    purchasable: z.array(z.enum(PAID_PLAN_IDS)).meta({ description: 'Paid plans this server can sell (a Stripe price is configured).' }),
    grace_ends_at: z.string().nullable().meta({ description: 'A failed payment: when the plan drops to Free unless a payment succeeds.' }),
    refused_subscriptions: z
      .array(
        z.object({
          refused_at: z.string(),
          plan_name: z.string().nullable().meta({ description: 'The plan the second subscription was for, when it is one of this server’s.' }),
          cancelled: z.boolean().meta({ description: 'Cancelled through the payment provider (false only while that is being retried).' }),
          message: z.string().meta({ description: 'What happened, in plain words, for the Billing page.' }),
        }),
      )
      .meta({ description: 'Second subscriptions started in the last 30 days while one was running (a checkout page left open, paid later): the running one was kept, each of these cancelled.' }),
    items: z.object({
      apps: z.array(z.object({ app_key: z.string(), title: z.string(), store: z.string(), paused: z.boolean().meta({ description: 'Paused because the plan allows fewer apps.' }) })),
      channels: z.array(
        z.object({
          id: z.string(),
          platform: z.string(),
          platform_name: z.string(),
          label: z.string().nullable(),
          target_hint: z.string(),
          status: z.string(),
          paused: z.boolean().meta({ description: 'Paused because the plan allows fewer channels.' }),
        }),
      ),
    }).meta({ description: 'Apps and channels the owner can choose to keep active (active, or paused by the plan), oldest first.' }),
  }),
  handler: async ({ auth }) => {
    const m = await requireRole(auth, 'admin', 'see billing');
    const [plan, usage, items, refused] = await Promise.all([orgPlanOf(m.orgId), usageFor(m.orgId), listPlanItems(m.orgId), refusedSubscriptionsOf(m.orgId)]);
    return {
      billing_enabled: plan.billingEnabled,
      ...planJson(plan, usage),
      status: plan.status,
      current_period_end: plan.currentPeriodEnd ? new Date(plan.currentPeriodEnd).toISOString() : null,
      can_manage: m.role === 'owner',
      purchasable: plan.billingEnabled ? purchasablePlans() : [],
      grace_ends_at: plan.graceEndsAt ? plan.graceEndsAt.toISOString() : null,
      refused_subscriptions: refused,
      items: {
        apps: items.apps.map(({ app_key, title, store, paused }) => ({ app_key, title, store, paused })),
        channels: items.channels.map(({ id, platform, label, target_hint, status, paused }) => ({
          id,
          platform,
          platform_name: PLATFORM_NAMES[platform as Platform] ?? platform,
          label,
          target_hint,
          status,
          paused,
        })),
      },
    };
  },
});

export const stripeQuickPay = endpoint({
  statuses: [404, 409, 502, 503],
  summary: 'Checkout for a plan without an account or with the current one (Stripe Checkout URL)',
  tags: ['billing'],
  auth: 'optional',
  body: z.looseObject({ price_id: priceId, email: emailAddress.optional(), referral_code: referralCode }),
  response: checkoutAnswer,
  handler: async ({ body, auth }) => {
    stripeSecretKey();
    // A signed-in caller buys for the organisation the database says they are in now, with their stored address.
    const m = auth ? await membershipOf(auth) : null;
    return createCheckoutSession({
      priceId: body.price_id,
      email: m?.email ?? body.email,
      orgId: m?.orgId,
      referralCode: body.referral_code,
    });
  },
});

export const stripePortal = endpoint({
  statuses: [404, 502, 503],
  summary: "Open the Stripe customer portal of the organisation (invoices, card, plan changes, cancelling): the owner's, with a signed-in session",
  tags: ['billing'],
  auth: 'user',
  // Whatever body the site sends is not needed: the portal is for the token's organisation.
  response: checkoutAnswer,
  handler: async ({ auth }) => {
    stripeSecretKey();
    const m = await requireRole(auth, 'owner', 'manage billing');
    return createPortalSession({ orgId: m.orgId, email: m.email });
  },
});

export const stripeWebhook = endpoint({
  statuses: [413, 503],
  summary: "Stripe's events (signed with the webhook secret): keeps each organisation's plan, status, period end and customer in step",
  tags: ['billing'],
  auth: 'none',
  // No body schema: the signature is checked on the exact bytes received, read by the handler (webhook.ts).
  maxBodyBytes: WEBHOOK_MAX_BYTES,
  response: z.object({ received: z.literal(true), duplicate: z.literal(true).optional().meta({ description: 'This event was applied before: nothing changed.' }) }),
  handler: ({ req }) => handleStripeWebhook(req),
});

const planChoice = z.object({
  apps: z.array(z.string('apps must be app keys.').max(300)).max(1000).meta({ description: 'App keys that stay active; the other apps of the organisation are paused.' }),
  channels: z.array(z.string('channels must be destination ids.').max(100)).max(5000).meta({ description: 'Destination ids that stay active; the other active or plan-paused ones are paused.' }),
});

export const chooseActiveItems = endpoint({
  statuses: [402, 404, 409],
  summary: 'Choose which apps and channels stay active within the plan (the owner); the others are paused, never deleted',
  tags: ['billing', 'org'],
  auth: 'user',
  body: planChoice,
  response: z.object({ paused: planChoice, resumed: planChoice }),
  handler: async ({ auth, body }) => {
    const m = await requireRole(auth, 'owner', 'choose what stays active');
    return chooseActive(m, body);
  },
});
