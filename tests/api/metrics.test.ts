// GET /metrics through the same handler chain as `npm start` (tests/helpers/api.ts puts server/metrics ahead of the
// API router as server/main.ts does), read with a Prometheus text-format parser: off without METRICS_TOKEN, 401
// without the bearer, and with it every figure the operators' guide names, each moved by the real code path that
// counts it — a poll (ok and failed) through the real ingest, messages delivered to a loopback Slack webhook and
// refused by another, the database gauges against the rows, API request durations by route, model tokens from a
// loopback OpenAI-compatible server, and the process's own metrics. (Each worker process's own listener:
// tests/worker/metrics.test.ts.)
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { setEnvForTests } from '@/server/env';
import { chat } from '@/server/ai/llm/client';
import { createDestination, drainDeliveries, ensureApp, pollNow } from '@/server/monitor/service';
import { SourceError, type NormalizedReview, type SourceAdapter } from '@/server/sources/types';
import { startChatWebhooks, type ChatWebhooks } from '../fakes/chatWebhooks';
import { startFakeLlm, type FakeLlm } from '../fakes/llm';
import { createTestDb, type TestDb } from '../helpers/testDb';
import { startTestApi, type TestApi } from '../helpers/api';
import { countOf, parseMetrics, someLabel, valueOf } from '../helpers/prometheusText';

const TOKEN = 'metrics-token-for-tests-0123456789';
const APP = { store: 'apple_app_store' as const, appId: '6100001' };

let db: TestDb;
let api: TestApi;
let hooks: ChatWebhooks;
let llm: FakeLlm;
let restore: () => void = () => {};
let settings: Record<string, string | undefined> = {};

beforeAll(async () => {
  hooks = await startChatWebhooks();
  llm = await startFakeLlm();
  settings = { METRICS_TOKEN: TOKEN, ALLOW_PRIVATE_WEBHOOKS: '1', DELIVERY_PACING: 'off', LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'test-model' };
  restore = setEnvForTests(settings);
  db = await createTestDb();
  api = await startTestApi();
}, 60_000);

afterAll(async () => {
  await api?.close();
  await db?.close();
  restore();
  await hooks?.close();
  await llm?.close();
});

