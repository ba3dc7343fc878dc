// Time from the connect call (POST v1/oauth/platform/connect, what the browser sends when the visitor clicks
// "Connect") to the welcome message at the chat receiver, over 20 connections of 20 new apps (p50/p99). Goal: p99
// under 2 s on loopback.
//
// One process runs what `npm start` runs for this path: the API route files (served on loopback without Next, the
// same handlers), the embedded database in a fresh DATA_DIR, and the background workers (the review engine's poll and
// delivery loops). Outside, loopback fakes: the iTunes lookup + App Store review feed (each app has 5 reviews), and a
// Slack receiver per connection. Each run is a new app, so it includes the first poll of its feed — the slow path.
import { runBench } from './support/runBench';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const RUNS = Number(process.env.BENCH_RUNS || 20);
const WARMUP = 2;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arb-bench-connect-'));
Object.assign(process.env, { DATA_DIR: dataDir, LOG_LEVEL: 'silent', ALLOW_PRIVATE_WEBHOOKS: '1', ALLOW_PRIVATE_WEBHOOKS_IN_PRODUCTION: '1', NODE_ENV: 'production' });

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function main() {
  const { startAppStoreFakes } = await import('../tests/fakes/appStores');
  const { appStoreFeedRoutes, createAppStoreFeed } = await import('../tests/fakes/appStoreFeed');
  const { startChatWebhooks } = await import('../tests/fakes/chatWebhooks');
  const { itunesApp } = await import('../tests/fixtures/catalog');
  const { encodeConnectionPayload } = await import('@/shared/connectionPayload');

  const feed = createAppStoreFeed();
  const stores = await startAppStoreFakes(undefined, { itunes: [appStoreFeedRoutes(feed)] });
  const chat = await startChatWebhooks();
  Object.assign(process.env, stores.env);

  const { getDb, closeDb } = await import('../server/db/client');
  await getDb();
  const { startBackgroundJobs } = await import('../server/background');
  const { BACKGROUND_JOBS } = await import('../server/jobs');
  const stopWorkers = await startBackgroundJobs(BACKGROUND_JOBS);
  const { startTestApi } = await import('../tests/helpers/api');
  const api = await startTestApi(path.resolve(__dirname, '../pages/api'));

  const latencies: number[] = [];
  const answers: number[] = [];
  try {
    for (let i = 0; i < WARMUP + RUNS; i++) {
      const trackId = 6_600_000_000 + i;
      stores.catalog.itunes.push(itunesApp({ trackId, trackName: `Bench App ${i}` }));
      for (let r = 1; r <= 5; r++) feed.publish(String(trackId), 'us', { content: `Review ${r}`, rating: r, updated: new Date(Date.now() - r * 3_600_000) });
      const hook = chat.hook('slack');
      const payload = encodeConnectionPayload({
        version: 'v2', user_email: '', source: 'bench', source_type: 'webhook', webhook_url: hook.url, app_id: String(trackId), app_store: 'apple_app_store', country: 'us',
      });
      const started = performance.now();
      const startedAt = Date.now();
      const res = await fetch(`${api.url}/api/v1/oauth/platform/connect`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': `203.0.113.${i % 250}` },
        body: JSON.stringify({ platform: 'slack', payload }),
      });
      const answeredMs = performance.now() - started;
      if (res.status !== 200) throw new Error(`connect answered ${res.status}: ${await res.text()}`);
      const [welcome] = await hook.waitForRequests(1, () => true, 15_000);
      if (!welcome.raw.includes('ARB is connected')) throw new Error('the first message was not the welcome');
      if (i >= WARMUP) {
        latencies.push(welcome.receivedAt - startedAt);
        answers.push(answeredMs);
      }
    }
  } finally {
    await api.close();
    await stopWorkers();
    await closeDb();
    await Promise.all([stores.close(), chat.close()]);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }

  const sorted = [...latencies].sort((a, b) => a - b);
  const answered = [...answers].sort((a, b) => a - b);
  console.log(`connect.welcome_latency.p50: ${Math.round(percentile(sorted, 50))} ms`);
  console.log(`connect.welcome_latency.p99: ${Math.round(percentile(sorted, 99))} ms`);
  console.log(`connect.api_answer.p50: ${Math.round(percentile(answered, 50))} ms`);
  if (percentile(sorted, 99) >= 2000) console.error(`p99 ${Math.round(percentile(sorted, 99))} ms is over the 2 s goal`);
}

runBench(main);
