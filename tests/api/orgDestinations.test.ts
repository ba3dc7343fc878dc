// The dashboard's destinations through the real routes, the real engine in this process, a real database (PGlite and
// PostgreSQL) and the loopback chat receivers: an admin adds a destination with the home page's connect call and a
// session, sees it with its state, pauses and resumes it, changes its filters and apps, sends a test message that
// reaches the receiver in its platform's format, and deletes it. Members read; nobody reaches another organisation's.
import { describe, expect, test } from 'vitest';
import { getDb } from '@/server/db/client';
import { claimAnonymousConnections, pollAppNow } from '@/server/monitor/service';
import { TEST_MESSAGE_LIMITS } from '@/server/orgDestinations/service';
import { hitRateLimit } from '@/server/http/rateLimit';
import { call } from '../helpers/request';
import { claimCookieOf } from '../helpers/claimCookie';
import { memberOf, newOwner, type SignedInUser } from '../helpers/orgs';
import { connectWorldWithEngine, marker, newIosApp, newIp, payloadFor } from './support/connectWorld';
import type { ChatPlatform } from '../fakes/chatWebhooks';

const t = connectWorldWithEngine();

type Destination = {
  id: string;
  platform: string;
  platform_name: string;
  label: string | null;
  target: string;
  apps: { app_key: string; app_id: string; title: string }[];
  filters: Record<string, unknown>;
  translate_to: string | null;
  status: string;
  status_reason: string | null;
  cause: string | null;
  fix: string | null;
  last_delivery_at: string | null;
  last_error: string | null;
};

const as = (u: { token: string } | null) => ({ ip: newIp(), ...(u ? { token: u.token } : {}) });
const list = (u: SignedInUser) => call<Destination[]>(t.w.api, 'GET', '/api/v1/org/destinations', undefined, as(u));
const patch = (u: SignedInUser | null, id: string, body: unknown) => call<Destination>(t.w.api, 'PATCH', `/api/v1/org/destinations/${id}`, body, as(u));
const remove = (u: SignedInUser | null, id: string) => call(t.w.api, 'DELETE', `/api/v1/org/destinations/${id}`, undefined, as(u));
const sendTest = (u: SignedInUser | null, id: string) => call<{ ok: boolean; status: number; message: string }>(t.w.api, 'POST', `/api/v1/org/destinations/${id}/test`, {}, as(u));

/** An app with `n` reviews in its US feed. */
function appWithReviews(n: number, title?: string) {
  const app = newIosApp(t.w, title);
  for (let i = 1; i <= n; i++) t.w.feed.publish(app.appId, 'us', { title: `Review ${i}`, content: `Text ${marker(i)}`, rating: 5, updated: new Date(Date.now() - (n - i + 1) * 86_400_000) });
  return app;
}

/** Connects a fresh hook of `platform` to a new app as `admin` (the dashboard's "Add destination"), after its welcome. */
async function addDestination(admin: SignedInUser, platform: ChatPlatform = 'slack', title?: string) {
  const app = appWithReviews(1, title);
  const hook = t.w.chat.hook(platform);
  const r = await call<{ destination_id: string }>(
    t.w.api,
    'POST',
    '/api/v1/oauth/platform/connect',
    { platform, payload: payloadFor({ app_id: app.appId, webhook_url: hook.url }) },
    as(admin),
  );
  expect(r.status, r.text).toBe(200);
  await hook.waitForDelivered(2, 10_000); // welcome + the review
  return { id: r.json.data.destination_id, hook, app };
}

async function auditActions(owner: SignedInUser): Promise<string[]> {
  const r = await call<{ action: string }[]>(t.w.api, 'GET', '/api/v1/org/audit-log?limit=100', undefined, as(owner));
  return r.json.data.map((e) => e.action);
}

