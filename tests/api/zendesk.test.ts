// Zendesk through the real routes, a real database (PGlite and PostgreSQL), a loopback Zendesk that answers like
// Zendesk's Support API and fires the admin's trigger as signed webhooks, and the App Store Connect and Google Play
// Developer API fakes for the replies: connecting (checked with users/me, the token never answered), one ticket per
// review under concurrent requests and workers and after an attempt whose outcome is unknown, 429 with Retry-After,
// a public agent comment → one reply and an internal note with the outcome, bad signature, stale timestamp, replay,
// solved → done, an edited review → a note on its ticket, and who may do what (another organisation, a member, a
// removed member).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { sql } from 'kysely';
import { getDb } from '@/server/db/client';
import { pollAppNow } from '@/server/monitor/service';
import { clearGoogleTokenCache } from '@/server/sources/playDeveloper';
import { workflowOfReviews } from '@/server/workflow/data';
import { attemptTicket, requestTicket, runDueTickets } from '@/server/zendesk/tickets';
import { ZENDESK_TRIGGER_BODY } from '@/shared/zendesk';
import { memberOf, newOwner, type SignedInUser } from '../helpers/orgs';
import { call } from '../helpers/request';
import { startFakeServer, type FakeServer } from '../fakes/http';
import { createAppStoreConnectKey, type AppStoreConnectFake } from '../fakes/appStoreConnect';
import type { AndroidPublisherFake, ServiceAccountKey } from '../fakes/androidPublisher';
import { createZendesk, newSigningSecret, sendZendeskWebhook, signZendeskWebhook, zendeskRoutes, type ZendeskFake, type ZendeskUser } from '../fakes/zendesk';
import { newIosApp, newPlayApp, startConnectWorld, type ConnectWorld } from './support/connectWorld';
import { addOrgApp, as, startReplyStores, type AppRef } from './support/replyStores';

let w: ConnectWorld;
let stores: FakeServer;
let zdServer: FakeServer;
let asc: AppStoreConnectFake;
let play: AndroidPublisherFake;
let account: ServiceAccountKey;
let zd: ZendeskFake;

beforeAll(async () => {
  const replyStores = await startReplyStores('arb-zendesk');
  ({ asc, play, account, server: stores } = replyStores);
  zd = createZendesk();
  zdServer = await startFakeServer([zendeskRoutes(zd)]);
  w = await startConnectWorld({ ...replyStores.env, ZENDESK_BASE_URL: zdServer.url });
  clearGoogleTokenCache();
}, 60_000);
afterAll(async () => {
  await w?.close();
  await stores?.close();
  await zdServer?.close();
});

type Status = { connected: boolean; subdomain: string | null; email: string | null; webhook_url: string | null; signing_secret_set: boolean; signing_secret: string | null; trigger: { name: string; body: string } };
type Ticket = { review_id: string; state: string; ticket_id: number | null; url: string | null; status: string | null; failure: string | null };
type Review = { id: string; content_body: string };

const ZD = '/api/v1/org/integrations/zendesk';

const addApp = (u: SignedInUser, store: AppRef['store'], appId: string) => addOrgApp(w.api, u, { store, appId });

async function reviewIn(u: SignedInUser, key: string, body: string): Promise<Review> {
  const r = await call<Review[]>(w.api, 'GET', `/api/v1/org/reviews?app=${key}`, undefined, as(u));
  const found = r.json.data.find((x) => x.content_body === body);
  if (!found) throw new Error(`no review "${body}" in ${key}: ${r.text}`);
  return found;
}

/** An App Store app of `owner` read through App Store Connect, and one review in the inbox. */
async function iosReview(owner: SignedInUser, body = `Crashes when I export ${Math.random().toString(36).slice(2, 8)}`) {
  const key = await createAppStoreConnectKey({ role: 'CUSTOMER_SUPPORT' });
  asc.keys.push(key);
  const ios = newIosApp(w);
  const appKey = await addApp(owner, 'apple_app_store', ios.appId);
  asc.addApp(ios.appId);
  const storeReview = asc.publish(ios.appId, { body, title: 'Export broken', reviewerNickname: 'Maya K', rating: 2 });
  const saved = await call(w.api, 'PUT', `/api/v1/org/apps/${encodeURIComponent(appKey)}/credentials`, { kind: 'app_store_connect', issuer_id: key.issuerId, key_id: key.keyId, private_key: key.privateKeyPem }, as(owner));
  expect(saved.status, saved.text).toBe(200);
  await pollAppNow({ store: 'apple_app_store', appId: ios.appId });
  return { appKey, storeReview, review: await reviewIn(owner, appKey, body), title: ios.title };
}

