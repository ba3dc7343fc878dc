import fs from 'node:fs';
import path from 'node:path';
import { decodeProtectedHeader, decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { setEnvForTests } from '@/server/env';
import { appStoreConnectAdapter, appStoreConnectToken, replyToReview, resolveNextLink } from '@/server/sources/appStoreConnect';
import { getAdapter } from '@/server/sources';
import { ALPHA3_TO_ALPHA2, countryToTerritory, territoryToCountry } from '@/server/sources/territories';
import type { SourceConfig } from '@/server/sources/types';
import {
  appStoreConnectRoutes,
  createAppStoreConnect,
  createAppStoreConnectKey,
  type AppStoreConnectFake,
  type AppStoreConnectKey,
} from '@/tests/fakes/appStoreConnect';
import { startFakeServer, type FakeHandler, type FakeServer } from '@/tests/fakes/http';

let key: AppStoreConnectKey;
let otherKey: AppStoreConnectKey;
let asc: AppStoreConnectFake;
let server: FakeServer;
let elsewhere: FakeServer;
let restoreEnv: () => void;

/** App 777 answers with a redirect to another host: the Bearer token must not follow it. */
const redirecting: FakeHandler = (req, res) => {
  if (req.path !== '/v1/apps/777/customerReviews') return false;
  res.writeHead(302, { Location: `${elsewhere.url}/v1/apps/777/customerReviews` });
  res.end();
  return true;
};

const fixtureRoute: FakeHandler = (req, res) => {
  if (req.path !== '/v1/apps/1488000123/customerReviews') return false;
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.end(fs.readFileSync(path.resolve(__dirname, '../../fixtures/appstoreconnect/customer-reviews.json')));
  return true;
};

beforeAll(async () => {
  key = await createAppStoreConnectKey();
  otherKey = await createAppStoreConnectKey(); // never registered with the fake
  asc = createAppStoreConnect([key]);
  elsewhere = await startFakeServer([]);
  server = await startFakeServer([fixtureRoute, redirecting, appStoreConnectRoutes(asc)]);
  restoreEnv = setEnvForTests({ APPSTORE_CONNECT_BASE_URL: server.url });
});
afterAll(async () => {
  restoreEnv();
  await server.close();
  await elsewhere.close();
});

const config = (appId: string, k: AppStoreConnectKey = key): SourceConfig => ({
  kind: 'appstore_connect',
  appId,
  credentials: { kind: 'appstore_connect', issuerId: k.issuerId, keyId: k.keyId, privateKeyPem: k.privateKeyPem },
});
let appSeq = 600_000;
const newApp = () => String(++appSeq);
const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000);

describe('App Store Connect: the token', () => {
  test('is an ES256 JWT with kid, iss, aud appstoreconnect-v1 and a life of at most 20 minutes', async () => {
    const token = await appStoreConnectToken({ kind: 'appstore_connect', issuerId: key.issuerId, keyId: key.keyId, privateKeyPem: key.privateKeyPem });
    expect(decodeProtectedHeader(token)).toMatchObject({ alg: 'ES256', kid: key.keyId, typ: 'JWT' });
    const claims = decodeJwt(token);
    expect(claims).toMatchObject({ iss: key.issuerId, aud: 'appstoreconnect-v1' });
    expect(claims.exp! - claims.iat!).toBeLessThanOrEqual(20 * 60);
    expect(claims.iat!).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000));
  });

  test('a key that is not a .p8 is a permanent error', async () => {
    const err = await appStoreConnectAdapter
      .poll({ ...config('1'), credentials: { kind: 'appstore_connect', issuerId: key.issuerId, keyId: key.keyId, privateKeyPem: 'not a key' } })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ permanent: true, message: expect.stringContaining('.p8') });
  });

  test('missing credentials are a permanent error', async () => {
    await expect(appStoreConnectAdapter.poll({ kind: 'appstore_connect', appId: '1' })).rejects.toMatchObject({ permanent: true });
  });
});

