// Store credentials per app through the real routes, a real database (PGlite and PostgreSQL) and loopback App Store
// Connect and Google Play Developer API fakes that verify the signed tokens with the keys' public halves and refuse
// like the real stores (401 unknown key, 403 a role or account that may not read reviews, 404 an app outside the
// account): what each refusal says, that nothing is saved unless the store said yes, that the key is sealed at rest and
// never comes back, and the engine's switch to the official API and back without any review stored or delivered twice.
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { decryptSecret } from '@/server/crypto';
import { getDb } from '@/server/db/client';
import { createDestination, drainDeliveries, pollAppNow } from '@/server/monitor/service';
import { clearGoogleTokenCache } from '@/server/sources/playDeveloper';
import { memberOf, newOwner, type SignedInUser } from '../helpers/orgs';
import { call } from '../helpers/request';
import { startFakeServer, type FakeServer } from '../fakes/http';
import { appStoreConnectRoutes, createAppStoreConnect, createAppStoreConnectKey, type AppStoreConnectFake, type AppStoreConnectKey } from '../fakes/appStoreConnect';
import { androidPublisherRoutes, createAndroidPublisher, createServiceAccount, type AndroidPublisherFake, type ServiceAccountKey } from '../fakes/androidPublisher';
import { marker, markersIn, newIosApp, newIp, newPlayApp, startConnectWorld, type ConnectWorld } from './support/connectWorld';

let w: ConnectWorld;
let stores: FakeServer;
let asc: AppStoreConnectFake;
let play: AndroidPublisherFake;
let adminKey: AppStoreConnectKey;
let developerKey: AppStoreConnectKey;
let account: ServiceAccountKey;
let otherAccount: ServiceAccountKey;

beforeAll(async () => {
  [adminKey, developerKey] = await Promise.all([createAppStoreConnectKey(), createAppStoreConnectKey({ role: 'DEVELOPER' })]);
  [account, otherAccount] = await Promise.all([createServiceAccount('arb-reviews'), createServiceAccount('someone-else')]);
  asc = createAppStoreConnect([adminKey, developerKey]);
  play = createAndroidPublisher([account, otherAccount]);
  stores = await startFakeServer([appStoreConnectRoutes(asc), androidPublisherRoutes(play)]);
  w = await startConnectWorld({ APPSTORE_CONNECT_BASE_URL: stores.url, ANDROID_PUBLISHER_BASE_URL: stores.url, GOOGLE_OAUTH_TOKEN_URL: `${stores.url}/token` });
}, 60_000);
afterAll(async () => {
  await w?.close();
  await stores?.close();
});

type App = { key: string; credentials: { kind: string; label: string; checked_at: string } | null };

const put = (token: string, key: string, body: unknown) => call<App>(w.api, 'PUT', `/api/v1/org/apps/${encodeURIComponent(key)}/credentials`, body, { token, ip: newIp() });
const del = (token: string, key: string) => call<{ ok: true }>(w.api, 'DELETE', `/api/v1/org/apps/${encodeURIComponent(key)}/credentials`, undefined, { token, ip: newIp() });
const list = (token: string) => call<App[]>(w.api, 'GET', '/api/v1/org/apps', undefined, { token, ip: newIp() });

async function addApp(token: string, store: 'apple_app_store' | 'google_play_store', appId: string): Promise<string> {
  const r = await call<App>(w.api, 'POST', '/api/v1/org/apps', { app_id: appId, app_store: store }, { token, ip: newIp() });
  expect(r.status, r.text).toBe(201);
  return r.json.data.key;
}

const ascBody = (key: AppStoreConnectKey) => ({ kind: 'app_store_connect', issuer_id: key.issuerId, key_id: key.keyId, private_key: key.privateKeyPem });
const playBody = (a: ServiceAccountKey) => ({ kind: 'google_play', service_account_json: a.json });

async function sources(key: string): Promise<Record<string, string>> {
  const db = await getDb();
  const rows = await db.selectFrom('monitored_sources').select(['kind', 'country', 'language', 'status']).where('app_key', '=', key).execute();
  return Object.fromEntries(rows.map((r) => [`${r.kind}${r.country || r.language ? `:${r.country || r.language}` : ''}`, r.status]));
}

async function storedCredentials(orgId: string, key: string) {
  const db = await getDb();
  return db.selectFrom('org_apps').select(['credentials_kind', 'credentials_enc', 'credentials_label']).where('org_id', '=', orgId).where('app_key', '=', key).executeTakeFirstOrThrow();
}

