// Money and limits at the organisation boundary, through the real routes, a real database (PGlite and PostgreSQL),
// the loopback Stripe that speaks Stripe's formats and the real SMTP fake:
// - a stale Checkout paid after another purchase never replaces the running subscription: it is refused, cancelled
//   through Stripe, the owner is e-mailed once and the Billing page says so; Checkout sessions expire after 31
//   minutes; a stored subscription Stripe says has ended is replaced (completion re-checks); two newcomers at once
//   keep exactly one (the two-process version: tests/worker/stripeTwoProcesses.test.ts);
// - the app limit counts every watched app: the Apps page's and those of the organisation's delivering channels; a
//   dashboard connection adds its app under the check, and so do a destination's `apps` and resuming it;
// - purchase and quick-pay act on the organisation the database says the caller is in, never the token's `org`
//   claim (a member moved from A to B, a removed member), and a /subscribe billing token only while its user still
//   owns its organisation.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { getDb } from '@/server/db/client';
import { CHECKOUT_EXPIRES_SECONDS } from '@/server/billing/checkout';
import { memberOf, newOwner, type SignedInUser } from '../helpers/orgs';
import { call } from '../helpers/request';
import { billingTokenFor, sessionFor } from '../helpers/session';
import { FAKE_WEBHOOK_SECRET, startFakeStripe, type FakeStripe } from '../fakes/stripe';
import { newIosApp, newIp, payloadFor, startConnectWorld, type ConnectWorld } from './support/connectWorld';

let w: ConnectWorld;
let stripe: FakeStripe;
const PRICES = { STRIPE_PRICE_STARTUP: 'price_startup_trust', STRIPE_PRICE_BUSINESS: 'price_business_trust' };

beforeAll(async () => {
  stripe = await startFakeStripe({
    secretKey: 'sk_test_trust',
    prices: [
      { id: 'price_startup_trust', type: 'recurring' },
      { id: 'price_business_trust', type: 'recurring' },
    ],
  });
  w = await startConnectWorld({ STRIPE_SECRET_KEY: 'sk_test_trust', STRIPE_API_BASE_URL: stripe.url, STRIPE_WEBHOOK_SECRET: FAKE_WEBHOOK_SECRET, APP_URL: 'http://arb.test', ...PRICES });
}, 60_000);
afterAll(async () => {
  await w.close();
  await stripe.close();
});

const as = (u: { token: string }) => ({ token: u.token, ip: newIp() });
const deliver = (e: { body: string; headers: Record<string, string> }) => call<{ received: true; duplicate?: true }>(w.api, 'POST', '/api/v1/stripe/webhook', undefined, { rawBody: e.body, headers: e.headers });
const purchase = (token: string, plan: 'startup' | 'business') => call<{ url: string }>(w.api, 'POST', '/api/v1/org/billing/purchase', { price_id: plan }, { token, ip: newIp() });
const orgRow = async (orgId: string) =>
  (await getDb()).selectFrom('orgs').select(['plan', 'plan_status', 'stripe_subscription_id', 'stripe_customer_id']).where('id', '=', orgId).executeTakeFirstOrThrow();
type Billing = { plan: string; usage: { apps: number }; refused_subscriptions: Array<{ plan_name: string | null; cancelled: boolean; message: string }> };
const billing = async (u: SignedInUser) => (await call<Billing>(w.api, 'GET', '/api/v1/org/billing', undefined, as(u))).json.data;
const lastSession = () => stripe.sessions.at(-1)!;
const setPlan = async (orgId: string, plan: string, status = 'active') => (await getDb()).updateTable('orgs').set({ plan, plan_status: status }).where('id', '=', orgId).execute();

/** The owner opens a Checkout for `plan` (not paid yet): the session's id. */
async function openCheckout(owner: SignedInUser, plan: 'startup' | 'business'): Promise<string> {
  const r = await purchase(owner.token, plan);
  expect(r.status, r.text).toBe(200);
  return lastSession().id;
}

/** The customer pays session `id`; Stripe reports it: the subscription made. */
async function pay(sessionId: string): Promise<string> {
  const completed = stripe.completeCheckout(sessionId);
  const r = await deliver(stripe.signedEvent('checkout.session.completed', completed));
  expect(r.status, r.text).toBe(200);
  return completed.subscription as string;
}

