// Replies that rules draft (server/replies/ruleReplies.ts queueRuleReply), through the real routes, a real database
// (PGlite and PostgreSQL) and the loopback App Store Connect and Google Play Developer API fakes: a draft waits in
// Replies → Awaiting approval and is approved (as drafted, or edited within the store's limit) or rejected; 'auto'
// sends through the outbox; never to a review with a reply on the store, never twice (two at once), never to a review
// older than 14 days, at most daily_cap per app and UTC day across rules; a store refusing the credentials pauses the
// app's automatic replies with the reason (GET/DELETE v1/org/reply-pauses); the model drafts from the template in the
// review's language; another organisation's ids and a removed member get 404; every automatic reply names its rule in
// the audit log.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { sql } from 'kysely';
import { getDb } from '@/server/db/client';
import { pollAppNow } from '@/server/monitor/service';
import { queueRuleReply } from '@/server/replies/ruleReplies';
import { clearGoogleTokenCache } from '@/server/sources/playDeveloper';
import { memberOf, newOwner, type SignedInUser } from '../helpers/orgs';
import { call } from '../helpers/request';
import type { FakeServer } from '../fakes/http';
import { startFakeLlm, type FakeLlm } from '../fakes/llm';
import { createAppStoreConnectKey, type AppStoreConnectFake } from '../fakes/appStoreConnect';
import type { AndroidPublisherFake, ServiceAccountKey } from '../fakes/androidPublisher';
import { newIosApp, newPlayApp, startConnectWorld, type ConnectWorld } from './support/connectWorld';
import { addOrgApp, as, saveStoreCredentials, startReplyStores, type AppRef } from './support/replyStores';

let w: ConnectWorld;
let stores: FakeServer;
let asc: AppStoreConnectFake;
let play: AndroidPublisherFake;
let account: ServiceAccountKey;
let llm: FakeLlm;

beforeAll(async () => {
  const replyStores = await startReplyStores('arb-approvals');
  ({ asc, play, account, server: stores } = replyStores);
  llm = await startFakeLlm();
  w = await startConnectWorld({ ...replyStores.env });
  clearGoogleTokenCache();
}, 60_000);
afterAll(async () => {
  await w?.close();
  await stores?.close();
  await llm?.close();
});

type Listed = {
  id: string;
  review_id: string;
  state: string;
  text: string;
  failure: string | null;
  by: string;
  rule: { id: string; name: string; mode: string } | null;
  drafted_by: string | null;
  decided_by: string | null;
  max_characters: number;
  review: { app_key: string; content_body: string; reply_text: string | null };
};
type Ref = AppRef;

const list = (u: SignedInUser, query = '') => call<Listed[]>(w.api, 'GET', `/api/v1/org/replies${query}`, undefined, as(u));
const approve = (u: SignedInUser, id: string, body: unknown = {}) => call<Listed>(w.api, 'POST', `/api/v1/org/replies/${id}/approve`, body, as(u));
const reject = (u: SignedInUser, id: string) => call<Listed>(w.api, 'POST', `/api/v1/org/replies/${id}/reject`, {}, as(u));

const addApp = (u: SignedInUser, ref: Ref) => addOrgApp(w.api, u, ref);
const saveCredentials = (u: SignedInUser, key: string, body: unknown) => saveStoreCredentials(w.api, u, key, body);

async function template(u: SignedInUser, appKey: string, body: string): Promise<string> {
  const r = await call<{ id: string }>(w.api, 'POST', '/api/v1/org/reply-templates', { app_key: appKey, name: `T ${Math.random().toString(36).slice(2, 6)}`, body }, as(u));
  expect(r.status, r.text).toBe(201);
  return r.json.data.id;
}

async function reviewId(appKey: string, body: string): Promise<string> {
  const row = await (await getDb()).selectFrom('reviews').select('id').where('app_key', '=', appKey).where('body', '=', body).executeTakeFirstOrThrow();
  return String(row.id);
}

