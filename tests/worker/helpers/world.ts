/**
 * The outside world of a worker test: a fresh database (PGlite or PostgreSQL, per vitest project), the App Store feed
 * and Google Play reviews on one loopback "store" host, the five chat receivers, and the env pointing at them.
 */
import { setEnvForTests } from '@/server/env';
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
