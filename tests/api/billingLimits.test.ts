// The plan's limits where the count could be dodged, through the real routes and a real database (PGlite and
// PostgreSQL), billing on: concurrent creations cannot both take the last place; members count open invitations and
// are checked again when one is accepted; connections made without an account count against the organisation that
// claims them (what goes over is paused, the sign-in is never refused); a paused app is neither polled for the
// organisation nor delivered to its channels.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { getDb } from '@/server/db/client';
import { drainDeliveries, pollAppNow } from '@/server/monitor/service';
import { planById } from '@/shared/plans';
import { signInWithCode } from '../helpers/emailSignIn';
import { claimCookieHeader } from '../helpers/claimCookie';
import { newOwner, memberOf, type SignedInUser } from '../helpers/orgs';
import { call } from '../helpers/request';
import { marker, markersIn, newIosApp, newIp, payloadFor, startConnectWorld, type ConnectWorld } from './support/connectWorld';

let w: ConnectWorld;
beforeAll(async () => {
  w = await startConnectWorld({ STRIPE_SECRET_KEY: 'sk_test_limits2', SELF_HOSTED_PLAN: 'unlimited' });
}, 60_000);
afterAll(() => w.close());

const as = (u: SignedInUser) => ({ token: u.token, ip: newIp() });
const setPlan = async (orgId: string, plan: string) => (await getDb()).updateTable('orgs').set({ plan, plan_status: 'active' }).where('id', '=', orgId).execute();
const addApp = (u: SignedInUser, appId: string) => call(w.api, 'POST', '/api/v1/org/apps', { app_id: appId, app_store: 'apple_app_store' }, as(u));
const count = async (table: 'org_apps' | 'destinations', orgId: string) =>
  Number((await (await getDb()).selectFrom(table).select((e) => e.fn.countAll<number>().as('n')).where('org_id', '=', orgId).executeTakeFirstOrThrow()).n);

test('concurrent creations: of six apps added at once on the Free plan, exactly one is made', async () => {
  const owner = await newOwner('race');
  const apps = Array.from({ length: 6 }, () => newIosApp(w).appId);
  const answers = await Promise.all(apps.map((a) => addApp(owner, a)));
  expect(answers.map((r) => r.status).sort()).toEqual([201, 402, 402, 402, 402, 402]);
  expect(await count('org_apps', owner.orgId)).toBe(1);
});

test('concurrent creations: of five channels connected at once on the Free plan, exactly one is made', async () => {
  const owner = await newOwner('chanrace');
  const apps = Array.from({ length: 5 }, () => newIosApp(w).appId);
  const answers = await Promise.all(
    apps.map((a) => call(w.api, 'POST', '/api/v1/oauth/platform/connect', { platform: 'slack', payload: payloadFor({ app_id: a, webhook_url: w.chat.hook('slack').url }) }, as(owner))),
  );
  expect(answers.map((r) => r.status).sort()).toEqual([200, 402, 402, 402, 402]);
  expect(await count('destinations', owner.orgId)).toBe(1);
});

describe('members', () => {
  // Every plan of the catalogue has unlimited members today; the check is exercised with a Free plan of two.
  const free = planById('free')!;
  const catalogued = free.limits.members;
  beforeAll(() => void (free.limits.members = 2));
  afterAll(() => void (free.limits.members = catalogued));

  test('open invitations count at invitation; inviting the same address again replaces its invitation', async () => {
    const owner = await newOwner('members');
    const invite = (email: string) => call(w.api, 'POST', '/api/v1/org/invitations', { email, role: 'member' }, as(owner));
    expect((await invite('first@example.com')).status).toBe(201);
    // Within the re-invite cooldown the open invitation is answered (200) rather than replaced: one place either way.
    expect((await invite('first@example.com')).status).toBe(200);
    const refused = await invite('second@example.com');
    expect(refused.status).toBe(402);
    expect(refused.json.error.message).toBe('Your Free plan allows 2 team members. Upgrade to Startup for unlimited team members.');
  });

  test('accepting is checked again: a member who joined meanwhile takes the last place', async () => {
    const owner = await newOwner('accept');
    const email = `joiner-${Date.now().toString(36)}@example.com`;
    const mails = w.smtp.messages.length;
    expect((await call(w.api, 'POST', '/api/v1/org/invitations', { email, role: 'member' }, as(owner))).status).toBe(201);
    const [mail] = (await w.smtp.waitForMessages(mails + 1)).slice(mails);
    const token = /\/join#([\w-]+)/.exec(mail.text)![1];
    await memberOf(owner, 'admin'); // joined another way: two members now
    const r = await call(w.api, 'POST', '/api/v1/auth/invitation', { token }, { ip: newIp() });
    expect(r.status).toBe(402);
    expect(r.json.error.code).toBe('plan_limit');
    const users = await (await getDb()).selectFrom('users').select('email').where('org_id', '=', owner.orgId).execute();
    expect(users.map((u) => u.email)).not.toContain(email);
  });
});

