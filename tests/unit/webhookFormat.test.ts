// Signed webhooks without a network: the signature against the Standard Webhooks specification's own example vector
// and the reference library, the secret's form, and the envelope each kind of message gets.
import { describe, expect, test } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { formatReviewFor, formatWelcomeFor } from '@/server/destinations/format';
import { isSigningSecret, newSigningSecret, signWebhook } from '@/server/destinations/signing';
import { messageIdOf, newMessageId } from '@/server/destinations/messageIds';
import { reviewInput, welcomeInput } from './format/sampleReviews';

describe('signWebhook', () => {
  test('the specification’s example: the same three headers the reference library computes', () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const at = new Date(1614265330 * 1000);
    const headers = signWebhook(secret, 'msg_p5jXN8AQM9LWM0D4loKWxJek', '{"test": 2432232314}', at);
    expect(headers).toEqual({
      'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      'webhook-timestamp': '1614265330',
      'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    });
    expect(headers['webhook-signature']).toBe(new Webhook(secret).sign('msg_p5jXN8AQM9LWM0D4loKWxJek', at, '{"test": 2432232314}'));
  });

  test('a new secret is whsec_ + 32 random bytes, different each time, and verifies with the reference library', () => {
    const a = newSigningSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(isSigningSecret(a)).toBe(true);
    expect(newSigningSecret()).not.toBe(a);
    const body = JSON.stringify({ type: 'review.created', data: { id: '1' } });
    expect(() => new Webhook(a).verify(body, signWebhook(a, 'msg_1', body))).not.toThrow();
    expect(() => new Webhook(a).verify(`${body} `, signWebhook(a, 'msg_1', body))).toThrow();
  });

  test('during a rotation: two space-separated signatures, the new first; the reference library accepts either secret', () => {
    const [current, previous, other] = [newSigningSecret(), newSigningSecret(), newSigningSecret()];
    const body = JSON.stringify({ type: 'review.created', data: { id: '2' } });
    const headers = signWebhook([current, previous], 'msg_2', body);
    const [first, second, ...rest] = headers['webhook-signature'].split(' ');
    expect(rest).toEqual([]);
    expect(first).toBe(signWebhook(current, 'msg_2', body)['webhook-signature']);
    expect(second).toBe(signWebhook(previous, 'msg_2', body)['webhook-signature']);
    expect(() => new Webhook(current).verify(body, headers)).not.toThrow();
    expect(() => new Webhook(previous).verify(body, headers)).not.toThrow();
    expect(() => new Webhook(other).verify(body, headers)).toThrow();
  });
});

describe('message ids', () => {
  test("'msg_' + 12 hex digits of milliseconds + 20 random ones: ordered by time, never the same twice", () => {
    const at = Date.UTC(2026, 11, 2, 1, 0, 0, 123);
    const ids = Array.from({ length: 1000 }, () => newMessageId(at));
    expect(new Set(ids).size).toBe(1000);
    for (const id of ids) expect(id).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(Number.parseInt(ids[0].slice(4, 16), 16)).toBe(at);
    expect(newMessageId(at + 1) > newMessageId(at)).toBe(true);
  });

  test('a queued message keeps its stored id; a row older than the ids gets one from its random destination id and row id', () => {
    expect(messageIdOf({ id: 7, webhook_id: 'msg_0123' }, 'dst_abc')).toBe('msg_0123');
    expect(messageIdOf({ id: 7, webhook_id: null }, 'dst_4f9QzR2mXk7LbT1vW8nC3pYd')).toBe('msg_dst_4f9QzR2mXk7LbT1vW8nC3pYd-7');
    expect(messageIdOf({ id: 7 }, 'dst_other')).not.toBe(messageIdOf({ id: 7 }, 'dst_4f9QzR2mXk7LbT1vW8nC3pYd'));
  });
});

describe('the webhook formatter', () => {
  test('a new review: review.created, payload version 2, with the public API’s review fields (times in unix seconds), dated by the review', () => {
    const m = formatReviewFor('webhook', reviewInput({ reviewId: '42', sentiment: { label: 'negative', score: -0.6 } }));
    expect(m.kind).toBe('json');
    expect(m.kind === 'json' && m.body).toEqual({
      type: 'review.created',
      version: 2,
      timestamp: '2024-05-14T15:41:09.000Z',
      data: expect.objectContaining({
        id: '42', app_key: 'apple_app_store__1488000123', app_store: 'apple_app_store', title: 'Lumen Notes', author_display_name: 'kayak_dad',
        content_title: 'Sync broke after the update', content_rating: 2, content_updated_at: 1715701269, replied_at: null, country: 'us',
        sentiment: 'negative', version: '5.12.0', edited: false, previous_rating: null, reply_state: 'none',
        store_permalink: 'https://apps.apple.com/us/app/id1488000123?see-all=reviews',
      }),
    });
  });

  test("the destination's translation travels as data: language, title and body apart; absent without one", () => {
    const translated = formatReviewFor('webhook', reviewInput({ reviewId: '7', translation: { text: 'Broken\n\nIt crashes.', language: 'en', title: 'Broken', body: 'It crashes.' } }));
    expect(translated.kind === 'json' && translated.body).toMatchObject({ data: { translation: { language: 'en', title: 'Broken', body: 'It crashes.' } } });
    const plain = formatReviewFor('webhook', reviewInput({ reviewId: '7' }));
    expect(plain.kind === 'json' && 'translation' in (plain.body as { data: object }).data).toBe(false);
  });

  test('an edit is review.updated with the rating before; a test message is review.test without an id; the welcome names the app', () => {
    const edit = formatReviewFor('webhook', reviewInput({ reviewId: '42', kind: 'updated', previous: { rating: 5, body: 'Loved it', title: 'Great' } }));
    expect(edit.kind === 'json' && edit.body).toMatchObject({ type: 'review.updated', version: 2, data: { edited: true, previous_rating: 5 } });
    const test = formatReviewFor('webhook', reviewInput());
    expect(test.kind === 'json' && test.body).toMatchObject({ type: 'review.test', version: 2, data: { id: null } });
    const welcome = formatWelcomeFor('webhook', { ...welcomeInput, connectedAt: new Date('2026-12-01T08:00:00Z') });
    expect(welcome.kind === 'json' && welcome.body).toMatchObject({ type: 'destination.connected', timestamp: '2026-12-01T08:00:00.000Z', data: { app_store: 'apple_app_store' } });
    expect(welcome.kind === 'json' && 'version' in (welcome.body as object)).toBe(false); // only the review messages changed
  });
});