/** An App Store app of `owner` read through App Store Connect with its own key, with `bodies` as its reviews. */
async function iosApp(owner: SignedInUser, bodies: string[]) {
  const key = await createAppStoreConnectKey({ role: 'CUSTOMER_SUPPORT' });
  asc.keys.push(key);
  const ios = newIosApp(w);
  const ref: Ref = { store: 'apple_app_store', appId: ios.appId };
  const appKey = await addApp(owner, ref);
  asc.addApp(ios.appId);
  const storeReviews = bodies.map((body) => asc.publish(ios.appId, { body, reviewerNickname: 'Maya K', rating: 1 }));
  await saveCredentials(owner, appKey, { kind: 'app_store_connect', issuer_id: key.issuerId, key_id: key.keyId, private_key: key.privateKeyPem });
  await pollAppNow(ref);
  const ids = await Promise.all(bodies.map((b) => reviewId(appKey, b)));
  return { key, ref, appKey, storeReviews, ids, title: ios.title };
}

/** A Google Play app of `owner` read through the Developer API, with one review (`developerComment` as given). */
async function playApp(owner: SignedInUser, body: string, developerComment: string | null = null) {
  const app = newPlayApp(w);
  const ref: Ref = { store: 'google_play_store', appId: app.appId };
  const appKey = await addApp(owner, ref);
  play.addApp(account, app.appId);
  const storeReview = play.publish(account, app.appId, {
    body,
    authorName: 'Rin',
    starRating: 1,
    lastModified: new Date(Date.now() - 60_000),
    ...(developerComment ? { developerComment: { text: developerComment, lastModified: new Date() } } : {}),
  });
  await saveCredentials(owner, appKey, { kind: 'google_play', service_account_json: account.json });
  await pollAppNow(ref);
  return { ref, appKey, storeReview, id: await reviewId(appKey, body), title: app.title };
}

const rule = (name = 'Refunds') => ({ ruleId: `rul_${name.toLowerCase().replace(/\W/g, '')}`, ruleName: name });
const unique = (s: string) => `${s} ${Math.random().toString(36).slice(2, 8)}`;

async function replyRows(reviewId: string) {
  return (await getDb()).selectFrom('replies').selectAll().where('review_id', '=', Number(reviewId)).execute();
}
const auditOf = async (u: SignedInUser) =>
  (await call<Array<{ action: string; details: Record<string, unknown> }>>(w.api, 'GET', '/api/v1/org/audit-log?limit=100', undefined, as(u))).json.data;