describe('a stale Checkout never replaces a running subscription', () => {
  test('Checkout sessions expire after 31 minutes, not Stripe’s 24 hours', async () => {
    const owner = await newOwner('expiry');
    const before = Math.floor(Date.now() / 1000);
    await openCheckout(owner, 'startup');
    const expiresAt = Number(lastSession().form.get('expires_at'));
    expect(CHECKOUT_EXPIRES_SECONDS).toBe(31 * 60);
    expect(expiresAt).toBeGreaterThanOrEqual(before + 31 * 60);
    expect(expiresAt).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 31 * 60);
  });

  test('a second tab paid later: the running subscription is kept, the newcomer cancelled through Stripe, the owner told once, the Billing page says so', async () => {
    const owner = await newOwner('stale');
    const staleTab = await openCheckout(owner, 'business');
    const paidTab = await openCheckout(owner, 'startup');
    const kept = await pay(paidTab);
    expect(await orgRow(owner.orgId)).toMatchObject({ plan: 'startup', plan_status: 'active', stripe_subscription_id: kept });

    const mailsBefore = w.smtp.messages.length;
    const newcomer = await pay(staleTab);
    expect(newcomer).not.toBe(kept);
    // Kept: the plan and subscription that were running.
    expect(await orgRow(owner.orgId)).toMatchObject({ plan: 'startup', plan_status: 'active', stripe_subscription_id: kept });
    // Cancelled through Stripe, with the unused time credited.
    expect(stripe.cancellations).toEqual([expect.objectContaining({ id: newcomer, fields: expect.objectContaining({ prorate: 'true' }) })]);
    expect(stripe.subscriptions.get(newcomer)!.status).toBe('canceled');
    expect(stripe.subscriptions.get(kept)!.status).toBe('active');
    const [mail] = await w.smtp.waitForMessages(mailsBefore + 1).then((all) => all.slice(mailsBefore));
    expect(mail.to).toContain(owner.email);
    expect(mail.subject).toBe('A second ARB subscription was cancelled');
    expect(mail.text).toMatch(/a second one for the Business plan was just started/);
    expect(mail.text).toMatch(/We kept the subscription you already had and cancelled the second one at once/);

    const b = await billing(owner);
    expect(b.plan).toBe('startup');
    expect(b.refused_subscriptions).toEqual([expect.objectContaining({ plan_name: 'Business', cancelled: true })]);
    expect(b.refused_subscriptions[0].message).toMatch(/^A second subscription for the Business plan was started on .+ while your subscription was running\. We kept the subscription you already had and cancelled the second one, so you are not billed twice\./);

    // Stripe's later news of the newcomer (created, deleted, its invoice) is never applied, and nobody is told twice.
    for (const type of ['customer.subscription.created', 'customer.subscription.deleted']) {
      expect((await deliver(stripe.signedEvent(type, stripe.subscriptions.get(newcomer)!))).status).toBe(200);
    }
    expect((await deliver(stripe.signedEvent('invoice.paid', stripe.invoice(newcomer, true)))).status).toBe(200);
    expect(await orgRow(owner.orgId)).toMatchObject({ plan: 'startup', stripe_subscription_id: kept });
    expect(stripe.cancellations).toHaveLength(1);
    expect(w.smtp.messages.length).toBe(mailsBefore + 1);
    stripe.cancellations.length = 0;
  });

  test('completion re-checks: a stored subscription that Stripe says has ended is replaced, nothing is cancelled', async () => {
    const owner = await newOwner('recheck');
    const staleTab = await openCheckout(owner, 'business');
    const first = await pay(await openCheckout(owner, 'startup'));
    // Cancelled in Stripe, and its event never arrived: our copy still says it runs.
    stripe.setSubscription(first, { status: 'canceled' });
    expect(await orgRow(owner.orgId)).toMatchObject({ plan_status: 'active', stripe_subscription_id: first });
    const second = await pay(staleTab);
    expect(await orgRow(owner.orgId)).toMatchObject({ plan: 'business', plan_status: 'active', stripe_subscription_id: second });
    expect(stripe.cancellations).toEqual([]);
    expect((await billing(owner)).refused_subscriptions).toEqual([]);
  });

  test('two newcomers at once for an organisation without one: exactly one is kept, the other cancelled', async () => {
    const owner = await newOwner('race');
    const tabs = [await openCheckout(owner, 'startup'), await openCheckout(owner, 'business')];
    const completed = tabs.map((id) => stripe.completeCheckout(id));
    const answers = await Promise.all(completed.map((c) => deliver(stripe.signedEvent('checkout.session.completed', c))));
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    const subs = completed.map((c) => c.subscription as string);
    const row = await orgRow(owner.orgId);
    expect(subs).toContain(row.stripe_subscription_id);
    const other = subs.find((s) => s !== row.stripe_subscription_id)!;
    expect(stripe.cancellations.map((c) => c.id)).toEqual([other]);
    expect(stripe.subscriptions.get(row.stripe_subscription_id!)!.status).toBe('active');
    stripe.cancellations.length = 0;
  });
});

