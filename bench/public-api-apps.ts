/**
 * Benchmark: requests per second of the public API's `GET v1/apps` with a valid `arb_` key, warm — the key, its
 * organisation's plan and the apps list answered from memory (PUBLIC_API_CACHE_MS), the key's rate spent from hits
 * reserved in the database, the month's calls and the key's last use written in batches every second — against a bare
 * Node `http` server answering the same bytes on the same machine in the same run (its ceiling). Goal: ratio ≥ 0.5.
 *
 *   npx tsx bench/public-api-apps.ts                    # PGlite in a temporary DATA_DIR
 *   DATABASE_URL=postgres://… npx tsx bench/public-api-apps.ts
 *   npx tsx bench/public-api-apps.ts --duration 5 --connections 20 --reviews 50000
 *
 * The route files are served by the tests' plain Node server in this process (tests/helpers/api.ts: our router without
 * Next); autocannon runs in a child process. The organisation has 5 apps and `--reviews` reviews (default 50,000, one
 * an hour in one app: a busy app's 5.7 years), so the figure also shows that no call counts them all. The list is read
 * once per PUBLIC_API_CACHE_MS (its `reviews_this_week` an index range over the last 7 days: 168 entries here). Prints
 * `name: value unit` lines: ours, the ceiling's, the ratio, and both servers' CPU per request (both run in this process).
 * A loaded machine makes the figures meaningless: it prints the load average first (check it is below ~4).
 *
 * What a warm call still does beside the ceiling's work: our router (request id, security and CORS headers, the ETag
 * check), the key's HMAC, a few map lookups and counters. What it no longer does: the three statements a call cost
 * when everything was read from and counted in the database per call (0.01–0.02 of the ceiling). The price — a
 * revocation or plan change made by another process takes up to PUBLIC_API_CACHE_MS to apply, the month's count is
 * written up to a second late — is described in server/apiKeys/keyState.ts and callCounts.ts, and docs/SECURITY.md.
 *
 * History, as the README's benchmark table recorded it until 2026-12-02 (docs/BENCHMARKS.md keeps the latest
 * row; the figures above may repeat part of it):
 *   public API `GET v1/apps` with an `arb_` key vs a bare Node server sending the same bytes
 *   (`bench/public-api-apps.ts`: `public_api.apps.*`, PGlite, 50,000 reviews) — goal ≥ 0.5 of the ceiling. 0.55–0.57
 *   in three runs back to back at load 2.1–2.7 (14,300 vs 25,317 req/s in the first, p99 7 ms; CPU a request 65 vs 34
 *   µs, CPU ratio 0.51–0.52). Warm calls read nothing from the database (`tests/api/publicApiApps.test.ts` counts 0
 *   statements). On a busy machine the figure swings (load 8.6: 0.65; load 11–14: 0.25–0.41; load 28: 0.35). Before
 *   the cache (load 3): 147 vs 9,700 req/s, 0.02, 7.2 ms CPU a request. What the cache trades: docs/SECURITY.md, API
 *   keys
 */
import { runBench } from './support/runBench';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { againstCeiling, request, type Call } from './support/ceilingRuns';

const root = path.resolve(__dirname, '..');

async function main() {
  const { values } = parseArgs({
    options: {
      duration: { type: 'string', default: process.env.BENCH_DURATION ?? '5' },
      connections: { type: 'string', default: '20' },
      reviews: { type: 'string', default: '50000' },
    },
  });
  const seconds = Math.max(1, Math.round(Number(values.duration)) || 5);
  const connections = Math.max(1, Number(values.connections) || 20);
  const reviews = Math.max(0, Number(values.reviews) || 0);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arb-bench-public-api-'));
  // Before anything reads env(): quiet logs, no worker, a rate the load cannot reach, secrets of this run only.
  Object.assign(process.env, {
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    WORKER: 'off',
    DATA_DIR: dataDir,
    AUTH_SECRET: randomBytes(32).toString('hex'),
    ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    PUBLIC_API_RATE_PER_MINUTE: '1000000',
  });
  console.log(`public_api.load_average: ${os.loadavg()[0].toFixed(2)} load`);

  const { sql } = await import('kysely');
  const { getDb } = await import('../server/db/client');
  const { newOwner } = await import('../tests/helpers/orgs');
  const { appWith } = await import('../tests/helpers/seedReviews');
  const { startTestApi } = await import('../tests/helpers/api');
  const { requestRaw } = await import('./lib/rawHttp.mjs');

  const server = await startTestApi(path.join(root, 'pages/api'));
  try {
    const owner = await newOwner('bench');
    const keys: string[] = [];
    for (let i = 0; i < 5; i++) keys.push(await appWith(owner, i % 2 ? 'google_play_store' : 'apple_app_store', [{ body: `review ${i}`, hoursAgo: 1 }]));
    if (reviews > 0) {
      const started = Date.now();
      await sql`insert into reviews (app_key, store, store_review_id, country, language, author_name, title, body, rating, updated_at)
                select ${keys[0]}, 'apple_app_store', 'bench-' || g, 'us', 'en', 'Reviewer', null, 'Review ' || g, 1 + g % 5, now() - (g || ' hours')::interval
                  from generate_series(1, ${reviews}) g`.execute(await getDb());
      console.error(`loaded ${reviews} reviews in ${Date.now() - started} ms`);
    }
    const made = await requestRaw(`${server.url}/api/v1/org/api-keys`, { method: 'POST', body: JSON.stringify({ name: 'bench' }), headers: { authorization: `Bearer ${owner.token}` } });
    if (made.status !== 201) throw new Error(`creating the API key answered ${made.status}: ${made.body.toString()}`);
    const key = (JSON.parse(made.body.toString()) as { data: { key: string } }).data.key;
    const call: Call = { method: 'GET', path: '/api/v1/apps', headers: { authorization: `Bearer ${key}` } };

    const warm = await request(server.url, call);
    if (warm.status !== 200) throw new Error(`GET v1/apps answered ${warm.status}: ${warm.body.toString()}`);
    const listed = (JSON.parse(warm.body.toString()) as { data: Array<{ review_count: number }> }).data;
    if (listed.reduce((n, a) => n + a.review_count, 0) !== 5 + reviews) throw new Error('GET v1/apps does not count every review');

    const { api, ceiling } = await againstCeiling('public_api_apps', server, call, warm, seconds, connections);
    console.log(`public_api.apps.rps: ${Math.round(api.rps)} req/s`);
    console.log(`public_api.apps.p99: ${api.p99} ms`);
    console.log(`ceiling.public_api_apps.rps: ${Math.round(ceiling.rps)} req/s`);
    console.log(`public_api.apps.ratio_of_ceiling: ${(api.rps / ceiling.rps).toFixed(2)} ratio`);
    // Both servers run in this process: their CPU per request, and what the req/s ratio tends to when CPU is the limit.
    console.log(`public_api.apps.cpu_per_request: ${Math.round(api.cpuUsPerRequest)} us`);
    console.log(`ceiling.public_api_apps.cpu_per_request: ${Math.round(ceiling.cpuUsPerRequest)} us`);
    console.log(`public_api.apps.cpu_ratio_of_ceiling: ${(ceiling.cpuUsPerRequest / api.cpuUsPerRequest).toFixed(2)} ratio`);
  } finally {
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

runBench(main);