describe('approval mode', () => {
  test('the draft waits in Awaiting approval; a member approves it; one POST to App Store Connect; published on the next poll; the rule in the audit log', async () => {
    const owner = await newOwner('approve');
    const member = await memberOf(owner, 'member');
    const body = unique('I want a refund');
    const app = await iosApp(owner, [body]);
    const tpl = await template(owner, app.appKey, 'Sorry {author}, write to refunds@example.com and we will sort out {app}.');
    const posts = asc.responsePosts.length;

    const queued = await queueRuleReply({ orgId: owner.orgId, reviewId: app.ids[0], ...rule(), templateId: tpl, mode: 'approval', dailyCap: 10 });
    expect(queued.outcome).toBe('awaiting_approval');
    expect(asc.responsePosts.length).toBe(posts); // nothing sent

    const waiting = await list(member);
    expect(waiting.status, waiting.text).toBe(200);
    expect(waiting.json.data).toHaveLength(1);
    const draft = waiting.json.data[0];
    expect(draft).toMatchObject({
      state: 'awaiting_approval',
      text: `Sorry Maya K, write to refunds@example.com and we will sort out ${app.title}.`,
      rule: { id: 'rul_refunds', name: 'Refunds', mode: 'approval' },
      drafted_by: 'template',
      by: 'Rule "Refunds"',
      max_characters: 5970,
      review: { app_key: app.appKey, content_body: body, reply_text: null },
    });
    expect(waiting.json.has_more).toBe(false);
    // The inbox shows the draft as the review's reply state.
    const inbox = await call<Array<{ id: string; reply_state: string }>>(w.api, 'GET', `/api/v1/org/reviews?app=${app.appKey}`, undefined, as(owner));
    expect(inbox.json.data.find((r) => r.id === app.ids[0])?.reply_state).toBe('awaiting_approval');

    const ok = await approve(member, draft.id);
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json.data).toMatchObject({ state: 'pending_publish', text: draft.text, decided_by: member.email, by: member.email, rule: { name: 'Refunds' } });
    expect(asc.responsePosts.slice(posts)).toEqual([{ reviewId: app.storeReviews[0].id, responseBody: draft.text }]);
    expect((await list(member)).json.data).toHaveLength(0);
    const again = await approve(owner, draft.id);
    expect(again.status).toBe(409);
    expect(again.json.error.message).toMatch(/not awaiting approval any more: it was approved by .* and is pending publish/);
    expect(asc.responsePosts.length).toBe(posts + 1);

    await pollAppNow(app.ref);
    expect((await replyRows(app.ids[0]))[0].state).toBe('published');
    const published = await list(owner, '?state=published');
    expect(published.json.data.map((r) => r.id)).toEqual([draft.id]);

    const audit = await auditOf(owner);
    const drafted = audit.find((e) => e.action === 'review.reply_drafted');
    const approved = audit.find((e) => e.action === 'review.reply_approved');
    expect(drafted?.details).toMatchObject({ rule: 'Refunds', rule_id: 'rul_refunds', review: app.ids[0] });
    expect(approved?.details).toMatchObject({ rule: 'Refunds', edited: false, by: member.email });
  });

  test("approve with an edited text: checked against Google Play's 350 characters first, then sent as edited", async () => {
    const owner = await newOwner('edit');
    const body = unique('Charged twice');
    const app = await playApp(owner, body);
    const tpl = await template(owner, app.appKey, 'Thanks {author}, we are looking into it.');
    const queued = await queueRuleReply({ orgId: owner.orgId, reviewId: app.id, ...rule('Billing'), templateId: tpl, mode: 'approval', dailyCap: 5 });
    expect(queued.outcome).toBe('awaiting_approval');
    const [draft] = (await list(owner)).json.data;
    expect(draft.max_characters).toBe(350);
    const posts = play.replyPosts.length;

    const long = await approve(owner, draft.id, { text: 'é'.repeat(351) });
    expect(long.status, long.text).toBe(400);
    expect(long.json.error.message).toMatch(/^text: a Google Play reply can be at most 350 characters, and this one has 351/);
    const empty = await approve(owner, draft.id, { text: '   ' });
    expect(empty.status).toBe(400);
    expect((await replyRows(app.id))[0].state).toBe('awaiting_approval');
    expect(play.replyPosts.length).toBe(posts);

    const ok = await approve(owner, draft.id, { text: '  Rin, the double charge is refunded — sorry!  ' });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json.data).toMatchObject({ state: 'pending_publish', text: 'Rin, the double charge is refunded — sorry!' });
    expect(play.replyPosts.slice(posts)).toEqual([{ packageName: app.ref.appId, reviewId: app.storeReview.reviewId, replyText: 'Rin, the double charge is refunded — sorry!' }]);
    const approved = (await auditOf(owner)).find((e) => e.action === 'review.reply_approved');
    expect(approved?.details).toMatchObject({ rule: 'Billing', edited: true });
  });

  test('reject: never sent, kept as rejected, and the rule never drafts for that review again', async () => {
    const owner = await newOwner('reject');
    const body = unique('Meh');
    const app = await playApp(owner, body);
    const tpl = await template(owner, app.appKey, 'Thanks {author}!');
    await queueRuleReply({ orgId: owner.orgId, reviewId: app.id, ...rule(), templateId: tpl, mode: 'approval', dailyCap: 5 });
    const [draft] = (await list(owner)).json.data;
    const posts = play.replyPosts.length;
    const r = await reject(owner, draft.id);
    expect(r.status, r.text).toBe(200);
    expect(r.json.data).toMatchObject({ state: 'rejected', decided_by: owner.email });
    expect((await list(owner, '?state=rejected')).json.data.map((x) => x.id)).toEqual([draft.id]);
    expect((await approve(owner, draft.id)).status).toBe(409);
    const twice = await reject(owner, draft.id);
    expect(twice.status).toBe(409);
    expect(twice.json.error.message).toMatch(/it was rejected by/);
    const again = await queueRuleReply({ orgId: owner.orgId, reviewId: app.id, ...rule(), templateId: tpl, mode: 'auto', dailyCap: 5 });
    expect(again).toMatchObject({ outcome: 'skipped', reason: expect.stringMatching(/already has a reply in ARB \(rejected\)/) });
    expect(play.replyPosts.length).toBe(posts);
    expect((await auditOf(owner)).find((e) => e.action === 'review.reply_rejected')?.details).toMatchObject({ rule: 'Refunds' });
  });
});

