// The pure parts of replying: Apple's X-Rate-Limit header, Retry-After, what each store refusal means in plain words,
// the stores' limits counted as the stores count, templates' placeholders and the backoff's growth.
import { describe, expect, test } from 'vitest';
import { parseRateLimitHeader, customerReviewResponseBody } from '@/server/sources/appStoreConnect';
import { playReplyBody, TOKEN_SERVICE } from '@/server/sources/playDeveloper';
import { SourceError, type SourceCredentials } from '@/server/sources/types';
import { allowanceKey, classifyStoreError, retryAfterSeconds } from '@/server/replies/stores';
import { backoffSeconds } from '@/server/replies/service';
import { fillTemplate, REPLY_MAX_CHARS, replyLength } from '@/shared/replies';

const apple: SourceCredentials = { kind: 'appstore_connect', issuerId: 'i', keyId: '2X9R4HXF34', privateKeyPem: 'k' };
const play: SourceCredentials = { kind: 'play_developer', serviceAccountJson: JSON.stringify({ client_email: 'arb@p.iam.gserviceaccount.com' }) };

describe('store answers', () => {
  test("X-Rate-Limit as Apple sends it; anything else is unknown", () => {
    expect(parseRateLimitHeader('user-hour-lim:3600;user-hour-rem:3599;')).toEqual({ limit: 3600, remaining: 3599 });
    expect(parseRateLimitHeader(['user-hour-lim:3500;user-hour-rem:0'])).toEqual({ limit: 3500, remaining: 0 });
    for (const bad of [undefined, '', 'user-hour-lim:3600', 'nonsense', 'user-hour-lim:x;user-hour-rem:1;']) expect(parseRateLimitHeader(bad)).toBeNull();
  });

  test('Retry-After in seconds or as a date', () => {
    expect(retryAfterSeconds('7')).toBe(7);
    expect(retryAfterSeconds(new Date(Date.now() + 30_000).toUTCString())).toBeGreaterThanOrEqual(29);
    expect(retryAfterSeconds(undefined)).toBeNull();
    expect(retryAfterSeconds('soon')).toBeNull();
  });

  test('the request bodies are the stores\' documented shapes', () => {
    expect(customerReviewResponseBody('r1', 'Thanks')).toEqual({
      data: { type: 'customerReviewResponses', attributes: { responseBody: 'Thanks' }, relationships: { review: { data: { type: 'customerReviews', id: 'r1' } } } },
    });
    expect(playReplyBody('Thanks')).toEqual({ replyText: 'Thanks' });
  });

  test('refusals in plain words: failed with what to do, or retried', () => {
    const err = (status: number, message = `X answered ${status}: detail`, headers?: Record<string, string>) => new SourceError(message, status < 500, status, headers);
    expect(classifyStoreError({ store: 'apple_app_store', credentials: apple }, err(403))).toMatchObject({ kind: 'failed', reason: expect.stringMatching(/^This App Store Connect key's role can't reply to reviews: give key 2X9R4HXF34 the Admin, App Manager or Customer Support role/) });
    expect(classifyStoreError({ store: 'apple_app_store', credentials: apple }, err(401))).toMatchObject({ kind: 'failed', reason: expect.stringMatching(/no longer accepts key 2X9R4HXF34/) });
    expect(classifyStoreError({ store: 'apple_app_store', credentials: apple }, err(429, 'x', { 'retry-after': '12' }))).toMatchObject({ kind: 'retry', afterSeconds: 12, rateLimited: true });
    expect(classifyStoreError({ store: 'apple_app_store', credentials: apple }, err(503))).toMatchObject({ kind: 'retry', afterSeconds: null, rateLimited: false });
    expect(classifyStoreError({ store: 'apple_app_store', credentials: apple }, new SourceError('App Store Connect could not be reached: ECONNRESET', false))).toMatchObject({ kind: 'retry' });
    expect(classifyStoreError({ store: 'google_play_store', credentials: play }, err(403))).toMatchObject({ kind: 'failed', reason: expect.stringMatching(/^The service account arb@p\.iam\.gserviceaccount\.com may not reply .*"Reply to reviews"/) });
    expect(classifyStoreError({ store: 'google_play_store', credentials: play }, err(429))).toMatchObject({ kind: 'retry', afterSeconds: 3600, rateLimited: true });
    expect(classifyStoreError({ store: 'google_play_store', credentials: play }, new SourceError(`${TOKEN_SERVICE} answered 400: invalid_grant`, true, 400))).toMatchObject({ kind: 'failed', reason: expect.stringMatching(/Google no longer accepts the service-account key/) });
  });

  test('allowances: per App Store Connect key, per Play app', () => {
    expect(allowanceKey({ store: 'apple_app_store', appId: '1', credentials: apple })).toBe('appstore_connect:2X9R4HXF34');
    expect(allowanceKey({ store: 'google_play_store', appId: 'com.a.b', credentials: play })).toBe('play:com.a.b');
  });
});

describe('texts', () => {
  test('limits count characters as the stores do (an emoji is one), after trimming', () => {
    expect(REPLY_MAX_CHARS).toEqual({ apple_app_store: 5970, google_play_store: 350 });
    expect(replyLength('  👍é  ')).toBe(2);
  });

  test('templates fill {author} and {app}, every time they appear', () => {
    expect(fillTemplate('Hi {author}! {app} loves {author}.', { author: 'Maya', app: 'Notes' })).toBe('Hi Maya! Notes loves Maya.');
    expect(fillTemplate('Hi {author}', { author: '  ', app: 'Notes' })).toBe('Hi there');
  });

  test('the backoff grows and stays under an hour', () => {
    const waits = [1, 2, 3, 4, 5, 9].map(backoffSeconds);
    expect(waits[0]).toBeGreaterThanOrEqual(4);
    expect(waits[0]).toBeLessThanOrEqual(6);
    for (let i = 1; i < 5; i++) expect(waits[i]).toBeGreaterThan(waits[i - 1]);
    expect(waits[5]).toBeLessThanOrEqual(3960);
  });
});
