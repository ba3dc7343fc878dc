// Billing calls: 503 with a clear message when Stripe is not configured; with STRIPE_SECRET_KEY, Checkout and the
// customer portal through a loopback Stripe that speaks Stripe's formats.
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { getDb } from '@/server/db/client';
import { accessTokenFor, billingTokenFor } from '../helpers/session';
import { startApiWorld, type ApiWorld } from '../helpers/apiWorld';
import { call } from '../helpers/request';
import { startFakeStripe, type FakeStripe } from '../fakes/stripe';

let w: ApiWorld;
let stripe: FakeStripe;
const APP_URL = 'https://arb.example';
/** Over the file's own settings (no Stripe): Stripe configured, pointing at the loopback one. */
let configured: Record<string, string | undefined>;

const owner = { userId: 'usr_owner', orgId: 'org_ABCDEFGHIJKLMNOPQRSTUVWX', email: 'owner@example.com' };
let fullToken: string;
let billingToken: string;

beforeAll(async () => {
  stripe = await startFakeStripe({
    secretKey: 'sk_test_arb',
    prices: [
      { id: 'price_pro_monthly', type: 'recurring' },
      { id: 'price_lifetime', type: 'one_time' },
      { id: 'price_retired', type: 'recurring', active: false },
      { id: 'price_business_monthly', type: 'recurring' },
    ],
    customers: [{ id: 'cus_123', email: 'owner@example.com' }],
  });
  configured = { STRIPE_SECRET_KEY: 'sk_test_arb', STRIPE_API_BASE_URL: stripe.url };
  w = await startApiWorld({ APP_URL, STRIPE_SECRET_KEY: undefined, STRIPE_PRICE_STARTUP: undefined, STRIPE_PRICE_BUSINESS: undefined, STRIPE_PRICE_ENTERPRISE: undefined }, () => stripe.close());
  fullToken = await accessTokenFor(owner);
  billingToken = await billingTokenFor(owner);
});
afterEach(() => {
  w.setEnv();
});
afterAll(() => w.close());

describe('without STRIPE_SECRET_KEY', () => {
  test.each([
    ['/api/v1/org/billing/purchase', { price_id: 'price_pro_monthly' }, () => billingToken],
    ['/api/v1/stripe/quick-pay', { price_id: 'price_pro_monthly' }, () => billingToken],
    ['/api/v1/stripe/portal', {}, () => fullToken],
  ])('%s → 503 "Billing is not configured on this server."', async (route, body, token) => {
    const r = await call(w.api, 'POST', route, body, { token: token() });
    expect(r.status).toBe(503);
    expect(r.json.error).toEqual({ code: 'unavailable', message: 'Billing is not configured on this server.' });
    expect(stripe.requests).toHaveLength(0);
  });
});

