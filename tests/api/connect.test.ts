// POST v1/oauth/platform/connect, GET v1/public/destination/{id} and GET v1/public/config against the real monitoring
// engine running in this process (as in `npm start`): the connect call alone must get the welcome and the last reviews
// to the receiver within seconds, in each platform's own format, and never twice.
import { describe, expect, test } from 'vitest';
import { sql } from 'kysely';
import { getDb } from '@/server/db/client';
import { hitRateLimit, ipRateKey } from '@/server/http/rateLimit';
import { CONNECT_LIMITS } from '@/server/connect/connect';
import { MAIN_STOREFRONTS } from '@/shared/storefronts';
import { createDestination, ensureApp } from '@/server/monitor/service';
import { getDestinationStatus } from '@/server/destinations/records';
import { sourcesFor } from '@/server/monitor/wantedSources';
import { encode as encodeBase64Url } from 'jose/base64url';
import { call } from '../helpers/request';
import { marker, markersIn, newIosApp, newIp, newPlayApp, payloadFor, connectWorldWithEngine } from './support/connectWorld';
import type { ChatPlatform } from '../fakes/chatWebhooks';

const t = connectWorldWithEngine();

type Connected = { destination_id: string; platform: string; app: { app_id: string; title: string }; created: boolean; label: string | null };

function connect(platform: string, payload: string, ip = newIp()) {
  return call<Connected>(t.w.api, 'POST', '/api/v1/oauth/platform/connect', { platform, payload }, { ip });
}

/** An app with `n` reviews in its US feed, written over the last n days (marker 1 = oldest). */
function appWithReviews(n: number, title?: string) {
  const app = newIosApp(t.w, title);
  for (let i = 1; i <= n; i++) {
    t.w.feed.publish(app.appId, 'us', { title: `Review ${i}`, content: `Text ${marker(i)}`, rating: (i % 5) + 1, updated: new Date(Date.now() - (n - i + 1) * 86_400_000) });
  }
  return app;
}

const isWelcome = (raw: string) => raw.includes('ARB is connected');