describe('GET v1/org/destinations', () => {
  test('an admin adds a destination from the dashboard: it is the organisation’s, listed with its state and no secret', async () => {
    const owner = await newOwner();
    const { id, hook, app } = await addDestination(owner, 'slack', 'Harbor Notes');
    const r = await list(owner);
    expect(r.status, r.text).toBe(200);
    expect(r.json.data).toHaveLength(1);
    expect(r.json.data[0]).toMatchObject({
      id,
      platform: 'slack',
      platform_name: 'Slack',
      status: 'active',
      fix: null,
      apps: [{ app_id: app.appId, title: 'Harbor Notes', app_key: `apple_app_store__${app.appId}` }],
      filters: { countries: ['us'] },
      translate_to: null,
      last_error: null,
    });
    await expect.poll(async () => (await list(owner)).json.data[0].last_delivery_at).not.toBeNull();
    // The webhook's secret path never leaves the server.
    expect(r.text).not.toContain(new URL(hook.url).pathname);
    expect(await auditActions(owner)).toContain('destination.added');
  });

  test('connections made without an account appear once claimed from the browser that made them', async () => {
    const owner = await newOwner();
    const app = appWithReviews(1);
    const hook = t.w.chat.hook('discord');
    const anon = await call<{ destination_id: string }>(t.w.api, 'POST', '/api/v1/oauth/platform/connect', {
      platform: 'discord',
      payload: payloadFor({ app_id: app.appId, webhook_url: hook.url, user_email: owner.email }),
    }, { ip: newIp() });
    expect(anon.status, anon.text).toBe(200);
    expect((await list(owner)).json.data).toHaveLength(0);
    // The typed address claims nothing; the claim cookie the connect set does.
    await claimAnonymousConnections({ orgId: owner.orgId, email: owner.email });
    expect((await list(owner)).json.data).toHaveLength(0);
    await claimAnonymousConnections({ orgId: owner.orgId, email: owner.email, claimToken: claimCookieOf(anon.headers) });
    expect((await list(owner)).json.data.map((d) => d.id)).toEqual([anon.json.data.destination_id]);
  });

  test('a member reads the list but cannot add a destination with their session', async () => {
    const owner = await newOwner();
    const { id } = await addDestination(owner);
    const member = await memberOf(owner, 'member');
    expect((await list(member)).json.data.map((d) => d.id)).toEqual([id]);
    const app = newIosApp(t.w);
    const denied = await call(t.w.api, 'POST', '/api/v1/oauth/platform/connect', { platform: 'slack', payload: payloadFor({ app_id: app.appId, webhook_url: t.w.chat.hook('slack').url }) }, as(member));
    expect(denied.status).toBe(403);
    expect(denied.json.error.message).toMatch(/Only an admin or the owner of this organisation can add destinations/);
  });

  test('without a session every destination call is 401', async () => {
    const owner = await newOwner();
    const { id } = await addDestination(owner);
    expect((await call(t.w.api, 'GET', '/api/v1/org/destinations', undefined, { ip: newIp() })).status).toBe(401);
    expect((await patch(null, id, { paused: true })).status).toBe(401);
    expect((await remove(null, id)).status).toBe(401);
    expect((await sendTest(null, id)).status).toBe(401);
  });
});

describe('two organisations', () => {
  test('nobody reaches another organisation’s destination: 404 for every call, and it is unchanged', async () => {
    const a = await newOwner('alpha');
    const b = await newOwner('beta');
    const { id } = await addDestination(a);
    expect((await list(b)).json.data).toEqual([]);
    for (const r of [await patch(b, id, { paused: true }), await remove(b, id), await sendTest(b, id)]) {
      expect(r.status, r.text).toBe(404);
      expect(r.json.error.message).toMatch(/no destination with this id/);
    }
    const memberOfB = await memberOf(b, 'admin');
    expect((await patch(memberOfB, id, { filters: { ratings: [1] } })).status).toBe(404);
    const [d] = (await list(a)).json.data;
    expect(d).toMatchObject({ id, status: 'active', filters: { countries: ['us'] } });
  });

  test('a member of the organisation gets 403 for every change, an admin may make them', async () => {
    const owner = await newOwner();
    const { id } = await addDestination(owner);
    const member = await memberOf(owner, 'member');
    const admin = await memberOf(owner, 'admin');
    const cases = [
      [await patch(member, id, { paused: true }), /change destinations/],
      [await remove(member, id), /delete destinations/],
      [await sendTest(member, id), /send test messages/],
    ] as const;
    for (const [r, words] of cases) {
      expect(r.status, r.text).toBe(403);
      expect(r.json.error.message).toMatch(words);
    }
    expect((await patch(admin, id, { paused: true })).json.data.status).toBe('paused');
  });
});