/** `owner`'s organisation connected to a Zendesk account of its own, with the webhook's trigger set up. */
async function connected(owner: SignedInUser): Promise<{ agent: ZendeskUser; secret: string; webhookUrl: string }> {
  const agent = zd.addUser({ email: `agent-${owner.orgId.slice(4, 14).toLowerCase()}@acme.test`, role: 'admin', name: 'Ari Agent' });
  const put = await call<Status>(w.api, 'PUT', ZD, { subdomain: 'acme', email: agent.email, api_token: agent.token }, as(owner));
  expect(put.status, put.text).toBe(200);
  const secret = newSigningSecret();
  const patch = await call<Status>(w.api, 'PATCH', ZD, { signing_secret: secret }, as(owner));
  expect(patch.status, patch.text).toBe(200);
  const key = new URL(patch.json.data.webhook_url!).searchParams.get('key')!;
  const webhookUrl = `${w.api.url}/api/v1/integrations/zendesk/webhook?key=${key}`;
  zd.addTrigger({ url: webhookUrl, secret, body: ZENDESK_TRIGGER_BODY });
  return { agent, secret, webhookUrl };
}

const createTicket = (u: SignedInUser, reviewId: string) => call<Ticket>(w.api, 'POST', `/api/v1/org/reviews/${reviewId}/ticket`, {}, as(u));
const createsOf = (reviewId: string) => zd.creates.filter((c) => c.external_id === reviewId).length;
const notesOf = (ticketId: number) => zd.tickets.find((t) => t.id === ticketId)!.comments.filter((c) => !c.public).map((c) => c.body);

