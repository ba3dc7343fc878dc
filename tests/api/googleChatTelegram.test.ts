// Google Chat and Telegram destinations through the real connect route, the real engine's steps, a real database
// (PGlite and PostgreSQL) and loopback receivers in each platform's own format (tests/fakes/chatWebhooks.ts): the
// Google Chat webhook's key and token are checked, each app's messages share one thread (threadKey +
// messageReplyOption), its 1-a-second pace holds and its RESOURCE_EXHAUSTED is waited out; the Telegram bot gets the
// chat in the body and HTML it can read, its parameters.retry_after is honoured, and "bot was blocked" or "kicked"
// disables the destination with the reason in plain words. URLs of the wrong shape are refused with what to do.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { drainDeliveries, pollAppNow } from '@/server/monitor/service';
import { getDestinationStatus } from '@/server/destinations/records';
import { call } from '../helpers/request';
import { newOwner } from '../helpers/orgs';
import { parseTelegramHtml } from '../fakes/telegramHtml';
import type { ChatHook } from '../fakes/chatWebhooks';
import { marker, markersIn, newIosApp, newIp, payloadFor, startConnectWorld, type ConnectWorld } from './support/connectWorld';

const w = {} as { world: ConnectWorld };
beforeAll(async () => {
  w.world = await startConnectWorld();
}, 60_000);
afterAll(() => w.world.close());

type Connected = { destination_id: string; created: boolean; platform: string };
type Platform = 'googlechat' | 'telegram';

function connect(platform: Platform, appId: string, url: string, token?: string) {
  return call<Connected>(w.world.api, 'POST', '/api/v1/oauth/platform/connect', { platform, payload: payloadFor({ app_id: appId, webhook_url: url }) }, { ip: newIp(), ...(token ? { token } : {}) });
}

function publish(appId: string, from: number, to: number) {
  for (let i = from; i <= to; i++) w.world.feed.publish(appId, 'us', { title: `Title ${i} <users/all> & @here`, content: `Text ${marker(i)} <b>not bold</b>`, rating: 2, updated: new Date(Date.now() + i) });
}

/** A new app with `reviews` reviews, connected to `hook`; the welcome and the reviews delivered. */
async function connected(hook: ChatHook, reviews = 2, app = newIosApp(w.world)) {
  publish(app.appId, 1, reviews);
  const r = await connect(hook.platform as Platform, app.appId, hook.url);
  expect(r.status, r.text).toBe(200);
  await pollAppNow({ store: 'apple_app_store', appId: app.appId });
  await drainDeliveries({ waitForRetries: true });
  return { app, id: r.json.data.destination_id };
}

const fastRetry = { waitForRetries: true, retryBaseMs: 200, timeoutMs: 20_000 };