describe('PATCH v1/org/destinations/{id}', () => {
  test('pause and resume: the state and how to fix it follow, and both are in the audit log', async () => {
    const owner = await newOwner();
    const { id } = await addDestination(owner);
    const paused = await patch(owner, id, { paused: true });
    expect(paused.status, paused.text).toBe(200);
    expect(paused.json.data).toMatchObject({ status: 'paused', cause: 'owner', status_reason: 'Paused from the dashboard.', fix: 'Resume it to post new reviews again. Reviews that arrive while it is paused are skipped, not sent later.' });
    const resumed = await patch(owner, id, { paused: false });
    expect(resumed.json.data).toMatchObject({ status: 'active', cause: null, fix: null });
    const actions = await auditActions(owner);
    expect(actions).toEqual(expect.arrayContaining(['destination.paused', 'destination.resumed']));
  });

  test('a paused destination gets no new review; resumed, it gets the next ones', async () => {
    const owner = await newOwner();
    const { id, hook, app } = await addDestination(owner);
    await patch(owner, id, { paused: true });
    const before = hook.delivered().length;
    t.w.feed.publish(app.appId, 'us', { title: 'Later', content: `Text ${marker(77)}`, rating: 4, updated: new Date() });
    await pollAppNow({ store: 'apple_app_store', appId: app.appId });
    await new Promise((r) => setTimeout(r, 1000));
    expect(hook.delivered().length).toBe(before);
    await patch(owner, id, { paused: false });
    t.w.feed.publish(app.appId, 'us', { title: 'Later still', content: `Text ${marker(78)}`, rating: 4, updated: new Date(Date.now() + 1000) });
    await pollAppNow({ store: 'apple_app_store', appId: app.appId });
    const got = await hook.waitForDelivered(before + 1, 15_000);
    expect(got.at(-1)!.raw).toContain(marker(78));
  });

  test('filters are checked (400 with the field in words), stored normalised, and applied to new reviews', async () => {
    const owner = await newOwner();
    const { id, hook, app } = await addDestination(owner);
    const bad: [unknown, RegExp][] = [
      [{ filters: { ratings: [0] } }, /^filters\.ratings\.0: ratings must be 1 to 5\./],
      [{ filters: { ratings: ['five'] } }, /ratings must be whole numbers/],
      [{ filters: { countries: ['usa'] } }, /countries must be two-letter codes/],
      [{ filters: { languages: ['english!'] } }, /languages must be codes like "en"/],
      [{ filters: { keywords: ['  '] } }, /keywords cannot be empty/],
      [{ filters: { stars: [1] } }, /filters can only have ratings, countries, languages, keywords and tags/],
      [{ filters: 'all' }, /filters must be an object/],
      [{ translate_to: 'Klingon language' }, /translate_to must be a language code/],
      [{ apps: [] }, /at least one app/],
      [{ colour: 'red' }, /Only paused, filters, apps, translate_to, spike_alerts and weekly_summaries can be changed/],
      [{}, /Nothing to change/],
    ];
    for (const [body, words] of bad) {
      const r = await patch(owner, id, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json.error.message).toMatch(words);
    }
    const ok = await patch(owner, id, { filters: { ratings: [2, 1, 1], countries: ['US'], languages: ['EN'], keywords: [' crash '] }, translate_to: 'DE' });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json.data).toMatchObject({ filters: { ratings: [1, 2], countries: ['us'], languages: ['en'], keywords: ['crash'] }, translate_to: 'de' });
    expect((await auditActions(owner))).toContain('destination.updated');

    const before = hook.delivered().length;
    t.w.feed.publish(app.appId, 'us', { title: 'Great', content: `Lovely ${marker(90)}`, rating: 5, updated: new Date() });
    t.w.feed.publish(app.appId, 'us', { title: 'Bad', content: `It keeps crashing ${marker(91)}`, rating: 1, updated: new Date(Date.now() + 1000) });
    await pollAppNow({ store: 'apple_app_store', appId: app.appId });
    const got = await hook.waitForDelivered(before + 1, 15_000);
    await new Promise((r) => setTimeout(r, 500));
    const raw = hook.delivered().slice(before).map((g) => g.raw).join('\n');
    expect(got.at(-1)!.raw).toContain(marker(91));
    expect(raw).not.toContain(marker(90));
  });

  test('apps: only apps the organisation has; an app added gets its welcome', async () => {
    const owner = await newOwner();
    const first = await addDestination(owner);
    const second = await addDestination(owner, 'mattermost', 'Second Light');
    const foreign = newIosApp(t.w);
    const refused = await patch(owner, first.id, { apps: [`apple_app_store__${foreign.appId}`] });
    expect(refused.status).toBe(400);
    expect(refused.json.error.message).toMatch(/is not an app of your organisation/);
    const malformed = await patch(owner, first.id, { apps: ['not-an-app'] });
    expect(malformed.status).toBe(400);

    const keys = [`apple_app_store__${first.app.appId}`, `apple_app_store__${second.app.appId}`];
    const before = first.hook.delivered().length;
    const r = await patch(owner, first.id, { apps: keys });
    expect(r.status, r.text).toBe(200);
    expect(r.json.data.apps.map((a) => a.app_key).sort()).toEqual([...keys].sort());
    const got = await first.hook.waitForDelivered(before + 1, 10_000);
    expect(got.slice(before).map((g) => g.raw).join('\n')).toContain('Second Light');

    const back = await patch(owner, first.id, { apps: [keys[1]] });
    expect(back.json.data.apps.map((a) => a.title)).toEqual(['Second Light']);
  });
});