describe('connecting', () => {
  test('checked with users/me: a wrong token is refused in plain words; the token is never answered; members see no secret', async () => {
    const owner = await newOwner('zdconnect');
    const admin = await memberOf(owner, 'admin');
    const member = await memberOf(owner, 'member');
    const agent = zd.addUser({ email: `check-${Date.now()}@acme.test`, role: 'agent' });

    const wrong = await call(w.api, 'PUT', ZD, { subdomain: 'acme', email: agent.email, api_token: 'not-the-token' }, as(admin));
    expect(wrong.status, wrong.text).toBe(422);
    expect(wrong.json.error.message).toMatch(/did not accept the e-mail and API token/);
    expect((await call<Status>(w.api, 'GET', ZD, undefined, as(admin))).json.data.connected).toBe(false);

    const bad = await call(w.api, 'PUT', ZD, { subdomain: 'not a subdomain!', email: agent.email, api_token: agent.token }, as(admin));
    expect(bad.status).toBe(400);
    expect(bad.json.error.message).toMatch(/^subdomain: /);

    const ok = await call<Status>(w.api, 'PUT', ZD, { subdomain: 'https://Acme.zendesk.com/agent', email: agent.email.toUpperCase(), api_token: agent.token }, as(admin));
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json.data).toMatchObject({ connected: true, subdomain: 'acme', email: agent.email, signing_secret_set: false });
    expect(ok.text).not.toContain(agent.token);
    expect(zdServer.requests.filter((r) => r.path === '/api/v2/users/me.json').length).toBeGreaterThanOrEqual(2);

    const row = await (await getDb()).selectFrom('zendesk_connections').selectAll().where('org_id', '=', owner.orgId).executeTakeFirstOrThrow();
    expect(row.api_token_enc).not.toContain(agent.token);
    expect(row.api_token_enc.startsWith('v1.')).toBe(true);

    const byMember = await call<Status>(w.api, 'GET', ZD, undefined, as(member));
    expect(byMember.status).toBe(200);
    expect(byMember.json.data).toMatchObject({ connected: true, webhook_url: null, signing_secret: null });
    expect(byMember.text).not.toContain(agent.token);
    const secret = newSigningSecret();
    await call(w.api, 'PATCH', ZD, { signing_secret: secret }, as(admin));
    const byAdmin = await call<Status>(w.api, 'GET', ZD, undefined, as(admin));
    expect(byAdmin.json.data.signing_secret).toBe(secret);
    expect(byAdmin.json.data.webhook_url).toMatch(/\/api\/v1\/integrations\/zendesk\/webhook\?key=zwh_/);
    expect(byAdmin.text).not.toContain(agent.token);
    expect((await call<Status>(w.api, 'GET', ZD, undefined, as(member))).text).not.toContain(secret);

    const audit = await call<Array<{ action: string; details: unknown }>>(w.api, 'GET', '/api/v1/org/audit-log', undefined, as(owner));
    expect(audit.json.data.map((e) => e.action)).toEqual(expect.arrayContaining(['zendesk.connected', 'zendesk.webhook_secret_set']));
    expect(audit.text).not.toContain(agent.token);
    expect(audit.text).not.toContain(secret);
  });

  test('an end user, a 403 and a 429 are said plainly', async () => {
    const owner = await newOwner('zdroles');
    const endUser = zd.addUser({ email: `customer-${Date.now()}@acme.test`, role: 'end-user' });
    const r = await call(w.api, 'PUT', ZD, { subdomain: 'acme', email: endUser.email, api_token: endUser.token }, as(owner));
    expect(r.status, r.text).toBe(422);
    expect(r.json.error.message).toMatch(/end user/);
    const agent = zd.addUser({ email: `busy-${Date.now()}@acme.test` });
    zd.failNext({ status: 429, headers: { 'Retry-After': '17' }, body: { error: 'TooManyRequests' } });
    const limited = await call(w.api, 'PUT', ZD, { subdomain: 'acme', email: agent.email, api_token: agent.token }, as(owner));
    expect(limited.status, limited.text).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('17');
    expect(limited.json.error.message).toMatch(/tried again in 17 seconds/);
  });

  test('only admins connect, set the secret and disconnect; another organisation and a removed member see nothing of it', async () => {
    const owner = await newOwner('zdauth');
    const member = await memberOf(owner, 'member');
    const leaving = await memberOf(owner, 'admin', 'leaving');
    const stranger = await newOwner('zdstranger');
    const agent = zd.addUser({ email: `auth-${Date.now()}@acme.test` });
    const body = { subdomain: 'acme', email: agent.email, api_token: agent.token };
    const refused = await call(w.api, 'PUT', ZD, body, as(member));
    expect(refused.status, refused.text).toBe(403);
    expect((await call(w.api, 'PUT', ZD, body, as(owner))).status).toBe(200);
    expect((await call(w.api, 'PATCH', ZD, { signing_secret: newSigningSecret() }, as(member))).status).toBe(403);
    expect((await call(w.api, 'DELETE', ZD, {}, as(member))).status).toBe(403);

    const other = await call<Status>(w.api, 'GET', ZD, undefined, as(stranger));
    expect(other.json.data.connected).toBe(false);
    expect((await call(w.api, 'DELETE', ZD, {}, as(stranger))).status).toBe(404);
    expect((await call(w.api, 'PATCH', ZD, { signing_secret: newSigningSecret() }, as(stranger))).status).toBe(409);

    const { review } = await iosReview(owner);
    expect((await createTicket(stranger, review.id)).status).toBe(404); // another organisation's review, connected or not
    const secondAgent = zd.addUser({ email: `stranger-${Date.now()}@acme.test` });
    expect((await call(w.api, 'PUT', ZD, { subdomain: 'other', email: secondAgent.email, api_token: secondAgent.token }, as(stranger))).status).toBe(200);
    const foreign = await createTicket(stranger, review.id);
    expect(foreign.status, foreign.text).toBe(404);
    expect(createsOf(review.id)).toBe(0);

    expect((await call(w.api, 'DELETE', `/api/v1/org/members/${leaving.userId}`, undefined, as(owner))).status).toBe(200);
    const gone = await call<Status>(w.api, 'GET', ZD, undefined, as(leaving));
    if (gone.status === 200) expect(gone.json.data.connected).toBe(false);
    else expect(gone.status).toBe(401);
    expect((await call(w.api, 'DELETE', ZD, {}, as(leaving))).status).toBeGreaterThanOrEqual(400);
    expect((await call<Status>(w.api, 'GET', ZD, undefined, as(owner))).json.data.connected).toBe(true);

    expect((await call(w.api, 'DELETE', ZD, {}, as(owner))).status).toBe(200);
    expect((await call<Status>(w.api, 'GET', ZD, undefined, as(owner))).json.data.connected).toBe(false);
  });
});