describe('auto mode and what is never replied to', () => {
  test('auto: sent through the outbox at once; "review.replied" names the rule', async () => {
    const owner = await newOwner('auto');
    const body = unique('Love it');
    const app = await playApp(owner, body);
    const tpl = await template(owner, app.appKey, 'Thank you {author}!');
    const posts = play.replyPosts.length;
    const r = await queueRuleReply({ orgId: owner.orgId, reviewId: app.id, ...rule('Thanks'), templateId: tpl, mode: 'auto', dailyCap: 5 });
    expect(r.outcome).toBe('queued');
    expect(play.replyPosts.slice(posts)).toEqual([{ packageName: app.ref.appId, reviewId: app.storeReview.reviewId, replyText: 'Thank you Rin!' }]);
    const [row] = await replyRows(app.id);
    expect(row).toMatchObject({ state: 'pending_publish', rule_id: 'rul_thanks', rule_mode: 'auto', author_label: 'Rule "Thanks"' });
    const replied = (await auditOf(owner)).find((e) => e.action === 'review.replied');
    expect(replied?.details).toMatchObject({ rule: 'Thanks', rule_id: 'rul_thanks', mode: 'auto' });
  });

  test('already replied elsewhere: the store shows a reply, so nothing is drafted', async () => {
    const owner = await newOwner('elsewhere');
    const app = await playApp(owner, unique('Already answered'), 'Answered in Play Console');
    const tpl = await template(owner, app.appKey, 'Thanks!');
    const r = await queueRuleReply({ orgId: owner.orgId, reviewId: app.id, ...rule(), templateId: tpl, mode: 'auto', dailyCap: 5 });
    expect(r).toEqual({ outcome: 'skipped', reason: 'the review already has a reply on the store' });
    expect(await replyRows(app.id)).toEqual([]);
  });

  test('a review older than 14 days gets no automatic reply', async () => {
    const owner = await newOwner('old');
    const app = await playApp(owner, unique('Old review'));
    const tpl = await template(owner, app.appKey, 'Thanks!');
    await (await getDb()).updateTable('reviews').set({ updated_at: sql<Date>`now() - interval '15 days'` }).where('id', '=', Number(app.id)).execute();
    const r = await queueRuleReply({ orgId: owner.orgId, reviewId: app.id, ...rule(), templateId: tpl, mode: 'approval', dailyCap: 5 });
    expect(r).toEqual({ outcome: 'skipped', reason: 'the review is more than 14 days old' });
    await (await getDb()).updateTable('reviews').set({ updated_at: sql<Date>`now() - interval '13 days'` }).where('id', '=', Number(app.id)).execute();
    expect((await queueRuleReply({ orgId: owner.orgId, reviewId: app.id, ...rule(), templateId: tpl, mode: 'approval', dailyCap: 5 })).outcome).toBe('awaiting_approval');
  });

  test('never twice: two rules queueing the same review at once leave one reply and one POST to the store', async () => {
    const owner = await newOwner('twice');
    const app = await iosApp(owner, [unique('Twice please')]);
    const tpl = await template(owner, app.appKey, 'Thanks {author}!');
    const posts = asc.responsePosts.length;
    const results = await Promise.all([
      queueRuleReply({ orgId: owner.orgId, reviewId: app.ids[0], ...rule('One'), templateId: tpl, mode: 'auto', dailyCap: 5 }),
      queueRuleReply({ orgId: owner.orgId, reviewId: app.ids[0], ...rule('Two'), templateId: tpl, mode: 'auto', dailyCap: 5 }),
    ]);
    expect(results.map((r) => r.outcome).sort()).toEqual(['queued', 'skipped']);
    expect(results.find((r) => r.outcome === 'skipped')?.reason).toMatch(/already has a reply in ARB/);
    expect(await replyRows(app.ids[0])).toHaveLength(1);
    expect(asc.responsePosts.length).toBe(posts + 1);
    // And the cap counted one.
    const day = await (await getDb()).selectFrom('reply_rule_days').select('count').where('org_id', '=', owner.orgId).where('app_key', '=', app.appKey).executeTakeFirstOrThrow();
    expect(day.count).toBe(1);
  });

  test('daily_cap: at most that many per app and UTC day, across rules; another app has its own', async () => {
    const owner = await newOwner('cap');
    const bodies = [unique('One'), unique('Two'), unique('Three')];
    const app = await iosApp(owner, bodies);
    const other = await playApp(owner, unique('Other app'));
    const tpl = await template(owner, app.appKey, 'Thanks {author}!');
    const first = await queueRuleReply({ orgId: owner.orgId, reviewId: app.ids[0], ...rule('A'), templateId: tpl, mode: 'approval', dailyCap: 2 });
    const second = await queueRuleReply({ orgId: owner.orgId, reviewId: app.ids[1], ...rule('B'), templateId: tpl, mode: 'approval', dailyCap: 2 });
    const third = await queueRuleReply({ orgId: owner.orgId, reviewId: app.ids[2], ...rule('C'), templateId: tpl, mode: 'approval', dailyCap: 2 });
    expect([first.outcome, second.outcome]).toEqual(['awaiting_approval', 'awaiting_approval']);
    expect(third).toEqual({ outcome: 'skipped', reason: `the daily cap of 2 automatic replies for ${app.title} is reached today (UTC)` });
    expect(await replyRows(app.ids[2])).toEqual([]); // the review stays free for a person (or tomorrow)
    expect((await queueRuleReply({ orgId: owner.orgId, reviewId: other.id, ...rule('C'), templateId: tpl, mode: 'approval', dailyCap: 2 })).outcome).toBe('awaiting_approval');
    // A higher cap on another rule lets one more through: the count is per app, the cap the rule's own.
    expect((await queueRuleReply({ orgId: owner.orgId, reviewId: app.ids[2], ...rule('D'), templateId: tpl, mode: 'approval', dailyCap: 3 })).outcome).toBe('awaiting_approval');
  });
});