describe('the app limit counts every watched app', () => {
  const key = (appId: string) => `apple_app_store__${appId}`;
  const addApp = (u: SignedInUser, appId: string) => call(w.api, 'POST', '/api/v1/org/apps', { app_id: appId, app_store: 'apple_app_store' }, as(u));
  const connect = (u: SignedInUser, appId: string, webhook = w.chat.hook('slack').url) =>
    call<{ destination_id: string }>(w.api, 'POST', '/api/v1/oauth/platform/connect', { platform: 'slack', payload: payloadFor({ app_id: appId, webhook_url: webhook }) }, as(u));
  const patch = (u: SignedInUser, id: string, body: Record<string, unknown>) => call(w.api, 'PATCH', `/api/v1/org/destinations/${id}`, body, as(u));
  const orgAppKeys = async (orgId: string) => (await (await getDb()).selectFrom('org_apps').select('app_key').where('org_id', '=', orgId).execute()).map((r) => r.app_key).sort();
  const destinationApps = async (id: string) => (await (await getDb()).selectFrom('destination_apps').select('app_key').where('destination_id', '=', id).execute()).map((r) => r.app_key).sort();
  const FREE_APPS = 'Your Free plan allows 1 app. Upgrade to Startup for 3 apps.';
  const STARTUP_APPS = 'Your Startup plan allows 3 apps. Upgrade to Business for 15 apps.';

  test('a dashboard connection adds its app under the limit: on Free, a connection then another app is 402, either way round', async () => {
    const owner = await newOwner('connectapp');
    const connected = newIosApp(w);
    const made = await connect(owner, connected.appId);
    expect(made.status, made.text).toBe(200);
    // The connection's app is the organisation's app: on the Apps page, counted.
    expect(await orgAppKeys(owner.orgId)).toEqual([key(connected.appId)]);
    expect((await billing(owner)).usage.apps).toBe(1);
    const refused = await addApp(owner, newIosApp(w).appId);
    expect(refused.status).toBe(402);
    expect(refused.json.error).toEqual({ code: 'plan_limit', message: FREE_APPS });
    // Adding the connected app on the Apps page takes no new place.
    expect((await addApp(owner, connected.appId)).status).toBe(200);

    const other = await newOwner('appthenconnect');
    const added = newIosApp(w);
    expect((await addApp(other, added.appId)).status).toBe(201);
    await setPlan(other.orgId, 'startup');
    const a2 = newIosApp(w);
    const a3 = newIosApp(w);
    expect((await addApp(other, a2.appId)).status).toBe(201);
    expect((await connect(other, a3.appId)).status).toBe(200);
    // Three watched apps: a channel for a fourth is refused and nothing is made…
    const fourth = await connect(other, newIosApp(w).appId);
    expect(fourth.status).toBe(402);
    expect(fourth.json.error).toEqual({ code: 'plan_limit', message: STARTUP_APPS });
    expect(await orgAppKeys(other.orgId)).toHaveLength(3);
    // …while another channel for an app it watches takes no app place.
    expect((await connect(other, added.appId)).status).toBe(200);
  });

  test('a channel’s apps count even when the Apps page no longer lists them; a PATCH of apps and a resume take places', async () => {
    const owner = await newOwner('patchapps');
    await setPlan(owner.orgId, 'business');
    const [a, b, c, d] = [newIosApp(w), newIosApp(w), newIosApp(w), newIosApp(w)];
    expect((await addApp(owner, a.appId)).status).toBe(201);
    expect((await addApp(owner, b.appId)).status).toBe(201);
    const onC = (await connect(owner, c.appId)).json.data.destination_id;
    const onD = (await connect(owner, d.appId)).json.data.destination_id;
    // D leaves the Apps page; its channel still posts it, so it is still watched and counted.
    expect((await call(w.api, 'DELETE', `/api/v1/org/apps/${key(d.appId)}`, undefined, as(owner))).status).toBe(200);
    expect((await billing(owner)).usage.apps).toBe(4);
    // Paused, D's channel watches nothing: three apps are watched.
    expect((await patch(owner, onD, { paused: true })).status).toBe(200);
    expect((await billing(owner)).usage.apps).toBe(3);

    await setPlan(owner.orgId, 'startup');
    const moved = await patch(owner, onC, { apps: [key(c.appId), key(d.appId)] });
    expect(moved.status, moved.text).toBe(402);
    expect(moved.json.error).toEqual({ code: 'plan_limit', message: STARTUP_APPS });
    expect(await destinationApps(onC)).toEqual([key(c.appId)]);
    const resumed = await patch(owner, onD, { paused: false });
    expect(resumed.status).toBe(402);
    expect(resumed.json.error).toEqual({ code: 'plan_limit', message: STARTUP_APPS });
    // Apps it watches already are always fine.
    expect((await patch(owner, onC, { apps: [key(c.appId), key(a.appId)] })).status).toBe(200);
  });
});