describe('tickets', () => {
  test('"Create ticket": subject from stars and title, the review and its link, external_id and tags; asking again answers the same ticket', async () => {
    const owner = await newOwner('zdticket');
    const member = await memberOf(owner, 'member');
    await connected(owner);
    const { review, title, appKey } = await iosReview(owner);
    const r = await createTicket(member, review.id);
    expect(r.status, r.text).toBe(201);
    expect(r.json.data).toMatchObject({ review_id: review.id, state: 'created', status: 'new', failure: null });
    const t = zd.ticketByExternalId(review.id)!;
    expect(r.json.data.ticket_id).toBe(t.id);
    expect(r.json.data.url).toBe(`${zdServer.url}/agent/tickets/${t.id}`);
    expect(t.subject).toBe(`★★☆☆☆ Export broken — ${title}`);
    expect(t.tags).toEqual(expect.arrayContaining(['arb', 'app_store', 'stars_2']));
    expect(t.comments[0].body).toContain(review.content_body);
    expect(t.comments[0].body).toContain(`/dashboard/reviews?review=${review.id}`);
    expect(t.comments[0].body).toContain('Maya K rated');
    const again = await createTicket(owner, review.id);
    expect(again.status, again.text).toBe(200);
    expect(again.json.data.ticket_id).toBe(t.id);
    expect(createsOf(review.id)).toBe(1);
    // The inbox and the review's detail carry the link, so a reload shows the ticket, not "Create ticket" again.
    const listed = (await call<Array<Review & { ticket: unknown }>>(w.api, 'GET', `/api/v1/org/reviews?app=${encodeURIComponent(appKey)}`, undefined, as(member))).json.data.find((x) => x.id === review.id);
    expect(listed?.ticket).toEqual({ ticket_id: t.id, url: `${zdServer.url}/agent/tickets/${t.id}`, status: 'new' });
    const detail = await call<{ ticket: unknown }>(w.api, 'GET', `/api/v1/org/reviews/${review.id}`, undefined, as(member));
    expect(detail.json.data.ticket).toEqual(listed?.ticket);
    const audit = await call<Array<{ action: string }>>(w.api, 'GET', '/api/v1/org/audit-log', undefined, as(owner));
    expect(audit.json.data.map((e) => e.action)).toContain('review.ticket_requested');
  });

  test('one ticket under two concurrent requests and two workers', async () => {
    const owner = await newOwner('zdrace');
    await connected(owner);
    const { review } = await iosReview(owner);
    const [a, b] = await Promise.all([createTicket(owner, review.id), createTicket(owner, review.id)]);
    // One creates it (201); the other waits for that attempt and finds it (200) — never "queued" for a ticket being made.
    expect([a.status, b.status].sort()).toEqual([200, 201]);
    expect(createsOf(review.id)).toBe(1);

    const { review: second } = await iosReview(owner);
    const actor = { kind: 'rule' as const, ruleId: 'rul_x', ruleName: 'Billing to Zendesk' };
    const outcomes = await Promise.all([requestTicket({ orgId: owner.orgId, reviewId: second.id, actor }), requestTicket({ orgId: owner.orgId, reviewId: second.id, actor })]);
    expect(outcomes.map((o) => o.outcome).sort()).toEqual(['exists', 'queued']);
    await Promise.all([runDueTickets(), runDueTickets(), runDueTickets()]);
    expect(createsOf(second.id)).toBe(1);
    const row = await (await getDb()).selectFrom('zendesk_tickets').selectAll().where('review_id', '=', Number(second.id)).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ state: 'created', requested_by: 'rule "Billing to Zendesk"' });
  });

  test('after an attempt whose answer was lost, the ticket is found by external_id, not created again', async () => {
    const owner = await newOwner('zdlost');
    await connected(owner);
    const { review } = await iosReview(owner);
    zd.dropNextCreateAnswer();
    const r = await createTicket(owner, review.id);
    expect(r.status, r.text).toBe(202);
    expect(r.json.data.state).toBe('queued');
    expect(r.json.data.failure).toMatch(/could not be reached|did not answer/);
    expect(createsOf(review.id)).toBe(1);
    const db = await getDb();
    const row = await db.updateTable('zendesk_tickets').set({ next_attempt_at: sql<Date>`now()` }).where('review_id', '=', Number(review.id)).returningAll().executeTakeFirstOrThrow();
    expect(await attemptTicket(row.id)).toMatchObject({ state: 'created', ticket_id: zd.ticketByExternalId(review.id)!.id });
    expect(createsOf(review.id)).toBe(1);
  });

  test("429 waits for Zendesk's Retry-After; a 401 later fails with the reason", async () => {
    const owner = await newOwner('zdlimit');
    await connected(owner);
    const { review } = await iosReview(owner);
    zd.failNext({ status: 429, headers: { 'Retry-After': '42' }, body: { error: 'TooManyRequests' } });
    const r = await createTicket(owner, review.id);
    expect(r.status, r.text).toBe(202);
    expect(r.json.data.failure).toMatch(/tried again in 42 seconds/);
    const row = await (await getDb()).selectFrom('zendesk_tickets').selectAll().where('review_id', '=', Number(review.id)).executeTakeFirstOrThrow();
    const wait = row.next_attempt_at!.getTime() - Date.now();
    expect(wait).toBeGreaterThan(35_000);
    expect(wait).toBeLessThan(45_000);

    const { review: other } = await iosReview(owner);
    zd.failNext({ status: 401, body: { error: "Couldn't authenticate you" } });
    const refused = await createTicket(owner, other.id);
    expect(refused.status, refused.text).toBe(422);
    expect(refused.json.error.message).toMatch(/did not accept the e-mail and API token/);
    // Asked again (the token fixed): queued anew.
    expect((await createTicket(owner, other.id)).status).toBe(201);
  });
});