describe('paused when the store refuses', () => {
  test("credentials refused: the app's automatic replies pause with the reason, visible in the API; an admin lifts the pause", async () => {
    const owner = await newOwner('pause');
    const member = await memberOf(owner, 'member');
    const bodies = [unique('First'), unique('Second')];
    const app = await iosApp(owner, bodies);
    const tpl = await template(owner, app.appKey, 'Thanks {author}!');
    app.key.role = 'DEVELOPER'; // changed in App Store Connect after the key was saved
    const first = await queueRuleReply({ orgId: owner.orgId, reviewId: app.ids[0], ...rule(), templateId: tpl, mode: 'auto', dailyCap: 5 });
    expect(first.outcome).toBe('queued');
    expect((await replyRows(app.ids[0]))[0]).toMatchObject({ state: 'failed' });

    const pauses = await call<Array<{ app_key: string; kind: string; reason: string; until: string | null }>>(w.api, 'GET', '/api/v1/org/reply-pauses', undefined, as(member));
    expect(pauses.status, pauses.text).toBe(200);
    expect(pauses.json.data).toEqual([expect.objectContaining({ app_key: app.appKey, kind: 'credentials', until: null, reason: expect.stringMatching(/^This App Store Connect key's role can't reply to reviews/) })]);
    const posts = asc.responsePosts.length;
    const second = await queueRuleReply({ orgId: owner.orgId, reviewId: app.ids[1], ...rule(), templateId: tpl, mode: 'auto', dailyCap: 5 });
    expect(second.outcome).toBe('skipped');
    expect(second.reason).toMatch(new RegExp(`^automatic replies to ${app.title} are paused: This App Store Connect key's role`));
    expect(asc.responsePosts.length).toBe(posts);

    const stranger = await newOwner('pause-stranger');
    expect((await call(w.api, 'GET', '/api/v1/org/reply-pauses', undefined, as(stranger))).json.data).toEqual([]);
    expect((await call(w.api, 'DELETE', `/api/v1/org/reply-pauses/${app.appKey}`, undefined, as(stranger))).status).toBe(404);
    const byMember = await call(w.api, 'DELETE', `/api/v1/org/reply-pauses/${app.appKey}`, undefined, as(member));
    expect(byMember.status).toBe(403);
    app.key.role = 'CUSTOMER_SUPPORT'; // fixed in App Store Connect
    const lifted = await call(w.api, 'DELETE', `/api/v1/org/reply-pauses/${app.appKey}`, undefined, as(owner));
    expect(lifted.status, lifted.text).toBe(200);
    expect((await call(w.api, 'DELETE', `/api/v1/org/reply-pauses/${app.appKey}`, undefined, as(owner))).status).toBe(404);
    expect((await queueRuleReply({ orgId: owner.orgId, reviewId: app.ids[1], ...rule(), templateId: tpl, mode: 'auto', dailyCap: 5 })).outcome).toBe('queued');
    expect(asc.responsePosts.length).toBe(posts + 1);
    expect((await auditOf(owner)).map((e) => e.action)).toContain('replies.resumed');
  });

  test("Play's daily quota spent: a quota pause until the next day", async () => {
    const owner = await newOwner('quota');
    const app = await playApp(owner, unique('Quota'));
    const tpl = await template(owner, app.appKey, 'Thanks!');
    play.dailyReplyLimit = 0;
    try {
      expect((await queueRuleReply({ orgId: owner.orgId, reviewId: app.id, ...rule(), templateId: tpl, mode: 'auto', dailyCap: 5 })).outcome).toBe('queued');
    } finally {
      play.dailyReplyLimit = 2000;
    }
    const pauses = await call<Array<{ kind: string; until: string | null }>>(w.api, 'GET', '/api/v1/org/reply-pauses', undefined, as(owner));
    expect(pauses.json.data).toEqual([expect.objectContaining({ kind: 'quota', reason: expect.stringMatching(/daily reply quota/) })]);
    expect(Date.parse(pauses.json.data[0].until!)).toBeGreaterThan(Date.now());
  });
});

