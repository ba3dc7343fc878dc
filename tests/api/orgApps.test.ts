// The organisation's apps through the real routes, a real database (PGlite and PostgreSQL) and the store fakes: adding
// by id (looked up in the store), the watching that follows with no destination, the figures of the list, removing
// (watching stops only when nothing else wants the app), claiming at sign-in, and who may do what across two
// organisations.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { getDb } from '@/server/db/client';
import { pollAppNow } from '@/server/monitor/service';
import { memberOf, newOwner } from '../helpers/orgs';
import { signInWithCode } from '../helpers/emailSignIn';
import { claimCookieHeader } from '../helpers/claimCookie';
import { call } from '../helpers/request';
import { newIosApp, newIp, newPlayApp, payloadFor, startConnectWorld, type ConnectWorld } from './support/connectWorld';

let w: ConnectWorld;
beforeAll(async () => {
  w = await startConnectWorld();
}, 60_000);
afterAll(() => w.close());

type App = {
  key: string;
  app_id: string;
  app_store: string;
  title: string;
  countries: string[];
  added_by: string | null;
  rating: number | null;
  review_count: number;
  reviews_this_week: number;
  last_review: { at: string; rating: number } | null;
};

const list = (token: string) => call<App[]>(w.api, 'GET', '/api/v1/org/apps', undefined, { token, ip: newIp() });
const add = (token: string, body: unknown) => call<App>(w.api, 'POST', '/api/v1/org/apps', body, { token, ip: newIp() });
const remove = (token: string, key: string) => call<{ ok: true }>(w.api, 'DELETE', `/api/v1/org/apps/${encodeURIComponent(key)}`, undefined, { token, ip: newIp() });

async function sources(key: string): Promise<Record<string, string>> {
  const db = await getDb();
  const rows = await db.selectFrom('monitored_sources').select(['country', 'language', 'status']).where('app_key', '=', key).execute();
  return Object.fromEntries(rows.map((r) => [r.country || r.language, r.status]));
}

async function auditActions(token: string): Promise<string[]> {
  const r = await call<{ action: string }[]>(w.api, 'GET', '/api/v1/org/audit-log', undefined, { token, ip: newIp() });
  return r.json.data.map((e) => e.action);
}

