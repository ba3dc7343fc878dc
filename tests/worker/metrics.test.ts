// Each `npm run worker` serves its own /metrics (server/metrics/server.ts) on METRICS_PORT when METRICS_TOKEN is set:
// a real worker process on PostgreSQL delivers three reviews to a loopback Slack webhook, and its /metrics, read with a
// Prometheus text-format parser, counts exactly those deliveries and their review-to-chat latencies, shows the queue
// empty, and carries the process's own metrics; without the bearer it answers 401. (The web process's /metrics and
// every figure's code path: tests/api/metrics.test.ts.)
import net from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { setEnvForTests } from '@/server/env';
import { createDestination, ensureApp, pollNow } from '@/server/monitor/service';
import type { NormalizedReview, SourceAdapter } from '@/server/sources/types';
import { createTestDb, type TestDb } from '../helpers/testDb';
import { startChatWebhooks, type ChatWebhooks } from '../fakes/chatWebhooks';
import { countOf, parseMetrics, valueOf } from '../helpers/prometheusText';
import { spawnWorker, type WorkerChild } from './helpers/processes';

const isPostgres = process.env.ARB_TEST_DB === 'postgres';
const APP = { store: 'apple_app_store' as const, appId: '6200001' };
const TOKEN = 'worker-metrics-token-0123456789';

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

describe.skipIf(!isPostgres)('a worker process serves its own /metrics', () => {
  let db: TestDb;
  let chat: ChatWebhooks;
  let child: WorkerChild | null = null;
  let restore: () => void = () => {};

  beforeAll(async () => {
    db = await createTestDb();
    chat = await startChatWebhooks();
    restore = setEnvForTests({ ALLOW_PRIVATE_WEBHOOKS: '1', DELIVERY_PACING: 'off' });
  }, 60_000);

  afterAll(async () => {
    if (child && child.proc.exitCode === null && child.proc.signalCode === null) child.proc.kill('SIGKILL');
    restore();
    await chat.close();
    await db.close();
  });

  test('counts what it delivered, as Prometheus reads it', async () => {
    await ensureApp({ ...APP, title: 'Worker Maps' });
    const slack = chat.hook('slack');
    const dest = await createDestination({ platform: 'slack', url: slack.url, apps: [APP], welcomeCount: 0 });
    const source = await db.db.selectFrom('monitored_sources').select('id').where('app_key', '=', `apple_app_store__${APP.appId}`).executeTakeFirstOrThrow();
    const at = Date.now();
    const adapter: SourceAdapter = {
      kind: 'appstore_feed',
      async poll() {
        const reviews: NormalizedReview[] = [1, 2, 3].map((i) => ({
          store: 'apple_app_store', appId: APP.appId, storeReviewId: `w-${i}`, country: 'us', language: null,
          authorName: `Reviewer ${i}`, title: `Review ${i}`, body: `Text ${i}`, rating: i, appVersion: '1.0', createdAt: null,
          updatedAt: new Date(at + i), replyText: null, replyUpdatedAt: null, permalink: null,
        }));
        return { reviews, complete: true };
      },
    };
    expect(await pollNow(source.id, { adapterFor: () => adapter })).toMatchObject({ ok: true, inserted: 3 });

    const port = await freePort();
    child = spawnWorker('server/worker-main.ts', {
      DATABASE_URL: db.url!,
      ALLOW_PRIVATE_WEBHOOKS: '1',
      DELIVERY_PACING: 'off',
      LOG_LEVEL: 'warn',
      POLL_INTERVAL_SECONDS: '3600',
      METRICS_TOKEN: TOKEN,
      METRICS_PORT: String(port),
      METRICS_HOST: '127.0.0.1',
    });
    await slack.waitForDelivered(3, 30_000);
    const url = `http://127.0.0.1:${port}/metrics`;
    // Its outcome is recorded just after the receiver's answer: read until the last one is counted.
    let families = parseMetrics('');
    for (let i = 0; i < 100; i++) {
      const res = await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(res.status).toBe(200);
      families = parseMetrics(await res.text());
      if (countOf(families, 'arb_review_to_chat_seconds', { platform: 'slack' }) === 3 && valueOf(families, 'arb_delivery_queue_depth') === 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const delivered = await db.db
      .selectFrom('deliveries')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('destination_id', '=', dest.id)
      .where('status', '=', 'delivered')
      .executeTakeFirstOrThrow();
    expect(valueOf(families, 'arb_deliveries_total', { platform: 'slack', outcome: 'delivered' })).toBe(delivered.n);
    expect(countOf(families, 'arb_review_to_chat_seconds', { platform: 'slack' })).toBe(3);
    expect(valueOf(families, 'arb_delivery_queue_depth')).toBe(0);
    expect(valueOf(families, 'arb_process_process_resident_memory_bytes')).toBeGreaterThan(0);
    expect((await fetch(url)).status).toBe(401);
    expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(404);

    child.proc.kill('SIGTERM');
    expect(await child.exited).toMatchObject({ code: 0 });
  }, 120_000);
});
