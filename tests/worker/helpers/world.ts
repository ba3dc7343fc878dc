/**
 * The outside world of a worker test: a fresh database (PGlite or PostgreSQL, per vitest project), the App Store feed
 * and Google Play reviews on one loopback "store" host, the five chat receivers, and the env pointing at them.
 */
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { setEnvForTests } from '@/server/env';
import { ensureApp } from '@/server/monitor/service';
import { startTestApi, type TestApi } from '../../helpers/api';
import { createTestDb, type TestDb } from '../../helpers/testDb';
import { appStoreFeedRoutes, createAppStoreFeed, type AppStoreFeedStore } from '../../fakes/appStoreFeed';
import { createGooglePlayReviews, googlePlayReviewsRoutes, type GooglePlayReviewsFake } from '../../fakes/googlePlayReviews';
import { startFakeServer, type FakeServer } from '../../fakes/http';
import { startChatWebhooks, type ChatRequest, type ChatWebhooks } from '../../fakes/chatWebhooks';

export type World = {
  db: TestDb;
  feed: AppStoreFeedStore;
  play: GooglePlayReviewsFake;
  stores: FakeServer;
  chat: ChatWebhooks;
  close(): Promise<void>;
};

export async function startWorld(env: Record<string, string> = {}): Promise<World> {
  const db = await createTestDb();
  const feed = createAppStoreFeed();
  const play = createGooglePlayReviews();
  const stores = await startFakeServer([appStoreFeedRoutes(feed), googlePlayReviewsRoutes(play)]);
  const chat = await startChatWebhooks();
  const restore = setEnvForTests({
    ITUNES_BASE_URL: stores.url,
    GOOGLE_PLAY_BASE_URL: stores.url,
    GOOGLE_PLAY_MIN_INTERVAL_MS: '0',
    ALLOW_PRIVATE_WEBHOOKS: '1',
    DELIVERY_PACING: 'off',
    ...env,
  });
  return {
    db,
    feed,
    play,
    stores,
    chat,
    async close() {
      restore();
      await chat.close();
      await stores.close();
      await db.close();
    },
  };
}

/** Review bodies in tests carry a marker like rvw12x (letters and digits survive every platform's escaping). */
export const marker = (n: number) => `rvw${n}x`;

export function markersOf(req: ChatRequest): string[] {
  return [...new Set(req.raw.match(/rvw\d+x/g) ?? [])];
}

/** Marker → how many delivered messages carried it. */
export function tally(requests: ChatRequest[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const r of requests) for (const m of markersOf(r)) counts.set(m, (counts.get(m) ?? 0) + 1);
  return counts;
}

export const daysAgo = (n: number) => new Date(Date.now() - n * 86400_000);

export type TestApp = { store: 'apple_app_store'; appId: string };
export type WorldPerFile = { w: World; app: TestApp; api: TestApi };

/**
 * The usual worker-test file: one world (and with `api: true` the API on loopback) for all its tests, and before each
 * test a fresh App Store app of its own (ids counted up from `firstAppId`), so tests share the database and receivers
 * without seeing each other's reviews. Read `t.w`, `t.app` and `t.api` inside hooks and tests, not at import time.
 */
export function worldPerFile(options: { title: string; firstAppId: number; api?: boolean; beforeEachTest?: (w: World) => void }): WorldPerFile {
  const t = {} as WorldPerFile;
  let nextAppId = options.firstAppId;
  beforeAll(async () => {
    t.w = await startWorld();
    if (options.api) t.api = await startTestApi();
  }, 60_000);
  afterAll(async () => {
    await t.api?.close();
    await t.w?.close();
  });
  beforeEach(async () => {
    options.beforeEachTest?.(t.w);
    t.app = { store: 'apple_app_store', appId: String(nextAppId++) };
    await ensureApp({ ...t.app, title: options.title });
  });
  return t;
}