describe('App Store Connect: reviews', () => {
  test('parses the real JSON:API shape: territory to country, published response only', async () => {
    const { reviews, complete } = await appStoreConnectAdapter.poll(config('1488000123'));
    expect(complete).toBe(true);
    expect(reviews).toHaveLength(3);
    expect(reviews[0]).toEqual({
      store: 'apple_app_store',
      appId: '1488000123',
      storeReviewId: '00000029-8e1f-4c6b-a1d2-7b3e5f9a0c11',
      country: 'gb',
      language: null,
      authorName: 'tired_of_this',
      title: 'Crashes on launch',
      body: 'Since the last update the app closes as soon as I open it. iPhone 13, iOS 17.4.',
      rating: 1,
      appVersion: null,
      createdAt: new Date('2024-05-14T13:12:45Z'),
      updatedAt: new Date('2024-05-14T13:12:45Z'),
      replyText: 'Sorry about that! Version 5.12.1, out today, fixes the crash.',
      replyUpdatedAt: new Date('2024-05-14T16:30:00Z'),
      permalink: 'https://apps.apple.com/gb/app/id1488000123?see-all=reviews',
    });
    expect(reviews[1]).toMatchObject({ country: 'de', replyText: null });
    // PENDING_PUBLISH is not on the store yet.
    expect(reviews[2]).toMatchObject({ country: 'us', replyText: null, replyUpdatedAt: null });
  });

  test('follows links.next across all territories, sending requests only to the configured host', async () => {
    const appId = newApp();
    const territories = ['USA', 'GBR', 'JPN', 'BRA', 'FRA'];
    const published = Array.from({ length: 450 }, (_, i) =>
      asc.publish(appId, { title: `R${i}`, createdDate: minutesAgo(i + 1), territory: territories[i % territories.length] }),
    );
    const before = server.requests.length;
    const { reviews, complete } = await appStoreConnectAdapter.poll(config(appId));
    const calls = server.requests.slice(before);
    expect(complete).toBe(true);
    expect(reviews.map((r) => r.storeReviewId)).toEqual(published.map((r) => r.id));
    expect(new Set(reviews.map((r) => r.country))).toEqual(new Set(['us', 'gb', 'jp', 'br', 'fr']));
    // 3 pages of 200: the absolute links on api.appstoreconnect.apple.com were rewritten to the fake.
    expect(calls).toHaveLength(3);
    expect(calls[0].query.get('sort')).toBe('-createdDate');
    expect(calls[0].query.get('limit')).toBe('200');
    expect(calls[0].query.get('include')).toBe('response');
    expect(calls[1].query.get('cursor')).toBeTruthy();
    // Every request carried a token the fake verified with the public key.
    expect(asc.tokens.at(-1)).toMatchObject({ kid: key.keyId, iss: key.issuerId, aud: 'appstoreconnect-v1' });
  });

  test('stops paging past the watermark', async () => {
    const appId = newApp();
    const published = Array.from({ length: 450 }, (_, i) => asc.publish(appId, { createdDate: minutesAgo(i + 1) }));
    const before = server.requests.length;
    const { reviews, complete } = await appStoreConnectAdapter.poll(config(appId), { since: published[10].createdDate });
    expect(complete).toBe(true);
    expect(reviews.slice(0, 10).map((r) => r.storeReviewId)).toEqual(published.slice(0, 10).map((r) => r.id));
    expect(server.requests.length - before).toBe(1);
  });

  test('a page budget that runs out before the watermark reports an incomplete poll', async () => {
    const appId = newApp();
    Array.from({ length: 450 }, (_, i) => asc.publish(appId, { createdDate: minutesAgo(i + 1) }));
    const result = await appStoreConnectAdapter.poll(config(appId), { since: minutesAgo(10_000), maxPages: 2 });
    expect(result.reviews).toHaveLength(400);
    expect(result.complete).toBe(false);
  });

  test('includes a published developer response', async () => {
    const appId = newApp();
    asc.publish(appId, {
      rating: 2,
      response: { id: 'resp-1', responseBody: 'We fixed it in 2.1', lastModifiedDate: minutesAgo(1), state: 'PUBLISHED' },
      createdDate: minutesAgo(5),
    });
    const { reviews } = await appStoreConnectAdapter.poll(config(appId));
    expect(reviews[0].replyText).toBe('We fixed it in 2.1');
  });

  test('401 from Apple (a key it does not know) is permanent', async () => {
    const appId = newApp();
    asc.publish(appId);
    const err = await appStoreConnectAdapter.poll(config(appId, otherKey)).catch((e: unknown) => e);
    expect(err).toMatchObject({ permanent: true, status: 401, message: expect.stringContaining('Authentication credentials are missing or invalid') });
  });

  test('403 is permanent; 429 and 5xx are transient', async () => {
    const appId = newApp();
    asc.publish(appId);
    asc.failNext({ status: 403, body: { errors: [{ status: '403', code: 'FORBIDDEN_ERROR', title: 'This request is forbidden for security reasons' }] } });
    await expect(appStoreConnectAdapter.poll(config(appId))).rejects.toMatchObject({ permanent: true, status: 403 });
    asc.failNext({ status: 429, headers: { 'X-Rate-Limit': 'user-hour-lim:3500;user-hour-rem:0;' } });
    await expect(appStoreConnectAdapter.poll(config(appId))).rejects.toMatchObject({ permanent: false, status: 429 });
    asc.failNext({ status: 500 });
    await expect(appStoreConnectAdapter.poll(config(appId))).rejects.toMatchObject({ permanent: false, status: 500 });
    await expect(appStoreConnectAdapter.poll(config(appId))).resolves.toMatchObject({ complete: true });
  });

  test('a redirect is refused, so the token never reaches another host', async () => {
    const err = await appStoreConnectAdapter.poll(config('777')).catch((e: unknown) => e);
    expect(err).toMatchObject({ permanent: false });
    expect(elsewhere.requests).toHaveLength(0);
  });

  test('an app the key cannot see (404) is permanent', async () => {
    await expect(appStoreConnectAdapter.poll(config('999999999'))).rejects.toMatchObject({ permanent: true, status: 404 });
  });

  test('the registry hands out the App Store Connect adapter', () => {
    expect(getAdapter('appstore_connect')).toBe(appStoreConnectAdapter);
  });
});

