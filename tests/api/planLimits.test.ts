// The plan's limits enforced where things are made, through the real routes and a real database (PGlite and
// PostgreSQL), with billing on: one app, channel or API key more than the plan allows is a 402 `plan_limit` naming the
// limit and the plan that lifts it, and nothing is made; upgrading lifts it at once; a connection to a channel the
// organisation already has takes no new place; resuming a paused channel takes one; without billing nothing is refused.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { getDb } from '@/server/db/client';
import { memberOf, newOwner, type SignedInUser } from '../helpers/orgs';
import { call } from '../helpers/request';
import { newIosApp, newIp, payloadFor, startConnectWorld, type ConnectWorld } from './support/connectWorld';

let w: ConnectWorld;
const BILLING_ON = { STRIPE_SECRET_KEY: 'sk_test_limits', SELF_HOSTED_PLAN: 'unlimited' };
beforeAll(async () => {
  w = await startConnectWorld(BILLING_ON);
}, 60_000);
afterAll(() => w.close());

const as = (u: SignedInUser) => ({ token: u.token, ip: newIp() });
const setPlan = async (orgId: string, plan: string, status = 'active') =>
  (await getDb()).updateTable('orgs').set({ plan, plan_status: status }).where('id', '=', orgId).execute();

const addApp = (u: SignedInUser, appId: string) => call(w.api, 'POST', '/api/v1/org/apps', { app_id: appId, app_store: 'apple_app_store' }, as(u));
const connect = (u: SignedInUser, appId: string, webhook: string) =>
  call<{ destination_id: string }>(w.api, 'POST', '/api/v1/oauth/platform/connect', { platform: 'slack', payload: payloadFor({ app_id: appId, webhook_url: webhook }) }, as(u));
const count = async (table: 'org_apps' | 'destinations' | 'api_keys', orgId: string) =>
  Number((await (await getDb()).selectFrom(table).select((e) => e.fn.countAll<number>().as('n')).where('org_id', '=', orgId).executeTakeFirstOrThrow()).n);

describe('limits with billing on', () => {
  test('apps: Free allows one; the second is 402 naming Startup, until the organisation upgrades', async () => {
    const owner = await newOwner('applimit');
    const first = newIosApp(w);
    expect((await addApp(owner, first.appId)).status).toBe(201);
    // Adding the same app again (new storefronts) takes no new place.
    expect((await addApp(owner, first.appId)).status).toBe(200);

    const second = newIosApp(w);
    const refused = await addApp(owner, second.appId);
    expect(refused.status).toBe(402);
    expect(refused.json.error).toEqual({ code: 'plan_limit', message: 'Your Free plan allows 1 app. Upgrade to Startup for 3 apps.' });
    expect(await count('org_apps', owner.orgId)).toBe(1);

    await setPlan(owner.orgId, 'startup');
    expect((await addApp(owner, second.appId)).status).toBe(201);
    // A canceled subscription has the Free plan's limits again.
    await setPlan(owner.orgId, 'startup', 'canceled');
    expect((await addApp(owner, newIosApp(w).appId)).status).toBe(402);
  });

  test('channels: Free allows one; reconnecting it is fine, a second is 402; resuming a paused one takes a place', async () => {
    const owner = await newOwner('chanlimit');
    const app = newIosApp(w);
    const hook = w.chat.hook('slack').url;
    const first = await connect(owner, app.appId, hook);
    expect(first.status, first.text).toBe(200);
    expect((await connect(owner, app.appId, hook)).json.data.destination_id).toBe(first.json.data.destination_id);

    const refused = await connect(owner, app.appId, w.chat.hook('slack').url);
    expect(refused.status).toBe(402);
    expect(refused.json.error).toEqual({ code: 'plan_limit', message: 'Your Free plan allows 1 channel. Upgrade to Startup for 5 channels.' });
    expect(await count('destinations', owner.orgId)).toBe(1);

    // Paused, it no longer takes the place: another channel fits, and then the paused one cannot come back.
    const paused = await call(w.api, 'PATCH', `/api/v1/org/destinations/${first.json.data.destination_id}`, { paused: true }, as(owner));
    expect(paused.status, paused.text).toBe(200);
    expect((await connect(owner, app.appId, w.chat.hook('slack').url)).status).toBe(200);
    const resume = await call(w.api, 'PATCH', `/api/v1/org/destinations/${first.json.data.destination_id}`, { paused: false }, as(owner));
    expect(resume.status).toBe(402);
    expect(resume.json.error.code).toBe('plan_limit');
  });

  test('API keys: not in Free or Startup (402 naming Business), unlimited on Business', async () => {
    const owner = await newOwner('keylimit');
    const admin = await memberOf(owner, 'admin');
    const refused = await call(w.api, 'POST', '/api/v1/org/api-keys', { name: 'CI' }, as(admin));
    expect(refused.status).toBe(402);
    expect(refused.json.error).toEqual({ code: 'plan_limit', message: 'Your Free plan does not include API keys. Upgrade to Business for unlimited API keys.' });
    await setPlan(owner.orgId, 'startup');
    expect((await call(w.api, 'POST', '/api/v1/org/api-keys', { name: 'CI' }, as(admin))).json.error.message).toBe(
      'Your Startup plan does not include API keys. Upgrade to Business for unlimited API keys.',
    );
    expect(await count('api_keys', owner.orgId)).toBe(0);
    await setPlan(owner.orgId, 'business');
    for (const name of ['CI', 'Zapier']) expect((await call(w.api, 'POST', '/api/v1/org/api-keys', { name }, as(admin))).status).toBe(201);
  });
});

describe('limits without billing', () => {
  test('SELF_HOSTED_PLAN=free refuses with the operator named; the default (unlimited) never refuses', async () => {
    w.setEnv({ STRIPE_SECRET_KEY: undefined, SELF_HOSTED_PLAN: 'free' });
    try {
      const owner = await newOwner('selflimit');
      expect((await addApp(owner, newIosApp(w).appId)).status).toBe(201);
      const refused = await addApp(owner, newIosApp(w).appId);
      expect(refused.status).toBe(402);
      expect(refused.json.error.message).toBe('Your Free plan allows 1 app. This server’s operator sets the plan.');

      w.setEnv({ STRIPE_SECRET_KEY: undefined, SELF_HOSTED_PLAN: undefined });
      for (let i = 0; i < 2; i++) expect((await addApp(owner, newIosApp(w).appId)).status).toBe(201);
      expect((await call(w.api, 'POST', '/api/v1/org/api-keys', { name: 'CI' }, as(owner))).status).toBe(201);
    } finally {
      w.setEnv({});
    }
  });
});
