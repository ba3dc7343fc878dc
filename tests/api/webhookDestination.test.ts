// Signed webhook destinations through the real routes, the real engine's steps, a real database (PGlite and
// PostgreSQL) and a loopback endpoint that checks every request's Standard Webhooks signature with the
// `standardwebhooks` package (not ARB's signer): an admin adds one from the dashboard and sees its secret once; each
// review arrives as JSON in the public API's review shape, signed; a 5xx is retried with the same webhook-id and the
// review is received once; webhook-ids are never reused, even by a database restored from a backup; the secret is
// stored encrypted and can be rotated, the old one signing next to the new one for a day; anonymous, plain-http and
// private addresses are refused, and the SSRF guard stops a delivery to a private address before anything is sent.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { getDb } from '@/server/db/client';
import { decryptSecret } from '@/server/crypto';
import { createWebhookSender } from '@/server/destinations/send';
import { drainDeliveries, pollAppNow } from '@/server/monitor/service';
import { getDestinationStatus } from '@/server/destinations/records';
import { call } from '../helpers/request';
import { memberOf, newOwner, type SignedInUser } from '../helpers/orgs';
import { verifySignature, type ChatHook, type ChatRequest } from '../fakes/chatWebhooks';
import { marker, newIosApp, newIp, payloadFor, startConnectWorld, type ConnectWorld } from './support/connectWorld';

const w = {} as { world: ConnectWorld };
beforeAll(async () => {
  w.world = await startConnectWorld({ PUBLIC_API_RATE_PER_MINUTE: '1000' });
}, 60_000);
afterAll(() => w.world.close());

type Connected = { destination_id: string; created: boolean; signing_secret?: string | null; platform: string };
type Event = { type: string; version?: number; timestamp: string | null; data: Record<string, unknown> };

const as = (u: { token: string } | null) => ({ ip: newIp(), ...(u ? { token: u.token } : {}) });
const retryFast = { retryBaseMs: 200, timeoutMs: 20_000 };

function connect(u: SignedInUser | null, appId: string, url: string) {
  return call<Connected>(w.world.api, 'POST', '/api/v1/oauth/platform/connect', { platform: 'webhook', payload: payloadFor({ app_id: appId, webhook_url: url }) }, as(u));
}

/** Reviews `from`…`to` in the app's US feed, each newer than the last (and than any published before). */
function publish(appId: string, from: number, to: number) {
  for (let i = from; i <= to; i++) w.world.feed.publish(appId, 'us', { title: `Title ${i}`, content: `Text ${marker(i)}`, rating: 2, updated: new Date(Date.now() + i) });
}

/** An admin's Webhook destination for a new app with `reviews` reviews, its welcome and reviews delivered. */
async function addWebhook(owner: SignedInUser, reviews = 2) {
  const app = newIosApp(w.world);
  publish(app.appId, 1, reviews);
  const hook = w.world.chat.hook('webhook');
  const r = await connect(owner, app.appId, hook.url);
  expect(r.status, r.text).toBe(200);
  const secret = r.json.data.signing_secret!;
  hook.signingSecret = secret;
  await pollAppNow({ store: 'apple_app_store', appId: app.appId });
  await drainDeliveries();
  return { app, hook, secret, id: r.json.data.destination_id };
}

const events = (hook: ChatHook, filter: (r: ChatRequest) => boolean = () => true) => hook.requests.filter(filter).map((r) => r.body as Event);
const reviewEvents = (hook: ChatHook) => hook.delivered().filter((r) => (r.body as Event).type.startsWith('review.'));

