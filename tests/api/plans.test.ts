// Plans and usage through the real routes and a real database (PGlite and PostgreSQL): GET v1/org answers the plan's
// limits and what the organisation uses of them; GET v1/org/billing is for admins and owners; a server without
// STRIPE_SECRET_KEY gives every organisation SELF_HOSTED_PLAN (unlimited unless set); with billing on, an organisation
// has its stored plan while its subscription is in good standing and Free otherwise.
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { getDb } from '@/server/db/client';
import { createDestination } from '@/server/monitor/service';
import { addAskArbQuestion, usageMonth } from '@/server/plans/data';
import { PLANS, UNLIMITED } from '@/shared/plans';
import { startApiWorld, type ApiWorld } from '../helpers/apiWorld';
import { memberOf, newOwner, type SignedInUser } from '../helpers/orgs';
import { billingTokenFor } from '../helpers/session';
import { call } from '../helpers/request';

let w: ApiWorld;
beforeAll(async () => {
  w = await startApiWorld({ STRIPE_SECRET_KEY: undefined, SELF_HOSTED_PLAN: undefined, STRIPE_PRICE_STARTUP: undefined, STRIPE_PRICE_BUSINESS: undefined, STRIPE_PRICE_ENTERPRISE: undefined });
});
afterEach(() => w.setEnv());
afterAll(() => w.close());

const BILLING_ON = { STRIPE_SECRET_KEY: 'sk_test_plans', STRIPE_PRICE_BUSINESS: 'price_business_monthly' };
const limitsOf = (id: string) => PLANS.find((p) => p.id === id)!.limits;

type OrgAnswer = { plan: string; plan_name: string; usage: Record<string, number>; limits: Record<string, number | null>; features: Record<string, boolean> };
type BillingAnswer = OrgAnswer & { billing_enabled: boolean; status: string; current_period_end: string | null; can_manage: boolean; purchasable: string[] };

const getOrg = (u: SignedInUser) => call<OrgAnswer>(w.api, 'GET', '/api/v1/org', undefined, { token: u.token });
const getBilling = (token: string) => call<BillingAnswer>(w.api, 'GET', '/api/v1/org/billing', undefined, { token });

let n = 0;
const appId = () => String(1_300_000_000 + Math.floor(Math.random() * 1e8) + ++n);

async function addOrgApp(orgId: string) {
  const id = appId();
  const key = `apple_app_store__${id}`;
  const db = await getDb();
  await db.insertInto('apps').values({ key, store: 'apple_app_store', app_id: id, title: `App ${id}`, icon_url: null, store_url: null, developer: null }).execute();
  await db.insertInto('org_apps').values({ org_id: orgId, app_key: key, countries: ['us'], added_by: null, added_by_email: null }).execute();
}

async function addChannel(orgId: string) {
  const d = await createDestination({
    orgId,
    platform: 'slack',
    url: `https://hooks.slack.com/services/T00000000/B${String(++n).padStart(8, '0')}/${'X'.repeat(24)}`,
    apps: [{ store: 'apple_app_store', appId: appId(), title: 'Channel app' }],
    welcomeCount: 0,
  });
  return d.id;
}

async function setPlan(orgId: string, plan: string, status = 'active', periodEnd: Date | null = null) {
  await (await getDb()).updateTable('orgs').set({ plan, plan_status: status, current_period_end: periodEnd }).where('id', '=', orgId).execute();
}

