// The engine's pure rules, one by one: which reviews a destination wants, what counts as new, how each platform's
// answer is read, how fast each platform is sent to, how retries back off, and how secrets are sealed.
import { describe, expect, test } from 'vitest';
import { matchesFilters } from '@/server/monitor/filters';
import { isAnnouncedAsNew, LATE_ARRIVAL_WINDOW_MS } from '@/server/monitor/ingest';
import { backoffMs, rateLimitWaitMs } from '@/server/monitor/deliveryWorker';
import { afterSend, nextAllowedAt, PLATFORM_PACE } from '@/server/destinations/pacing';
import { classifyWebhookResponse } from '@/server/destinations/deliver';
import { parseRetryAfter, type SendResult } from '@/server/destinations/send';
import { decryptSecret, encryptSecret, secretHash } from '@/server/crypto';
import type { Platform } from '@/server/destinations/types';

const review = { rating: 2, country: 'us', language: 'en', title: 'App crashes', body: 'Every time I open it.' };

describe('filters', () => {
  test('ratings, countries, languages and keywords each narrow; absent means all', () => {
    expect(matchesFilters({}, review)).toBe(true);
    expect(matchesFilters({ ratings: [1, 2] }, review)).toBe(true);
    expect(matchesFilters({ ratings: [4, 5] }, review)).toBe(false);
    expect(matchesFilters({ countries: ['gb'] }, review)).toBe(false);
    expect(matchesFilters({ countries: ['gb'] }, { ...review, country: null })).toBe(true); // Google Play: no country
    expect(matchesFilters({ languages: ['en'] }, { ...review, language: 'en-GB' })).toBe(true);
    expect(matchesFilters({ languages: ['de'] }, review)).toBe(false);
    expect(matchesFilters({ keywords: ['CRASH'] }, review)).toBe(true);
    expect(matchesFilters({ keywords: ['refund'] }, review)).toBe(false);
  });
});

describe('new or history', () => {
  const created = new Date('2026-01-10T12:00:00.500Z');
  test('before the first complete poll, only reviews dated since the source was created (to the second) are new', () => {
    const source = { watermark: null, created_at: created };
    expect(isAnnouncedAsNew(new Date('2026-01-10T12:00:00Z'), source)).toBe(true);
    expect(isAnnouncedAsNew(new Date('2026-01-10T11:59:59Z'), source)).toBe(false);
  });
  test('afterwards, anything unseen is new unless dated more than the late-arrival window before the watermark', () => {
    const watermark = new Date('2026-02-01T00:00:00Z');
    const source = { watermark, created_at: created };
    expect(isAnnouncedAsNew(new Date(watermark.getTime() - 3 * 3600_000), source)).toBe(true); // published late
    expect(isAnnouncedAsNew(new Date(watermark.getTime() - LATE_ARRIVAL_WINDOW_MS - 1000), source)).toBe(false);
  });
});

function answer(status: number, body = '', headers: Record<string, string> = {}): SendResult {
  return { ok: status >= 200 && status < 300, status, retryAfter: parseRetryAfter(headers['retry-after']), headers, body };
}