describe('drafted by the language model', () => {
  test('with a model configured, the draft is written in the review’s language with the template as its guide, within the limit', async () => {
    const owner = await newOwner('model');
    const app = await playApp(owner, unique('Die App stürzt ständig ab'));
    await (await getDb()).updateTable('reviews').set({ text_language: 'de' }).where('id', '=', Number(app.id)).execute();
    const tpl = await template(owner, app.appKey, 'Sorry {author}, write to help@example.com.');
    w.setEnv({ APPSTORE_CONNECT_BASE_URL: stores.url, ANDROID_PUBLISHER_BASE_URL: stores.url, GOOGLE_OAUTH_TOKEN_URL: `${stores.url}/token`, LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'fake-model', LLM_MAX_RETRIES: '0' });
    try {
      const before = llm.chatBodies().length;
      llm.reply({ text: `Reply: "Entschuldigung, Rin! Schreib uns an help@example.com. ${'x'.repeat(400)}"` });
      const r = await queueRuleReply({ orgId: owner.orgId, reviewId: app.id, ...rule(), templateId: tpl, mode: 'approval', dailyCap: 5 });
      expect(r.outcome).toBe('awaiting_approval');
      const [draft] = (await list(owner)).json.data;
      expect(draft.drafted_by).toBe('model');
      expect(draft.text.startsWith('Entschuldigung, Rin! Schreib uns an help@example.com.')).toBe(true);
      expect([...draft.text].length).toBeLessThanOrEqual(350);
      const [asked] = llm.chatBodies().slice(before);
      expect(asked.messages[0].content).toContain('Write the reply in German');
      expect(asked.messages[0].content).toContain('Sorry Rin, write to help@example.com.');
      expect(asked.messages[1].content).toContain('Die App stürzt ständig ab');
    } finally {
      w.setEnv({ APPSTORE_CONNECT_BASE_URL: stores.url, ANDROID_PUBLISHER_BASE_URL: stores.url, GOOGLE_OAUTH_TOKEN_URL: `${stores.url}/token`, LLM_BASE_URL: undefined, LLM_MODEL: undefined });
    }
  });
});