test('connections claimed at sign-in count against the organisation: what goes over the Free plan is paused, not refused', async () => {
  const email = `claims-${Date.now().toString(36)}@example.com`;
  const apps = [newIosApp(w, 'Claimed One'), newIosApp(w, 'Claimed Two')];
  // One browser connects both (its claim cookie names each), then signs in.
  let cookie = '';
  for (const app of apps) {
    const c = await call(w.api, 'POST', '/api/v1/oauth/platform/connect', { platform: 'slack', payload: payloadFor({ app_id: app.appId, webhook_url: w.chat.hook('slack').url, user_email: email }) }, { ip: newIp(), headers: cookie ? { Cookie: cookie } : {} });
    expect(c.status, c.text).toBe(200);
    cookie = claimCookieHeader(c.headers, cookie);
  }
  const session = await signInWithCode(w, email, newIp(), { cookie });
  const b = await call<{ usage: { apps: number; channels: number }; items: { apps: Array<{ paused: boolean }>; channels: Array<{ paused: boolean }> } }>(
    w.api,
    'GET',
    '/api/v1/org/billing',
    undefined,
    { token: session.authToken, ip: newIp() },
  );
  expect(b.status, b.text).toBe(200);
  expect(b.json.data.usage).toMatchObject({ apps: 1, channels: 1 });
  expect(b.json.data.items.apps.map((a) => a.paused).sort()).toEqual([false, true]);
  expect(b.json.data.items.channels.map((c) => c.paused).sort()).toEqual([false, true]);
});

test('a paused app is not delivered to the organisation’s channels; the other app is', async () => {
  const owner = await newOwner('fanout');
  await setPlan(owner.orgId, 'startup');
  const [kept, paused] = [newIosApp(w), newIosApp(w)];
  const hooks = [w.chat.hook('slack'), w.chat.hook('slack')];
  for (const [i, app] of [kept, paused].entries()) {
    expect((await addApp(owner, app.appId)).status).toBe(201);
    const c = await call(w.api, 'POST', '/api/v1/oauth/platform/connect', { platform: 'slack', payload: payloadFor({ app_id: app.appId, webhook_url: hooks[i].url }) }, as(owner));
    expect(c.status, c.text).toBe(200);
  }
  const keys = [kept, paused].map((a) => `apple_app_store__${a.appId}`);
  const choose = await call(w.api, 'PUT', '/api/v1/org/billing/active', { apps: [keys[0]], channels: (await (await getDb()).selectFrom('destinations').select('id').where('org_id', '=', owner.orgId).execute()).map((d) => d.id) }, as(owner));
  expect(choose.status, choose.text).toBe(200);

  const poll = async () => {
    for (const app of [kept, paused]) await pollAppNow({ store: 'apple_app_store', appId: app.appId });
  };
  await poll(); // the first poll of a source records quietly what was there before
  await drainDeliveries();
  const idle = await (await getDb()).selectFrom('monitored_sources').select('status').where('app_key', '=', keys[1]).execute();
  expect(idle.map((s) => s.status)).toEqual(['idle']);
  for (const [i, app] of [kept, paused].entries()) w.feed.publish(app.appId, 'us', { title: 'News', content: `Fresh ${marker(100 + i)}`, author: 'Kim', rating: 5 });
  await poll();
  await drainDeliveries();
  expect(hooks[0].delivered().flatMap((r) => markersIn(r.raw))).toContain(marker(100));
  expect(hooks[1].delivered().flatMap((r) => markersIn(r.raw))).not.toContain(marker(101));
});
