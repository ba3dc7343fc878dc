// The statements one poll sends to the database, counted: they are most of a poll's CPU in this process
// (bench/poll-cpu.ts). A poll with new reviews goes to the ingest without a compare-first read, reads the stored
// reviews with the destinations without a lock or a transaction, and writes the new reviews, their deliveries and the
// reschedule in one statement that takes the app's lock only if nobody wrote the app's reviews or subscriptions since
// that read; when somebody did, the poll takes the locked path and still fans out to everyone. A quiet poll is one
// read and one update; neither reads its app's row again once this process knows it. BEGIN and COMMIT are not counted.
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { KyselyPlugin } from 'kysely';
import { addSource, createDestination, ensureApp, pollNow } from '@/server/monitor/service';
import { startChatWebhooks, type ChatWebhooks } from '../fakes/chatWebhooks';
import { pollLeasedSource } from '@/server/monitor/poller';
import { claimSource } from '@/server/monitor/sources';
import type { NormalizedReview, SourceAdapter } from '@/server/sources/types';
import { createTestDb, type TestDb } from '../helpers/testDb';

const APP = { store: 'apple_app_store' as const, appId: '6100001' };
let db: TestDb;
let sourceId: number;

/**
 * Counts the statements run through the database handle it is plugged into (transactions included). `afterFirst`
 * runs once the first statement's result is in, before the poll goes on: another writer at that moment.
 */
function statementCounter(afterFirst?: () => Promise<void>) {
  const counter = { n: 0, plugin: null as unknown as KyselyPlugin };
  counter.plugin = {
    transformQuery: (args) => {
      counter.n++;
      return args.node;
    },
    transformResult: async (args) => {
      if (counter.n === 1 && afterFirst) await afterFirst();
      return args.result;
    },
  };
  return counter;
}

/** Reviews are dated after the destinations were created (set once they are): new to both. */
let base = 0;
const review = (i: number): NormalizedReview => ({
  store: 'apple_app_store', appId: APP.appId, storeReviewId: `ps-${i}`, country: 'us', language: null, authorName: `Reviewer ${i}`,
  title: `Review ${i}`, body: `Text ${i}`, rating: 4, appVersion: '1.0', createdAt: null, updatedAt: new Date(base + i * 1000),
  replyText: null, replyUpdatedAt: null, permalink: null,
});
const storeWith = (reviews: NormalizedReview[]): SourceAdapter => ({ kind: 'appstore_feed', poll: async () => ({ reviews: [...reviews].reverse(), complete: true }) });

/** One poll of the source by `worker`, as the engine's loop runs it; resolves with its outcome and statement count. */
async function countedPoll(adapter: SourceAdapter, worker: string, afterFirst?: () => Promise<void>) {
  const source = await claimSource(db.db, sourceId, worker, 60_000);
  const counter = statementCounter(afterFirst);
  const outcome = await pollLeasedSource(db.db.withPlugin(counter.plugin), source!, { workerId: worker, intervalSeconds: 300, adapterFor: () => adapter });
  return { outcome, statements: counter.n };
}

beforeAll(async () => {
  db = await createTestDb();
  await ensureApp({ ...APP, title: 'Counted Polls' });
  sourceId = (await addSource({ ...APP, kind: 'appstore_feed', country: 'us' })).id;
  for (const platform of ['slack', 'webex'] as const) {
    await createDestination({ platform, url: platform === 'slack' ? 'http://127.0.0.1:9/services/T0000/B0000/countedcountedcounted' : 'http://127.0.0.1:9/v1/webhooks/incoming/counted', apps: [APP], welcomeCount: 0 });
  }
  base = Date.now() + 60_000;
  await pollNow(sourceId, { adapterFor: () => storeWith([]) }); // the first poll: welcomes, a watermark
  await countedPoll(storeWith([]), 'warm-up'); // this process learns the app's store and id
}, 60_000);

afterAll(async () => {
  await db.close();
});

test('a poll with 5 new reviews for 2 destinations: 2 statements (stored reviews with the destinations, then the reviews with their deliveries and the reschedule)', async () => {
  const { outcome, statements } = await countedPoll(storeWith([1, 2, 3, 4, 5].map(review)), 'w1');
  expect(outcome).toMatchObject({ ok: true, inserted: 5, deliveries: 10 });
  // Before: the app read, a compare-first read, the app lock, the source lock, the read, the insert, the destinations,
  // the deliveries and the reschedule — 9; then 4, the insert apart; then 3 in a transaction, the locks first.
  expect(statements).toBe(2);
  const source = await db.db.selectFrom('monitored_sources').select(['lease_owner', 'watermark']).where('id', '=', sourceId).executeTakeFirstOrThrow();
  expect(source).toEqual({ lease_owner: null, watermark: new Date(base + 5000) });
  // Stored in that same statement, each delivery names its review, oldest first in each destination's queue.
  const queued = await db.db
    .selectFrom('deliveries as x')
    .innerJoin('reviews as r', 'r.id', 'x.review_id')
    .select(['x.destination_id', 'r.store_review_id', 'x.kind'])
    .where('r.store_review_id', 'like', 'ps-%')
    .orderBy('x.id')
    .execute();
  const destinations = [...new Set(queued.map((q) => q.destination_id))];
  expect(destinations).toHaveLength(2);
  for (const d of destinations) {
    expect(queued.filter((q) => q.destination_id === d).map((q) => `${q.kind} ${q.store_review_id}`)).toEqual(['new ps-1', 'new ps-2', 'new ps-3', 'new ps-4', 'new ps-5']);
  }
});

test('the same reviews again: 2 statements (compare, reschedule), nothing queued', async () => {
  const { outcome, statements } = await countedPoll(storeWith([1, 2, 3, 4, 5].map(review)), 'w1');
  expect(outcome).toMatchObject({ ok: true, inserted: 0, deliveries: 0 });
  expect(statements).toBe(2);
});

// PostgreSQL only: the connecting runs on a connection of its own while the poll waits between its statements (PGlite's
// one connection is the poll's until the first statement's result is handed on; the guard's SQL is the same on both).
test.skipIf(process.env.ARB_TEST_DB !== 'postgres')('a destination connected between the read and the write: the poll takes the locked path, and the new destination gets the new reviews too', async () => {
  const chat: ChatWebhooks = await startChatWebhooks();
  try {
    const hook = chat.hook('mattermost');
    let connected = '';
    const { outcome, statements } = await countedPoll(storeWith([6, 7].map(review)), 'w1', async () => {
      connected = (await createDestination({ platform: 'mattermost', url: hook.url, apps: [APP], welcomeCount: 0 })).id;
    });
    // The read, the write that found the app written since (and wrote nothing), then the locked path: the locks, the
    // read again, the reviews with their deliveries and the reschedule. (The new destination was welcomed when it
    // was connected: the app had been polled.)
    expect(statements).toBe(5);
    expect(outcome).toMatchObject({ ok: true, inserted: 2, deliveries: 6 });
    const queued = await db.db
      .selectFrom('deliveries as x')
      .innerJoin('reviews as r', 'r.id', 'x.review_id')
      .select(['r.store_review_id'])
      .where('x.destination_id', '=', connected)
      .orderBy('x.id')
      .execute();
    expect(queued.map((q) => q.store_review_id)).toEqual(['ps-6', 'ps-7']);
  } finally {
    await chat.close();
  }
});
