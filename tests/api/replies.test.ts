// Replies to reviews through the real routes, a real database (PGlite and PostgreSQL) and loopback App Store Connect
// and Google Play Developer API fakes that verify the signed tokens and answer like the stores: the reply's life
// (sending → pending publish → published by the next poll), replacing and deleting an App Store reply, the store's
// limits before anything is sent, a key whose role may not reply, 429 with Retry-After, 5xx backoff, no second post
// after an attempt whose outcome is unknown, the stores' allowances, "edited after reply", the plan's feature, the
// public API with an arb_ key, and reply templates.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { sql } from 'kysely';
import { getDb } from '@/server/db/client';
import { pollAppNow } from '@/server/monitor/service';
import { runDueReplies, REPLY_MAX_ATTEMPTS } from '@/server/replies/service';
import { clearGoogleTokenCache } from '@/server/sources/playDeveloper';
import { memberOf, newOwner, type SignedInUser } from '../helpers/orgs';
import { call } from '../helpers/request';
import type { FakeServer } from '../fakes/http';
import { createAppStoreConnectKey, type AppStoreConnectFake } from '../fakes/appStoreConnect';
import type { AndroidPublisherFake, ServiceAccountKey } from '../fakes/androidPublisher';
import { newIosApp, newIp, newPlayApp, startConnectWorld, type ConnectWorld } from './support/connectWorld';
import { addOrgApp, as, saveStoreCredentials, startReplyStores, type AppRef } from './support/replyStores';

let w: ConnectWorld;
let stores: FakeServer;
let asc: AppStoreConnectFake;
let play: AndroidPublisherFake;
let account: ServiceAccountKey;

beforeAll(async () => {
  const replyStores = await startReplyStores('arb-replies');
  ({ asc, play, account, server: stores } = replyStores);
  w = await startConnectWorld({ ...replyStores.env });
  clearGoogleTokenCache();
}, 60_000);
afterAll(async () => {
  await w?.close();
  await stores?.close();
});

type OwnReply = { state: string; text: string; failure: string | null; by: string | null; at: string; edited_after_reply: boolean };
type Review = { id: string; content_body: string; reply_text: string | null; reply_state: string; reply: OwnReply | null };
type Reply = { id: string; review_id: string; state: string; text: string; failure: string | null; by: string; replied_at: string; attempts: number; next_attempt_at: string | null };
type Ref = AppRef;

const reply = (u: SignedInUser, reviewId: string, text: string) => call<Reply>(w.api, 'POST', `/api/v1/org/reviews/${reviewId}/reply`, { text }, as(u));
const unreply = (u: SignedInUser, reviewId: string) => call<{ ok: true }>(w.api, 'DELETE', `/api/v1/org/reviews/${reviewId}/reply`, undefined, as(u));

async function inbox(u: SignedInUser, key: string): Promise<Review[]> {
  const r = await call<Review[]>(w.api, 'GET', `/api/v1/org/reviews?app=${key}`, undefined, as(u));
  expect(r.status, r.text).toBe(200);
  return r.json.data;
}
async function reviewIn(u: SignedInUser, key: string, body: string): Promise<Review> {
  const found = (await inbox(u, key)).find((r) => r.content_body === body);
  if (!found) throw new Error(`no review "${body}" in the inbox of ${key}`);
  return found;
}

const addApp = (u: SignedInUser, ref: Ref) => addOrgApp(w.api, u, ref);
const saveCredentials = (u: SignedInUser, key: string, body: unknown) => saveStoreCredentials(w.api, u, key, body);

/** An App Store app of `owner` read through App Store Connect with its own key, and one review in the inbox. */
async function iosWithReview(owner: SignedInUser, body = `Lovely app ${Math.random().toString(36).slice(2, 8)}`) {
  const key = await createAppStoreConnectKey({ role: 'CUSTOMER_SUPPORT' });
  asc.keys.push(key);
  const ios = newIosApp(w);
  const ref: Ref = { store: 'apple_app_store', appId: ios.appId };
  const appKey = await addApp(owner, ref);
  asc.addApp(ios.appId);
  const storeReview = asc.publish(ios.appId, { body, reviewerNickname: 'Maya K', rating: 4 });
  await saveCredentials(owner, appKey, { kind: 'app_store_connect', issuer_id: key.issuerId, key_id: key.keyId, private_key: key.privateKeyPem });
  await pollAppNow(ref);
  return { key, ref, appKey, storeReview, review: await reviewIn(owner, appKey, body), title: ios.title };
}