describe('with Stripe configured', () => {
  test('purchase → a Checkout session for the org, in subscription mode for a recurring price', async () => {
    w.setEnv(configured);
    const r = await call<{ url: string }>(w.api, 'POST', '/api/v1/org/billing/purchase', { price_id: 'price_pro_monthly', referral_code: 'aff_7', plan_label: 'Pro' }, { token: billingToken });
    expect(r.status).toBe(200);
    const session = stripe.sessions.at(-1)!;
    expect(r.json.data).toEqual({ url: session.url });
    expect(Object.fromEntries(session.form)).toMatchObject({
      mode: 'subscription',
      'line_items[0][price]': 'price_pro_monthly',
      'line_items[0][quantity]': '1',
      customer_email: 'owner@example.com',
      client_reference_id: owner.orgId,
      'metadata[org_id]': owner.orgId,
      'metadata[referral_code]': 'aff_7',
      success_url: `${APP_URL}/dashboard/billing?checkout=success`,
      cancel_url: `${APP_URL}/dashboard/billing`,
      'subscription_data[metadata][org_id]': owner.orgId,
      'subscription_data[metadata][referral_code]': 'aff_7',
    });
    const checkout = stripe.requests.find((q) => q.path === '/v1/checkout/sessions')!;
    expect(checkout.headers.authorization).toBe('Bearer sk_test_arb');
    expect(checkout.headers['content-type']).toMatch(/application\/x-www-form-urlencoded/);
  });

  test('a full token works for purchase too; a one-time price uses payment mode', async () => {
    w.setEnv(configured);
    const r = await call(w.api, 'POST', '/api/v1/org/billing/purchase', { price_id: 'price_lifetime' }, { token: fullToken });
    expect(r.status).toBe(200);
    expect(stripe.sessions.at(-1)!.form.get('mode')).toBe('payment');
  });

  test.each([
    ['an unknown price', 'price_nope', 404],
    ['an inactive price', 'price_retired', 404],
  ])('%s → %s with a message', async (_label, priceId, status) => {
    w.setEnv(configured);
    const r = await call(w.api, 'POST', '/api/v1/org/billing/purchase', { price_id: priceId }, { token: billingToken });
    expect(r.status).toBe(status);
    expect(r.json.error.message).toBe('That plan does not exist. Pick a plan on the pricing page.');
  });

  test('a paid plan of the catalogue names its price on this server (STRIPE_PRICE_*), for the subscribe page and the dashboard', async () => {
    w.setEnv({ ...configured, STRIPE_PRICE_BUSINESS: 'price_business_monthly' });
    const r = await call(w.api, 'POST', '/api/v1/org/billing/purchase', { price_id: 'business' }, { token: billingToken });
    expect(r.status, r.text).toBe(200);
    expect(Object.fromEntries(stripe.sessions.at(-1)!.form)).toMatchObject({ mode: 'subscription', 'line_items[0][price]': 'price_business_monthly', client_reference_id: owner.orgId });

    const unpriced = await call(w.api, 'POST', '/api/v1/org/billing/purchase', { price_id: 'startup' }, { token: billingToken });
    expect(unpriced.status).toBe(404);
    expect(unpriced.json.error.message).toBe('The startup plan cannot be bought on this server yet. Contact us to subscribe.');
  });

  test('only the owner changes the plan: an admin’s signed-in purchase is 403 and Stripe is not asked', async () => {
    w.setEnv(configured);
    const db = await getDb();
    const admin = { userId: 'usr_billing_admin', orgId: owner.orgId, email: 'admin@example.com' };
    const token = await accessTokenFor(admin);
    await db.updateTable('users').set({ role: 'admin' }).where('id', '=', admin.userId).execute();
    const before = stripe.requests.length;
    const r = await call(w.api, 'POST', '/api/v1/org/billing/purchase', { price_id: 'price_pro_monthly' }, { token });
    expect(r.status).toBe(403);
    expect(r.json.error.message).toBe('Only the owner of this organisation can change the plan. You are an admin.');
    expect(stripe.requests.length).toBe(before);
  });

  test('purchase needs a token', async () => {
    w.setEnv(configured);
    expect((await call(w.api, 'POST', '/api/v1/org/billing/purchase', { price_id: 'price_pro_monthly' })).status).toBe(401);
  });

  test('a wrong Stripe key is our problem: 502, not the caller’s', async () => {
    w.setEnv({ ...configured, STRIPE_SECRET_KEY: 'sk_test_wrong' });
    const r = await call(w.api, 'POST', '/api/v1/org/billing/purchase', { price_id: 'price_pro_monthly' }, { token: billingToken });
    expect(r.status).toBe(502);
    expect(r.json.error.message).toBe('The payment provider could not handle this request. Try again later.');
  });

  test('Stripe unreachable → 502 with a message', async () => {
    const down = await startFakeStripe({ secretKey: 'sk_test_arb', prices: [] });
    await down.close();
    w.setEnv({ ...configured, STRIPE_API_BASE_URL: down.url });
    const r = await call(w.api, 'POST', '/api/v1/org/billing/purchase', { price_id: 'price_pro_monthly' }, { token: billingToken });
    expect(r.status).toBe(502);
    expect(r.json.error.message).toBe('The payment provider did not answer. Try again in a minute.');
  });

  test('quick-pay works without an account, with the e-mail given', async () => {
    w.setEnv(configured);
    const r = await call<{ url: string }>(w.api, 'POST', '/api/v1/stripe/quick-pay', { price_id: 'price_pro_monthly', email: 'Visitor@Example.com' });
    expect(r.status).toBe(200);
    const form = stripe.sessions.at(-1)!.form;
    expect(form.get('customer_email')).toBe('visitor@example.com');
    expect(form.get('client_reference_id')).toBeNull();
    expect(form.get('cancel_url')).toBe(`${APP_URL}/pricing`);
  });

  test('portal → a Stripe portal session for the account’s customer', async () => {
    w.setEnv(configured);
    const r = await call<{ url: string }>(w.api, 'POST', '/api/v1/stripe/portal', {}, { token: fullToken });
    expect(r.status).toBe(200);
    expect(r.json.data.url).toMatch(/^https:\/\/billing\.stripe\.com\/p\/session\//);
    const portal = stripe.requests.filter((q) => q.path === '/v1/billing_portal/sessions').at(-1)!;
    expect(new URLSearchParams(portal.body).get('customer')).toBe('cus_123');
    expect(new URLSearchParams(portal.body).get('return_url')).toBe(`${APP_URL}/dashboard/billing`);
  });

  test('a billing-only token (anyone with the org id can get one) cannot open the portal: 403, and Stripe is not asked', async () => {
    w.setEnv(configured);
    const before = stripe.requests.length;
    const r = await call(w.api, 'POST', '/api/v1/stripe/portal', {}, { token: billingToken });
    expect(r.status).toBe(403);
    expect(r.json.error.message).toBe('This token is limited to billing and cannot be used here.');
    expect(stripe.requests.length).toBe(before);
  });

  test('the portal refuses a token whose session was logged out', async () => {
    w.setEnv(configured);
    const token = await accessTokenFor(owner);
    expect((await call(w.api, 'POST', '/api/v1/auth/logout', {}, { token })).status).toBe(200);
    const r = await call(w.api, 'POST', '/api/v1/stripe/portal', {}, { token });
    expect(r.status).toBe(401);
  });

  test('portal for an account that never paid → 404 with a message', async () => {
    w.setEnv(configured);
    const token = await accessTokenFor({ userId: 'usr_new', orgId: 'org_ZZZZZZZZZZZZZZZZZZZZZZZZ', email: 'new@example.com' });
    const r = await call(w.api, 'POST', '/api/v1/stripe/portal', {}, { token });
    expect(r.status).toBe(404);
    expect(r.json.error.message).toBe('There is no subscription for this organisation yet. Choose a plan first.');
  });

  test.each([
    [{}, /^price_id: /],
    [{ price_id: 'price with spaces' }, /^price_id: price_id must be a Stripe price id/],
    [{ price_id: 5 }, /^price_id: /],
  ])('purchase refuses %j', async (body, message) => {
    w.setEnv(configured);
    const r = await call(w.api, 'POST', '/api/v1/org/billing/purchase', body, { token: billingToken });
    expect(r.status).toBe(400);
    expect(r.json.error.message).toMatch(message);
  });
});