describe('POST /api/v1/oauth/platform/connect', () => {
  test('a pasted Slack webhook gets the welcome naming the app, then the last 5 reviews, within seconds', async () => {
    const app = appWithReviews(8, 'Tidepool Journal');
    const hook = t.w.chat.hook('slack');
    const started = Date.now();
    const r = await connect('slack', payloadFor({ app_id: app.appId, webhook_url: hook.url }));
    expect(r.status).toBe(200);
    expect(r.json.data).toMatchObject({ platform: 'slack', created: true, app: { app_id: app.appId, title: 'Tidepool Journal' } });
    expect(r.json.data.destination_id).toMatch(/^dst_[0-9A-Za-z]{24}$/);

    const got = await hook.waitForDelivered(6, 10_000);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(isWelcome(got[0].raw)).toBe(true);
    expect(got[0].raw).toContain('Tidepool Journal');
    // Slack's own format: Block Kit with a notification fallback.
    expect(got[1].body).toMatchObject({ text: expect.any(String), blocks: expect.any(Array) });
    expect(got.slice(1).map((g) => markersIn(g.raw)[0])).toEqual([4, 5, 6, 7, 8].map(marker));
  });

  test('connecting the same app to the same webhook again returns the same destination and sends nothing new', async () => {
    const app = appWithReviews(3);
    const hook = t.w.chat.hook('mattermost');
    const payload = payloadFor({ app_id: app.appId, webhook_url: hook.url });
    const first = await connect('mattermost', payload);
    await hook.waitForDelivered(4);
    const again = await connect('mattermost', payload);
    expect(again.status).toBe(200);
    expect(again.json.data).toMatchObject({ destination_id: first.json.data.destination_id, created: false });
    const db = await getDb();
    const rows = await db
      .selectFrom('destination_apps')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('app_key', '=', `apple_app_store__${app.appId}`)
      .executeTakeFirstOrThrow();
    expect(rows.n).toBe(1);
    // A new review still arrives exactly once.
    t.w.feed.publish(app.appId, 'us', { content: `Fresh ${marker(99)}`, rating: 2 });
    await db.updateTable('monitored_sources').set({ next_poll_at: new Date() }).where('app_key', '=', `apple_app_store__${app.appId}`).execute();
    await hook.waitForDelivered(5);
    expect(hook.delivered().filter((d) => isWelcome(d.raw))).toHaveLength(1);
    expect(hook.delivered().filter((d) => markersIn(d.raw).includes(marker(99)))).toHaveLength(1);
  });

  const FORMATS: Array<[ChatPlatform, (body: Record<string, unknown>) => void]> = [
    ['msteams', (b) => expect(b).toMatchObject({ type: 'message', attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive' }] })],
    ['mattermost', (b) => expect(b.text ?? b.attachments).toBeTruthy()],
    ['discord', (b) => expect(b).toMatchObject({ allowed_mentions: { parse: [] }, embeds: expect.any(Array) })],
    ['webex', (b) => expect(typeof b.markdown).toBe('string')],
  ];
  for (const [platform, check] of FORMATS) {
    test(`${platform}: the welcome and the reviews arrive in ${platform}'s format`, async () => {
      const app = appWithReviews(2);
      const hook = t.w.chat.hook(platform);
      const r = await connect(platform, payloadFor({ app_id: app.appId, webhook_url: hook.url }));
      expect(r.status).toBe(200);
      const got = await hook.waitForDelivered(3);
      expect(isWelcome(got[0].raw)).toBe(true);
      for (const g of got) check(g.body as Record<string, unknown>);
      expect(got.slice(1).flatMap((g) => markersIn(g.raw))).toEqual([marker(1), marker(2)]);
    });
  }

  test('e-mail: a confirmation first; once its link is confirmed the welcome goes to the address over SMTP, with an unsubscribe header', async () => {
    const app = appWithReviews(1, 'Quiet Hours');
    const email = `owner-${Date.now()}@example.com`;
    const r = await connect('email', payloadFor({ app_id: app.appId, user_email: email }));
    expect(r.status).toBe(200);
    const mailsTo = () => t.w.smtp.messages.filter((m) => m.envelopeTo.includes(email));
    await expect.poll(() => mailsTo().length, { timeout: 10_000 }).toBe(1);
    expect(mailsTo()[0].subject).toBe('Confirm: e-mail new reviews of Quiet Hours to this address?');
    const token = decodeURIComponent(/\/email\/confirm\?token=(\S+)/.exec(mailsTo()[0].text)![1]);
    expect((await call(t.w.api, 'POST', '/api/v1/public/email/confirm', { token }, { ip: newIp() })).status).toBe(200);
    await expect.poll(() => mailsTo().length, { timeout: 10_000 }).toBe(3);
    expect(mailsTo()[1].subject).toContain('Quiet Hours');
    expect(mailsTo()[1].headers['list-unsubscribe']).toMatch(/^<http/);
    expect(mailsTo()[2].text).toContain(marker(1));
  });

  test('Google Play apps connect too (reviews read by language, no country)', async () => {
    const app = newPlayApp(t.w, 'Pocket Herbarium');
    t.w.play.publish(app.appId, 'en', { text: `Lovely ${marker(7)}`, score: 5 });
    const hook = t.w.chat.hook('webex');
    const r = await connect('webex', payloadFor({ app_id: app.appId, app_store: 'google_play_store', webhook_url: hook.url, country: 'us' }));
    expect(r.status).toBe(200);
    expect(r.json.data.app.title).toBe('Pocket Herbarium');
    const got = await hook.waitForDelivered(2);
    expect(markersIn(got[1].raw)).toEqual([marker(7)]);
  });

  test('"All countries" watches the 40 main storefronts and posts reviews from any of them', async () => {
    const app = newIosApp(t.w);
    const hook = t.w.chat.hook('slack');
    const r = await connect('slack', payloadFor({ app_id: app.appId, webhook_url: hook.url, country: 'all' }));
    expect(r.status).toBe(200);
    const db = await getDb();
    const sources = await db.selectFrom('monitored_sources').select('country').where('app_key', '=', `apple_app_store__${app.appId}`).execute();
    expect(sources.map((s) => s.country).sort()).toEqual([...MAIN_STOREFRONTS].sort());
    await hook.waitForDelivered(1);
    // The welcome goes out once the US feed is read; the other storefronts' first polls may still be running, and a
    // poll that finishes reschedules its source (which would swallow the "poll now" below). Wait for Japan's first.
    const jp = () => db.selectFrom('monitored_sources').select('last_success_at').where('app_key', '=', `apple_app_store__${app.appId}`).where('country', '=', 'jp').executeTakeFirstOrThrow();
    for (const deadline = Date.now() + 20_000; !(await jp()).last_success_at; ) {
      if (Date.now() > deadline) throw new Error('the Japanese storefront was never polled');
      await new Promise((r) => setTimeout(r, 50));
    }
    t.w.feed.publish(app.appId, 'jp', { content: `素晴らしい ${marker(31)}` });
    await db.updateTable('monitored_sources').set({ next_poll_at: new Date() }).where('app_key', '=', `apple_app_store__${app.appId}`).where('country', '=', 'jp').execute();
    const got = await hook.waitForDelivered(2);
    expect(markersIn(got[1].raw)).toEqual([marker(31)]);
  });

  test('one storefront: reviews of other storefronts are not posted', async () => {
    const app = newIosApp(t.w);
    t.w.feed.publish(app.appId, 'gb', { content: `Brilliant ${marker(44)}` });
    const hook = t.w.chat.hook('discord');
    const r = await connect('discord', payloadFor({ app_id: app.appId, webhook_url: hook.url, country: 'gb' }));
    expect(r.status).toBe(200);
    const got = await hook.waitForDelivered(2);
    expect(markersIn(got[1].raw)).toEqual([marker(44)]);
    const db = await getDb();
    const sources = await db.selectFrom('monitored_sources').select('country').where('app_key', '=', `apple_app_store__${app.appId}`).execute();
    expect(sources.map((s) => s.country)).toEqual(['gb']);
  });
});

describe('POST /api/v1/oauth/platform/connect refuses what is wrong, with a message that says why', () => {
  test('a Discord URL pasted as Slack', async () => {
    const app = newIosApp(t.w);
    const r = await connect('slack', payloadFor({ app_id: app.appId, webhook_url: t.w.chat.hook('discord').url }));
    expect(r.status).toBe(400);
    expect(r.json.error).toMatchObject({ code: 'invalid_webhook_url' });
    expect(r.json.error.message).toMatch(/isn't a Slack incoming-webhook URL/);
  });

  test('a webhook on a public host that is not the platform’s', async () => {
    const app = newIosApp(t.w);
    const r = await connect('webex', payloadFor({ app_id: app.appId, webhook_url: 'https://example.com/v1/webhooks/incoming/abc' }));
    expect(r.status).toBe(400);
    expect(r.json.error.message).toMatch(/Webex/);
  });

  const BAD_PAYLOADS: Array<[string, string, RegExp]> = [
    ['not base64 JSON', '%%%not-base64%%%', /URL-safe base64 JSON/],
    ['version v1', encodeBase64Url(JSON.stringify({ version: 'v1', source_type: 'webhook', app_id: '1', app_store: 'apple_app_store', user_email: '', source: 'home', webhook_url: '', country: 'us' })), /version/],
    ['source_type oauth', encodeBase64Url(JSON.stringify({ version: 'v2', source_type: 'oauth', app_id: '1', app_store: 'apple_app_store', user_email: '', source: 'home', webhook_url: '', country: 'us' })), /source_type/],
    ['an unknown store', encodeBase64Url(JSON.stringify({ version: 'v2', source_type: 'webhook', app_id: '1', app_store: 'windows_store', user_email: '', source: 'home', webhook_url: '', country: 'us' })), /app_store/],
    ['an App Store id that is not a number', payloadFor({ app_id: 'com.example.app' }), /App Store app id is a number/],
    ['a country Apple has no store in', payloadFor({ app_id: '123', country: 'zz' }), /country/],
    ['a malformed user e-mail', payloadFor({ app_id: '123', user_email: 'not-an-address', webhook_url: 'https://hooks.slack.com/services/T0/B0/x' }), /user_email/],
  ];
  for (const [what, payload, message] of BAD_PAYLOADS) {
    test(`payload with ${what} → 400`, async () => {
      const r = await connect('slack', payload);
      expect(r.status).toBe(400);
      expect(r.json.error.message).toMatch(message);
    });
  }

  test('platform email without an address → 400', async () => {
    const r = await connect('email', payloadFor({ app_id: '123' }));
    expect(r.status).toBe(400);
    expect(r.json.error.message).toMatch(/e-mail address the reviews should go to/);
  });

  test('an unknown platform, a missing payload, a non-JSON body', async () => {
    expect((await connect('skype', payloadFor({ app_id: '1' }))).status).toBe(400);
    const missing = await call(t.w.api, 'POST', '/api/v1/oauth/platform/connect', { platform: 'slack' });
    expect(missing.status).toBe(400);
    expect(missing.json.error.message).toMatch(/payload/);
    const notJson = await call(t.w.api, 'POST', '/api/v1/oauth/platform/connect', undefined, { rawBody: '{platform', headers: { 'Content-Type': 'application/json' } });
    expect(notJson.status).toBe(400);
  });

  test('an app the store does not know → 404', async () => {
    const r = await connect('slack', payloadFor({ app_id: '1999999999', webhook_url: t.w.chat.hook('slack').url }));
    expect(r.status).toBe(404);
    expect(r.json.error.message).toMatch(/couldn't find the app 1999999999/);
  });

  test('GET is not allowed', async () => {
    const r = await call(t.w.api, 'GET', '/api/v1/oauth/platform/connect');
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toContain('POST');
  });

  test('too many connections from one network → 429 with Retry-After', async () => {
    const ip = newIp();
    for (let i = 0; i < CONNECT_LIMITS.perIp.limit; i++) await hitRateLimit(CONNECT_LIMITS.perIp, ipRateKey(ip));
    const app = newIosApp(t.w);
    const r = await connect('slack', payloadFor({ app_id: app.appId, webhook_url: t.w.chat.hook('slack').url }), ip);
    expect(r.status).toBe(429);
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  test('an address that unsubscribed is not signed up again by the connect form', async () => {
    const email = `left-${Date.now()}@example.com`;
    const db = await getDb();
    await db.insertInto('email_recipients').values({ email, unsubscribed_at: new Date() }).execute();
    const app = newIosApp(t.w);
    const r = await connect('email', payloadFor({ app_id: app.appId, user_email: email }));
    expect(r.status).toBe(409);
    expect(r.json.error.code).toBe('address_unsubscribed');
  });
});

describe('one rule for the storefronts a connection watches', () => {
  const sourceCountries = async (appId: string) =>
    (await (await getDb()).selectFrom('monitored_sources').select('country').where('app_key', '=', `apple_app_store__${appId}`).execute()).map((s) => s.country).sort();

  for (const country of ['all', 'gb', 'us']) {
    test(`"${country}": the connect flow polls and wants exactly the storefronts sourcesFor names, as createDestination does`, async () => {
      const wanted = sourcesFor('apple_app_store', country).map((s) => (s.kind === 'appstore_feed' ? s.country : s.language)).sort();
      const viaConnect = newIosApp(t.w);
      const r = await connect('slack', payloadFor({ app_id: viaConnect.appId, webhook_url: t.w.chat.hook('slack').url, country }));
      expect(r.json, JSON.stringify(r.json)).toMatchObject({ data: { created: true } });
      const direct = newIosApp(t.w);
      await ensureApp({ store: 'apple_app_store', appId: direct.appId, title: direct.title });
      const made = await createDestination({ platform: 'slack', url: t.w.chat.hook('slack').url, apps: [{ store: 'apple_app_store', appId: direct.appId }], country, welcomeCount: 0 });

      expect(await sourceCountries(viaConnect.appId)).toEqual(wanted);
      expect(await sourceCountries(direct.appId)).toEqual(wanted);
      expect((await getDestinationStatus(r.json.data.destination_id))!.filters.countries).toEqual(wanted);
      expect((await getDestinationStatus(made.id))!.filters.countries).toEqual(wanted);
    });
  }
});

describe('GET /api/v1/public/destination/{id}', () => {
  test('shows platform, app, channel, welcome and last delivery — never the webhook URL', async () => {
    const app = appWithReviews(1, 'Harbor Lights');
    const hook = t.w.chat.hook('msteams');
    const { json } = await connect('msteams', payloadFor({ app_id: app.appId, webhook_url: hook.url }));
    await hook.waitForDelivered(2);
    const id = json.data.destination_id;
    await expect
      .poll(async () => (await call<Record<string, unknown>>(t.w.api, 'GET', `/api/v1/public/destination/${id}`)).json.data?.welcome, { timeout: 10_000 })
      .toBe('delivered');
    const r = await call<Record<string, unknown>>(t.w.api, 'GET', `/api/v1/public/destination/${id}`);
    expect(r.status).toBe(200);
    expect(r.json.data).toMatchObject({ id, platform: 'msteams', status: 'active', app: { title: 'Harbor Lights' }, last_error: null });
    expect(r.json.data.last_delivery_at).toEqual(expect.any(String));
    expect(r.text).not.toContain(new URL(hook.url).pathname);
    expect(r.text).not.toContain('sig=');
  });

  test('a channel that was archived: the status says so in words and the destination is disabled', async () => {
    const app = newIosApp(t.w);
    const hook = t.w.chat.hook('slack');
    hook.setDefault({ kind: 'gone' });
    const { json } = await connect('slack', payloadFor({ app_id: app.appId, webhook_url: hook.url }));
    await hook.waitForRequests(1);
    await expect
      .poll(async () => (await call<Record<string, unknown>>(t.w.api, 'GET', `/api/v1/public/destination/${json.data.destination_id}`)).json.data?.status, { timeout: 10_000 })
      .toBe('disabled');
    const r = await call<Record<string, string>>(t.w.api, 'GET', `/api/v1/public/destination/${json.data.destination_id}`);
    expect(r.json.data.status_reason).toMatch(/Slack refused the webhook/);
  });

  test('unknown id → 404, malformed id → 400', async () => {
    expect((await call(t.w.api, 'GET', '/api/v1/public/destination/dst_000000000000000000000000')).status).toBe(404);
    const bad = await call(t.w.api, 'GET', '/api/v1/public/destination/nope');
    expect(bad.status).toBe(400);
    expect(bad.json.error.message).toMatch(/not a destination id/);
  });
});

describe('GET /api/v1/public/config', () => {
  test('says which install buttons exist: none without client ids', async () => {
    const r = await call(t.w.api, 'GET', '/api/v1/public/config');
    expect(r.json.data).toEqual({ slack_oauth: false, discord_oauth: false, allow_private_webhooks: true });
  });

  test('Slack and Discord buttons once their client id and secret are set', async () => {
    t.w.setEnv({ SLACK_CLIENT_ID: 'a', SLACK_CLIENT_SECRET: 'b', DISCORD_CLIENT_ID: 'c', DISCORD_CLIENT_SECRET: 'd' });
    try {
      const r = await call(t.w.api, 'GET', '/api/v1/public/config');
      expect(r.json.data).toMatchObject({ slack_oauth: true, discord_oauth: true });
    } finally {
      t.w.setEnv({});
    }
  });
});
