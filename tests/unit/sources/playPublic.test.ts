import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { setEnvForTests } from '@/server/env';
import { getAdapter } from '@/server/sources';
import { parseBatchExecute, parseReviewsPage, playPublicAdapter, reviewsRequestBody } from '@/server/sources/playPublic';
import { SourceFormatError } from '@/server/sources/types';
import { createGooglePlayReviews, googlePlayReviewsRoutes, type GooglePlayReviewsFake } from '@/tests/fakes/googlePlayReviews';
import { startFakeServer, type FakeHandler, type FakeServer } from '@/tests/fakes/http';

const fixtureText = fs.readFileSync(path.resolve(__dirname, '../../fixtures/googleplay/reviews-batchexecute.txt'), 'utf8');
/** An answer captured from play.google.com by another project (tests/fixtures/real/README.md). */
const realAnswer = fs.readFileSync(path.resolve(__dirname, '../../fixtures/real/googleplay-reviews-batchexecute-translate.txt'), 'utf8');

let play: GooglePlayReviewsFake;
let server: FakeServer;
let restoreEnv: () => void;
/** Another RPC on the same endpoint (the search/details fake's business): must fall through untouched. */
const otherRpcSeen: string[] = [];
const otherRpc: FakeHandler = (req, res) => {
  if (req.path !== '/_/PlayStoreUi/data/batchexecute') return false;
  otherRpcSeen.push(req.query.get('rpcids') ?? '');
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.end(`)]}'\n\n[["wrb.fr","qnKhOb","[]",null,null,null,"generic"]]`);
  return true;
};

beforeAll(async () => {
  play = createGooglePlayReviews();
  server = await startFakeServer([googlePlayReviewsRoutes(play), otherRpc]);
  restoreEnv = setEnvForTests({ GOOGLE_PLAY_BASE_URL: server.url });
});
afterAll(async () => {
  restoreEnv();
  await server.close();
});

let seq = 0;
const newPackage = () => `com.example.public${++seq}`;
const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000);
const reviewCalls = (pkg: string) => play.calls.filter((c) => c.appId === pkg);

describe('Google Play public reviews: the wire format', () => {
  test('builds the f.req body google-play-scraper sends (newest first, token on later pages)', () => {
    const first = new URLSearchParams(reviewsRequestBody('com.a.b', null)).get('f.req');
    expect(first).toBe('[[["UsvDTd","[null,null,[2,2,[150,null,null],null,[]],[\\"com.a.b\\",7]]",null,"generic"]]]');
    const next = new URLSearchParams(reviewsRequestBody('com.a.b', 'TOKEN')).get('f.req');
    expect(next).toBe('[[["UsvDTd","[null,null,[2,2,[150,null,\\"TOKEN\\"],null,[]],[\\"com.a.b\\",7]]",null,"generic"]]]');
  });

  test('parses the real )]}\'-prefixed answer', () => {
    const page = parseReviewsPage(fixtureText, 'com.lumenlabs.notes', 'en');
    expect(page.nextToken).toBe('CpEBCo4BKmgKZvcXxX9Ls4bK1o1Pn8Zy2fR7hT0cS6kY1q2w3e4r5t6y7u8i9o0pAsDfGhJkLzXcVbNm');
    expect(page.reviews).toHaveLength(3);
    expect(page.reviews[0]).toEqual({
      store: 'google_play_store',
      appId: 'com.lumenlabs.notes',
      storeReviewId: '13c6b8f2-8d0e-4a2b-9f41-7e2a5c3d1b90',
      country: null,
      language: 'en',
      authorName: 'Amara Okafor',
      title: null,
      body: 'Widgets stopped updating after 5.12. Had to remove and add them again. "Sync now" button does nothing.',
      rating: 2,
      appVersion: '5.12.0',
      createdAt: null,
      updatedAt: new Date(1715683210512),
      replyText: 'Hi Amara, a fix for widgets is rolling out in 5.12.1.',
      replyUpdatedAt: new Date(1715690000000),
      permalink: 'https://play.google.com/store/apps/details?id=com.lumenlabs.notes&reviewId=13c6b8f2-8d0e-4a2b-9f41-7e2a5c3d1b90',
    });
    expect(page.reviews[1]).toMatchObject({ authorName: 'Tomás García', rating: 5, replyText: null });
    expect(page.reviews[2]).toMatchObject({ appVersion: null });
  });

  test('also reads the chunked (rt=c) framing', () => {
    const inner = fixtureText.replace(/^\)\]\}'\s*/, '').trim();
    const chunked = `)]}'\n\n${inner.length}\n${inner}\n25\n[["e",4,null,null,1234]]\n`;
    expect(parseBatchExecute(chunked).map((e) => e[0])).toEqual(['wrb.fr', 'di', 'af.httprm', 'e']);
    expect(parseReviewsPage(chunked, 'com.lumenlabs.notes', 'en').reviews).toHaveLength(3);
  });

  test('reads a real captured answer (Google Translate, 5-star filter)', () => {
    const page = parseReviewsPage(realAnswer, 'com.google.android.apps.translate', 'en');
    expect(page.reviews.map((r) => r.storeReviewId)).toEqual([
      '2b1741d3-0b7a-410a-8a5c-be6b35a91c88',
      '8c8b6eba-6c87-4c9d-8ffb-c26f7c65b46e',
      'ec43ba3a-de34-4137-8f83-5ac17e6b8481',
    ]);
    expect(page.reviews[0]).toMatchObject({
      authorName: 'Suma Das',
      body: 'English to bengalli',
      rating: 5,
      appVersion: '10.16.65.908820900.3-release',
      updatedAt: new Date(1790517877 * 1000 + 20),
      replyText: null,
    });
    expect(page.reviews[2].appVersion).toBeNull();
    expect(page.nextToken).toMatch(/^Ct8BItYBAV8d1P0f/);
  });

  test('a list of entries none of which reads as a review is a format error, not an empty page', () => {
    const moved = `)]}'\n\n${JSON.stringify([['wrb.fr', 'UsvDTd', JSON.stringify([[[{ id: 'x' }], [null, 'y']], [null, null]]), null, null, null, 'generic']])}`;
    expect(() => parseReviewsPage(moved, 'com.a.b', 'en')).toThrow(SourceFormatError);
    expect(() => parseReviewsPage(moved, 'com.a.b', 'en')).toThrow(/changed the format of its reviews: 2 entries/);
  });

  test('garbage is a transient SourceError, not a crash', () => {
    expect(() => parseReviewsPage('<html>captcha</html>', 'com.a.b', 'en')).toThrow(expect.objectContaining({ permanent: false }));
  });
});