/** A Google Play app of `owner` read through the Developer API, and one review in the inbox. */
async function playWithReview(owner: SignedInUser, body = `Handy app ${Math.random().toString(36).slice(2, 8)}`) {
  const app = newPlayApp(w);
  const ref: Ref = { store: 'google_play_store', appId: app.appId };
  const appKey = await addApp(owner, ref);
  play.addApp(account, app.appId);
  const storeReview = play.publish(account, app.appId, { body, authorName: 'Rin', starRating: 3, lastModified: new Date(Date.now() - 60_000) });
  await saveCredentials(owner, appKey, { kind: 'google_play', service_account_json: account.json });
  await pollAppNow(ref);
  return { ref, appKey, storeReview, review: await reviewIn(owner, appKey, body) };
}

async function replyRow(reviewId: string) {
  return (await getDb()).selectFrom('replies').selectAll().where('review_id', '=', Number(reviewId)).executeTakeFirstOrThrow();
}
/** Makes the reply due now (the backoff's wait, without waiting). */
async function dueNow(reviewId: string) {
  await (await getDb()).updateTable('replies').set({ next_attempt_at: sql<Date>`now()` }).where('review_id', '=', Number(reviewId)).execute();
}

describe('App Store replies through App Store Connect', () => {
  test('pending publish, then published after the next poll; who and when recorded; the allowance read from X-Rate-Limit', async () => {
    const owner = await newOwner('ios');
    const member = await memberOf(owner, 'member');
    const { key, ref, appKey, storeReview, review } = await iosWithReview(owner);
    expect(review.reply_state).toBe('none');
    const posts = asc.responsePosts.length;

    const r = await reply(member, review.id, '  Thanks Maya — fixed in 2.0.1.  ');
    expect(r.status, r.text).toBe(200);
    expect(r.json.data).toMatchObject({ review_id: review.id, state: 'pending_publish', text: 'Thanks Maya — fixed in 2.0.1.', by: member.email, failure: null, attempts: 1 });
    // Apple received the JSON:API document, signed with this app's key.
    expect(asc.responsePosts.slice(posts)).toEqual([{ reviewId: storeReview.id, responseBody: 'Thanks Maya — fixed in 2.0.1.' }]);
    const post = stores.requests.filter((q) => q.path === '/v1/customerReviewResponses').at(-1)!;
    expect(JSON.parse(post.body)).toEqual({
      data: { type: 'customerReviewResponses', attributes: { responseBody: 'Thanks Maya — fixed in 2.0.1.' }, relationships: { review: { data: { type: 'customerReviews', id: storeReview.id } } } },
    });
    expect(asc.tokens.at(-1)).toMatchObject({ kid: key.keyId, iss: key.issuerId, aud: 'appstoreconnect-v1' });
    const before = await reviewIn(owner, appKey, review.content_body);
    expect(before.reply_state).toBe('pending_publish');
    expect(before.reply).toMatchObject({ state: 'pending_publish', text: 'Thanks Maya — fixed in 2.0.1.', by: member.email, edited_after_reply: false });
    expect(before.reply_text).toBeNull(); // not on the store yet

    await pollAppNow(ref);
    const after = await reviewIn(owner, appKey, review.content_body);
    expect(after.reply_state).toBe('published');
    expect(after.reply?.state).toBe('published');
    expect(after.reply_text).toBe('Thanks Maya — fixed in 2.0.1.');
    expect((await replyRow(review.id)).published_at).not.toBeNull();

    // The hourly allowance Apple reported for this key is kept.
    const allowance = await (await getDb()).selectFrom('store_allowances').selectAll().where('key', '=', `appstore_connect:${key.keyId}`).executeTakeFirstOrThrow();
    // What Apple said after the reply: its hour had the credentials check, a poll and the reply.
    expect(allowance.remaining).toBe(asc.hourlyLimit - 3);
    expect(allowance.resets_at.getTime()).toBeGreaterThan(Date.now() + 50 * 60_000);
    const audit = await call<{ action: string }[]>(w.api, 'GET', '/api/v1/org/audit-log', undefined, as(owner));
    expect(audit.json.data.map((e) => e.action)).toContain('review.replied');
  });

  test('replying again replaces the one response; DELETE removes it from the store and the next poll clears it', async () => {
    const owner = await newOwner('replace');
    const { ref, appKey, storeReview, review } = await iosWithReview(owner);
    expect((await reply(owner, review.id, 'First answer')).json.data.state).toBe('pending_publish');
    await pollAppNow(ref);
    const second = await reply(owner, review.id, 'Better answer');
    expect(second.status, second.text).toBe(200);
    expect(second.json.data.state).toBe('pending_publish');
    expect(asc.reviews(ref.appId).find((r) => r.id === storeReview.id)?.response?.responseBody).toBe('Better answer');
    expect(await (await getDb()).selectFrom('replies').select('text').where('review_id', '=', Number(review.id)).execute()).toEqual([{ text: 'Better answer' }]);
    await pollAppNow(ref);
    expect((await reviewIn(owner, appKey, review.content_body)).reply_text).toBe('Better answer');

    const removed = await unreply(owner, review.id);
    expect(removed.status, removed.text).toBe(200);
    expect(asc.reviews(ref.appId).find((r) => r.id === storeReview.id)?.response).toBeNull();
    expect(stores.requests.some((q) => q.method === 'DELETE' && q.path.startsWith('/v1/customerReviewResponses/'))).toBe(true);
    await pollAppNow(ref);
    const gone = await reviewIn(owner, appKey, review.content_body);
    expect(gone).toMatchObject({ reply_text: null, reply_state: 'none', reply: null });
  });

  test("a key whose role can't reply: failed, with the role needed in plain words", async () => {
    const owner = await newOwner('role');
    const { key, appKey, review } = await iosWithReview(owner);
    key.role = 'DEVELOPER'; // changed in App Store Connect after the key was saved
    const r = await reply(owner, review.id, 'Thanks!');
    expect(r.status, r.text).toBe(422);
    expect(r.json.error.code).toBe('reply_failed');
    expect(r.json.error.message).toMatch(/^This App Store Connect key's role can't reply to reviews: give key \w+ the Admin, App Manager or Customer Support role/);
    const shown = await reviewIn(owner, appKey, review.content_body);
    expect(shown.reply_state).toBe('failed');
    expect(shown.reply?.failure).toBe(r.json.error.message);
    // Failed is final: the outbox leaves it alone.
    await dueNow(review.id);
    await runDueReplies();
    expect((await replyRow(review.id)).state).toBe('failed');
  });

  test('429 waits for Retry-After and is sent then; the attempt is not counted against the tries', async () => {
    const owner = await newOwner('ratelimited');
    const { review } = await iosWithReview(owner);
    const posts = asc.responsePosts.length;
    asc.failNext({ status: 429, headers: { 'Retry-After': '1' }, body: { errors: [{ status: '429', code: 'RATE_LIMIT_EXCEEDED', title: 'The request rate limit has been reached.' }] } });
    const started = Date.now();
    const r = await reply(owner, review.id, 'Thanks for waiting');
    expect(r.status, r.text).toBe(202);
    expect(r.json.data.state).toBe('sending');
    expect(r.json.data.failure).toMatch(/hourly request allowance .* used up: the reply waits/);
    const next = Date.parse(r.json.data.next_attempt_at!);
    expect(next - started).toBeGreaterThanOrEqual(900);
    expect(next - started).toBeLessThan(3000);
    // Not due yet: nothing is sent.
    expect(await runDueReplies()).toBe(0);
    expect(asc.responsePosts.length).toBe(posts);
    await expect.poll(async () => (await runDueReplies(), (await replyRow(review.id)).state), { timeout: 5000, interval: 200 }).toBe('pending_publish');
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(asc.responsePosts.length).toBe(posts + 1);
    expect((await replyRow(review.id)).attempts).toBe(1);
  });

  test('5xx backs off and retries; after the last try it is failed in plain words', async () => {
    const owner = await newOwner('flaky');
    const { review } = await iosWithReview(owner);
    asc.failNext({ status: 503, body: { errors: [{ status: '503', code: 'UNAVAILABLE', title: 'Service Unavailable' }] } });
    const started = Date.now();
    const r = await reply(owner, review.id, 'Sorry about that');
    expect(r.status, r.text).toBe(202);
    expect(r.json.data.failure).toMatch(/App Store Connect answered 503: the reply is tried again shortly/);
    const wait = Date.parse(r.json.data.next_attempt_at!) - started;
    expect(wait).toBeGreaterThan(3500);
    expect(wait).toBeLessThan(7000);
    expect(await runDueReplies()).toBe(0);
    await dueNow(review.id);
    expect(await runDueReplies()).toBe(1);
    const row = await replyRow(review.id);
    expect(row).toMatchObject({ state: 'pending_publish', attempts: 2, failure: null });

    // Every try fails: the waits grow, and the last try gives up.
    const other = await iosWithReview(owner);
    asc.failNext({ status: 500 }, REPLY_MAX_ATTEMPTS);
    expect((await reply(owner, other.review.id, 'Hello')).status).toBe(202);
    const waits: number[] = [];
    for (let i = 1; i < REPLY_MAX_ATTEMPTS; i++) {
      const row = await replyRow(other.review.id);
      waits.push(row.next_attempt_at!.getTime() - row.updated_at.getTime());
      await dueNow(other.review.id);
      await runDueReplies();
    }
    expect(waits.every((x, i) => i === 0 || x > waits[i - 1])).toBe(true);
    const failed = await replyRow(other.review.id);
    expect(failed.state).toBe('failed');
    expect(failed.failure).toMatch(new RegExp(`App Store Connect kept failing, ${REPLY_MAX_ATTEMPTS} tries .*answered 500.*Send the reply again later`));
  });

  test('no double post: an attempt whose answer was lost is found on the store and recorded, not sent again', async () => {
    const owner = await newOwner('lost');
    const { ref, appKey, review, storeReview } = await iosWithReview(owner);
    const posts = asc.responsePosts.length;
    asc.dropNextResponseAnswer(); // Apple applies it, the connection drops before the answer: as a crash between send and record
    const r = await reply(owner, review.id, 'Glad you like it');
    expect(r.status, r.text).toBe(202);
    expect(r.json.data.failure).toMatch(/could not be reached/);
    expect(asc.responsePosts.length).toBe(posts + 1);
    await dueNow(review.id);
    expect(await runDueReplies()).toBe(1);
    expect(asc.responsePosts.length).toBe(posts + 1); // read, not posted again
    expect(stores.requests.some((q) => q.method === 'GET' && q.path === `/v1/customerReviews/${storeReview.id}/response`)).toBe(true);
    expect((await replyRow(review.id)).state).toBe('pending_publish');
    await pollAppNow(ref);
    expect((await reviewIn(owner, appKey, review.content_body)).reply_state).toBe('published');
  });

  test("a spent hourly allowance holds the next reply without calling Apple", async () => {
    const owner = await newOwner('allowance');
    const { key, review } = await iosWithReview(owner);
    // One request left this hour: the reply takes it, and Apple says none is left.
    asc.used.set(key.keyId, { hourStart: Date.now(), count: asc.hourlyLimit - 1 });
    expect((await reply(owner, review.id, 'One')).json.data.state).toBe('pending_publish');
    const posts = asc.responsePosts.length;
    const requests = stores.requests.length;
    const again = await reply(owner, review.id, 'Two');
    expect(again.status, again.text).toBe(202);
    expect(again.json.data.failure).toMatch(/hourly request allowance for this key is used up/);
    expect(Date.parse(again.json.data.next_attempt_at!) - Date.now()).toBeGreaterThan(50 * 60_000);
    expect(asc.responsePosts.length).toBe(posts);
    expect(stores.requests.length).toBe(requests);
    expect((await replyRow(review.id)).attempts).toBe(0);
  });
});