describe('App Store Connect: replies', () => {
  test('POST /v1/customerReviewResponses creates the response for the review', async () => {
    const appId = newApp();
    const review = asc.publish(appId, { rating: 1 });
    const creds = config(appId).credentials!;
    const reply = await replyToReview(creds, review.id, '  Thanks for telling us — fixed in 2.0.1.  ');
    expect(reply).toMatchObject({ responseBody: 'Thanks for telling us — fixed in 2.0.1.', state: 'PENDING_PUBLISH' });
    expect(reply.id).toBeTruthy();
    expect(asc.reviews(appId)[0].response).toMatchObject({ responseBody: 'Thanks for telling us — fixed in 2.0.1.' });
  });

  test('an empty or too long reply is refused before any request', async () => {
    const creds = config('1').credentials!;
    const before = server.requests.length;
    await expect(replyToReview(creds, 'x', '   ')).rejects.toMatchObject({ status: 400 });
    await expect(replyToReview(creds, 'x', 'a'.repeat(5971))).rejects.toMatchObject({ status: 400 });
    expect(server.requests.length).toBe(before);
  });
});

describe('territories and next links', () => {
  test('maps every ISO alpha-3 territory to a real alpha-2 region', () => {
    const names = new Intl.DisplayNames(['en'], { type: 'region' });
    expect(ALPHA3_TO_ALPHA2.size).toBeGreaterThanOrEqual(249);
    for (const a2 of ALPHA3_TO_ALPHA2.values()) expect(names.of(a2)).not.toBe(a2);
    expect(territoryToCountry('USA')).toBe('us');
    expect(territoryToCountry('gbr')).toBe('gb');
    expect(territoryToCountry('CIV')).toBe('ci');
    expect(territoryToCountry('XKS')).toBe('xk');
    expect(territoryToCountry('ZZZ')).toBeNull();
    expect(countryToTerritory('de')).toBe('DEU');
  });

  test('a next link keeps its path and query but never its host', () => {
    expect(resolveNextLink('https://evil.example/v1/apps/1/customerReviews?cursor=abc')).toBe(`${server.url}/v1/apps/1/customerReviews?cursor=abc`);
    expect(resolveNextLink('https://api.appstoreconnect.apple.com/v2/other')).toBeNull();
    expect(resolveNextLink(undefined)).toBeNull();
  });
});
