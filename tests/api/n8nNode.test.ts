// ARB's n8n community node (integrations/n8n), built and run inside n8n's own engine (n8n-core and n8n-workflow from
// npm, integrations/n8n/test/harness.ts) against ARB's real HTTP server on loopback with a real `arb_` key: the
// credential test, the app picker, reviews with Limit, Return All and every filter, one review, a reply sent to the
// Google Play fake, the polling trigger across polls with its static data stored as JSON between them (reviews added
// between polls, several in one second, one stored after its neighbours, one stored late with an older time: each
// emitted once, none missed), and the webhook trigger fed the exact requests ARB's webhook destination sent.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { getDb } from '@/server/db/client';
import { signWebhook } from '@/server/destinations/signing';
import { drainDeliveries, pollAppNow } from '@/server/monitor/service';
import { call } from '../helpers/request';
import { newOwner, type SignedInUser } from '../helpers/orgs';
import { appWith, HOUR, type Seed } from '../helpers/seedReviews';
import type { FakeServer } from '../fakes/http';
import type { AndroidPublisherFake, ServiceAccountKey } from '../fakes/androidPublisher';
import { newIosApp, newIp, newPlayApp, payloadFor, startConnectWorld, type ConnectWorld } from './support/connectWorld';
import { addOrgApp, as, saveStoreCredentials, startReplyStores } from './support/replyStores';
import { startN8n, type Item, type N8n } from '../../integrations/n8n/test/harness';
import { newApiKey } from './support/apiKeys';

let w: ConnectWorld;
let stores: FakeServer;
let play: AndroidPublisherFake;
let account: ServiceAccountKey;
let n8n: N8n;
let owner: SignedInUser;
let key: string;

beforeAll(async () => {
  const replyStores = await startReplyStores('arb-n8n');
  ({ play, account, server: stores } = replyStores);
  w = await startConnectWorld({ ...replyStores.env, PUBLIC_API_RATE_PER_MINUTE: '10000' });
  n8n = await startN8n();
  owner = await newOwner('n8n');
  key = await keyOf(owner);
}, 120_000);
afterAll(async () => {
  n8n?.close();
  await w?.close();
  await stores?.close();
});

const keyOf = async (u: SignedInUser): Promise<string> => (await newApiKey(w.api, as(u), 'n8n')).key;

const arbApi = (apiKey = key, baseUrl = w.api.url) => ({ type: 'arbApi', data: { baseUrl, apiKey } });
const byId = (id: string) => ({ __rl: true, mode: 'id', value: id });
const reviewsNode = (app: string, parameters: Record<string, unknown> = {}) =>
  n8n.node('arb', { resource: 'review', operation: 'getAll', app: byId(app), ...parameters } as never, arbApi());
const bodies = (items: Item[]) => items.map((i) => i.content_body);
const seeds = (n: number, f: (i: number) => Partial<Seed> = () => ({})): Seed[] => Array.from({ length: n }, (_, i) => ({ body: `review ${i}`, hoursAgo: i + 1, ...f(i) }));

test("n8n's package loader finds the three nodes and two credentials package.json names", () => {
  expect(n8n.loaded).toEqual({
    nodes: ['n8n-nodes-arb.arb', 'n8n-nodes-arb.arbTrigger', 'n8n-nodes-arb.arbWebhookTrigger'],
    credentials: ['arbApi', 'arbWebhookSecret'],
  });
});

describe('the credential', () => {
  test("n8n's credential test lists the apps with the key as a bearer token: a good key passes, a wrong one fails", async () => {
    expect(await n8n.testCredential('arbApi', arbApi().data)).toEqual({ status: 'OK', message: 'Connection successful!' });
    expect(await n8n.testCredential('arbApi', arbApi(key, `${w.api.url}/`).data)).toMatchObject({ status: 'OK' });
    const wrong = await n8n.testCredential('arbApi', arbApi(`${key.slice(0, -2)}xx`).data);
    expect(wrong.status).toBe('Error');
    expect(wrong.message).toMatch(/401|Unauthorized/);
  });
});

