// Signed webhook destinations through the real routes, the real engine's steps, a real database (PGlite and
// PostgreSQL) and a loopback endpoint that checks every request's Standard Webhooks signature with the
// `standardwebhooks` package (not ARB's signer): an admin adds one from the dashboard and sees its secret once; each
// review arrives as JSON in the public API's review shape, signed; a 5xx is retried with the same webhook-id and the
// review is received once; the secret is stored encrypted and can be rotated; anonymous, plain-http and private
// addresses are refused, and the SSRF guard stops a delivery to a private address before anything is sent.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { getDb } from '@/server/db/client';
import { decryptSecret } from '@/server/crypto';
import { createWebhookSender } from '@/server/destinations/send';
import { drainDeliveries, getDestinationStatus, pollAppNow } from '@/server/monitor/service';
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
type Event = { type: string; timestamp: string | null; data: Record<string, unknown> };

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
    expect(attempts.every((r) => verifySignature(secret, r))).toBe(true);
    // Polling again sends nothing new: each review reached the endpoint once.
    await pollAppNow({ store: 'apple_app_store', appId: app.appId });
    await drainDeliveries();
    const received = reviewEvents(hook).map((r) => (r.body as Event).data.id);
    expect(received).toHaveLength(2);
    expect(new Set(received).size).toBe(2);
  });

  test('a rotated secret signs from then on; members may not rotate; other platforms have no secret', async () => {
    const owner = await newOwner();
    const { app, hook, secret, id } = await addWebhook(owner, 1);
    const member = await memberOf(owner, 'member');
    expect((await call(w.world.api, 'POST', `/api/v1/org/destinations/${id}/rotate-secret`, {}, as(member))).status).toBe(403);
    const rotated = await call<{ signing_secret: string }>(w.world.api, 'POST', `/api/v1/org/destinations/${id}/rotate-secret`, {}, as(owner));
    expect(rotated.status, rotated.text).toBe(200);
    const next = rotated.json.data.signing_secret;
    expect(next).toMatch(/^whsec_/);
    expect(next).not.toBe(secret);
    hook.signingSecret = next;

    // The dashboard's test message: signed with the new secret, `review.test`, no stored review.
    const test1 = await call<{ ok: boolean }>(w.world.api, 'POST', `/api/v1/org/destinations/${id}/test`, {}, as(owner));
    expect(test1.json.data.ok, test1.text).toBe(true);
    publish(app.appId, 2, 2);
    await pollAppNow({ store: 'apple_app_store', appId: app.appId });
    await drainDeliveries();
    const after = hook.requests.slice(-2);
    expect(after.map((r) => (r.body as Event).type)).toEqual(['review.test', 'review.created']);
    expect((after[0].body as Event).data.id).toBeNull();
    expect(after.every((r) => verifySignature(next, r) && !verifySignature(secret, r))).toBe(true);

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