const scrape = (headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` }) => fetch(`${api.url}/metrics`, { headers });
async function families() {
  const res = await scrape();
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parseMetrics(await res.text());
}

function store(reviews: number, fail = false): SourceAdapter {
  const at = Date.now();
  return {
    kind: 'appstore_feed',
    async poll() {
      if (fail) throw new SourceError('The App Store feed answered 503.', false);
      const out: NormalizedReview[] = [];
      for (let i = 1; i <= reviews; i++) {
        out.push({
          store: 'apple_app_store', appId: APP.appId, storeReviewId: `m-${at}-${i}`, country: 'us', language: null,
          authorName: `Reviewer ${i}`, title: `Review ${i}`, body: `Text ${i}`, rating: (i % 5) + 1,
          appVersion: '1.0', createdAt: null, updatedAt: new Date(at + i), replyText: null, replyUpdatedAt: null, permalink: null,
        });
      }
      return { reviews: out, complete: true };
    },
  };
}

describe('GET /metrics', () => {
  test('is not there without METRICS_TOKEN, and asks for the bearer with it', async () => {
    setEnvForTests({ ...settings, METRICS_TOKEN: undefined }); // each call replaces the file's settings
    try {
      expect((await fetch(`${api.url}/metrics`)).status).toBe(404);
    } finally {
      setEnvForTests(settings);
    }
    const none = await scrape({});
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(await none.text()).toMatch(/Authorization: Bearer/);
    expect((await scrape({ authorization: `Bearer ${TOKEN}x` })).status).toBe(401);
    expect((await scrape({ authorization: TOKEN })).status).toBe(401);
    expect((await fetch(`${api.url}/metrics`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(405);
  });

  test('polls, deliveries, the queue, latency, requests, tokens and the process, as Prometheus reads them', async () => {
    const before = await families();
    const polls0 = valueOf(before, 'arb_polls_total', { store: 'apple_app_store' }) ?? 0;
    const errors0 = valueOf(before, 'arb_poll_errors_total', { store: 'apple_app_store' }) ?? 0;
    const delivered0 = valueOf(before, 'arb_deliveries_total', { platform: 'slack', outcome: 'delivered' }) ?? 0;
    const rejected0 = valueOf(before, 'arb_deliveries_total', { platform: 'mattermost', outcome: 'rejected' }) ?? 0;
    const latency0 = countOf(before, 'arb_review_to_chat_seconds', { platform: 'slack' }) ?? 0;
    // Other files in this worker share the process's registry: count from here.
    const refused0 = countOf(before, 'arb_http_request_duration_seconds', { route: '/api/v1/apps/[appKey]/reviews', method: 'GET', status: '400' }) ?? 0;
    const tokens0 = valueOf(before, 'arb_model_tokens_total', { feature: 'drafts' }) ?? 0;

    await ensureApp({ ...APP, title: 'Metrics Maps' });
    const slack = hooks.hook('slack');
    const refusing = hooks.hook('mattermost');
    refusing.setDefault({ kind: 'invalid_payload' });
    const toSlack = await createDestination({ platform: 'slack', url: slack.url, apps: [APP], welcomeCount: 0 });
    const toMattermost = await createDestination({ platform: 'mattermost', url: refusing.url, apps: [APP], welcomeCount: 0 });
    const rowsOf = async (destinationId: string, statuses: Array<'pending' | 'sending' | 'retry' | 'delivered' | 'failed'>) =>
      (await db.db.selectFrom('deliveries').select(sql<number>`count(*)::int`.as('n')).where('destination_id', '=', destinationId).where('status', 'in', statuses).executeTakeFirstOrThrow()).n;
    const source = await db.db.selectFrom('monitored_sources').select('id').where('app_key', '=', `apple_app_store__${APP.appId}`).executeTakeFirstOrThrow();

    expect(await pollNow(source.id, { adapterFor: () => store(0, true) })).toMatchObject({ ok: false });
    await db.db.updateTable('monitored_sources').set({ next_poll_at: sql`now()`, failure_count: 0 }).where('id', '=', source.id).execute();
    expect(await pollNow(source.id, { adapterFor: () => store(3) })).toMatchObject({ ok: true, inserted: 3 });

    // Queued, not yet sent: the gauges read the rows.
    const queued = await families();
    const open = (await rowsOf(toSlack.id, ['pending', 'sending', 'retry'])) + (await rowsOf(toMattermost.id, ['pending', 'sending', 'retry']));
    expect(open).toBeGreaterThanOrEqual(6); // the three reviews to each (and the connections' intro messages)
    expect(valueOf(queued, 'arb_delivery_queue_depth')).toBe(open);
    expect(valueOf(queued, 'arb_delivery_oldest_undelivered_age_seconds')).toBeGreaterThanOrEqual(0);
    expect(valueOf(queued, 'arb_sources_due')).toBeTypeOf('number');
    expect(valueOf(queued, 'arb_sources_overdue')).toBe(0);
    expect(valueOf(queued, 'arb_polls_total', { store: 'apple_app_store' })).toBe(polls0 + 2);
    expect(valueOf(queued, 'arb_poll_errors_total', { store: 'apple_app_store' })).toBe(errors0 + 1);

    await drainDeliveries({ pacing: 'off' });
    await slack.waitForDelivered(3);
    const after = await families();
    expect(valueOf(after, 'arb_deliveries_total', { platform: 'slack', outcome: 'delivered' })).toBe(delivered0 + (await rowsOf(toSlack.id, ['delivered'])));
    expect(valueOf(after, 'arb_deliveries_total', { platform: 'mattermost', outcome: 'rejected' })).toBe(rejected0 + (await rowsOf(toMattermost.id, ['failed'])));
    expect(await rowsOf(toMattermost.id, ['failed'])).toBeGreaterThanOrEqual(3);
    expect(countOf(after, 'arb_review_to_chat_seconds', { platform: 'slack' })).toBe(latency0 + 3);
    expect(after.get('arb_review_to_chat_seconds')?.type).toBe('HISTOGRAM');
    expect(valueOf(after, 'arb_delivery_queue_depth')).toBe(0);
    expect(valueOf(after, 'arb_delivery_oldest_undelivered_age_seconds')).toBe(0);

    // An API request, by its route's pattern and status.
    const health = await fetch(`${api.url}/api/health`);
    expect(health.status).toBe(200);
    const missing = await fetch(`${api.url}/api/v1/apps/not-a-real-app/reviews`, { headers: { authorization: 'Bearer arb_nope' } });
    expect(missing.status).toBe(400); // not an app key: refused before the bearer is read
    // Model tokens, as the (fake) server reported them.
    llm.reply({ text: 'Thanks for the review.' });
    const answer = await chat({ messages: [{ role: 'user', content: 'Say thanks.' }] }, { feature: 'drafts' });
    const served = await families();
    expect(countOf(served, 'arb_http_request_duration_seconds', { route: '/api/health', method: 'GET', status: '200' })).toBeGreaterThanOrEqual(1);
    expect(countOf(served, 'arb_http_request_duration_seconds', { route: '/api/v1/apps/[appKey]/reviews', method: 'GET', status: '400' })).toBe(refused0 + 1);
    expect(someLabel(served, 'arb_http_request_duration_seconds', 'route', (r) => r.includes('not-a-real-app'))).toBe(false);
    expect(answer.usage?.totalTokens).toBeGreaterThan(0); // the fake reported usage, so the counter has something to add
    expect(valueOf(served, 'arb_model_tokens_total', { feature: 'drafts' })).toBe(tokens0 + answer.usage!.totalTokens);
    // The process's own (prom-client's default metrics, prefixed).
    expect(valueOf(served, 'arb_process_process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(served.has('arb_process_nodejs_heap_size_used_bytes')).toBe(true);
  });
});