describe('apps', () => {
  test('Get Many answers the organisation’s apps; the picker shows "Title (App Store)" and "Title (Google Play)" and searches', async () => {
    const u = await newOwner('picker');
    const ios = await appWith(u, 'apple_app_store', seeds(1));
    const android = await appWith(u, 'google_play_store', seeds(1));
    const cred = arbApi(await keyOf(u));
    const { items, error } = await n8n.run(n8n.node('arb', { resource: 'app', operation: 'getAll' }, cred));
    expect(error).toBeUndefined();
    expect(items.map((a) => a.id).sort()).toEqual([ios, android].sort());

    const picker = n8n.node('arb', { resource: 'review', operation: 'getAll' }, cred);
    const listed = await n8n.listSearch(picker, 'searchApps');
    const title = (k: string) => `App ${k.split('__')[1]}`;
    expect(listed.results).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: `${title(ios)} (App Store)`, value: ios }),
        expect.objectContaining({ name: `${title(android)} (Google Play)`, value: android }),
      ]),
    );
    expect(listed.results).toHaveLength(2);
    expect((await n8n.listSearch(picker, 'searchApps', 'google play')).results.map((r) => r.value)).toEqual([android]);
  });
});

describe('reviews', () => {
  test('Get Many: Limit, Return All over several pages, newest first; an app outside the organisation is an error', async () => {
    const app = await appWith(owner, 'apple_app_store', seeds(130));
    const five = await n8n.run(reviewsNode(app, { returnAll: false, limit: 5 }));
    expect(five.error).toBeUndefined();
    expect(bodies(five.items)).toEqual(['review 0', 'review 1', 'review 2', 'review 3', 'review 4']);

    const all = await n8n.run(reviewsNode(app, { returnAll: true }));
    expect(all.items).toHaveLength(130);
    expect(bodies(all.items)).toEqual(Array.from({ length: 130 }, (_, i) => `review ${i}`));
    expect(new Set(all.items.map((r) => r.id)).size).toBe(130);

    const theirs = await appWith(await newOwner('theirs'), 'apple_app_store', seeds(1));
    const foreign = await n8n.run(reviewsNode(theirs, { returnAll: true }));
    expect(foreign.items).toEqual([]);
    expect(foreign.error?.message).toContain("is not an app of this API key's organisation");
  });

  test('Get Many filters: Country, Rating, From and To (dates sent as unix seconds)', async () => {
    const app = await appWith(
      owner,
      'google_play_store',
      seeds(10, (i) => ({ country: i % 2 ? 'gb' : 'us', rating: (i % 5) + 1, hoursAgo: 10 * (i + 1) })),
    );
    const get = async (filters: Record<string, unknown>) => {
      const r = await n8n.run(reviewsNode(app, { returnAll: true, filters }));
      expect(r.error).toBeUndefined();
      return r.items;
    };
    expect(bodies(await get({ country: 'GB' }))).toEqual(['review 1', 'review 3', 'review 5', 'review 7', 'review 9']);
    expect(bodies(await get({ country: 'us, gb' }))).toHaveLength(10);
    expect(bodies(await get({ rating: ['1', '2'] }))).toEqual(['review 0', 'review 1', 'review 5', 'review 6']);
    expect(bodies(await get({ country: 'us', rating: ['1'] }))).toEqual(['review 0']);
    // From/To as n8n's date picker gives them (ISO) and as an expression ($now minus hours, a Luxon DateTime).
    const hoursAgo = (h: number) => new Date(Date.now() - h * HOUR).toISOString();
    expect(bodies(await get({ from: hoursAgo(35), to: hoursAgo(15) }))).toEqual(['review 1', 'review 2']);
    expect(bodies(await get({ from: '={{ $now.minus({ hours: 25 }) }}' }))).toEqual(['review 0', 'review 1']);
    const bad = await n8n.run(reviewsNode(app, { returnAll: true, filters: { from: 'last tuesday' } }));
    expect(bad.error?.message).toContain('From is not a date');
  });

  test("Get answers one review by id, as the list has it; another organisation's review is an error", async () => {
    const app = await appWith(owner, 'apple_app_store', seeds(3, (i) => ({ title: `Title ${i}` })));
    const listed = (await n8n.run(reviewsNode(app, { returnAll: true }))).items;
    const one = await n8n.run(n8n.node('arb', { resource: 'review', operation: 'get', reviewId: String(listed[1].id) }, arbApi()));
    expect(one.error).toBeUndefined();
    expect(one.items).toEqual([listed[1]]);

    const theirApp = await appWith(await newOwner('other'), 'apple_app_store', seeds(1));
    const db = await getDb();
    const theirs = await db.selectFrom('reviews').select('id').where('app_key', '=', theirApp).executeTakeFirstOrThrow();
    const foreign = await n8n.run(n8n.node('arb', { resource: 'review', operation: 'get', reviewId: String(theirs.id) }, arbApi()));
    expect(foreign.items).toEqual([]);
    expect(foreign.error?.message).toContain("is not a review of this API key's organisation");
  });

  test('Reply sends the text to the store (the Google Play fake receives it); Save as Draft keeps it in ARB', async () => {
    const app = newPlayApp(w);
    const ref = { store: 'google_play_store' as const, appId: app.appId };
    const appKey = await addOrgApp(w.api, owner, ref);
    play.addApp(account, app.appId);
    play.publish(account, app.appId, { body: 'Please add dark mode', authorName: 'Rin', starRating: 3, lastModified: new Date(Date.now() - 60_000) });
    play.publish(account, app.appId, { body: 'Crashes on start', authorName: 'Sam', starRating: 1, lastModified: new Date(Date.now() - 120_000) });
    await saveStoreCredentials(w.api, owner, appKey, { kind: 'google_play', service_account_json: account.json });
    await pollAppNow(ref);
    const [darkMode, crashes] = (await n8n.run(reviewsNode(appKey, { returnAll: true }))).items;
    expect([darkMode.content_body, crashes.content_body]).toEqual(['Please add dark mode', 'Crashes on start']);

    const sent = await n8n.run(n8n.node('arb', { resource: 'review', operation: 'reply', app: byId(appKey), reviewId: String(darkMode.id), text: 'Coming in 2.0!' }, arbApi()));
    expect(sent.error).toBeUndefined();
    expect(sent.items[0]).toMatchObject({ review_id: String(darkMode.id), state: 'pending_publish', text: 'Coming in 2.0!', by: 'API key n8n' });
    expect(play.replyPosts.at(-1)).toMatchObject({ packageName: app.appId, replyText: 'Coming in 2.0!' });

    const posts = play.replyPosts.length;
    const draft = await n8n.run(
      n8n.node('arb', { resource: 'review', operation: 'reply', app: byId(appKey), reviewId: String(crashes.id), text: 'Sorry! A fix is on its way.', replyOptions: { draft: true } }, arbApi()),
    );
    expect(draft.items[0]).toMatchObject({ state: 'draft', text: 'Sorry! A fix is on its way.' });
    expect(play.replyPosts).toHaveLength(posts);

    const tooLong = await n8n.run(n8n.node('arb', { resource: 'review', operation: 'reply', app: byId(appKey), reviewId: String(crashes.id), text: 'x'.repeat(351) }, arbApi()));
    expect(tooLong.error?.message).toMatch(/350|400|Bad request/i);
  });
});

