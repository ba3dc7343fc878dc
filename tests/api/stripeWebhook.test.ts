// Stripe kept in step, through the real routes, a real database (PGlite and PostgreSQL) and a loopback Stripe that
// speaks Stripe's formats, with events signed by the real scheme (stripe.webhooks.generateTestHeaderString): checkout
// completes → the plan applies at once; bad signatures are 400 and change nothing; replayed, duplicated and
// out-of-order events end in Stripe's current state; a failed payment gets a grace period with e-mails, then the
// Free plan's limits, with what is over them paused and nothing deleted; a payment resumes it.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { getDb } from '@/server/db/client';
import { runGracePeriods } from '@/server/billing/grace';
import { GRACE_PERIOD_DAYS } from '@/server/plans/plans';
import { newOwner, memberOf, type SignedInUser } from '../helpers/orgs';
import { call } from '../helpers/request';
import { billingTokenFor } from '../helpers/session';
import { FAKE_WEBHOOK_SECRET, startFakeStripe, type FakeStripe } from '../fakes/stripe';
import { newIosApp, newIp, payloadFor, startConnectWorld, type ConnectWorld } from './support/connectWorld';

let w: ConnectWorld;
let stripe: FakeStripe;
const PRICES = { STRIPE_PRICE_STARTUP: 'price_startup_monthly', STRIPE_PRICE_BUSINESS: 'price_business_monthly' };

beforeAll(async () => {
  stripe = await startFakeStripe({
    secretKey: 'sk_test_sync',
    prices: [
      { id: 'price_startup_monthly', type: 'recurring' },
      { id: 'price_business_monthly', type: 'recurring' },
    ],
  });
  w = await startConnectWorld({ STRIPE_SECRET_KEY: 'sk_test_sync', STRIPE_API_BASE_URL: stripe.url, STRIPE_WEBHOOK_SECRET: FAKE_WEBHOOK_SECRET, ...PRICES });
}, 60_000);
afterAll(async () => {
  await w.close();
  await stripe.close();
});

const as = (u: SignedInUser) => ({ token: u.token, ip: newIp() });
const addApp = (u: SignedInUser, appId: string) => call(w.api, 'POST', '/api/v1/org/apps', { app_id: appId, app_store: 'apple_app_store' }, as(u));
const connect = (u: SignedInUser, appId: string) =>
  call<{ destination_id: string }>(w.api, 'POST', '/api/v1/oauth/platform/connect', { platform: 'slack', payload: payloadFor({ app_id: appId, webhook_url: w.chat.hook('slack').url }) }, as(u));
const deliver = (e: { body: string; headers: Record<string, string> }) => call<{ received: true; duplicate?: true }>(w.api, 'POST', '/api/v1/stripe/webhook', undefined, { rawBody: e.body, headers: e.headers });
const orgRow = async (orgId: string) =>
  (await getDb())
    .selectFrom('orgs')
    .select(['plan', 'plan_status', 'current_period_end', 'stripe_customer_id', 'stripe_subscription_id', 'past_due_since', 'grace_notice'])
    .where('id', '=', orgId)
    .executeTakeFirstOrThrow();
type Billing = { plan: string; status: string; grace_ends_at: string | null; items: { apps: Array<{ app_key: string; paused: boolean }>; channels: Array<{ id: string; paused: boolean; status: string }> } };
const billing = async (u: SignedInUser) => (await call<Billing>(w.api, 'GET', '/api/v1/org/billing', undefined, as(u))).json.data;

/** The owner buys `plan` through Checkout and Stripe reports it: the subscription's id. */
async function subscribe(owner: SignedInUser, plan: 'startup' | 'business'): Promise<string> {
  const r = await call<{ url: string }>(w.api, 'POST', '/api/v1/org/billing/purchase', { price_id: plan, referral_code: 'aff_9' }, as(owner));
  expect(r.status, r.text).toBe(200);
  const session = stripe.sessions.at(-1)!;
  expect(r.json.data.url).toBe(session.url);
  const completed = stripe.completeCheckout(session.id);
  expect((await deliver(stripe.signedEvent('checkout.session.completed', completed))).status).toBe(200);
  return completed.subscription as string;
}

