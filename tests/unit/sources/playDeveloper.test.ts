import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { setEnvForTests } from '@/server/env';
import { getAdapter } from '@/server/sources';
import {
  clearGoogleTokenCache,
  parsePlayReviews,
  playDeveloperAdapter,
  replyToReview,
  splitUserComment,
  type PlayReviewsDocument,
} from '@/server/sources/playDeveloper';
import type { SourceConfig } from '@/server/sources/types';
import {
  androidPublisherRoutes,
  createAndroidPublisher,
  createServiceAccount,
  type AndroidPublisherFake,
  type ServiceAccountKey,
} from '@/tests/fakes/androidPublisher';
import { startFakeServer, type FakeServer } from '@/tests/fakes/http';

let account: ServiceAccountKey;
let stranger: ServiceAccountKey;
let play: AndroidPublisherFake;
let server: FakeServer;
let restoreEnv: () => void;

beforeAll(async () => {
  account = await createServiceAccount('arb-reviews');
  stranger = await createServiceAccount('someone-else');
  play = createAndroidPublisher([account, stranger]);
  server = await startFakeServer([androidPublisherRoutes(play)]);
  restoreEnv = setEnvForTests({ ANDROID_PUBLISHER_BASE_URL: server.url, GOOGLE_OAUTH_TOKEN_URL: `${server.url}/token` });
});
afterAll(async () => {
  restoreEnv();
  await server.close();
});
beforeEach(() => clearGoogleTokenCache());

let seq = 0;
const newPackage = () => `com.example.app${++seq}`;
const config = (appId: string, sa: ServiceAccountKey = account): SourceConfig => ({
  kind: 'play_developer',
  appId,
  credentials: { kind: 'play_developer', serviceAccountJson: sa.json },
});
const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000);

describe('Google Play Developer API: parsing', () => {
  test('maps the real reviews shape: title and body split on the tab, lastModified, developer reply', () => {
    const doc = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../fixtures/androidpublisher/reviews.json'), 'utf8')) as PlayReviewsDocument;
    const [first, second] = parsePlayReviews(doc, 'com.lumenlabs.notes');
    expect(first).toEqual({
      store: 'google_play_store',
      appId: 'com.lumenlabs.notes',
      storeReviewId: 'gp:AOqpTOFmAVORqfWGcaqfF39ftwFjGkjecjvjXnC3g_uL0NtVGlrrqm8X2XUWx0WydH3C9afZlPUizYVZAfARLuk',
      country: null,
      language: 'en',
      authorName: 'Priya Raman',
      title: 'Great update',
      body: 'The new editor is much faster. Thanks!',
      rating: 5,
      appVersion: '5.12.0',
      createdAt: null,
      updatedAt: new Date(1715677200417),
      replyText: 'Thank you, Priya! More speed-ups are coming.',
      replyUpdatedAt: new Date(1715680800000),
      permalink:
        'https://play.google.com/store/apps/details?id=com.lumenlabs.notes&reviewId=gp%3AAOqpTOFmAVORqfWGcaqfF39ftwFjGkjecjvjXnC3g_uL0NtVGlrrqm8X2XUWx0WydH3C9afZlPUizYVZAfARLuk',
    });
    expect(second).toMatchObject({ title: null, body: 'Stürzt beim Start ab.', language: 'de', appVersion: null, replyText: null, updatedAt: new Date(1715590800005) });
  });

  test('splitUserComment handles a missing title and an empty one', () => {
    expect(splitUserComment('Title\tBody text')).toEqual({ title: 'Title', body: 'Body text' });
    expect(splitUserComment('\tBody only')).toEqual({ title: null, body: 'Body only' });
    expect(splitUserComment('No tab at all')).toEqual({ title: null, body: 'No tab at all' });
  });
});