describe('the polling trigger', () => {
  /** A review of `appKey` stored now, dated `second` (unix seconds, + `ms` within it). */
  async function store(appKey: string, body: string, second: number, ms = 0, rating = 4) {
    const db = await getDb();
    await db
      .insertInto('reviews')
      .values({
        app_key: appKey, store: 'apple_app_store', store_review_id: `n8n-${body}-${Math.random()}`, country: 'us', language: 'en', author_name: 'Someone',
        title: null, body, rating, app_version: '2.0', updated_at: new Date(second * 1000 + ms), text_language: null, reply_text: null, sentiment: null,
        sentiment_score: null, written_at: null, reply_updated_at: null, permalink: null,
      })
      .execute();
  }

  test('activation notes "now" and emits nothing; each later poll emits every new review once, across JSON-stored static data', async () => {
    const app = await appWith(owner, 'apple_app_store', seeds(3));
    const trigger = n8n.node('arbTrigger', { app: byId(app), filters: {}, options: {} }, arbApi());

    const first = await n8n.poll(trigger, '{}');
    expect(first.emitted).toBeNull();
    const watermark = (JSON.parse(first.staticData) as Record<string, { watermark: { since: number; seen: string[] } }>)[`node:${trigger.name}`].watermark;
    expect(Math.abs(watermark.since - Date.now() / 1000)).toBeLessThan(30);
    const s = watermark.since;

    // Between polls: two reviews in one second, one in the activation's own second.
    await store(app, 'same second as activation', s, 900);
    await store(app, 'a', s + 1, 100);
    await store(app, 'b', s + 1, 200);
    const second = await n8n.poll(trigger, first.staticData);
    expect(second.emitted?.map((r) => r.content_body)).toEqual(['same second as activation', 'a', 'b']);

    // Then: one more in that same second, stored after its neighbours were read; a newer one; and one stored late
    // with a time half an hour back (inside the default 60-minute window).
    await store(app, 'c, same second, stored later', s + 1, 50);
    await store(app, 'd', s + 2);
    await store(app, 'late, dated earlier', s - 1800, 0, 1);
    const third = await n8n.poll(trigger, second.staticData);
    expect(third.emitted?.map((r) => r.content_body)).toEqual(['late, dated earlier', 'c, same second, stored later', 'd']);

    // Nothing new: nothing emitted, and no review was ever emitted twice.
    const fourth = await n8n.poll(trigger, third.staticData);
    expect(fourth.emitted).toBeNull();
    const ids = [...second.emitted!, ...third.emitted!].map((r) => r.id);
    expect(new Set(ids).size).toBe(6);
    // The watermark keeps only what the window needs.
    const kept = (JSON.parse(fourth.staticData) as Record<string, { watermark: { since: number; seen: string[] } }>)[`node:${trigger.name}`].watermark;
    expect(kept.since).toBe(s + 2);
    expect(kept.seen).toHaveLength(6);
  });

  test('an edited review is emitted again; the filters apply; Late Reviews Window 0 watches only from the newest second', async () => {
    const app = await appWith(owner, 'apple_app_store', []);
    const all = n8n.node('arbTrigger', { app: byId(app), options: { lateMinutes: 0 } }, arbApi());
    const oneStar = n8n.node('arbTrigger', { app: byId(app), filters: { rating: ['1'] }, options: { lateMinutes: 0 } }, arbApi());
    let a = await n8n.poll(all, '{}');
    let b = await n8n.poll(oneStar, '{}');
    const s = (JSON.parse(a.staticData) as Record<string, { watermark: { since: number } }>)[`node:${all.name}`].watermark.since;
    await store(app, 'five stars', s + 1, 0, 5);
    await store(app, 'one star', s + 1, 500, 1);
    a = await n8n.poll(all, a.staticData);
    b = await n8n.poll(oneStar, b.staticData);
    expect(a.emitted?.map((r) => r.content_body)).toEqual(['five stars', 'one star']);
    expect(b.emitted?.map((r) => r.content_body)).toEqual(['one star']);

    const db = await getDb();
    await db.updateTable('reviews').set({ body: 'five stars, edited', updated_at: new Date((s + 3) * 1000) }).where('app_key', '=', app).where('body', '=', 'five stars').execute();
    await store(app, 'too late for a 0 window', s, 0, 1);
    a = await n8n.poll(all, a.staticData);
    b = await n8n.poll(oneStar, b.staticData);
    expect(a.emitted?.map((r) => r.content_body)).toEqual(['five stars, edited']);
    expect(b.emitted).toBeNull();
  });

  test('a manual run ("Fetch Test Event") answers the most recent review and leaves the static data alone', async () => {
    const app = await appWith(owner, 'apple_app_store', seeds(4));
    const { items, staticData } = await n8n.manualPoll(n8n.node('arbTrigger', { app: byId(app) }, arbApi()));
    expect(bodies(items)).toEqual(['review 0']);
    expect(staticData).toEqual({});
  });
});