describe('adding an app', () => {
  test('an admin adds an App Store app in two storefronts: it is looked up, listed and watched with no destination', async () => {
    const owner = await newOwner();
    const admin = await memberOf(owner, 'admin');
    const app = newIosApp(w, 'Lantern Notes');
    const r = await add(admin.token, { app_id: app.appId, app_store: 'apple_app_store', countries: ['US', 'gb'] });
    expect(r.status, r.text).toBe(201);
    expect(r.json.data).toMatchObject({
      key: `apple_app_store__${app.appId}`,
      title: 'Lantern Notes',
      countries: ['gb', 'us'],
      added_by: admin.email,
      review_count: 0,
      rating: null,
      last_review: null,
    });
    expect(await sources(r.json.data.key)).toEqual({ gb: 'active', us: 'active' });
    expect((await list(owner.token)).json.data.map((a) => a.title)).toEqual(['Lantern Notes']);
    expect(await auditActions(owner.token)).toContain('app.added');

    // Adding again changes the storefronts (200): the one no longer chosen stops being read.
    const again = await add(owner.token, { app_id: app.appId, app_store: 'apple_app_store', countries: ['us'] });
    expect(again.status, again.text).toBe(200);
    expect(again.json.data.countries).toEqual(['us']);
    expect(await sources(r.json.data.key)).toEqual({ gb: 'idle', us: 'active' });
  });

  test('its reviews arrive with no destination, and the list shows rating, count, this week and the last review', async () => {
    const owner = await newOwner();
    const app = newIosApp(w);
    w.feed.publish(app.appId, 'us', { content: 'old one', rating: 2, updated: new Date(Date.now() - 20 * 86_400_000) });
    w.feed.publish(app.appId, 'us', { content: 'recent one', rating: 4, updated: new Date(Date.now() - 2 * 86_400_000) });
    w.feed.publish(app.appId, 'us', { content: 'newest one', rating: 5, updated: new Date(Date.now() - 3_600_000) });
    expect((await add(owner.token, { app_id: app.appId, app_store: 'apple_app_store' })).status).toBe(201);
    await pollAppNow({ store: 'apple_app_store', appId: app.appId });

    const [listed] = (await list(owner.token)).json.data;
    expect(listed).toMatchObject({ review_count: 3, rating: 3.67, reviews_this_week: 2, last_review: { rating: 5 } });
    const inbox = await call<{ content_body: string }[]>(w.api, 'GET', '/api/v1/org/reviews', undefined, { token: owner.token, ip: newIp() });
    expect(inbox.json.data.map((x) => x.content_body)).toEqual(['newest one', 'recent one', 'old one']);
  });

  test('Google Play apps are read by language; bad input is a 400 that says what is wrong; an unknown app a 404', async () => {
    const owner = await newOwner();
    const play = newPlayApp(w);
    const ok = await add(owner.token, { app_id: play.appId, app_store: 'google_play_store' });
    expect(ok.status, ok.text).toBe(201);
    expect(await sources(ok.json.data.key)).toEqual({ en: 'active' });

    const cases: Array<[unknown, RegExp]> = [
      [{ app_id: 'not an id', app_store: 'apple_app_store' }, /app_id/],
      [{ app_id: '123456789', app_store: 'itunes' }, /app_store/],
      [{ app_id: '123456789', app_store: 'apple_app_store', countries: ['zz'] }, /"zz" is not an App Store storefront/],
      [{ app_id: play.appId, app_store: 'google_play_store', countries: ['us'] }, /read by language/],
      [{ app_id: '123456789', app_store: 'apple_app_store', countries: 'us' }, /countries/],
    ];
    for (const [body, message] of cases) {
      const r = await add(owner.token, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json.error.message).toMatch(message);
    }
    const unknown = await add(owner.token, { app_id: '1999999999', app_store: 'apple_app_store' });
    expect(unknown.status, unknown.text).toBe(404);
    expect(unknown.json.error.message).toMatch(/couldn't find the app/);
    const badKey = await remove(owner.token, 'not-a-key');
    expect(badKey.status).toBe(400);
    expect(badKey.json.error.message).toMatch(/\{app_store\}__\{app_id\}/);
  });
});

describe('who may do what', () => {
  test('members read the apps but cannot add or remove (403); another organisation gets 404 and sees nothing', async () => {
    const owner = await newOwner();
    const member = await memberOf(owner, 'member');
    const stranger = await newOwner('stranger');
    const app = newIosApp(w);
    const added = await add(owner.token, { app_id: app.appId, app_store: 'apple_app_store' });
    expect(added.status).toBe(201);
    const key = added.json.data.key;

    expect((await list(member.token)).json.data.map((a) => a.key)).toEqual([key]);
    const denied = await add(member.token, { app_id: app.appId, app_store: 'apple_app_store' });
    expect(denied.status).toBe(403);
    expect(denied.json.error.message).toMatch(/Only an admin or the owner of this organisation can add apps/);
    expect((await remove(member.token, key)).status).toBe(403);

    expect((await list(stranger.token)).json.data).toEqual([]);
    const foreign = await remove(stranger.token, key);
    expect(foreign.status).toBe(404);
    const foreignInbox = await call(w.api, 'GET', `/api/v1/org/reviews?app=${key}`, undefined, { token: stranger.token, ip: newIp() });
    expect(foreignInbox.status).toBe(404);
    expect((await list(owner.token)).json.data.map((a) => a.key)).toEqual([key]);

    for (const [method, path] of [['GET', '/api/v1/org/apps'], ['POST', '/api/v1/org/apps'], ['DELETE', `/api/v1/org/apps/${key}`]] as const) {
      expect((await call(w.api, method, path, method === 'POST' ? {} : undefined, { ip: newIp() })).status).toBe(401);
    }
  });
});

describe('removing an app', () => {
  test('watching stops when nothing else wants the app, and goes on while a destination or another organisation does', async () => {
    const owner = await newOwner();
    const other = await newOwner('other');
    const alone = newIosApp(w);
    const shared = newIosApp(w);
    const connected = newIosApp(w);
    for (const app of [alone, shared, connected]) expect((await add(owner.token, { app_id: app.appId, app_store: 'apple_app_store' })).status).toBe(201);
    expect((await add(other.token, { app_id: shared.appId, app_store: 'apple_app_store' })).status).toBe(201);
    const hook = w.chat.hook('slack');
    const c = await call(w.api, 'POST', '/api/v1/oauth/platform/connect', { platform: 'slack', payload: payloadFor({ app_id: connected.appId, webhook_url: hook.url }) }, { ip: newIp() });
    expect(c.status, c.text).toBe(200);

    for (const app of [alone, shared, connected]) expect((await remove(owner.token, `apple_app_store__${app.appId}`)).status).toBe(200);
    expect(await sources(`apple_app_store__${alone.appId}`)).toEqual({ us: 'idle' });
    expect(await sources(`apple_app_store__${shared.appId}`)).toEqual({ us: 'active' });
    expect(await sources(`apple_app_store__${connected.appId}`)).toEqual({ us: 'active' });
    expect((await list(owner.token)).json.data).toEqual([]);
    expect(await auditActions(owner.token)).toContain('app.removed');
    expect((await remove(owner.token, `apple_app_store__${alone.appId}`)).status).toBe(404);
  });
});

describe('claiming at sign-in', () => {
  test('apps connected without an account become the organisation’s apps on first sign-in from the same browser (not by the typed address)', async () => {
    const email = `claimer-${Date.now().toString(36)}@example.com`;
    const app = newIosApp(w, 'Claimed Compass');
    const hook = w.chat.hook('discord');
    const c = await call(
      w.api,
      'POST',
      '/api/v1/oauth/platform/connect',
      { platform: 'discord', payload: payloadFor({ app_id: app.appId, webhook_url: hook.url, user_email: email, country: 'gb' }) },
      { ip: newIp() },
    );
    expect(c.status, c.text).toBe(200);

    // Another browser signing in with the address typed into the payload gets nothing.
    const elsewhere = await signInWithCode(w, email, newIp());
    expect((await list(elsewhere.authToken)).json.data).toEqual([]);
    const session = await signInWithCode(w, email, newIp(), { cookie: claimCookieHeader(c.headers) });
    const apps = (await list(session.authToken)).json.data;
    expect(apps).toMatchObject([{ title: 'Claimed Compass', countries: ['gb'], added_by: email }]);
    expect(await auditActions(session.authToken)).toContain('app.claimed');
    // Signing in again changes nothing.
    const again = await signInWithCode(w, email, newIp(), { cookie: claimCookieHeader(c.headers) });
    expect((await list(again.authToken)).json.data).toHaveLength(1);
  });
});