describe('signatures', () => {
  test('a bad, missing or foreign signature is 400 and changes nothing', async () => {
    const owner = await newOwner('badsig');
    const before = await orgRow(owner.orgId);
    const session = { id: 'cs_forged', object: 'checkout.session', client_reference_id: owner.orgId, subscription: null, customer: 'cus_forged', mode: 'payment', metadata: {} };
    const forged = stripe.signedEvent('checkout.session.completed', session, { secret: 'whsec_someone_else' });
    const tampered = stripe.signedEvent('checkout.session.completed', session);
    const cases = [
      forged,
      { body: tampered.body.replace('cus_forged', 'cus_forgeD'), headers: tampered.headers },
      { body: tampered.body, headers: { 'Content-Type': 'application/json' } },
    ];
    for (const e of cases) {
      const r = await deliver(e);
      expect(r.status, r.text).toBe(400);
      expect(r.json.error.code).toBe('invalid_signature');
    }
    expect(await orgRow(owner.orgId)).toEqual(before);
    const events = await (await getDb()).selectFrom('stripe_events').select('id').where('id', 'in', [forged.id, tampered.id]).execute();
    expect(events).toEqual([]);
    // The genuine one is applied: it was the signature that was refused.
    expect((await deliver(tampered)).status).toBe(200);
    expect((await orgRow(owner.orgId)).stripe_customer_id).toBe('cus_forged');
  });

  test('without STRIPE_WEBHOOK_SECRET every event is refused (503), nothing is read', async () => {
    w.setEnv({ STRIPE_SECRET_KEY: 'sk_test_sync', STRIPE_API_BASE_URL: stripe.url, STRIPE_WEBHOOK_SECRET: undefined, ...PRICES });
    try {
      const r = await deliver(stripe.signedEvent('invoice.paid', { id: 'in_x', object: 'invoice' }));
      expect(r.status).toBe(503);
    } finally {
      w.setEnv({ STRIPE_SECRET_KEY: 'sk_test_sync', STRIPE_API_BASE_URL: stripe.url, STRIPE_WEBHOOK_SECRET: FAKE_WEBHOOK_SECRET, ...PRICES });
    }
  });
});