describe('organisations and members', () => {
  test("another organisation's reply ids are 404 and its list holds none; a removed member can no longer approve; bad ids are 400", async () => {
    const owner = await newOwner('alpha');
    const member = await memberOf(owner, 'member');
    const stranger = await newOwner('beta');
    const app = await playApp(owner, unique('Approve me'));
    const tpl = await template(owner, app.appKey, 'Thanks!');
    await queueRuleReply({ orgId: owner.orgId, reviewId: app.id, ...rule(), templateId: tpl, mode: 'approval', dailyCap: 5 });
    const [draft] = (await list(owner)).json.data;
    // Another organisation's template: skipped, never used.
    const theirs = await playApp(stranger, unique('Theirs'));
    const theirTpl = await template(stranger, theirs.appKey, 'Not yours');
    expect((await queueRuleReply({ orgId: owner.orgId, reviewId: app.id, ...rule(), templateId: theirTpl, mode: 'approval', dailyCap: 5 })).outcome).toBe('skipped');
    expect(await queueRuleReply({ orgId: stranger.orgId, reviewId: app.id, ...rule(), templateId: theirTpl, mode: 'auto', dailyCap: 5 })).toEqual({ outcome: 'skipped', reason: "the review is not among the organisation's apps" });

    for (const r of [await approve(stranger, draft.id), await reject(stranger, draft.id), await approve(stranger, draft.id, { text: 'Hijack' })]) {
      expect(r.status, r.text).toBe(404);
      expect(r.json.error.code).toBe('not_found');
    }
    const theirList = await list(stranger);
    expect(theirList.json.data).toEqual([]);
    expect(theirList.text).not.toContain(draft.id);
    expect((await call(w.api, 'GET', `/api/v1/org/replies?starting_after=${draft.id}`, undefined, as(stranger))).json.data).toEqual([]);

    const removed = await call(w.api, 'DELETE', `/api/v1/org/members/${member.userId}`, undefined, as(owner));
    expect(removed.status, removed.text).toBe(200);
    const late = await approve(member, draft.id);
    expect([401, 404]).toContain(late.status);
    expect((await replyRows(app.id))[0].state).toBe('awaiting_approval');

    expect((await approve(owner, 'rpl_nope')).status).toBe(400);
    expect((await list(owner, '?state=nonsense')).status).toBe(400);
    expect((await list(owner, '?limit=0')).status).toBe(400);
  });

  test('paging: newest first, starting_after the last id', async () => {
    const owner = await newOwner('paging');
    const bodies = [unique('P1'), unique('P2'), unique('P3')];
    const app = await iosApp(owner, bodies);
    const tpl = await template(owner, app.appKey, 'Thanks!');
    for (const id of app.ids) await queueRuleReply({ orgId: owner.orgId, reviewId: id, ...rule(), templateId: tpl, mode: 'approval', dailyCap: 10 });
    const first = await list(owner, '?limit=2');
    expect(first.json.data).toHaveLength(2);
    expect(first.json.has_more).toBe(true);
    const rest = await list(owner, `?limit=2&starting_after=${first.json.data[1].id}`);
    expect(rest.json.data).toHaveLength(1);
    expect(rest.json.has_more).toBe(false);
    expect(new Set([...first.json.data, ...rest.json.data].map((r) => r.review_id))).toEqual(new Set(app.ids));
  });
});