describe('the webhook', () => {
  async function ticketed(prefix: string) {
    const owner = await newOwner(prefix);
    const z = await connected(owner);
    const ios = await iosReview(owner);
    const r = await createTicket(owner, ios.review.id);
    expect(r.status, r.text).toBe(201);
    return { owner, ...z, ...ios, ticketId: r.json.data.ticket_id! };
  }

  test('a public agent comment becomes one reply on the App Store, and the ticket gets the outcome as an internal note; a replay does nothing', async () => {
    const { owner, agent, secret, webhookUrl, review, storeReview, ticketId } = await ticketed('zdreply');
    const posts = asc.responsePosts.length;
    const [delivery] = await zd.agentReply(ticketId, 'Hi Maya, export is fixed in 2.0.1. Thanks for telling us!', agent);
    expect(delivery.status, await delivery.clone().text()).toBe(200);
    expect(asc.responsePosts.slice(posts)).toEqual([{ reviewId: storeReview.id, responseBody: 'Hi Maya, export is fixed in 2.0.1. Thanks for telling us!' }]);
    expect(notesOf(ticketId).at(-1)).toMatch(/^Published on the App Store/);
    const reply = await (await getDb()).selectFrom('replies').selectAll().where('review_id', '=', Number(review.id)).executeTakeFirstOrThrow();
    expect(reply).toMatchObject({ state: 'pending_publish', author_label: `Zendesk ticket #${ticketId}` });

    // The same signed request again (a replay within the five minutes): taken once.
    const body = JSON.stringify({ ticket_id: String(ticketId), status: 'Open' });
    const timestamp = new Date().toISOString();
    const first = await sendZendeskWebhook(webhookUrl, secret, body, { timestamp });
    expect(first.status).toBe(200);
    const replay = await sendZendeskWebhook(webhookUrl, secret, body, { timestamp });
    expect(replay.status).toBe(200);
    expect(await replay.json()).toEqual({ data: { received: true, duplicate: true } });
    expect(asc.responsePosts.length).toBe(posts + 1);
    // Another event for the ticket with no new comment sends nothing either.
    expect((await zd.agentReply(ticketId, 'Internal: customer happy', agent, { isPublic: false }))).toEqual([]);
    expect(asc.responsePosts.length).toBe(posts + 1);
    const audit = await call<Array<{ action: string }>>(w.api, 'GET', '/api/v1/org/audit-log', undefined, as(owner));
    expect(audit.json.data.filter((e) => e.action === 'review.replied')).toHaveLength(1);
  });

  test("a reply the store refuses: the note says the store's reason", async () => {
    const { agent, ticketId } = await ticketed('zdtoolong');
    const posts = asc.responsePosts.length;
    await zd.agentReply(ticketId, 'x'.repeat(6000), agent);
    expect(asc.responsePosts.length).toBe(posts);
    expect(notesOf(ticketId).at(-1)).toMatch(/^Not published on the App Store: text: an? App Store reply can be at most 5,970 characters/);
  });

  test('a wrong signature, a stale timestamp, an unknown key and no secret yet are refused', async () => {
    const { secret, webhookUrl, ticketId } = await ticketed('zdsig');
    const body = JSON.stringify({ ticket_id: String(ticketId), status: 'Open' });
    const wrong = await sendZendeskWebhook(webhookUrl, newSigningSecret(), body);
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as { error: { message: string } }).error.message).toMatch(/does not match/);
    const tampered = await sendZendeskWebhook(webhookUrl, secret, body, { signature: signZendeskWebhook(secret, new Date().toISOString(), `${body} `) });
    expect(tampered.status).toBe(401);
    const stale = await sendZendeskWebhook(webhookUrl, secret, body, { timestamp: new Date(Date.now() - 6 * 60_000).toISOString() });
    expect(stale.status).toBe(401);
    expect(((await stale.json()) as { error: { message: string } }).error.message).toMatch(/more than five minutes/);
    const unknown = await sendZendeskWebhook(webhookUrl.replace(/key=zwh_.{4}/, 'key=zwh_ZZZZ'), secret, body);
    expect(unknown.status).toBe(404);
    const malformed = await sendZendeskWebhook(`${w.api.url}/api/v1/integrations/zendesk/webhook?key=nope`, secret, body);
    expect(malformed.status).toBe(400);

    const owner = await newOwner('zdnosecret');
    const agent = zd.addUser({ email: `nosecret-${Date.now()}@acme.test` });
    const put = await call<Status>(w.api, 'PUT', ZD, { subdomain: 'acme', email: agent.email, api_token: agent.token }, as(owner));
    const key = new URL(put.json.data.webhook_url!).searchParams.get('key')!;
    const noSecret = await sendZendeskWebhook(`${w.api.url}/api/v1/integrations/zendesk/webhook?key=${key}`, secret, body);
    expect(noSecret.status).toBe(401);
    expect(((await noSecret.json()) as { error: { message: string } }).error.message).toMatch(/signing secret/);
  });

  test('the ticket solved marks the review done', async () => {
    const { owner, agent, review, ticketId } = await ticketed('zdsolved');
    const [d] = await zd.solve(ticketId, agent);
    expect(d.status, await d.clone().text()).toBe(200);
    expect((await workflowOfReviews(owner.orgId, [review.id])).get(review.id)?.status).toBe('done');
    const row = await (await getDb()).selectFrom('zendesk_tickets').selectAll().where('review_id', '=', Number(review.id)).executeTakeFirstOrThrow();
    expect(row.ticket_status).toBe('solved');
  });

  test('an edited review adds a note to its ticket', async () => {
    const owner = await newOwner('zdedit');
    await connected(owner);
    const app = newPlayApp(w);
    const appKey = await addApp(owner, 'google_play_store', app.appId);
    play.addApp(account, app.appId);
    const body = `Ads everywhere ${Math.random().toString(36).slice(2, 8)}`;
    const storeReview = play.publish(account, app.appId, { body, authorName: 'Rin', starRating: 1, lastModified: new Date(Date.now() - 60_000) });
    expect((await call(w.api, 'PUT', `/api/v1/org/apps/${encodeURIComponent(appKey)}/credentials`, { kind: 'google_play', service_account_json: account.json }, as(owner))).status).toBe(200);
    await pollAppNow({ store: 'google_play_store', appId: app.appId });
    const review = await reviewIn(owner, appKey, body);
    const t = await createTicket(owner, review.id);
    expect(t.status, t.text).toBe(201);
    expect(zd.ticketByExternalId(review.id)!.tags).toEqual(expect.arrayContaining(['google_play', 'stars_1']));

    play.edit(app.appId, storeReview.reviewId, { body: 'Ads are gone after the update, thanks', starRating: 4 });
    await pollAppNow({ store: 'google_play_store', appId: app.appId });
    await runDueTickets();
    const notes = notesOf(t.json.data.ticket_id!);
    expect(notes.at(-1)).toContain('Rin edited the review: now 4 of 5 stars.');
    expect(notes.at(-1)).toContain('Ads are gone after the update, thanks');
    await runDueTickets();
    expect(notesOf(t.json.data.ticket_id!).length).toBe(notes.length);
  });
});