describe('checkout and subscription events', () => {
  test('Free at its app limit → checkout → webhook: the plan, status, period end and customer are stored and the limit is lifted', async () => {
    const owner = await newOwner('upgrade');
    expect((await addApp(owner, newIosApp(w).appId)).status).toBe(201);
    const second = newIosApp(w).appId;
    expect((await addApp(owner, second)).status).toBe(402);

    const subId = await subscribe(owner, 'startup');
    const checkout = stripe.sessions.at(-1)!.form;
    expect(Object.fromEntries(checkout)).toMatchObject({ client_reference_id: owner.orgId, 'metadata[referral_code]': 'aff_9', 'subscription_data[metadata][org_id]': owner.orgId });
    const sub = stripe.subscriptions.get(subId)!;
    const row = await orgRow(owner.orgId);
    expect(row).toMatchObject({ plan: 'startup', plan_status: 'active', stripe_customer_id: sub.customer, stripe_subscription_id: subId, past_due_since: null });
    const periodEnd = (sub.items as { data: Array<{ current_period_end: number }> }).data[0].current_period_end;
    expect(new Date(row.current_period_end!).getTime()).toBe(periodEnd * 1000);
    expect((await addApp(owner, second)).status).toBe(201);

    // The portal is the organisation's customer's.
    const portal = await call<{ url: string }>(w.api, 'POST', '/api/v1/stripe/portal', {}, as(owner));
    expect(portal.status, portal.text).toBe(200);
    expect(new URLSearchParams(stripe.requests.filter((q) => q.path === '/v1/billing_portal/sessions').at(-1)!.body).get('customer')).toBe(sub.customer);
    const admin = await memberOf(owner, 'admin');
    expect((await call(w.api, 'POST', '/api/v1/stripe/portal', {}, as(admin))).status).toBe(403);
  });

  test('a replayed or duplicated event is applied once', async () => {
    const owner = await newOwner('replay');
    const subId = await subscribe(owner, 'startup');
    stripe.setSubscription(subId, { price: 'price_business_monthly' });
    const updated = stripe.signedEvent('customer.subscription.updated', stripe.subscriptions.get(subId)!);
    const [a, b] = await Promise.all([deliver(updated), deliver(updated)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect([a.json.data.duplicate, b.json.data.duplicate].filter(Boolean)).toHaveLength(1);
    expect((await orgRow(owner.orgId)).plan).toBe('business');

    // The organisation changes its plan meanwhile (here directly): a later replay of the old event changes nothing.
    await (await getDb()).updateTable('orgs').set({ plan: 'startup' }).where('id', '=', owner.orgId).execute();
    const replay = await deliver(updated);
    expect(replay.json.data).toEqual({ received: true, duplicate: true });
    expect((await orgRow(owner.orgId)).plan).toBe('startup');
  });

  test('out of order: an old event is applied as Stripe’s current state, and a late "created" after the deletion leaves it canceled', async () => {
    const owner = await newOwner('order');
    const subId = await subscribe(owner, 'business');
    const stale = structuredClone(stripe.subscriptions.get(subId)!);
    stripe.setSubscription(subId, { status: 'canceled' });
    expect((await deliver(stripe.signedEvent('customer.subscription.deleted', stripe.subscriptions.get(subId)!))).status).toBe(200);
    expect(await orgRow(owner.orgId)).toMatchObject({ plan: 'business', plan_status: 'canceled' });
    // The "created" and an "updated" saying active arrive after the deletion: Stripe says canceled, so canceled it stays.
    for (const type of ['customer.subscription.created', 'customer.subscription.updated']) {
      expect((await deliver(stripe.signedEvent(type, { ...stale, status: 'active' }))).status).toBe(200);
    }
    expect((await orgRow(owner.orgId)).plan_status).toBe('canceled');
    expect((await billing(owner)).plan).toBe('free');
  });

  test('upgrading a running subscription changes its price in place and applies at once', async () => {
    const owner = await newOwner('inplace');
    const subId = await subscribe(owner, 'startup');
    const sessions = stripe.sessions.length;
    const r = await call<{ url: string }>(w.api, 'POST', '/api/v1/org/billing/purchase', { price_id: 'business' }, as(owner));
    expect(r.status, r.text).toBe(200);
    expect(r.json.data.url).toMatch(/\/dashboard\/billing\?checkout=changed$/);
    expect(stripe.sessions.length).toBe(sessions); // no second subscription
    const update = stripe.requests.filter((q) => q.method === 'POST' && q.path === `/v1/subscriptions/${subId}`).at(-1)!;
    expect(new URLSearchParams(update.body).get('items[0][price]')).toBe('price_business_monthly');
    expect((await billing(owner)).plan).toBe('business');

    // A billing-only token (anyone holding the org id can get one) cannot change a running subscription.
    const updates = stripe.requests.filter((q) => q.method === 'POST' && q.path.startsWith('/v1/subscriptions/')).length;
    const linkToken = await billingTokenFor(owner);
    const refused = await call(w.api, 'POST', '/api/v1/org/billing/purchase', { price_id: 'startup' }, { token: linkToken, ip: newIp() });
    expect(refused.status).toBe(409);
    expect(refused.json.error.message).toBe('This organisation already has a subscription. Its owner changes the plan on the dashboard’s Billing page.');
    expect(stripe.requests.filter((q) => q.method === 'POST' && q.path.startsWith('/v1/subscriptions/')).length).toBe(updates);
    expect((await billing(owner)).plan).toBe('business');
  });
});

describe('failed payments and downgrades lose nothing', () => {
  test('payment_failed → grace with e-mails → the Free plan, over-limit apps and channels paused (not deleted) → paid → resumed', async () => {
    const owner = await newOwner('pastdue');
    const subId = await subscribe(owner, 'startup');
    const apps = [newIosApp(w).appId, newIosApp(w).appId];
    for (const a of apps) expect((await addApp(owner, a)).status).toBe(201);
    const channels = [];
    for (const a of apps) {
      const c = await connect(owner, a);
      expect(c.status, c.text).toBe(200);
      channels.push(c.json.data.destination_id);
    }

    const mails = w.smtp.messages.length;
    stripe.setSubscription(subId, { status: 'past_due' });
    expect((await deliver(stripe.signedEvent('invoice.payment_failed', stripe.invoice(subId, false)))).status).toBe(200);
    const row = await orgRow(owner.orgId);
    expect(row).toMatchObject({ plan: 'startup', plan_status: 'past_due' });
    expect(row.past_due_since).not.toBeNull();
    const [started] = (await w.smtp.waitForMessages(mails + 1)).slice(mails);
    expect(started).toMatchObject({ to: owner.email, subject: 'Your ARB payment failed' });
    const b = await billing(owner);
    expect(b.plan).toBe('startup'); // still, during the grace period
    expect(new Date(b.grace_ends_at!).getTime()).toBe(new Date(row.past_due_since!).getTime() + GRACE_PERIOD_DAYS * 86_400_000);

    const since = new Date(row.past_due_since!).getTime();
    expect(await runGracePeriods(new Date(since + 5.5 * 86_400_000))).toMatchObject({ reminded: 1 });
    expect(await runGracePeriods(new Date(since + 5.6 * 86_400_000))).toMatchObject({ reminded: 0 }); // once
    expect(await runGracePeriods(new Date(since + (GRACE_PERIOD_DAYS + 0.1) * 86_400_000))).toMatchObject({ ended: 1 });
    const all = (await w.smtp.waitForMessages(mails + 3)).slice(mails).map((m) => m.subject);
    expect(all).toEqual(['Your ARB payment failed', expect.stringMatching(/^Your ARB plan ends on /), 'Your ARB organisation is on the Free plan now']);

    // The Free plan's limits, at the real time too (the grace period is over for the clock of this check only: the
    // stored start is moved back, as time would have).
    await (await getDb()).updateTable('orgs').set({ past_due_since: new Date(Date.now() - (GRACE_PERIOD_DAYS + 1) * 86_400_000) }).where('id', '=', owner.orgId).execute();
    const db = await getDb();
    const freeBilling = await billing(owner);
    expect(freeBilling.plan).toBe('free');
    expect(freeBilling.items.apps.map((a) => a.paused)).toEqual([false, true]);
    expect(freeBilling.items.channels.map((c) => c.paused)).toEqual([false, true]);
    const pausedChannel = await db.selectFrom('destinations').select(['status', 'disabled_cause']).where('id', '=', channels[1]).executeTakeFirstOrThrow();
    expect(pausedChannel).toEqual({ status: 'paused', disabled_cause: 'plan_limit' });
    // Nothing deleted.
    expect(await db.selectFrom('org_apps').select('app_key').where('org_id', '=', owner.orgId).execute()).toHaveLength(2);
    expect(await db.selectFrom('destinations').select('id').where('org_id', '=', owner.orgId).execute()).toHaveLength(2);

    // The card works again: the plan and everything paused come back.
    stripe.setSubscription(subId, { status: 'active' });
    expect((await deliver(stripe.signedEvent('invoice.paid', stripe.invoice(subId, true)))).status).toBe(200);
    expect(await orgRow(owner.orgId)).toMatchObject({ plan_status: 'active', past_due_since: null, grace_notice: null });
    const restored = await billing(owner);
    expect(restored.plan).toBe('startup');
    expect([...restored.items.apps, ...restored.items.channels].every((i) => !i.paused)).toBe(true);
    expect(await db.selectFrom('destinations').select('status').where('id', '=', channels[1]).executeTakeFirstOrThrow()).toEqual({ status: 'active' });
  });

  test('downgrade: the owner chooses which apps and channels stay active; the rest are paused, nothing is deleted', async () => {
    const owner = await newOwner('downgrade');
    const subId = await subscribe(owner, 'startup');
    const apps = [newIosApp(w).appId, newIosApp(w).appId];
    for (const a of apps) expect((await addApp(owner, a)).status).toBe(201);
    const channels: string[] = [];
    for (const a of apps) channels.push((await connect(owner, a)).json.data.destination_id);

    // Cancelled in the portal: the Free plan, the first app and channel kept active for now.
    stripe.setSubscription(subId, { status: 'canceled' });
    expect((await deliver(stripe.signedEvent('customer.subscription.deleted', stripe.subscriptions.get(subId)!))).status).toBe(200);
    const b = await billing(owner);
    expect(b.plan).toBe('free');
    const [first, second] = b.items.apps.map((a) => a.app_key);
    expect(b.items.apps.map((a) => a.paused)).toEqual([false, true]);

    // The owner keeps the second app and the second channel instead.
    const choose = (u: SignedInUser, body: unknown) => call<{ paused: { apps: string[]; channels: string[] }; resumed: { apps: string[]; channels: string[] } }>(w.api, 'PUT', '/api/v1/org/billing/active', body, as(u));
    const r = await choose(owner, { apps: [second], channels: [channels[1]] });
    expect(r.status, r.text).toBe(200);
    expect(r.json.data).toEqual({ paused: { apps: [first], channels: [channels[0]] }, resumed: { apps: [second], channels: [channels[1]] } });
    const after = await billing(owner);
    expect(after.items.apps).toEqual([expect.objectContaining({ app_key: first, paused: true }), expect.objectContaining({ app_key: second, paused: false })]);
    expect(after.items.channels.map((c) => [c.id, c.paused])).toEqual([
      [channels[0], true],
      [channels[1], false],
    ]);
    const listed = await call<Array<{ key: string; paused: boolean }>>(w.api, 'GET', '/api/v1/org/apps', undefined, as(owner));
    expect(listed.json.data.map((a) => [a.key, a.paused]).sort()).toEqual([
      [first, true],
      [second, false],
    ]);
    // A paused app's sources stop for this organisation (nothing else wants them), its reviews and channels stay.
    const db = await getDb();
    const sources = await db.selectFrom('monitored_sources').select('status').where('app_key', '=', first).execute();
    expect(sources.length).toBeGreaterThan(0);
    expect(sources.every((s) => s.status === 'idle')).toBe(true);
    expect(await db.selectFrom('destinations').select('id').where('org_id', '=', owner.orgId).execute()).toHaveLength(2);

    // More than the plan allows is 402 naming the plan; an unknown app 400; an admin 403.
    const tooMany = await choose(owner, { apps: [first, second], channels: [] });
    expect(tooMany.status).toBe(402);
    expect(tooMany.json.error.message).toBe('Your Free plan allows 1 app. Upgrade to Startup for 3 apps.');
    expect((await choose(owner, { apps: ['apple_app_store__1'], channels: [] })).status).toBe(400);
    const admin = await memberOf(owner, 'admin');
    expect((await choose(admin, { apps: [first], channels: [] })).status).toBe(403);

    // Subscribing again resumes everything at once.
    await subscribe(owner, 'startup');
    const upgraded = await billing(owner);
    expect(upgraded.plan).toBe('startup');
    expect([...upgraded.items.apps, ...upgraded.items.channels].every((i) => !i.paused)).toBe(true);
  });
});