describe('Google Play Developer API: polling', () => {
  test('gets a token with a verified RS256 assertion, then reads every page newest first', async () => {
    const pkg = newPackage();
    const published = Array.from({ length: 230 }, (_, i) => play.publish(account, pkg, { title: i % 2 ? `T${i}` : null, body: `B${i}`, lastModified: minutesAgo(i + 1) }));
    const grantsBefore = play.grants.length;
    const { reviews, complete } = await playDeveloperAdapter.poll(config(pkg));
    expect(complete).toBe(true);
    expect(reviews.map((r) => r.storeReviewId)).toEqual(published.map((r) => r.reviewId));
    expect(reviews[1]).toMatchObject({ title: 'T1', body: 'B1' });
    expect(play.grants.slice(grantsBefore)).toEqual([
      { iss: account.clientEmail, scope: 'https://www.googleapis.com/auth/androidpublisher', aud: `${server.url}/token` },
    ]);
    const listCalls = server.requests.filter((r) => r.path === `/androidpublisher/v3/applications/${pkg}/reviews`);
    expect(listCalls.map((r) => r.query.get('maxResults'))).toEqual(['100', '100', '100']);
    expect(listCalls[0].query.get('token')).toBeNull();
    expect(listCalls[1].query.get('token')).toBeTruthy();
  });

  test('reuses the access token until it nears expiry', async () => {
    const pkg = newPackage();
    play.publish(account, pkg);
    const before = play.grants.length;
    await playDeveloperAdapter.poll(config(pkg));
    await playDeveloperAdapter.poll(config(pkg));
    expect(play.grants.length - before).toBe(1);
  });

  test('stops past the watermark; an edit comes back with the same id and the new text and rating', async () => {
    const pkg = newPackage();
    const published = Array.from({ length: 150 }, (_, i) => play.publish(account, pkg, { lastModified: minutesAgo(i + 1) }));
    const first = await playDeveloperAdapter.poll(config(pkg));
    const watermark = first.reviews[0].updatedAt;

    const old = published[120];
    play.edit(pkg, old.reviewId, { title: 'Changed', body: 'Now it works', starRating: 4 });
    const before = server.requests.length;
    const second = await playDeveloperAdapter.poll(config(pkg), { since: watermark });
    expect(second.complete).toBe(true);
    expect(second.reviews[0]).toMatchObject({ storeReviewId: old.reviewId, title: 'Changed', body: 'Now it works', rating: 4 });
    expect(server.requests.length - before).toBe(1);
  });

  test('a page budget that runs out before the watermark reports an incomplete poll', async () => {
    const pkg = newPackage();
    Array.from({ length: 250 }, (_, i) => play.publish(account, pkg, { lastModified: minutesAgo(i + 1) }));
    const result = await playDeveloperAdapter.poll(config(pkg), { since: minutesAgo(5000), maxPages: 2 });
    expect(result.reviews).toHaveLength(200);
    expect(result.complete).toBe(false);
  });

  test('reviews older than 7 days are not returned (the API only keeps a week)', async () => {
    const pkg = newPackage();
    play.publish(account, pkg, { lastModified: minutesAgo(60) });
    play.publish(account, pkg, { lastModified: minutesAgo(8 * 24 * 60) });
    const { reviews } = await playDeveloperAdapter.poll(config(pkg));
    expect(reviews).toHaveLength(1);
  });

  test('a package of another developer account is a permanent 403; an unknown one a permanent 404', async () => {
    const pkg = newPackage();
    play.publish(stranger, pkg);
    await expect(playDeveloperAdapter.poll(config(pkg))).rejects.toMatchObject({ permanent: true, status: 403 });
    await expect(playDeveloperAdapter.poll(config('com.nobody.here'))).rejects.toMatchObject({ permanent: true, status: 404 });
  });

  test('a key Google does not accept is permanent (invalid_grant)', async () => {
    const forged = await createServiceAccount('arb-reviews'); // same e-mail, different key: the signature fails
    const err = await playDeveloperAdapter.poll(config('com.example.any', forged)).catch((e: unknown) => e);
    expect(err).toMatchObject({ permanent: true, status: 400, message: expect.stringContaining('invalid_grant') });
  });

  test('JSON that is not a service-account key is permanent and sends nothing', async () => {
    const before = server.requests.length;
    await expect(playDeveloperAdapter.poll({ kind: 'play_developer', appId: 'com.a.b', credentials: { kind: 'play_developer', serviceAccountJson: '{"web":{}}' } })).rejects.toMatchObject({ permanent: true });
    await expect(playDeveloperAdapter.poll({ kind: 'play_developer', appId: 'com.a.b', credentials: { kind: 'play_developer', serviceAccountJson: 'nope' } })).rejects.toMatchObject({ permanent: true });
    await expect(playDeveloperAdapter.poll({ ...config('not a package') })).rejects.toMatchObject({ permanent: true });
    expect(server.requests.length).toBe(before);
  });

  test('429 and 5xx are transient', async () => {
    const pkg = newPackage();
    play.publish(account, pkg);
    play.failNext({ status: 429, body: { error: { code: 429, message: 'Quota exceeded', status: 'RESOURCE_EXHAUSTED' } } });
    await expect(playDeveloperAdapter.poll(config(pkg))).rejects.toMatchObject({ permanent: false, status: 429, message: expect.stringContaining('Quota exceeded') });
    play.failNext({ status: 503 });
    await expect(playDeveloperAdapter.poll(config(pkg))).rejects.toMatchObject({ permanent: false, status: 503 });
  });

  test('the registry hands out the Play Developer adapter', () => {
    expect(getAdapter('play_developer')).toBe(playDeveloperAdapter);
  });
});

describe('Google Play Developer API: replies', () => {
  test('POST …/reviews/{id}:reply publishes the developer comment', async () => {
    const pkg = newPackage();
    const review = play.publish(account, pkg, { starRating: 2 });
    const creds = config(pkg).credentials!;
    const reply = await replyToReview(creds, pkg, review.reviewId, 'Thanks, fixed in 2.4.2!');
    expect(reply.replyText).toBe('Thanks, fixed in 2.4.2!');
    expect(reply.lastEdited).toBeInstanceOf(Date);
    const { reviews } = await playDeveloperAdapter.poll(config(pkg));
    expect(reviews[0].replyText).toBe('Thanks, fixed in 2.4.2!');
  });

  test('a reply over 350 characters is refused before any request', async () => {
    const creds = config('com.a.b').credentials!;
    const before = server.requests.length;
    await expect(replyToReview(creds, 'com.a.b', 'gp:x', 'é'.repeat(351))).rejects.toMatchObject({ status: 400, message: expect.stringContaining('350') });
    expect(server.requests.length).toBe(before);
  });
});