describe('Google Chat', () => {
  test('a card per message with the key and token of the webhook, every message of an app in that app’s thread', async () => {
    const hook = w.world.chat.hook('googlechat');
    const { app } = await connected(hook, 2);
    expect(hook.delivered()).toHaveLength(3); // welcome + 2 reviews
    const expected = new URL(hook.url).searchParams;
    for (const r of hook.requests) {
      expect(r.status).toBe(200);
      expect(r.query.get('key')).toBe(expected.get('key'));
      expect(r.query.get('token')).toBe(expected.get('token'));
      expect(r.query.get('messageReplyOption')).toBe('REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD');
      expect(r.body).toMatchObject({ fallbackText: expect.any(String), cardsV2: [{ cardId: expect.any(String), card: { header: { title: expect.any(String) } } }] });
    }
    const bodies = hook.requests.map((r) => r.body as { thread: { threadKey: string }; fallbackText: string; cardsV2: Array<{ card: unknown }> });
    expect(new Set(bodies.map((b) => b.thread.threadKey))).toEqual(new Set([`arb-apple_app_store-${app.appId}`]));
    expect(hook.threads.size).toBe(1); // the space put all three in one thread
    expect(JSON.stringify(bodies[0].cardsV2[0].card)).toContain('ARB is connected');
    expect(bodies.slice(1).map((b) => markersIn(JSON.stringify(b))[0]).sort()).toEqual([marker(1), marker(2)]);
    // Review text is card HTML with its markup escaped; the plain header has '<' broken.
    const card = JSON.stringify(bodies[1].cardsV2[0].card);
    expect(card).toContain('&lt;b&gt;not bold&lt;/b&gt;');
    expect(card).not.toContain('<users/all>');

    // A second app posting to the same space gets a thread of its own.
    await connected(hook, 1);
    expect(hook.threads.size).toBe(2);
  });

  test('its pace is 1 message a second per space; RESOURCE_EXHAUSTED is waited out and nothing is sent twice', async () => {
    const hook = w.world.chat.hook('googlechat');
    const app = newIosApp(w.world);
    publish(app.appId, 1, 3);
    expect((await connect('googlechat', app.appId, hook.url)).status).toBe(200);
    hook.script({ kind: 'rate_limit', retryAfter: 1 }, 1);
    await pollAppNow({ store: 'apple_app_store', appId: app.appId });
    await drainDeliveries({ ...fastRetry, pacing: 'platform' });
    expect(hook.delivered()).toHaveLength(4);
    expect(hook.requests.map((r) => r.status)).toEqual([429, 200, 200, 200, 200]); // the welcome, then 3 reviews
    const t = hook.requests.map((r) => r.receivedAt);
    expect(t[1] - t[0]).toBeGreaterThanOrEqual(1_900); // Google gives no Retry-After: ARB waits 2 s
    for (let i = 2; i < t.length; i++) expect(t[i] - t[i - 1]).toBeGreaterThanOrEqual(900); // one a second
    const markers = hook.delivered().flatMap((r) => markersIn(r.raw));
    expect(markers.sort()).toEqual([1, 2, 3].map(marker).sort());
  });

  test('a deleted webhook (403) or a bad key (400 API_KEY_INVALID) disables the destination and says so in words', async () => {
    for (const [answer, words] of [
      [{ kind: 'gone' }, /^Google Chat refused the webhook: the webhook was deleted from its space, or its token is no longer valid \(HTTP 403, PERMISSION_DENIED/],
      [
        { kind: 'custom', status: 400, body: { error: { code: 400, message: 'API key not valid. Please pass a valid API key.', status: 'INVALID_ARGUMENT', details: [{ reason: 'API_KEY_INVALID' }] } } },
        /^Google Chat refused the webhook: its key is not valid/,
      ],
    ] as const) {
      const hook = w.world.chat.hook('googlechat');
      hook.setDefault(answer);
      const { id } = await connected(hook, 2);
      expect(hook.requests).toHaveLength(1); // the first refusal stops it
      const status = await getDestinationStatus(id);
      expect(status).toMatchObject({ status: 'disabled', queued: 0 });
      expect(status!.status_reason).toMatch(words);
      expect(status!.status_reason).toMatch(/Connect it again with a new webhook of the space/);
      expect(status!.status_reason).not.toContain(new URL(hook.url).searchParams.get('token')!);
    }
  });

  test('a URL without its key and token, or of another platform, is refused with what to do', async () => {
    const app = newIosApp(w.world);
    const url = new URL(w.world.chat.hook('googlechat').url);
    const noToken = `${url.origin}${url.pathname}?key=${url.searchParams.get('key')}`;
    for (const [bad, words] of [
      [noToken, /missing its key=… or token=… part/],
      ['https://chat.googleapis.com/v1/spaces/AAAA/members?key=k&token=t', /That isn't a Google Chat incoming-webhook URL/],
      [w.world.chat.hook('slack').url, /That isn't a Google Chat incoming-webhook URL/],
    ] as const) {
      const r = await connect('googlechat', app.appId, bad);
      expect(r.status, bad).toBe(400);
      expect(r.json.error.message, bad).toMatch(words);
    }
  });
});

describe('Telegram', () => {
  test('the bot gets the chat in the body, HTML it can read, no query on the URL; review markup is text', async () => {
    const hook = w.world.chat.hook('telegram');
    await connected(hook, 2);
    expect(hook.delivered()).toHaveLength(3);
    for (const r of hook.requests) {
      expect(r.status).toBe(200);
      expect([...r.query.keys()]).toEqual([]);
      expect(r.body).toMatchObject({ chat_id: hook.id, parse_mode: 'HTML', link_preview_options: { is_disabled: true } });
    }
    const texts = hook.requests.map((r) => (r.body as { text: string }).text);
    expect(texts[0]).toContain('ARB is connected');
    const read = parseTelegramHtml(texts.find((t) => t.includes(marker(1)))!);
    if (!read.ok) throw new Error(read.error);
    expect(read.text).toContain(`Text ${marker(1)} <b>not bold</b>`); // shown as typed
    expect(read.text).toContain('<users/all> &');
    expect(read.text).not.toMatch(/@here\b/);
  });

  test('a forum topic in the URL is posted to as message_thread_id', async () => {
    const hook = w.world.chat.hook('telegram');
    const app = newIosApp(w.world);
    publish(app.appId, 1, 1);
    expect((await connect('telegram', app.appId, `${hook.url}&message_thread_id=42`)).status).toBe(200);
    await pollAppNow({ store: 'apple_app_store', appId: app.appId });
    await drainDeliveries({ waitForRetries: true });
    expect(hook.delivered().map((r) => (r.body as { message_thread_id?: number }).message_thread_id)).toEqual([42, 42]);
  });

  test('429 waits parameters.retry_after and nothing is sent twice', async () => {
    const hook = w.world.chat.hook('telegram');
    const app = newIosApp(w.world);
    publish(app.appId, 1, 3);
    expect((await connect('telegram', app.appId, hook.url)).status).toBe(200);
    hook.script({ kind: 'rate_limit', retryAfter: 2 }, 2);
    await pollAppNow({ store: 'apple_app_store', appId: app.appId });
    await drainDeliveries(fastRetry);
    expect(hook.requests.map((r) => r.status)).toEqual([429, 429, 200, 200, 200, 200]);
    const t = hook.requests.map((r) => r.receivedAt);
    expect(t[1] - t[0]).toBeGreaterThanOrEqual(1_900);
    expect(t[2] - t[1]).toBeGreaterThanOrEqual(1_900);
    expect(hook.delivered().flatMap((r) => markersIn(r.raw)).sort()).toEqual([1, 2, 3].map(marker).sort());
  });

  test('"bot was blocked by the user" and "bot was kicked" disable the destination with the reason in plain words', async () => {
    for (const [answer, words] of [
      [{ kind: 'gone' }, 'Telegram refused the message: the person this bot writes to has blocked it (HTTP 403, Forbidden: bot was blocked by the user).'],
      [
        { kind: 'custom', status: 403, body: { ok: false, error_code: 403, description: 'Forbidden: bot was kicked from the supergroup chat' } },
        'Telegram refused the message: the bot was removed from the group or channel (HTTP 403, Forbidden: bot was kicked from the supergroup chat).',
      ],
    ] as const) {
      const hook = w.world.chat.hook('telegram');
      hook.setDefault(answer);
      const { id } = await connected(hook, 2);
      expect(hook.requests).toHaveLength(1);
      const status = await getDestinationStatus(id);
      expect(status).toMatchObject({ status: 'disabled', queued: 0 });
      expect(status!.status_reason).toContain(words);
      expect(status!.status_reason).toMatch(/connect it again to keep receiving reviews\.$/);
      expect(status!.status_reason).not.toContain(new URL(hook.url).pathname);
    }
  });

  test('a wrong chat id is refused by Telegram ("chat not found") and disables the destination', async () => {
    const hook = w.world.chat.hook('telegram');
    const app = newIosApp(w.world);
    publish(app.appId, 1, 1);
    const wrongChat = hook.url.replace(/chat_id=[^&]+/, 'chat_id=-1000000000001');
    const r = await connect('telegram', app.appId, wrongChat);
    expect(r.status).toBe(200);
    await pollAppNow({ store: 'apple_app_store', appId: app.appId });
    await drainDeliveries({ waitForRetries: true });
    expect(hook.requests.map((x) => x.status)).toEqual([400]);
    const status = await getDestinationStatus(r.json.data.destination_id);
    expect(status).toMatchObject({ status: 'disabled' });
    expect(status!.status_reason).toMatch(/the chat was not found — the chat id is wrong, or the bot was never added to the chat/);
  });

  test('a URL without a chat, with another method or another bot API call, is refused with what to do', async () => {
    const app = newIosApp(w.world);
    const url = new URL(w.world.chat.hook('telegram').url);
    for (const [bad, words] of [
      [`${url.origin}${url.pathname}`, /\?chat_id= followed by the chat's id/],
      [`${url.origin}${url.pathname.replace('sendMessage', 'getUpdates')}${url.search}`, /calls getUpdates/],
      [`${url.href}&parse_mode=Markdown`, /Leave out parse_mode=…/],
      ['https://api.telegram.org/bot123/sendMessage?chat_id=1', /bot token does not look right/],
    ] as const) {
      const r = await connect('telegram', app.appId, bad);
      expect(r.status, bad).toBe(400);
      expect(r.json.error.message, bad).toMatch(words);
    }
    // Signed in, the dashboard's destinations list names it without its token.
    const owner = await newOwner();
    const ok = await connect('telegram', app.appId, url.href, owner.token);
    expect(ok.status).toBe(200);
    const list = await call<Array<{ id: string; platform: string; target: string }>>(w.world.api, 'GET', '/api/v1/org/destinations', undefined, { token: owner.token, ip: newIp() });
    const mine = list.json.data.find((d) => d.id === ok.json.data.destination_id);
    expect(mine?.platform).toBe('telegram');
    expect(JSON.stringify(list.json)).not.toContain(url.pathname.split(':')[1]);
  });
});