describe('POST v1/org/destinations/{id}/test', () => {
  test('sends a real test message in the platform’s format and answers what the platform said', async () => {
    const owner = await newOwner();
    const { id, hook } = await addDestination(owner, 'discord', 'Test Pilot');
    const before = hook.delivered().length;
    const r = await sendTest(owner, id);
    expect(r.status, r.text).toBe(200);
    expect(r.json.data).toEqual({ ok: true, status: 200, message: 'Discord accepted the test message.' });
    const got = (await hook.waitForDelivered(before + 1)).at(-1)!;
    expect(got.raw).toContain('Test message from ARB');
    expect(got.raw).toContain('Test Pilot');
    expect(got.body).toMatchObject({ embeds: expect.any(Array) }); // Discord's own format
    expect(got.query.get('wait')).toBe('true'); // through the same sender as reviews

    hook.script({ kind: 'gone' });
    const failed = await sendTest(owner, id);
    expect(failed.status).toBe(200);
    expect(failed.json.data.ok).toBe(false);
    expect(failed.json.data.message).toMatch(/^Discord refused the webhook/);
    // A failed test changes nothing about the destination.
    expect((await list(owner)).json.data[0].status).toBe('active');
  });

  test('is rate-limited per destination', async () => {
    const owner = await newOwner();
    const { id } = await addDestination(owner);
    for (let i = 0; i < TEST_MESSAGE_LIMITS.perDestination.limit; i++) await hitRateLimit(TEST_MESSAGE_LIMITS.perDestination, id);
    const r = await sendTest(owner, id);
    expect(r.status).toBe(429);
    expect(r.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(r.json.error.message).toMatch(/test messages were sent to this destination/);
  });
});

describe('DELETE v1/org/destinations/{id}', () => {
  test('deletes it: gone from the list, nothing more is sent, the audit log says who', async () => {
    const owner = await newOwner();
    const { id, hook, app } = await addDestination(owner);
    const r = await remove(owner, id);
    expect(r.status, r.text).toBe(200);
    expect((await list(owner)).json.data).toEqual([]);
    expect((await remove(owner, id)).status).toBe(404);
    const db = await getDb();
    expect(await db.selectFrom('destination_apps').select('app_key').where('destination_id', '=', id).execute()).toEqual([]);
    const before = hook.delivered().length;
    t.w.feed.publish(app.appId, 'us', { title: 'After', content: `Text ${marker(55)}`, rating: 5, updated: new Date() });
    await pollAppNow({ store: 'apple_app_store', appId: app.appId });
    await new Promise((r2) => setTimeout(r2, 1200));
    expect(hook.delivered().length).toBe(before);
    expect(await auditActions(owner)).toContain('destination.deleted');
  });

  test('a malformed id is a 400 that says what an id looks like', async () => {
    const owner = await newOwner();
    const r = await remove(owner, 'nope');
    expect(r.status).toBe(400);
    expect(r.json.error.message).toMatch(/not a destination id/);
  });
});