describe('the webhook trigger', () => {
  type Connected = { destination_id: string; signing_secret?: string | null };

  /** A Webhook destination of `owner` for a new App Store app with one review, delivered: ARB's own requests. */
  async function delivered() {
    const app = newIosApp(w);
    w.feed.publish(app.appId, 'us', { title: 'Nice', content: 'Works offline too', rating: 5, updated: new Date() });
    const hook = w.chat.hook('webhook');
    const r = await call<Connected>(w.api, 'POST', '/api/v1/oauth/platform/connect', { platform: 'webhook', payload: payloadFor({ app_id: app.appId, webhook_url: hook.url }) }, { ip: newIp(), token: owner.token });
    expect(r.status, r.text).toBe(200);
    const secret = r.json.data.signing_secret!;
    hook.signingSecret = secret;
    await pollAppNow({ store: 'apple_app_store', appId: app.appId });
    await drainDeliveries();
    const review = hook.requests.find((q) => (q.body as { type: string }).type === 'review.created');
    expect(review, 'ARB delivered the review').toBeDefined();
    return { secret, request: { headers: review!.headers as Record<string, string>, raw: review!.raw } };
  }

  const webhookNode = (secret: string, events: string[] = []) => n8n.node('arbWebhookTrigger', { events }, { type: 'arbWebhookSecret', data: { secret } });

  test("ARB's signed request starts the workflow with the event; a changed body, a wrong secret or an old timestamp get 401", async () => {
    const { secret, request } = await delivered();
    const ok = await n8n.webhook(webhookNode(secret), request);
    expect(ok.answered.status).toBeUndefined();
    expect(ok.items).toHaveLength(1);
    const event = ok.items![0] as { webhook_id: string; type: string; data: Record<string, unknown> };
    expect(event).toMatchObject({ webhook_id: request.headers['webhook-id'], type: 'review.created', data: expect.objectContaining({ content_body: 'Works offline too' }) });

    const refused = async (secretUsed: string, req: typeof request) => {
      const r = await n8n.webhook(webhookNode(secretUsed), req);
      expect(r.result).toEqual({ noWebhookResponse: true });
      expect(r.items).toBeNull();
      expect(r.answered.status).toBe(401);
      return String((r.answered.body as { error: string }).error);
    };
    expect(await refused(secret, { ...request, raw: request.raw.replace('Works offline too', 'Works offline tee') })).toContain('signature does not match');
    expect(await refused(`whsec_${Buffer.alloc(32, 9).toString('base64')}`, request)).toContain('signature does not match');
    expect(await refused(secret, { ...request, headers: { ...request.headers, 'webhook-signature': '' } })).toContain('Missing');

    // Signed again by ARB's signer: six minutes old is refused, now is accepted, and so is a rotation's pair.
    const id = request.headers['webhook-id'];
    const old = signWebhook(secret, id, request.raw, new Date(Date.now() - 6 * 60_000));
    expect(await refused(secret, { ...request, headers: { ...request.headers, ...old } })).toContain('older than 5 minutes');
    const fresh = signWebhook(secret, id, request.raw);
    expect((await n8n.webhook(webhookNode(secret), { ...request, headers: { ...request.headers, ...fresh } })).items).toHaveLength(1);
    const pair = signWebhook([`whsec_${Buffer.alloc(32, 3).toString('base64')}`, secret], id, request.raw);
    expect((await n8n.webhook(webhookNode(secret), { ...request, headers: { ...request.headers, ...pair } })).items).toHaveLength(1);
  });

  test('events not chosen are accepted and start nothing', async () => {
    const { secret, request } = await delivered();
    const r = await n8n.webhook(webhookNode(secret, ['alert.spike']), request);
    expect(r.result).toEqual({});
    expect(r.answered.status).toBeUndefined();
  });
});