describe('reading each platform\'s answer', () => {
  test.each<[Platform, SendResult, string]>([
    ['slack', answer(200, 'ok'), 'delivered'],
    ['slack', answer(204), 'transient'], // Slack's only success is 200
    ['slack', answer(400, 'invalid_payload'), 'rejected'],
    ['slack', answer(403, 'action_prohibited'), 'gone'],
    ['slack', answer(404, 'no_service'), 'gone'],
    ['slack', answer(410, 'channel_is_archived'), 'gone'],
    ['slack', answer(500, 'rollup_error'), 'transient'],
    ['slack', answer(429, 'rate_limited', { 'retry-after': '30' }), 'rate_limited'],
    ['msteams', answer(202), 'delivered'],
    ['msteams', answer(404, '{"error":{"code":"WorkflowNotFound"}}'), 'gone'],
    ['mattermost', answer(400, '{"id":"web.incoming_webhook.invalid.app_error"}'), 'gone'],
    ['mattermost', answer(400, '{"id":"web.incoming_webhook.parse.app_error"}'), 'rejected'],
    ['discord', answer(404, '{"message":"Unknown Webhook","code":10015}'), 'gone'],
    ['discord', answer(401, '{"message":"Invalid Webhook Token","code":50027}'), 'gone'],
    ['discord', answer(400, '{"message":"Invalid Form Body","code":50035}'), 'rejected'],
    ['webex', answer(423, '', { 'retry-after': '2' }), 'rate_limited'],
    ['webex', answer(410), 'gone'],
    ['webex', answer(415), 'rejected'],
  ])('%s %o → %s', (platform, res, type) => {
    expect(classifyWebhookResponse(platform, res).type).toBe(type);
  });

  test('Retry-After in seconds, and Discord\'s more precise JSON retry_after', () => {
    expect(classifyWebhookResponse('slack', answer(429, '', { 'retry-after': '30' }))).toMatchObject({ waitMs: 30_000 });
    expect(classifyWebhookResponse('discord', answer(429, '{"retry_after":2.35,"global":false}', { 'retry-after': '3' }))).toMatchObject({ waitMs: 2350 });
    expect(classifyWebhookResponse('discord', answer(200, '{}', { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset-after': '1.5' }))).toMatchObject({ type: 'delivered', pauseMs: 1500 });
  });

  test('every wait a receiver asks for is clamped to 1 s … 1 h: zero, negative, huge, HTTP-dates and garbage', () => {
    const wait = (platform: Platform, body: string, retryAfter?: string) =>
      (classifyWebhookResponse(platform, answer(429, body, retryAfter === undefined ? {} : { 'retry-after': retryAfter })) as { waitMs: number }).waitMs;
    expect(wait('slack', '', '0')).toBe(1000);
    expect(wait('slack', '', '-5')).toBe(1000);
    expect(wait('slack', '', '1e300')).toBe(3600_000);
    expect(wait('slack', '', '99999999999999999999')).toBe(3600_000);
    expect(wait('slack', '', 'Infinity')).toBe(5000); // not a number of seconds, not a date: the default
    expect(wait('slack', '', 'soon, maybe')).toBe(5000);
    expect(wait('slack', '', new Date(Date.now() + 120_000).toUTCString())).toBeGreaterThan(115_000);
    expect(wait('slack', '', new Date(Date.now() + 120_000).toUTCString())).toBeLessThanOrEqual(120_000);
    expect(wait('slack', '', new Date(Date.now() + 30 * 86400_000).toUTCString())).toBe(3600_000);
    expect(wait('slack', '', 'Wed, 21 Oct 2015 07:28:00 GMT')).toBe(1000); // a date in the past
    expect(wait('discord', '{"retry_after":0,"global":false}', '0')).toBe(1000);
    expect(wait('discord', '{"retry_after":1e300}', '1')).toBe(3600_000);
    expect(wait('discord', '{"retry_after":0.35}', '1')).toBe(1000);
    // A 5xx's Retry-After and Discord's bucket pause after a success are bounded by the hour too.
    expect(classifyWebhookResponse('slack', answer(503, '', { 'retry-after': '1e300' }))).toMatchObject({ type: 'transient', waitMs: 3600_000 });
    expect(classifyWebhookResponse('discord', answer(200, '{}', { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset-after': '1e300' }))).toMatchObject({ pauseMs: 3600_000 });
  });

  test('repeated 429s double the wait from 1 s, whatever the receiver asked, up to an hour', () => {
    expect([1, 2, 3, 4, 13, 40].map((n) => rateLimitWaitMs(1000, n))).toEqual([1000, 2000, 4000, 8000, 3600_000, 3600_000]);
    expect(rateLimitWaitMs(30_000, 2)).toBe(30_000);
  });

  test('a gone webhook\'s reason is plain words with the platform\'s code, never the URL', () => {
    const out = classifyWebhookResponse('slack', answer(404, 'no_service'));
    expect(out).toMatchObject({ type: 'gone' });
    expect((out as { error: string }).error).toBe(
      'Slack refused the webhook: it no longer exists — it was probably deleted, or its channel was removed (HTTP 404, no_service). Connect it again to keep receiving reviews.',
    );
  });
});

describe('pacing', () => {
  test('Slack: a burst of 3, then one a second', () => {
    const pace = PLATFORM_PACE.slack;
    let tat: number | null = null;
    const sends: number[] = [];
    let now = 0;
    while (sends.length < 6) {
      now = Math.max(now, nextAllowedAt(tat, pace));
      sends.push(now);
      tat = afterSend(tat, now, pace);
    }
    expect(sends).toEqual([0, 0, 0, 1000, 2000, 3000]);
  });
});

describe('backoff', () => {
  test('doubles from 10 s, with 50–100 % jitter, capped at an hour', () => {
    expect(backoffMs(1, 0)).toBe(5_000);
    expect(backoffMs(1, 1)).toBe(10_000);
    expect(backoffMs(3, 1)).toBe(40_000);
    expect(backoffMs(30, 1)).toBe(3_600_000);
  });
});

describe('secrets at rest', () => {
  test('sealed, readable only with the key, tamper-evident; the lookup hash is stable', () => {
    const url = 'https://hooks.slack.com/services/T000/B000/secretsecret';
    const sealed = encryptSecret(url);
    expect(sealed).not.toContain('secretsecret');
    expect(encryptSecret(url)).not.toBe(sealed); // fresh IV each time
    expect(decryptSecret(sealed)).toBe(url);
    const [v, iv, tag, ct] = sealed.split('.');
    // Flip the FIRST character: all six of its bits are data (the last one's low bits may be base64 padding).
    const flipped = (ct.startsWith('A') ? 'B' : 'A') + ct.slice(1);
    expect(() => decryptSecret([v, iv, tag, flipped].join('.'))).toThrow(/could not be decrypted/);
    expect(secretHash('destination-target', url)).toBe(secretHash('destination-target', url));
    expect(secretHash('destination-target', url)).not.toBe(secretHash('other', url));
  });
});
