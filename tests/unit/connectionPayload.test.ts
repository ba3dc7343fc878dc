import { describe, expect, test } from 'vitest';
import { buildConnectionPayload, connectionRequest, encodeConnectionPayload } from '@/shared/connectionPayload';
import { decodeConnectionPayload, InvalidConnectionPayloadError } from '@/server/connect/payload';

const b64url = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

const input = {
  platform: 'slack' as const,
  userEmail: 'ana@example.com',
  source: 'home',
  webhookUrl: 'https://hooks.slack.com/services/T000/B000/XXXX',
  appId: '284882215',
  appStore: 'apple_app_store' as const,
};

describe('payload encoding', () => {
  test.each(['Zoë’s app — 日本語 🚀', '?>?>~~~', ''])('an app title %j round-trips, encoded like Node’s own base64url', (title) => {
    const encoded = encodeConnectionPayload(buildConnectionPayload({ ...input, source: title }));
    expect(encoded).toBe(Buffer.from(JSON.stringify(buildConnectionPayload({ ...input, source: title })), 'utf8').toString('base64url'));
    expect(decodeConnectionPayload(encoded).source).toBe(title);
  });

  test('tolerates padding; refuses foreign characters, bad lengths and bytes that are not UTF-8', () => {
    const padded = Buffer.from(JSON.stringify(buildConnectionPayload(input))).toString('base64');
    expect(decodeConnectionPayload(padded.replace(/\+/g, '-').replace(/\//g, '_')).app_id).toBe(input.appId);
    for (const bad of ['ab+c', 'abcde', Buffer.from([0xff, 0xfe]).toString('base64url')]) {
      expect(() => decodeConnectionPayload(bad)).toThrow(InvalidConnectionPayloadError);
    }
  });
});

describe('connection payload v2', () => {
  test('has the payload’s fields: version v2, source_type webhook, country us by default', () => {
    expect(buildConnectionPayload(input)).toEqual({
      version: 'v2',
      user_email: 'ana@example.com',
      source: 'home',
      source_type: 'webhook',
      webhook_url: 'https://hooks.slack.com/services/T000/B000/XXXX',
      app_id: '284882215',
      app_store: 'apple_app_store',
      country: 'us',
    });
  });

  test('user_email falls back to the signed-in user’s e-mail', () => {
    expect(buildConnectionPayload({ ...input, userEmail: '', authEmail: 'owner@example.com' }).user_email).toBe('owner@example.com');
    expect(buildConnectionPayload({ ...input, userEmail: null, authEmail: 'owner@example.com' }).user_email).toBe('owner@example.com');
    expect(buildConnectionPayload({ ...input, authEmail: 'owner@example.com' }).user_email).toBe('ana@example.com');
  });

  test('keeps a chosen country', () => {
    expect(buildConnectionPayload({ ...input, country: 'DE' }).country).toBe('de');
  });

  test('is returned with its platform and encodes to URL-safe characters only, unicode included', () => {
    const request = connectionRequest({ ...input, platform: 'msteams', userEmail: 'zoë@exämple.com', webhookUrl: 'https://x.webhook.office.com/webhookb2/a?b=c&d=é' });
    expect(request.platform).toBe('msteams');
    expect(request.payload).toMatch(/^[A-Za-z0-9_-]+$/);
    const decoded = decodeConnectionPayload(request.payload);
    expect(decoded.user_email).toBe('zoë@exämple.com');
    expect(decoded.webhook_url).toBe('https://x.webhook.office.com/webhookb2/a?b=c&d=é');
  });

  test('round-trips exactly', () => {
    const payload = buildConnectionPayload({ ...input, appStore: 'google_play_store', appId: 'com.spotify.music', country: 'gb' });
    expect(decodeConnectionPayload(encodeConnectionPayload(payload))).toEqual(payload);
  });

  test('the decoder rejects what is not a v2 payload, with a message', () => {
    const enc = (o: unknown) => b64url(JSON.stringify(o));
    const good = buildConnectionPayload(input);
    expect(() => decodeConnectionPayload('%%%')).toThrow(InvalidConnectionPayloadError);
    expect(() => decodeConnectionPayload(enc([1, 2]))).toThrow(/JSON object/);
    expect(() => decodeConnectionPayload(enc({ ...good, version: 'v1' }))).toThrow(/v2/);
    expect(() => decodeConnectionPayload(enc({ ...good, source_type: 'oauth' }))).toThrow(/source_type/);
    expect(() => decodeConnectionPayload(enc({ ...good, app_store: 'amazon' }))).toThrow(/app_store/);
    expect(() => decodeConnectionPayload(enc({ ...good, webhook_url: 5 }))).toThrow(/webhook_url/);
    expect(() => decodeConnectionPayload(enc({ ...good, app_id: '' }))).toThrow(/app_id/);
  });

  test('a payload without a country decodes to us', () => {
    const { country: _omit, ...rest } = buildConnectionPayload(input);
    void _omit;
    expect(decodeConnectionPayload(b64url(JSON.stringify({ ...rest, country: '' }))).country).toBe('us');
  });
});