describe('purchase and quick-pay act on the membership, not the token', () => {
  const quickPay = (token: string) => call<{ url: string }>(w.api, 'POST', '/api/v1/stripe/quick-pay', { price_id: 'price_startup_trust' }, { token, ip: newIp() });
  const checkoutOrg = () => lastSession().form.get('client_reference_id');

  test('a member moved from A to B whose access token still says A buys for B; A is never billed', async () => {
    const a = await newOwner('orga');
    const b = await newOwner('orgb');
    const mover = await memberOf(a, 'admin', 'mover');
    // Moved into B and made its owner, while the access token they hold was signed for A.
    await (await getDb()).updateTable('users').set({ org_id: b.orgId, role: 'owner' }).where('id', '=', mover.userId).execute();
    const r = await purchase(mover.token, 'startup');
    expect(r.status, r.text).toBe(200);
    expect(checkoutOrg()).toBe(b.orgId);
    expect(lastSession().form.get('metadata[org_id]')).toBe(b.orgId);
    expect((await quickPay(mover.token)).status).toBe(200);
    expect(checkoutOrg()).toBe(b.orgId);
    expect(lastSession().form.get('customer_email')).toBe(mover.email);
    // A's own owner still buys for A.
    expect((await purchase(a.token, 'startup')).status).toBe(200);
    expect(checkoutOrg()).toBe(a.orgId);
  });

  test('a removed member acts on their own new organisation only', async () => {
    const a = await newOwner('removing');
    const removed = await memberOf(a, 'admin', 'removed');
    expect((await call(w.api, 'DELETE', `/api/v1/org/members/${removed.userId}`, undefined, as(a))).status).toBe(200);
    // Their old token is revoked with the removal; a new sign-in is in their own organisation.
    expect((await purchase(removed.token, 'startup')).status).toBe(401);
    const own = (await (await getDb()).selectFrom('users').select(['org_id', 'role']).where('id', '=', removed.userId).executeTakeFirstOrThrow());
    expect(own.org_id).not.toBe(a.orgId);
    const { authToken } = await sessionFor({ userId: removed.userId, orgId: a.orgId, email: removed.email });
    expect((await purchase(authToken, 'startup')).status).toBe(200);
    expect(checkoutOrg()).toBe(own.org_id);
    expect((await quickPay(authToken)).status).toBe(200);
    expect(checkoutOrg()).toBe(own.org_id);
  });

  test('a /subscribe billing token buys for its organisation only while its user still owns it', async () => {
    const owner = await newOwner('billtoken');
    const token = await billingTokenFor(owner);
    expect((await purchase(token, 'startup')).status).toBe(200);
    expect(checkoutOrg()).toBe(owner.orgId);
    // Demoted (another person owns the organisation now): the link is dead.
    const next = await memberOf(owner, 'admin', 'newowner');
    const db = await getDb();
    await db.updateTable('users').set({ role: 'owner' }).where('id', '=', next.userId).execute();
    await db.updateTable('users').set({ role: 'admin' }).where('id', '=', owner.userId).execute();
    const sessionsBefore = stripe.sessions.length;
    const demoted = await purchase(token, 'startup');
    expect(demoted.status).toBe(401);
    expect(demoted.json.error.message).toBe('This billing link has expired. Ask for a new one.');
    // Moved to another organisation: dead too.
    const elsewhere = await newOwner('elsewhere');
    await db.updateTable('users').set({ role: 'owner', org_id: elsewhere.orgId }).where('id', '=', owner.userId).execute();
    expect((await purchase(token, 'startup')).status).toBe(401);
    expect(stripe.sessions.length).toBe(sessionsBefore);
  });
});