async function auditActions(token: string): Promise<string[]> {
  const r = await call<{ action: string }[]>(w.api, 'GET', '/api/v1/org/audit-log', undefined, { token, ip: newIp() });
  return r.json.data.map((e) => e.action);
}

describe('what is checked before anything is sent to a store', () => {
  test('bad input is a 400 naming the field and why; credentials of the other store are refused', async () => {
    const owner = await newOwner();
    const ios = newIosApp(w);
    const key = await addApp(owner.token, 'apple_app_store', ios.appId);
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const sec1 = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({ type: 'sec1', format: 'pem' }).toString();
    const p384 = generateKeyPairSync('ec', { namedCurve: 'secp384r1' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const good = ascBody(adminKey);
    const sa = JSON.parse(account.json) as Record<string, unknown>;
    const cases: Array<[unknown, RegExp]> = [
      [{}, /^kind: /],
      [{ kind: 'itunes' }, /^kind: .*app_store_connect/],
      [{ ...good, issuer_id: 'not-an-issuer' }, /^issuer_id: must be the issuer id/],
      [{ ...good, issuer_id: undefined }, /^issuer_id: Required/],
      [{ ...good, key_id: 'abc' }, /^key_id: must be the key's 10-character "Key ID"/],
      [{ ...good, private_key: 'hello' }, /^private_key: must be the whole key file/],
      [{ ...good, private_key: sec1 }, /^private_key: is in the older SEC1/],
      [{ ...good, private_key: rsa }, /^private_key: is not an App Store Connect key/],
      [{ ...good, private_key: p384 }, /^private_key: is not an App Store Connect key/],
      [{ ...good, private_key: good.private_key.replace(/[A-Za-z]{12}/, 'AAAAAAAAAAAA') }, /^private_key: (could not be read|is not an App Store)/],
      [{ ...good, private_key: 'x'.repeat(20_000) }, /^private_key: too long/],
      [{ kind: 'google_play', service_account_json: '{nope' }, /^service_account_json: is not valid JSON/],
      [{ kind: 'google_play', service_account_json: '[]' }, /^service_account_json: must be a JSON object/],
      [{ kind: 'google_play', service_account_json: JSON.stringify({ ...sa, type: 'authorized_user' }) }, /"type" must be "service_account"/],
      [{ kind: 'google_play', service_account_json: JSON.stringify({ ...sa, client_email: undefined }) }, /"client_email" is missing/],
      [{ kind: 'google_play', service_account_json: JSON.stringify({ ...sa, token_uri: undefined }) }, /"token_uri" is missing/],
      [{ kind: 'google_play', service_account_json: JSON.stringify({ ...sa, private_key: 'nope' }) }, /"private_key" must be the whole key file/],
      [{ kind: 'google_play', service_account_json: JSON.stringify({ ...sa, private_key: good.private_key }) }, /"private_key" is not an RSA key/],
    ];
    for (const [body, message] of cases) {
      const r = await put(owner.token, key, body);
      expect(r.status, `${JSON.stringify(body).slice(0, 120)} → ${r.text}`).toBe(400);
      expect(r.json.error.message).toMatch(message);
      // The answer never echoes the key back.
      expect(r.text).not.toContain(adminKey.privateKeyPem.split('\n')[1]);
    }
    const wrongStore = await put(owner.token, key, playBody(account));
    expect(wrongStore.status).toBe(400);
    expect(wrongStore.json.error.message).toMatch(/"google_play" credentials are for Google Play apps.*use "app_store_connect"/);
    expect(asc.tokens).toHaveLength(0);
    expect((await storedCredentials(owner.orgId, key)).credentials_enc).toBeNull();
  });
});

describe('the check against App Store Connect', () => {
  test("each refusal is the store's reason in plain words, and nothing is saved", async () => {
    const owner = await newOwner();
    const ios = newIosApp(w);
    const key = await addApp(owner.token, 'apple_app_store', ios.appId);
    asc.addApp(ios.appId);
    const unknownKey = await createAppStoreConnectKey();

    const refused: Array<[unknown, number, RegExp]> = [
      [ascBody(unknownKey), 422, /did not accept this key: check the issuer id and the key id.*Authentication credentials are missing or invalid/],
      [{ ...ascBody(adminKey), issuer_id: unknownKey.issuerId }, 422, /did not accept this key/],
      [ascBody(developerKey), 422, /its role may not read customer reviews.*Admin, App Manager or Customer Support.*forbidden for security reasons/],
    ];
    for (const [body, status, message] of refused) {
      const r = await put(owner.token, key, body);
      expect(r.status, r.text).toBe(status);
      expect(r.json.error.code).toBe('credentials_rejected');
      expect(r.json.error.message).toMatch(message);
    }
    const otherApp = newIosApp(w);
    const otherKey = await addApp(owner.token, 'apple_app_store', otherApp.appId);
    const notInAccount = await put(owner.token, otherKey, ascBody(adminKey));
    expect(notInAccount.status).toBe(422);
    expect(notInAccount.json.error.message).toMatch(new RegExp(`has no app ${otherApp.appId} for this key`));

    asc.failNext({ status: 503, body: { errors: [{ status: '503', code: 'UNAVAILABLE', title: 'Service Unavailable' }] } });
    const down = await put(owner.token, key, ascBody(adminKey));
    expect(down.status).toBe(502);
    expect(down.json.error.message).toMatch(/could not be reached.*Nothing was saved: try again in a few minutes/);

    expect((await storedCredentials(owner.orgId, key)).credentials_enc).toBeNull();
    expect((await list(owner.token)).json.data.every((a) => a.credentials === null)).toBe(true);
    expect(await sources(key)).toEqual({ 'appstore_feed:us': 'active' });
  });

  test('accepted: sealed at rest, never returned, in the audit log; the app is read through the API; DELETE switches back', async () => {
    const owner = await newOwner();
    const admin = await memberOf(owner, 'admin');
    const ios = newIosApp(w);
    const key = await addApp(owner.token, 'apple_app_store', ios.appId);
    asc.addApp(ios.appId);
    const tokensBefore = asc.tokens.length;

    const r = await put(admin.token, key, ascBody(adminKey));
    expect(r.status, r.text).toBe(200);
    expect(r.json.data.credentials).toEqual({ kind: 'app_store_connect', label: adminKey.keyId, checked_at: expect.any(String) });
    expect(Date.now() - Date.parse(r.json.data.credentials!.checked_at)).toBeLessThan(60_000);
    // One real call: a token Apple's side verified, for this key.
    expect(asc.tokens.slice(tokensBefore)).toEqual([expect.objectContaining({ kid: adminKey.keyId, iss: adminKey.issuerId, aud: 'appstoreconnect-v1' })]);

    const stored = await storedCredentials(owner.orgId, key);
    expect(stored).toMatchObject({ credentials_kind: 'app_store_connect', credentials_label: adminKey.keyId });
    expect(stored.credentials_enc).toMatch(/^v1\./);
    const keyBody = adminKey.privateKeyPem.split('\n')[1];
    for (const secret of [keyBody, adminKey.issuerId, 'PRIVATE KEY']) expect(stored.credentials_enc).not.toContain(secret);
    const listed = await list(owner.token);
    expect(listed.text).not.toContain(keyBody);
    expect(listed.text).not.toContain(adminKey.issuerId);
    expect(listed.json.data[0].credentials).toMatchObject({ kind: 'app_store_connect', label: adminKey.keyId });
    expect(await auditActions(owner.token)).toContain('app.credentials_set');

    expect(await sources(key)).toEqual({ 'appstore_feed:us': 'idle', appstore_connect: 'active' });

    expect((await del(admin.token, key)).status).toBe(200);
    expect(await sources(key)).toEqual({ 'appstore_feed:us': 'active', appstore_connect: 'idle' });
    expect((await storedCredentials(owner.orgId, key)).credentials_enc).toBeNull();
    expect((await list(owner.token)).json.data[0].credentials).toBeNull();
    expect(await auditActions(owner.token)).toContain('app.credentials_removed');
    const again = await del(admin.token, key);
    expect(again.status).toBe(404);
    expect(again.json.error.message).toMatch(/no store credentials/);
  });

  test("two organisations with keys for one app: the source reads with the newest, and with the other's when one goes", async () => {
    const a = await newOwner('alpha');
    const b = await newOwner('beta');
    const ios = newIosApp(w);
    const key = await addApp(a.token, 'apple_app_store', ios.appId);
    await addApp(b.token, 'apple_app_store', ios.appId);
    asc.addApp(ios.appId);
    const secondKey = await createAppStoreConnectKey({ role: 'CUSTOMER_SUPPORT' });
    asc.keys.push(secondKey);
    const sourceKeyId = async () => {
      const db = await getDb();
      const row = await db.selectFrom('monitored_sources').select(['credentials_enc', 'status']).where('app_key', '=', key).where('kind', '=', 'appstore_connect').executeTakeFirstOrThrow();
      return row.credentials_enc ? `${(JSON.parse(decryptSecret(row.credentials_enc)) as { keyId: string }).keyId} ${row.status}` : `none ${row.status}`;
    };
    expect((await put(a.token, key, ascBody(adminKey))).status).toBe(200);
    expect((await put(b.token, key, ascBody(secondKey))).status).toBe(200);
    expect(await sourceKeyId()).toBe(`${secondKey.keyId} active`);
    expect((await del(b.token, key)).status).toBe(200);
    expect(await sourceKeyId()).toBe(`${adminKey.keyId} active`);
    expect(await sources(key)).toEqual({ 'appstore_feed:us': 'idle', appstore_connect: 'active' });
    expect((await del(a.token, key)).status).toBe(200);
    expect(await sourceKeyId()).toBe('none idle');
    expect(await sources(key)).toEqual({ 'appstore_feed:us': 'active', appstore_connect: 'idle' });
  });

  test('members may not manage credentials (403); another organisation gets 404', async () => {
    const owner = await newOwner();
    const member = await memberOf(owner, 'member');
    const stranger = await newOwner('stranger');
    const ios = newIosApp(w);
    const key = await addApp(owner.token, 'apple_app_store', ios.appId);
    const denied = await put(member.token, key, ascBody(adminKey));
    expect(denied.status).toBe(403);
    expect((await del(member.token, key)).status).toBe(403);
    expect((await put(stranger.token, key, ascBody(adminKey))).status).toBe(404);
    expect((await del(stranger.token, key)).status).toBe(404);
  });
});

describe('the check against Google Play', () => {
  test("refusals in plain words; accepted keys switch the app to the Developer API; removing the app switches back", async () => {
    clearGoogleTokenCache();
    const owner = await newOwner();
    const app = newPlayApp(w);
    const key = await addApp(owner.token, 'google_play_store', app.appId);
    play.addApp(account, app.appId);

    const stranger = await createServiceAccount('deleted-account');
    const refused: Array<[ServiceAccountKey, RegExp]> = [
      [stranger, /Google did not accept this service-account key.*deleted-account@.*invalid_grant/],
      [otherAccount, /may not read this app's reviews.*invite someone-else@.*"Reply to reviews".*The caller does not have permission/],
    ];
    for (const [sa, message] of refused) {
      const r = await put(owner.token, key, playBody(sa));
      expect(r.status, r.text).toBe(422);
      expect(r.json.error.message).toMatch(message);
    }
    const unknownApp = newPlayApp(w);
    const unknownKey = await addApp(owner.token, 'google_play_store', unknownApp.appId);
    const missing = await put(owner.token, unknownKey, playBody(account));
    expect(missing.status).toBe(422);
    expect(missing.json.error.message).toMatch(new RegExp(`Google Play has no app ${unknownApp.appId.replace(/\./g, '\\.')}`));
    play.failNext({ status: 503 });
    const down = await put(owner.token, key, playBody(account));
    expect(down.status).toBe(502);
    expect(down.json.error.message).toMatch(/try again/);
    expect((await storedCredentials(owner.orgId, key)).credentials_enc).toBeNull();

    const ok = await put(owner.token, key, playBody(account));
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json.data.credentials).toMatchObject({ kind: 'google_play', label: account.clientEmail });
    const stored = await storedCredentials(owner.orgId, key);
    expect(stored.credentials_enc).not.toContain(account.clientEmail);
    expect(stored.credentials_enc).not.toContain('PRIVATE KEY');
    expect(await sources(key)).toEqual({ 'play_public:en': 'idle', play_developer: 'active' });

    // Removing the app takes its credentials with it: nobody's key reads the app any more.
    expect((await call(w.api, 'DELETE', `/api/v1/org/apps/${key}`, undefined, { token: owner.token, ip: newIp() })).status).toBe(200);
    expect(await sources(key)).toEqual({ 'play_public:en': 'idle', play_developer: 'idle' });
  });
});

describe('the engine across the switch', () => {
  test('App Store: no review is stored or delivered twice, and another organisation without credentials keeps its inbox', async () => {
    const owner = await newOwner();
    const other: SignedInUser = await newOwner('other');
    const ios = newIosApp(w);
    const ref = { store: 'apple_app_store' as const, appId: ios.appId };
    const key = await addApp(owner.token, 'apple_app_store', ios.appId);
    await addApp(other.token, 'apple_app_store', ios.appId);
    const hook = w.chat.hook('slack');
    await createDestination({ orgId: owner.orgId, platform: 'slack', url: hook.url, apps: [{ ...ref, title: ios.title }], welcomeCount: 0 });
    await pollAppNow(ref);

    // Read from the public feed and delivered.
    const first = w.feed.publish(ios.appId, 'us', { title: 'Calm mornings', content: `Lovely ${marker(1)}`, author: 'Maya K', rating: 5 });
    await pollAppNow(ref);
    await drainDeliveries();

    // Switch to App Store Connect, whose first poll does not list that review yet (the two publish at their own pace).
    asc.publish(ios.appId, { title: 'Older', body: 'From before', reviewerNickname: 'Sam', createdDate: new Date(Date.now() - 3 * 86_400_000) });
    expect((await put(owner.token, key, ascBody(adminKey))).status).toBe(200);
    await pollAppNow(ref);
    asc.publish(ios.appId, { title: 'Calm mornings', body: `Lovely ${marker(1)}`, reviewerNickname: 'Maya K', rating: 5, createdDate: first.updated, territory: 'USA' });
    const second = asc.publish(ios.appId, { title: 'Widgets', body: `Fresh ${marker(2)}`, reviewerNickname: 'Ana', rating: 4, territory: 'USA' });
    await pollAppNow(ref);
    await drainDeliveries();

    // Back to the feed, which lists the review App Store Connect brought (under its own id) and a new one.
    expect((await del(owner.token, key)).status).toBe(200);
    expect(await sources(key)).toEqual({ 'appstore_feed:us': 'active', appstore_connect: 'idle' });
    w.feed.publish(ios.appId, 'us', { title: 'Widgets', content: `Fresh ${marker(2)}`, author: 'Ana', rating: 4, updated: second.createdDate });
    w.feed.publish(ios.appId, 'us', { title: 'Back', content: `Again ${marker(3)}`, author: 'Leo', rating: 3 });
    await pollAppNow(ref);
    await drainDeliveries();

    const delivered = hook.delivered().flatMap((d) => markersIn(d.raw));
    expect(delivered.sort()).toEqual([marker(1), marker(2), marker(3)]);
    const db = await getDb();
    const rows = await db.selectFrom('reviews').select('body').where('app_key', '=', key).execute();
    expect(rows.map((r) => r.body).sort()).toEqual(['Again rvw3x', 'Fresh rvw2x', 'From before', 'Lovely rvw1x']);

    // The other organisation never stored a key: its inbox has every review, each once.
    const inbox = await call<{ content_body: string }[]>(w.api, 'GET', `/api/v1/org/reviews?app=${key}`, undefined, { token: other.token, ip: newIp() });
    expect(inbox.status, inbox.text).toBe(200);
    expect(inbox.json.data.map((x) => x.content_body).sort()).toEqual(['Again rvw3x', 'Fresh rvw2x', 'From before', 'Lovely rvw1x']);
  });

  test('Google Play: the public and Developer API ids differ, and the title only the API has does not make an edit', async () => {
    clearGoogleTokenCache();
    const owner = await newOwner();
    const app = newPlayApp(w);
    const ref = { store: 'google_play_store' as const, appId: app.appId };
    const key = await addApp(owner.token, 'google_play_store', app.appId);
    const hook = w.chat.hook('discord');
    await createDestination({ orgId: owner.orgId, platform: 'discord', url: hook.url, apps: [{ ...ref, title: app.title }], welcomeCount: 0 });
    await pollAppNow(ref);

    const at = new Date();
    w.play.publish(app.appId, 'en', { id: 'gp:public-only-id', userName: 'Rin', score: 2, text: `Crashes ${marker(11)}`, at });
    await pollAppNow(ref);
    await drainDeliveries();

    play.addApp(account, app.appId);
    expect((await put(owner.token, key, playBody(account))).status).toBe(200);
    await pollAppNow(ref);
    play.publish(account, app.appId, { reviewId: 'developer-api-id', authorName: 'Rin', starRating: 2, title: 'Since 2.4', body: `Crashes ${marker(11)}`, lastModified: at });
    play.publish(account, app.appId, { authorName: 'Kai', starRating: 5, body: `Fixed ${marker(12)}` });
    await pollAppNow(ref);
    await drainDeliveries();

    expect(hook.delivered().flatMap((d) => markersIn(d.raw)).sort()).toEqual([marker(11), marker(12)]);
    const db = await getDb();
    const rows = await db.selectFrom('reviews').select(['store_review_id', 'title', 'body', 'version']).where('app_key', '=', key).orderBy('body').execute();
    expect(rows).toEqual([
      { store_review_id: 'developer-api-id', title: 'Since 2.4', body: `Crashes ${marker(11)}`, version: 0 },
      { store_review_id: expect.any(String), title: null, body: `Fixed ${marker(12)}`, version: 0 },
    ]);
  });
});