describe('Google Play replies through the Developer API', () => {
  test('pending publish, published after the next poll; an edit of the review afterwards is flagged', async () => {
    const owner = await newOwner('play');
    const { ref, appKey, storeReview, review } = await playWithReview(owner);
    const r = await reply(owner, review.id, 'Thanks Rin, a fix is on the way.');
    expect(r.status, r.text).toBe(200);
    expect(r.json.data.state).toBe('pending_publish');
    expect(play.replyPosts.at(-1)).toEqual({ packageName: ref.appId, reviewId: storeReview.reviewId, replyText: 'Thanks Rin, a fix is on the way.' });
    const post = stores.requests.filter((q) => q.path.endsWith(':reply')).at(-1)!;
    expect(post.path).toBe(`/androidpublisher/v3/applications/${ref.appId}/reviews/${encodeURIComponent(storeReview.reviewId)}:reply`);
    expect(JSON.parse(post.body)).toEqual({ replyText: 'Thanks Rin, a fix is on the way.' });

    await pollAppNow(ref);
    const published = await reviewIn(owner, appKey, review.content_body);
    expect(published).toMatchObject({ reply_state: 'published', reply_text: 'Thanks Rin, a fix is on the way.' });
    expect(published.reply?.edited_after_reply).toBe(false);

    play.edit(ref.appId, storeReview.reviewId, { body: 'Edited: still crashes', starRating: 2, lastModified: new Date() });
    await pollAppNow(ref);
    const edited = await reviewIn(owner, appKey, 'Edited: still crashes');
    expect(edited.reply).toMatchObject({ state: 'published', edited_after_reply: true });
  });

  test("Play's daily reply quota: spent here, the reply waits for the next day without calling Google; Google's own 429 too", async () => {
    const owner = await newOwner('quota');
    const { ref, review } = await playWithReview(owner);
    const tomorrow = new Date(Date.now() + 5 * 3600_000);
    await (await getDb()).insertInto('store_allowances').values({ key: `play:${ref.appId}`, remaining: 0, resets_at: tomorrow }).execute();
    const posts = play.replyPosts.length;
    const r = await reply(owner, review.id, 'Thanks!');
    expect(r.status, r.text).toBe(202);
    expect(r.json.data.failure).toMatch(/daily reply quota for this app \(2000\) is used up/);
    expect(Math.abs(Date.parse(r.json.data.next_attempt_at!) - tomorrow.getTime())).toBeLessThan(2000);
    expect(play.replyPosts.length).toBe(posts);

    await (await getDb()).deleteFrom('store_allowances').where('key', '=', `play:${ref.appId}`).execute();
    play.dailyReplyLimit = 0;
    try {
      const limited = await reply(owner, review.id, 'Thanks again!');
      expect(limited.status, limited.text).toBe(202);
      expect(limited.json.data.failure).toMatch(/Google Play's daily reply quota for this app is used up/);
    } finally {
      play.dailyReplyLimit = 2000;
    }
  });

  test('a service account without the reply permission: failed, naming the permission', async () => {
    const owner = await newOwner('playperm');
    const { review } = await playWithReview(owner);
    play.failNext({ status: 403, body: { error: { code: 403, status: 'PERMISSION_DENIED', message: 'The caller does not have permission' } } });
    const r = await reply(owner, review.id, 'Thanks');
    expect(r.status, r.text).toBe(422);
    expect(r.json.error.message).toMatch(/^The service account arb-replies@.* may not reply to this app's reviews: .*"Reply to reviews" permission/);
  });
});

describe('confirmation without a poll', () => {
  test('a pending reply no poll has seen is looked up on the store later and published when it shows there', async () => {
    const owner = await newOwner('lookup');
    const ios = await iosWithReview(owner);
    const gp = await playWithReview(owner);
    asc.autoPublish = false;
    try {
      expect((await reply(owner, ios.review.id, 'Seen on the store')).json.data.state).toBe('pending_publish');
      expect((await reply(owner, gp.review.id, 'Seen on Play')).json.data.state).toBe('pending_publish');
      // The first look is ten minutes after sending.
      const next = (await replyRow(ios.review.id)).next_attempt_at!.getTime() - Date.now();
      expect(next).toBeGreaterThan(9 * 60_000);
      expect(next).toBeLessThan(11 * 60_000);

      // Apple has not published it yet: still pending, looked at again later.
      await dueNow(ios.review.id);
      await dueNow(gp.review.id);
      await runDueReplies();
      expect((await replyRow(ios.review.id)).state).toBe('pending_publish');
      expect((await replyRow(ios.review.id)).next_attempt_at!.getTime() - Date.now()).toBeGreaterThan(25 * 60_000);
      expect((await replyRow(gp.review.id)).state).toBe('published');
      expect(stores.requests.some((q) => q.method === 'GET' && q.path === `/androidpublisher/v3/applications/${gp.ref.appId}/reviews/${encodeURIComponent(gp.storeReview.reviewId)}`)).toBe(true);

      asc.publishResponses();
      await dueNow(ios.review.id);
      await runDueReplies();
      expect((await replyRow(ios.review.id)).state).toBe('published');
      expect((await reviewIn(owner, ios.appKey, ios.review.content_body)).reply?.state).toBe('published');
    } finally {
      asc.autoPublish = true;
    }
  });
});

describe('what is refused before anything is sent', () => {
  test("over-long text is a 400 naming the store's limit; empty text too; nothing is recorded or sent", async () => {
    const owner = await newOwner('long');
    const ios = await iosWithReview(owner);
    const gp = await playWithReview(owner);
    const requests = stores.requests.length;
    const cases: Array<[string, string, RegExp]> = [
      [ios.review.id, 'a'.repeat(5971), /^text: a App Store reply can be at most 5,970 characters, and this one has 5,971/],
      [gp.review.id, 'é'.repeat(351), /^text: a Google Play reply can be at most 350 characters, and this one has 351/],
      [gp.review.id, '   ', /^text: write the reply first/],
      [ios.review.id, 'x'.repeat(10_001), /^text: a reply can be at most 10,000 characters/],
    ];
    for (const [id, text, message] of cases) {
      const r = await reply(owner, id, text);
      expect(r.status, r.text).toBe(400);
      expect(r.json.error.message).toMatch(message);
    }
    // Exactly the limit is fine (an emoji counts once, as the stores count).
    expect((await reply(owner, gp.review.id, '👍'.repeat(350))).status).toBe(200);
    expect(stores.requests.filter((q) => q.path.endsWith(':reply')).length).toBeGreaterThan(0);
    expect(stores.requests.slice(requests).filter((q) => q.method === 'POST' && !q.path.endsWith('/token')).length).toBe(1);
    expect(await (await getDb()).selectFrom('replies').select('id').where('review_id', '=', Number(ios.review.id)).execute()).toEqual([]);
  });

  test('without store credentials: 409 saying where to add them; another organisation gets 404; members may reply', async () => {
    const owner = await newOwner('nocreds');
    const stranger = await newOwner('stranger');
    const ios = newIosApp(w);
    const ref: Ref = { store: 'apple_app_store', appId: ios.appId };
    const appKey = await addApp(owner, ref);
    w.feed.publish(ios.appId, 'us', { title: 'Nice', content: 'Public feed review', author: 'Kim', rating: 5 });
    await pollAppNow(ref);
    await pollAppNow(ref);
    const review = await reviewIn(owner, appKey, 'Public feed review');
    const r = await reply(owner, review.id, 'Thanks');
    expect(r.status, r.text).toBe(409);
    expect(r.json.error).toEqual({
      code: 'store_credentials_missing',
      message: `Replying to App Store reviews goes through App Store Connect: add ${ios.title}'s App Store Connect API key on the Apps page (Store credentials), then send the reply again.`,
    });
    // A draft needs no credentials: kept, shown, never sent.
    const draft = await call<Reply>(w.api, 'POST', `/api/v1/org/reviews/${review.id}/reply`, { text: 'Thanks Kim, more soon', draft: true }, as(owner));
    expect(draft.status, draft.text).toBe(200);
    expect(draft.json.data).toMatchObject({ state: 'draft', text: 'Thanks Kim, more soon', by: owner.email });
    expect(await runDueReplies()).toBe(0);
    expect((await reviewIn(owner, appKey, 'Public feed review')).reply).toMatchObject({ state: 'draft', text: 'Thanks Kim, more soon' });
    expect((await reply(stranger, review.id, 'Thanks')).status).toBe(404);
    expect((await reply(owner, '999999999999', 'Thanks')).status).toBe(404);
    expect((await call(w.api, 'POST', '/api/v1/org/reviews/abc/reply', { text: 'x' }, as(owner))).status).toBe(400);
  });

  test('credentials that can no longer be opened (another ENCRYPTION_KEY): failed, saying to save them again', async () => {
    const owner = await newOwner('sealed');
    const { appKey, review } = await iosWithReview(owner);
    await (await getDb()).updateTable('org_apps').set({ credentials_enc: 'v1.AAAA.BBBB.CCCC' }).where('org_id', '=', owner.orgId).where('app_key', '=', appKey).execute();
    const posts = asc.responsePosts.length;
    const r = await reply(owner, review.id, 'Thanks');
    expect(r.status, r.text).toBe(422);
    expect(r.json.error.message).toMatch(/can no longer be read on this server .*save them again on the Apps page/);
    expect((await unreply(owner, review.id)).status).toBe(409);
    expect(asc.responsePosts.length).toBe(posts);
  });

  test('a plan without replies is a 402 naming the plan that includes them', async () => {
    const owner = await newOwner('freeplan');
    const { review } = await iosWithReview(owner);
    w.setEnv({ STRIPE_SECRET_KEY: 'sk_test_replies' });
    try {
      const r = await reply(owner, review.id, 'Thanks');
      expect(r.status, r.text).toBe(402);
      expect(r.json.error).toEqual({ code: 'plan_limit', message: 'Your Free plan does not include replies. Upgrade to Startup for replies through App Store Connect and Google Play Developer API.' });
      await (await getDb()).updateTable('orgs').set({ plan: 'startup', plan_status: 'active' }).where('id', '=', owner.orgId).execute();
      expect((await reply(owner, review.id, 'Thanks')).status).toBe(200);
    } finally {
      w.setEnv({});
    }
  });
});

describe('the public API', () => {
  test('POST v1/apps/{appKey}/reviews/{id}/reply with an arb_ key; refusals as in the dashboard; in the OpenAPI document', async () => {
    const owner = await newOwner('script');
    const { ref, appKey, review } = await playWithReview(owner);
    const created = await call<{ key: string }>(w.api, 'POST', '/api/v1/org/api-keys', { name: 'Zapier' }, as(owner));
    expect(created.status, created.text).toBe(201);
    const bearer = { headers: { Authorization: `Bearer ${created.json.data.key}` }, ip: newIp() };
    const path = `/api/v1/apps/${appKey}/reviews/${review.id}/reply`;

    const r = await call<Reply>(w.api, 'POST', path, { text: 'Thanks from our script' }, bearer);
    expect(r.status, r.text).toBe(200);
    expect(r.json.data).toMatchObject({ state: 'pending_publish', by: 'API key Zapier' });
    expect(play.replyPosts.at(-1)).toMatchObject({ packageName: ref.appId, replyText: 'Thanks from our script' });

    expect((await call(w.api, 'POST', path, { text: 'x'.repeat(351) }, bearer)).status).toBe(400);
    expect((await call(w.api, 'POST', path, { text: 'No key' }, { ip: newIp() })).status).toBe(401);
    const other = await playWithReview(owner);
    const wrongApp = await call(w.api, 'POST', `/api/v1/apps/${other.appKey}/reviews/${review.id}/reply`, { text: 'Hi' }, bearer);
    expect(wrongApp.status).toBe(404);
    const foreign = await newOwner('foreign');
    const theirs = await playWithReview(foreign);
    expect((await call(w.api, 'POST', `/api/v1/apps/${theirs.appKey}/reviews/${theirs.review.id}/reply`, { text: 'Hi' }, bearer)).status).toBe(404);

    const doc = await call<never>(w.api, 'GET', '/api/openapi.json', undefined, { ip: newIp() });
    const paths = (JSON.parse(doc.text) as { paths: Record<string, Record<string, { security?: unknown[] }>> }).paths;
    expect(paths['/api/v1/apps/{appKey}/reviews/{id}/reply']?.post).toBeDefined();
    expect(paths['/api/v1/org/reviews/{id}/reply']?.delete).toBeDefined();
  });
});

describe('reply templates', () => {
  test('members keep templates per app; the store limit applies; another organisation sees none', async () => {
    const owner = await newOwner('templates');
    const member = await memberOf(owner, 'member');
    const stranger = await newOwner('stranger');
    const gp = await playWithReview(owner);
    const ios = await iosWithReview(owner);
    const made = await call<{ id: string; body: string }>(w.api, 'POST', '/api/v1/org/reply-templates', { app_key: gp.appKey, name: 'Thanks', body: 'Thanks {author}, enjoy {app}!' }, as(member));
    expect(made.status, made.text).toBe(201);
    expect(made.json.data.id).toMatch(/^tpl_/);
    expect((await call(w.api, 'POST', '/api/v1/org/reply-templates', { app_key: ios.appKey, name: 'Long', body: 'x'.repeat(400) }, as(owner))).status).toBe(201);
    const tooLong = await call(w.api, 'POST', '/api/v1/org/reply-templates', { app_key: gp.appKey, name: 'Long', body: 'x'.repeat(400) }, as(owner));
    expect(tooLong.status).toBe(400);
    expect(tooLong.json.error.message).toMatch(/at most 350 characters/);
    expect((await call(w.api, 'POST', '/api/v1/org/reply-templates', { app_key: gp.appKey, name: 'Bad', body: 'x' }, as(stranger))).status).toBe(404);

    const listed = await call<Array<{ name: string }>>(w.api, 'GET', `/api/v1/org/reply-templates?app=${gp.appKey}`, undefined, as(owner));
    expect(listed.json.data.map((t) => t.name)).toEqual(['Thanks']);
    expect((await call<unknown[]>(w.api, 'GET', '/api/v1/org/reply-templates', undefined, as(owner))).json.data).toHaveLength(2);
    expect((await call<unknown[]>(w.api, 'GET', '/api/v1/org/reply-templates', undefined, as(stranger))).json.data).toHaveLength(0);

    const changed = await call<{ body: string }>(w.api, 'PATCH', `/api/v1/org/reply-templates/${made.json.data.id}`, { body: 'Thank you {author}!' }, as(owner));
    expect(changed.status, changed.text).toBe(200);
    expect(changed.json.data.body).toBe('Thank you {author}!');
    expect((await call(w.api, 'PATCH', `/api/v1/org/reply-templates/${made.json.data.id}`, { name: 'x' }, as(stranger))).status).toBe(404);
    expect((await call(w.api, 'DELETE', `/api/v1/org/reply-templates/${made.json.data.id}`, undefined, as(stranger))).status).toBe(404);
    expect((await call(w.api, 'DELETE', `/api/v1/org/reply-templates/${made.json.data.id}`, undefined, as(member))).status).toBe(200);
    expect((await call<unknown[]>(w.api, 'GET', `/api/v1/org/reply-templates?app=${gp.appKey}`, undefined, as(owner))).json.data).toHaveLength(0);
  });
});
