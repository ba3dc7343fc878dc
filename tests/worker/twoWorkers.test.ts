// Two `npm run worker` processes on one PostgreSQL share 3,000 reviews × 3 destinations: every review arrives exactly
// once at each receiver (zero duplicates, zero lost), and the destinations changed hands between the processes while
// their queues were still full — where a lease race would send a message twice or skip one. Each process gives a
// destination back every 100 ms (DELIVERY_HOLD_MS), so a run has dozens of hand-overs, not the few a 2 s hold gives;
// what matters is how often the destinations change hands, not how many messages pass between hand-overs.
// PostgreSQL only: the embedded database is single-process by design (npm run worker refuses it, which is checked too).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { sql } from 'kysely';
import { setEnvForTests } from '@/server/env';
import { createDestination, ensureApp, pollNow } from '@/server/monitor/service';
import type { NormalizedReview, SourceAdapter } from '@/server/sources/types';
import { createTestDb, type TestDb } from '../helpers/testDb';
import { startChatWebhooks, type ChatHook, type ChatWebhooks } from '../fakes/chatWebhooks';
import { spawnWorker, type WorkerChild } from './helpers/processes';
import { marker, tally } from './helpers/world';

const isPostgres = process.env.ARB_TEST_DB === 'postgres';
const APP = { store: 'apple_app_store' as const, appId: '5000001' };
const TOTAL = 3_000;
const PER_POLL = 1_000;

describe.skipIf(!isPostgres)('two worker processes on PostgreSQL', () => {
  let db: TestDb;
  let chat: ChatWebhooks;
  let restore: () => void = () => {};
  const children: WorkerChild[] = [];

  beforeAll(async () => {
    db = await createTestDb();
    chat = await startChatWebhooks();
    restore = setEnvForTests({ ALLOW_PRIVATE_WEBHOOKS: '1', DELIVERY_PACING: 'off' });
  }, 60_000);

  afterAll(async () => {
    for (const c of children) if (c.proc.exitCode === null && c.proc.signalCode === null) c.proc.kill('SIGKILL');
    restore();
    await chat.close();
    await db.close();
  });

  /** A store that hands out the next 1,000 of 3,000 reviews on each poll: the real ingest path, without HTTP. */
  function syntheticStore(): SourceAdapter {
    let next = 1;
    const base = Date.now() + 5_000;
    return {
      kind: 'appstore_feed',
      async poll() {
        const reviews: NormalizedReview[] = [];
        for (let i = next; i < next + PER_POLL && i <= TOTAL; i++) {
          reviews.push({
            store: 'apple_app_store', appId: APP.appId, storeReviewId: `syn-${i}`, country: 'us', language: null,
            authorName: `Reviewer ${i}`, title: `Review ${i}`, body: `Text ${marker(i)}`, rating: (i % 5) + 1,
            appVersion: '2.0', createdAt: null, updatedAt: new Date(base + i), replyText: null, replyUpdatedAt: null, permalink: null,
          });
        }
        next += PER_POLL;
        return { reviews: reviews.reverse(), complete: true };
      },
    };
  }

  test('3,000 reviews × 3 destinations, handed back and forth: zero duplicates, zero lost, both workers busy', async () => {
    await ensureApp({ ...APP, title: 'Atlas Maps' });
    const hooks: ChatHook[] = [chat.hook('slack'), chat.hook('mattermost'), chat.hook('webex')];
    for (const h of hooks) await createDestination({ platform: h.platform, url: h.url, apps: [APP], welcomeCount: 0 });
    const source = await db.db.selectFrom('monitored_sources').select('id').where('app_key', '=', `apple_app_store__${APP.appId}`).executeTakeFirstOrThrow();
    const adapter = syntheticStore();
    for (let p = 0; p < TOTAL / PER_POLL; p++) {
      const outcome = await pollNow(source.id, { adapterFor: () => adapter });
      expect(outcome).toMatchObject({ ok: true, inserted: PER_POLL, deliveries: PER_POLL * hooks.length });
    }

    const workerEnv = {
      DATABASE_URL: db.url!,
      ALLOW_PRIVATE_WEBHOOKS: '1',
      DELIVERY_PACING: 'off',
      LOG_LEVEL: 'warn',
      POLL_INTERVAL_SECONDS: '3600',
      // One slot per process, so at most two destinations held (one sending, one waiting on its commit): neither
      // process can hold all three, so they contend for them.
      WORKER_CONCURRENCY: '1',
      DELIVERY_HOLD_MS: '100',
    };
    children.push(spawnWorker('server/worker-main.ts', workerEnv), spawnWorker('server/worker-main.ts', workerEnv));
    // The welcome intro + every review; the wait fails when deliveries stop for 30 s (their speed is bench/deliver.ts's
    // business: on a busy machine this takes minutes).
    for (const h of hooks) await h.waitForDelivered(TOTAL + 1, 30_000);
    for (const c of children) c.proc.kill('SIGTERM');
    for (const c of children) expect(await c.exited).toMatchObject({ code: 0 });

    for (const h of hooks) {
      const counts = tally(h.delivered());
      expect(counts.size, h.platform).toBe(TOTAL);
      expect([...counts.values()].every((n) => n === 1), h.platform).toBe(true);
      expect(h.requests.filter((r) => r.outcome !== 'answered')).toHaveLength(0);
    }
    const byWorker = await db.db
      .selectFrom('deliveries')
      .select(['worker', sql<number>`count(*)::int`.as('n')])
      .where('status', '=', 'delivered')
      .where('kind', '=', 'new')
      .groupBy('worker')
      .execute();
    expect(byWorker.reduce((n, r) => n + r.n, 0)).toBe(TOTAL * hooks.length);
    expect(byWorker.filter((r) => r.n > 0)).toHaveLength(2); // both processes took a share
    // Hand-overs: in each destination's queue order, a message sent by another process than the one before it.
    const { rows } = await sql<{ handovers: number }>`
      select count(*)::int as handovers from (
        select worker, lag(worker) over (partition by destination_id order by id) as previous
          from deliveries where status = 'delivered' and kind = 'new') d
       where previous is not null and worker <> previous`.execute(db.db);
    expect(rows[0].handovers).toBeGreaterThanOrEqual(6);
    const open = await db.db.selectFrom('deliveries').select(sql<number>`count(*)::int`.as('n')).where('status', '<>', 'delivered').executeTakeFirstOrThrow();
    expect(open.n).toBe(0);
  }, 600_000);
});

test('npm run worker refuses the embedded database with a clear message', async () => {
  const child = spawnWorker('server/worker-main.ts', {
    DATABASE_URL: '',
    LOG_LEVEL: 'warn',
  });
  expect(await child.exited).toMatchObject({ code: 1 });
  expect(child.output()).toMatch(/npm run worker .* needs DATABASE_URL/);
}, 30_000);
