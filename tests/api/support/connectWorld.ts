/**
 * The outside world of the connect and reviews-by-e-mail API tests: a fresh database, the API routes on loopback, both
 * store hosts (search, lookup, the App Store review feed, Google Play pages and reviews), the five chat receivers, a
 * real SMTP server, and Slack's and Discord's OAuth endpoints. Each test adds its own app (`newIosApp`) so that reviews
 * published for one test never reach another test's destination.
 */
import { afterAll, beforeAll } from 'vitest';
import { getDb } from '@/server/db/client';
import { setEnvForTests } from '@/server/env';
import { engineOptionsFromEnv, startEngine, type Engine } from '@/server/monitor/engine';
import { clearDetailsCache } from '@/server/apps/details';
import { createTestDb, type TestDb } from '../../helpers/testDb';
import { startTestApi, type TestApi } from '../../helpers/api';
import { startAppStoreFakes, type AppStoreFakes } from '../../fakes/appStores';
import { appStoreFeedRoutes, createAppStoreFeed, type AppStoreFeedStore } from '../../fakes/appStoreFeed';
import { createGooglePlayReviews, googlePlayReviewsRoutes, type GooglePlayReviewsFake } from '../../fakes/googlePlayReviews';
import { startChatWebhooks, type ChatWebhooks } from '../../fakes/chatWebhooks';
import { startFakeSmtp, type FakeSmtp } from '../../fakes/smtp';
import { startSlackOAuth, type SlackOAuthFake } from '../../fakes/slackOAuth';
import { startDiscordOAuth, type DiscordOAuthFake } from '../../fakes/discordOAuth';
import { itunesApp, playApp } from '../../fixtures/catalog';
import { encodeConnectionPayload, type ConnectionPayload } from '@/shared/connectionPayload';
import type { ReceivedMail } from '../../fakes/smtp';

export type ConnectWorld = {
  db: TestDb;
  api: TestApi;
  stores: AppStoreFakes;
  feed: AppStoreFeedStore;
  play: GooglePlayReviewsFake;
  chat: ChatWebhooks;
  smtp: FakeSmtp;
  slack: SlackOAuthFake;
  discord: DiscordOAuthFake;
  /** Change settings for the rest of the file (merged over the world's own). */
  setEnv(overrides: Record<string, string | undefined>): void;
  close(): Promise<void>;
};

let nextTrackId = 6_400_000_000 + Math.floor(Math.random() * 90_000_000);
let nextPackage = 0;

export async function startConnectWorld(env: Record<string, string> = {}): Promise<ConnectWorld> {
  const db = await createTestDb();
  const feed = createAppStoreFeed();
  const play = createGooglePlayReviews();
  const stores = await startAppStoreFakes(undefined, { itunes: [appStoreFeedRoutes(feed)], play: [googlePlayReviewsRoutes(play)] });
  const chat = await startChatWebhooks();
  const smtp = await startFakeSmtp();
  const slack = await startSlackOAuth({ webhook: () => ({ url: chat.hook('slack').url, channel: '#app-reviews' }) });
  const discord = await startDiscordOAuth({ webhook: () => ({ url: chat.hook('discord').url }) });
  const base = {
    ...stores.env,
    GOOGLE_PLAY_MIN_INTERVAL_MS: '0',
    ALLOW_PRIVATE_WEBHOOKS: '1',
    DELIVERY_PACING: 'off',
    TRUST_PROXY: '1',
    SMTP_URL: smtp.url,
    MAIL_FROM: 'ARB <reviews@arb.test>',
    SLACK_API_BASE_URL: slack.apiBaseUrl,
    DISCORD_API_BASE_URL: discord.apiBaseUrl,
    ...env,
  };
  let restore = setEnvForTests(base);
  clearDetailsCache();
  const api = await startTestApi();
  return {
    db,
    api,
    stores,
    feed,
    play,
    chat,
    smtp,
    slack,
    discord,
    setEnv(overrides) {
      restore();
      restore = setEnvForTests({ ...base, ...overrides });
    },
    async close() {
      await api.close();
      restore();
      await Promise.all([stores.close(), chat.close(), smtp.close(), slack.close(), discord.close()]);
      await db.close();
    },
  };
}

/** A new App Store app only this test knows, found by search and lookup; returns its id and title. */
export function newIosApp(world: ConnectWorld, title = `Focus Lantern ${nextTrackId}`): { appId: string; title: string } {
  const trackId = nextTrackId++;
  world.stores.catalog.itunes.push(itunesApp({ trackId, trackName: title }));
  return { appId: String(trackId), title };
}

export function newPlayApp(world: ConnectWorld, title = `Pocket Garden ${++nextPackage}`): { appId: string; title: string } {
  const appId = `com.arbtest.garden${nextPackage}x${Date.now().toString(36)}`;
  world.stores.catalog.play.push(playApp({ appId, title }));
  return { appId, title };
}

export function payloadFor(fields: Partial<ConnectionPayload> & Pick<ConnectionPayload, 'app_id'>): string {
  return encodeConnectionPayload({
    version: 'v2',
    user_email: '',
    source: 'home',
    source_type: 'webhook',
    webhook_url: '',
    app_store: 'apple_app_store',
    country: 'us',
    ...fields,
  });
}

let ipCounter = 1;
/** A client address of its own, so per-IP limits of one test never touch another (TRUST_PROXY is on). */
export function newIp(): string {
  ipCounter += 1;
  return `198.51.100.${ipCounter % 250}`;
}

/** Review bodies carry a marker (letters and digits survive every platform's escaping). */
export const marker = (n: number) => `rvw${n}x`;
export const markersIn = (raw: string) => [...new Set(raw.match(/rvw\d+x/g) ?? [])];

/** The token of the first link to `path` in the e-mail's text part. */
export function linkToken(mail: ReceivedMail, path: string): string {
  const m = new RegExp(`${path.replace(/[/?]/g, '\\$&')}\\?token=([^\\s]+)`).exec(mail.text);
  if (!m) throw new Error(`no ${path} link in:\n${mail.text}`);
  return decodeURIComponent(m[1]);
}

/**
 * The usual file of connect tests: a connect world with the monitoring engine running in this process (as in
 * `npm start`), started before the file's tests and stopped after them (`beforeClose` runs between the engine's stop
 * and the world's close). Read `t.w` inside hooks and tests, not at import time.
 */
export function connectWorldWithEngine(options: { beforeClose?: () => Promise<void> } = {}): { w: ConnectWorld } {
  const t = {} as { w: ConnectWorld; engine: Engine };
  beforeAll(async () => {
    t.w = await startConnectWorld();
    t.engine = startEngine(await getDb(), engineOptionsFromEnv({ idleMs: 200 }));
  }, 60_000);
  afterAll(async () => {
    await t.engine?.stop();
    await options.beforeClose?.();
    await t.w?.close();
  });
  return t;
}