describe('GET v1/org: usage and limits', () => {
  test('counts apps, channels that deliver, members, live API keys and this month’s Ask ARB questions', async () => {
    const owner = await newOwner('usage');
    await memberOf(owner, 'member');
    await addOrgApp(owner.orgId);
    await addOrgApp(owner.orgId);
    await addChannel(owner.orgId);
    const paused = await addChannel(owner.orgId);
    await (await getDb()).updateTable('destinations').set({ status: 'paused' }).where('id', '=', paused).execute();
    const key = await call<{ id: string }>(w.api, 'POST', '/api/v1/org/api-keys', { name: 'kept' }, { token: owner.token });
    const revoked = await call<{ id: string }>(w.api, 'POST', '/api/v1/org/api-keys', { name: 'revoked' }, { token: owner.token });
    expect([key.status, revoked.status]).toEqual([201, 201]);
    expect((await call(w.api, 'DELETE', `/api/v1/org/api-keys/${revoked.json.data.id}`, undefined, { token: owner.token })).status).toBe(200);

    const now = new Date();
    await addAskArbQuestion(owner.orgId, usageMonth(now));
    expect(await addAskArbQuestion(owner.orgId, usageMonth(now))).toBe(2);
    await addAskArbQuestion(owner.orgId, '2001-01'); // another month: not this one's use

    const r = await getOrg(owner);
    expect(r.status, r.text).toBe(200);
    // Apps: the two on the Apps page and the app the delivering channel posts (every watched app); the paused
    // channel's app is watched by nothing.
    expect(r.json.data.usage).toEqual({ apps: 3, channels: 1, members: 2, api_keys: 1, ask_arb_questions: 2, api_calls: 0 });
  });

  test('a new organisation uses nothing; another organisation’s things are not counted', async () => {
    const busy = await newOwner('busy');
    await addOrgApp(busy.orgId);
    await addChannel(busy.orgId);
    await addAskArbQuestion(busy.orgId, usageMonth(new Date()));
    const fresh = await newOwner('fresh');
    expect((await getOrg(fresh)).json.data.usage).toEqual({ apps: 0, channels: 0, members: 1, api_keys: 0, ask_arb_questions: 0, api_calls: 0 });
  });

  test('self-hosted (no STRIPE_SECRET_KEY): unlimited by default, whatever plan is stored', async () => {
    const owner = await newOwner('selfhosted');
    await setPlan(owner.orgId, 'free');
    const r = await getOrg(owner);
    expect(r.json.data).toMatchObject({ plan: 'unlimited', plan_name: 'Self-hosted', limits: UNLIMITED.limits, features: UNLIMITED.features });
  });

  test('self-hosted with SELF_HOSTED_PLAN=startup: every organisation has the Startup plan’s limits', async () => {
    w.setEnv({ SELF_HOSTED_PLAN: 'startup' });
    const owner = await newOwner('selfstartup');
    await setPlan(owner.orgId, 'enterprise');
    const r = await getOrg(owner);
    expect(r.json.data).toMatchObject({ plan: 'startup', plan_name: 'Startup', limits: limitsOf('startup') });
  });

  test('billing on: the stored plan while in good standing, Free once canceled or unpaid; SELF_HOSTED_PLAN is ignored', async () => {
    w.setEnv({ ...BILLING_ON, SELF_HOSTED_PLAN: 'enterprise' });
    const owner = await newOwner('billed');
    expect((await getOrg(owner)).json.data).toMatchObject({ plan: 'free', limits: limitsOf('free'), features: { api: false, replies: false } });
    for (const [status, plan] of [['active', 'business'], ['trialing', 'business'], ['past_due', 'business'], ['canceled', 'free'], ['unpaid', 'free'], ['incomplete', 'free']]) {
      await setPlan(owner.orgId, 'business', status);
      const r = await getOrg(owner);
      expect([status, r.json.data.plan], status).toEqual([status, plan]);
      expect(r.json.data.limits).toEqual(limitsOf(plan));
    }
    await setPlan(owner.orgId, 'gold');
    expect((await getOrg(owner)).json.data.plan).toBe('free');
  });
});

describe('GET v1/org/billing', () => {
  test('owners and admins read it, only owners may change it; members are refused with the role needed', async () => {
    w.setEnv(BILLING_ON);
    const owner = await newOwner('billrole');
    const admin = await memberOf(owner, 'admin');
    const member = await memberOf(owner, 'member');
    const end = new Date('2030-05-01T00:00:00.000Z');
    await setPlan(owner.orgId, 'business', 'active', end);
    await addOrgApp(owner.orgId);

    const mine = await getBilling(owner.token);
    expect(mine.status, mine.text).toBe(200);
    expect(mine.json.data).toEqual({
      billing_enabled: true,
      plan: 'business',
      plan_name: 'Business',
      status: 'active',
      current_period_end: end.toISOString(),
      usage: { apps: 1, channels: 0, members: 3, api_keys: 0, ask_arb_questions: 0, api_calls: 0 },
      limits: limitsOf('business'),
      features: PLANS.find((p) => p.id === 'business')!.features,
      can_manage: true,
      purchasable: ['business'],
      grace_ends_at: null,
      refused_subscriptions: [],
      items: { apps: [expect.objectContaining({ store: 'apple_app_store', paused: false })], channels: [] },
    });
    const admins = await getBilling(admin.token);
    expect(admins.status).toBe(200);
    expect(admins.json.data).toMatchObject({ plan: 'business', can_manage: false });

    const members = await getBilling(member.token);
    expect(members.status).toBe(403);
    expect(members.json.error.message).toBe('Only an admin or the owner of this organisation can see billing. You are a member.');
  });

  test('billing off: says so, self-hosted limits, nothing to buy, no renewal', async () => {
    const owner = await newOwner('billoff');
    await setPlan(owner.orgId, 'business', 'past_due', new Date('2030-01-01T00:00:00Z'));
    const r = await getBilling(owner.token);
    expect(r.status).toBe(200);
    expect(r.json.data).toMatchObject({ billing_enabled: false, plan: 'unlimited', status: 'active', current_period_end: null, purchasable: [], limits: UNLIMITED.limits });
  });

  test('without a session 401; a billing-only token (from a /subscribe link) cannot read it', async () => {
    expect((await call(w.api, 'GET', '/api/v1/org/billing')).status).toBe(401);
    const owner = await newOwner('billtoken');
    const r = await getBilling(await billingTokenFor(owner));
    expect(r.status).toBe(403);
  });
});