describe('Google Play public reviews: polling the fake store', () => {
  test('reads pages newest first with the token, in the requested language only', async () => {
    const pkg = newPackage();
    const english = Array.from({ length: 320 }, (_, i) => play.publish(pkg, 'en', { text: `en ${i}`, at: minutesAgo(i + 1) }));
    play.publish(pkg, 'fr', { text: 'en français', at: minutesAgo(0) });
    const { reviews, complete } = await playPublicAdapter.poll({ kind: 'play_public', appId: pkg, language: 'en' });
    expect(complete).toBe(true);
    expect(reviews.map((r) => r.storeReviewId)).toEqual(english.map((r) => r.id));
    expect(reviews.every((r) => r.language === 'en')).toBe(true);
    const calls = reviewCalls(pkg);
    expect(calls.map((c) => [c.lang, c.sort, c.count, c.token === null])).toEqual([
      ['en', 2, 150, true],
      ['en', 2, 150, false],
      ['en', 2, 150, false],
    ]);
    expect(otherRpcSeen).toEqual([]);
  });

  test('stops past the watermark and picks up reviews published during the test', async () => {
    const pkg = newPackage();
    Array.from({ length: 200 }, (_, i) => play.publish(pkg, 'en', { at: minutesAgo(i + 1) }));
    const first = await playPublicAdapter.poll({ kind: 'play_public', appId: pkg, language: 'en' });
    const fresh = play.publish(pkg, 'en', { text: 'Brand new', score: 1 });
    const callsBefore = reviewCalls(pkg).length;
    const second = await playPublicAdapter.poll({ kind: 'play_public', appId: pkg, language: 'en' }, { since: first.reviews[0].updatedAt });
    expect(second.complete).toBe(true);
    expect(second.reviews[0]).toMatchObject({ storeReviewId: fresh.id, body: 'Brand new', rating: 1 });
    expect(reviewCalls(pkg).length - callsBefore).toBe(1);
  });

  test('dedupes by id and stops when the listing starts repeating', async () => {
    const pkg = newPackage();
    Array.from({ length: 300 }, (_, i) => play.publish(pkg, 'en', { at: minutesAgo(i + 1) }));
    play.repeatAfter = 300;
    try {
      const { reviews } = await playPublicAdapter.poll({ kind: 'play_public', appId: pkg, language: 'en' }, { maxPages: 10 });
      expect(reviews).toHaveLength(300);
      expect(new Set(reviews.map((r) => r.storeReviewId)).size).toBe(300);
      expect(reviewCalls(pkg).length).toBe(3); // two pages of news, one of repeats, then stop
    } finally {
      play.repeatAfter = null;
    }
  });

  test('an app without reviews in that language is an empty, complete poll', async () => {
    await expect(playPublicAdapter.poll({ kind: 'play_public', appId: newPackage(), language: 'de' })).resolves.toEqual({ reviews: [], complete: true });
  });

  test('a page budget that runs out before the watermark reports an incomplete poll', async () => {
    const pkg = newPackage();
    Array.from({ length: 400 }, (_, i) => play.publish(pkg, 'en', { at: minutesAgo(i + 1) }));
    const result = await playPublicAdapter.poll({ kind: 'play_public', appId: pkg, language: 'en' }, { since: minutesAgo(10_000), maxPages: 2 });
    expect(result.reviews).toHaveLength(300);
    expect(result.complete).toBe(false);
  });

  test('503 (the captcha answer to bursts) is transient; a bad package or language is permanent', async () => {
    const pkg = newPackage();
    play.publish(pkg, 'en');
    play.failNext(503);
    await expect(playPublicAdapter.poll({ kind: 'play_public', appId: pkg, language: 'en' })).rejects.toMatchObject({ permanent: false, status: 503 });
    await expect(playPublicAdapter.poll({ kind: 'play_public', appId: 'nope', language: 'en' })).rejects.toMatchObject({ permanent: true });
    await expect(playPublicAdapter.poll({ kind: 'play_public', appId: pkg, language: 'en"]' })).rejects.toMatchObject({ permanent: true });
  });

  test('the registry hands out the public Play adapter', () => {
    expect(getAdapter('play_public')).toBe(playPublicAdapter);
  });
});