describe('adding a Webhook destination', () => {
  test('the secret is in the answer once; every request is signed; reviews come in the public API’s review shape', async () => {
    const owner = await newOwner();
    const { app, hook, secret, id } = await addWebhook(owner, 2);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64').length).toBe(32);

    // Welcome, then the two reviews, each verified by the reference library on arrival.
    expect(hook.delivered()).toHaveLength(3);
    expect(hook.requests.every((r) => r.signatureValid === true && verifySignature(secret, r))).toBe(true);
    expect(events(hook).map((e) => e.type)).toEqual(['destination.connected', 'review.created', 'review.created']);
    const first = hook.requests[1];
    expect(first.headers['content-type']).toMatch(/^application\/json/);
    expect(first.headers['webhook-id']).toBe(first.headers['idempotency-key']);
    expect(hook.requests.map((r) => r.headers['webhook-id'])).toEqual(hook.requests.map(() => expect.stringMatching(/^msg_[0-9a-f]{32}$/)));
    // The welcome carries the time of the connection, as every event carries its own.
    const connected = events(hook)[0];
    expect(Math.abs(new Date(connected.timestamp!).getTime() - Date.now())).toBeLessThan(60_000);
    expect(Math.abs(Number(first.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
    // Signed with another secret, the same request does not verify: the check is real.
    expect(verifySignature(`whsec_${Buffer.alloc(32, 7).toString('base64')}`, first)).toBe(false);

    // The same review through the public API has the same fields and values.
    expect((await call(w.world.api, 'POST', '/api/v1/org/apps', { app_id: app.appId, app_store: 'apple_app_store' }, as(owner))).status).toBeLessThan(300);
    const key = await call<{ key: string }>(w.world.api, 'POST', '/api/v1/org/api-keys', { name: 'n8n' }, as(owner));
    const page = await call<Array<Record<string, unknown>>>(w.world.api, 'GET', `/api/v1/apps/apple_app_store__${app.appId}/reviews`, undefined, { token: key.json.data.key });
    expect(page.status, page.text).toBe(200);
    const fromApi = [...page.json.data].reverse(); // oldest first, as they were delivered
    expect(reviewEvents(hook).map((r) => (r.body as Event).data)).toEqual(fromApi);
    // Payload version 2: the review's times are the public API's unix seconds; the envelope's timestamp stays ISO 8601.
    for (const r of reviewEvents(hook)) {
      const e = r.body as Event;
      expect(e.version).toBe(2);
      expect(e.data.content_updated_at).toBe(Math.floor(Date.parse(e.timestamp!) / 1000));
    }

    // Stored encrypted: the row holds no readable secret.
    const row = await (await getDb()).selectFrom('destinations').select(['signing_secret_enc', 'target_enc']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.signing_secret_enc).not.toContain(secret.slice(6, 20));
    expect(decryptSecret(row.signing_secret_enc!)).toBe(secret);

    // Connecting the same endpoint again returns the same destination, without the secret.
    const again = await connect(owner, app.appId, hook.url);
    expect(again.json.data).toMatchObject({ destination_id: id, created: false });
    expect(again.json.data.signing_secret ?? null).toBeNull();
  });

  test('without a sign-in, with plain http or a private address, it is refused with what to do', async () => {
    const owner = await newOwner();
    const app = newIosApp(w.world);
    const anonymous = await connect(null, app.appId, w.world.chat.hook('webhook').url);
    expect(anonymous.status).toBe(401);
    expect(anonymous.json.error.message).toMatch(/Sign in to add a Webhook destination/);
    for (const [url, words] of [
      ['http://hooks.example.com/arb', /must start with https/],
      ['https://10.1.2.3/arb', /private network/],
      ['https://192.168.0.10:8443/arb', /private network/],
      ['https://intranet.local/arb', /private network/],
      ['ftp://example.com/arb', /isn't an https URL/],
    ] as const) {
      const r = await connect(owner, app.appId, url);
      expect(r.status, url).toBe(400);
      expect(r.json.error.message, url).toMatch(words);
    }
    // Any public https endpoint is fine, custom port and query included (n8n listens on 5678).
    expect((await connect(owner, app.appId, 'https://n8n.example.com:5678/webhook/arb?x=1')).status).toBe(200);
  });
});

describe('delivery', () => {
  test('a 5xx is retried with the same webhook-id, signed again; the review is received once', async () => {
    const owner = await newOwner();
    const { app, hook, secret } = await addWebhook(owner, 1);
    hook.script({ kind: 'server_error', status: 503 }, 2);
    publish(app.appId, 2, 2);
    await pollAppNow({ store: 'apple_app_store', appId: app.appId });
    await drainDeliveries({ ...retryFast, waitForRetries: true });
    const attempts = hook.requests.filter((r) => JSON.stringify(r.body).includes(marker(2)));
    expect(attempts.map((r) => r.status)).toEqual([503, 503, 204]);
    expect(new Set(attempts.map((r) => r.headers['webhook-id'])).size).toBe(1);
    // The id is the one stored with the message when it was queued, so a restarted worker sends it under the same id.
    const stored = await (await getDb()).selectFrom('deliveries').select('webhook_id').where('webhook_id', '=', String(attempts[0].headers['webhook-id'])).execute();
    expect(stored).toHaveLength(1);
    expect(attempts.every((r) => verifySignature(secret, r))).toBe(true);
    // Polling again sends nothing new: each review reached the endpoint once.
    await pollAppNow({ store: 'apple_app_store', appId: app.appId });
    await drainDeliveries();
    const received = reviewEvents(hook).map((r) => (r.body as Event).data.id);
    expect(received).toHaveLength(2);
    expect(new Set(received).size).toBe(2);
  });

  test('a webhook-id is never used for another message: not after a database restore; rows older than the ids get their own', async () => {
    const owner = await newOwner();
    const { app, hook, id } = await addWebhook(owner, 1);
    const db = await getDb();
    const before = hook.requests.map((r) => String(r.headers['webhook-id']));
    expect(before).toHaveLength(2); // the welcome and review 1

    // A restore from a backup taken before those two messages: their rows are gone and row ids count from there again.
    const [first] = await db.selectFrom('deliveries').select('id').where('destination_id', '=', id).orderBy('id').limit(1).execute();
    await db.deleteFrom('deliveries').where('id', '>=', first.id).execute();
    await sql`select setval('deliveries_id_seq', ${first.id}, false)`.execute(db);
    publish(app.appId, 2, 2);
    await pollAppNow({ store: 'apple_app_store', appId: app.appId });
    await drainDeliveries();
    const reused = await db.selectFrom('deliveries').select(['id', 'webhook_id']).where('destination_id', '=', id).executeTakeFirstOrThrow();
    expect(Number(reused.id)).toBe(Number(first.id)); // the same row id as the welcome the receiver already has
    const review2 = hook.requests.at(-1)!;
    expect(JSON.stringify(review2.body)).toContain(marker(2));
    // A receiver that drops repeats by webhook-id (as the specification asks) keeps it: its id is new.
    expect(before).not.toContain(review2.headers['webhook-id']);
    expect(review2.headers['webhook-id']).toBe(reused.webhook_id);

    // A message queued before migration 0034 (no stored id) is sent under one made of its destination's random id.
    publish(app.appId, 3, 3);
    await pollAppNow({ store: 'apple_app_store', appId: app.appId });
    const [open] = await db.updateTable('deliveries').set({ webhook_id: null }).where('destination_id', '=', id).where('status', '=', 'pending').returning('id').execute();
    await drainDeliveries();
    const review3 = hook.requests.at(-1)!;
    expect(JSON.stringify(review3.body)).toContain(marker(3));
    expect(review3.headers['webhook-id']).toBe(`msg_${id}-${open.id}`);
    expect(review3.signatureValid).toBe(true);
  });

  test('after a rotation both secrets sign for a day, then the new one alone; members may not rotate; other platforms have no secret', async () => {
    const owner = await newOwner();
    const { app, hook, secret, id } = await addWebhook(owner, 1);
    const member = await memberOf(owner, 'member');
    expect((await call(w.world.api, 'POST', `/api/v1/org/destinations/${id}/rotate-secret`, {}, as(member))).status).toBe(403);
    const rotated = await call<{ signing_secret: string; previous_secret_expires_at: string }>(w.world.api, 'POST', `/api/v1/org/destinations/${id}/rotate-secret`, {}, as(owner));
    expect(rotated.status, rotated.text).toBe(200);
    const next = rotated.json.data.signing_secret;
    expect(next).toMatch(/^whsec_/);
    expect(next).not.toBe(secret);
    const graceEnds = new Date(rotated.json.data.previous_secret_expires_at).getTime();
    expect(Math.abs(graceEnds - (Date.now() + 24 * 3600_000))).toBeLessThan(60_000);

    // The endpoint still has the old secret: the test message and the next review verify with it, and with the new one
    // (`v1,<new> v1,<old>`), checked by the standardwebhooks package.
    const test1 = await call<{ ok: boolean }>(w.world.api, 'POST', `/api/v1/org/destinations/${id}/test`, {}, as(owner));
    expect(test1.json.data.ok, test1.text).toBe(true);
    publish(app.appId, 2, 2);
    await pollAppNow({ store: 'apple_app_store', appId: app.appId });
    await drainDeliveries();
    const during = hook.requests.slice(-2);
    expect(during.map((r) => (r.body as Event).type)).toEqual(['review.test', 'review.created']);
    expect((during[0].body as Event).data.id).toBeNull();
    expect(during.every((r) => r.status === 204 && r.signatureValid === true)).toBe(true);
    expect(during.every((r) => verifySignature(next, r) && verifySignature(secret, r))).toBe(true);
    expect(during.map((r) => String(r.headers['webhook-signature']).split(' ').length)).toEqual([2, 2]);
    expect(during[0].headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);

    // The endpoint moves to the new secret; once the grace period is over, only the new one signs.
    hook.signingSecret = next;
    await (await getDb()).updateTable('destinations').set({ previous_secret_expires_at: new Date(Date.now() - 1000) }).where('id', '=', id).execute();
    publish(app.appId, 3, 3);
    await pollAppNow({ store: 'apple_app_store', appId: app.appId });
    await drainDeliveries();
    const after = hook.requests.at(-1)!;
    expect(JSON.stringify(after.body)).toContain(marker(3));
    expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verifySignature(next, after) && !verifySignature(secret, after)).toBe(true);

    // A second rotation keeps only the secret it replaces next to the new one: the first secret is gone.
    const again = await call<{ signing_secret: string }>(w.world.api, 'POST', `/api/v1/org/destinations/${id}/rotate-secret`, {}, as(owner));
    const third = again.json.data.signing_secret;
    const test2 = await call<{ ok: boolean }>(w.world.api, 'POST', `/api/v1/org/destinations/${id}/test`, {}, as(owner));
    expect(test2.json.data.ok, test2.text).toBe(true);
    const last = hook.requests.at(-1)!;
    expect(verifySignature(third, last) && verifySignature(next, last) && !verifySignature(secret, last)).toBe(true);

    const audit = await call<Array<{ action: string }>>(w.world.api, 'GET', '/api/v1/org/audit-log?limit=100', undefined, as(owner));
    expect(audit.json.data.map((e) => e.action)).toContain('destination.secret_rotated');

    const slack = w.world.chat.hook('slack');
    const chat = await call<Connected>(w.world.api, 'POST', '/api/v1/oauth/platform/connect', { platform: 'slack', payload: payloadFor({ app_id: app.appId, webhook_url: slack.url }) }, as(owner));
    expect(chat.json.data).not.toHaveProperty('signing_secret');
    const refused = await call(w.world.api, 'POST', `/api/v1/org/destinations/${chat.json.data.destination_id}/rotate-secret`, {}, as(owner));
    expect(refused.status).toBe(400);
  });

  test('the SSRF guard: an endpoint that leads to a private address gets nothing, and the destination says why', async () => {
    const owner = await newOwner();
    const app = newIosApp(w.world);
    publish(app.appId, 1, 1);
    const hook = w.world.chat.hook('webhook');
    const r = await connect(owner, app.appId, hook.url); // loopback: let through by the test setting, at connect time only
    expect(r.status, r.text).toBe(200);
    await pollAppNow({ store: 'apple_app_store', appId: app.appId });
    // The sender of a real server: no private addresses.
    const strict = createWebhookSender({ allowPrivate: false });
    try {
      await drainDeliveries({ sender: strict });
    } finally {
      await strict.close();
    }
    expect(hook.requests).toHaveLength(0);
    const status = await getDestinationStatus(r.json.data.destination_id);
    expect(status).toMatchObject({ status: 'disabled' });
    expect(status!.status_reason).toMatch(/private or internal network/);
  });
});
