/**
 * Benchmark: requests per second and p99 latency of the app's API on its hottest paths — app details and app search
 * answered from the cache by our own router (server/http/router.ts; Next is not involved) — compared with a minimal
 * Node `http` server that answers the same bytes (the ceiling this machine allows). Goal: ratio_of_ceiling ≥ 0.5.
 *
 *   npx tsx bench/api-http.ts --server             # the real server (server/main.ts, as `npm start` runs it, with the
 *                                                  # Next build in NEXT_DIST_DIR, built first when stale), as a
 *                                                  # separate process: figures `arb_router.*`
 *   npx tsx bench/api-http.ts                      # the same router on a plain Node server in this process
 *                                                  # (tests/helpers/api.ts): figures `arb_router_inprocess.*`
 *   npx tsx bench/api-http.ts --duration 5 --connections 20   # seconds measured per server
 *
 * The stores are the loopback fakes (tests/fakes) serving the demo catalog; the caches are warmed first, so the figures
 * measure our request path, not the stores. The load comes from autocannon in a separate process so that it does not
 * share the event loop of the server under test. The ceiling's answer is checked against ours (status, headers, body;
 * it sends Content-Length as we do, not chunked encoding). The two are measured in alternating one-second runs (mean
 * req/s, worst p99), so that other work on the machine weighs on both alike. Prints one `name: value unit` line per
 * figure: ours, the ceiling's, and the ratio, all from the same run.
 *
 * Figures (2 shared cores, load ~1.5): --server app-details 37.9k vs ceiling 54.3k req/s (0.70), search 37.0k vs 53.9k
 * (0.69); in-process mode 0.65 and 0.69. Server CPU per cached request ~25-35 µs against ~13-16 µs for the ceiling (it
 * was 70-90 µs: a URL object, setHeader per header, a child logger and randomUUID per request, JSON.stringify of the
 * cached answer and `for await` over the body — server/http/api.ts now avoids them). On a busy machine the req/s of
 * both sides swing widely; compare CPU per request (`node --cpu-prof`, `perf record`) rather than single runs.
 */
import { runBench } from './support/runBench';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { againstCeiling, request, type Call, type Served } from './support/ceilingRuns';
import { startAppStoreFakes } from '../tests/fakes/appStores';
import { DEMO_APPS } from '../tests/fixtures/catalog';

const root = path.resolve(__dirname, '..');

async function startRouteFileServer(): Promise<Served> {
  const { startTestApi } = await import('../tests/helpers/api');
  return startTestApi(path.join(root, 'pages/api'));
}

/** The real one-process server (server/main.ts serving the Next build), built first when the build is stale. */
async function startRealServer(dataDir: string, env: Record<string, string>): Promise<Served> {
  const { ensureBuild } = await import('../scripts/ensure-build.cjs');
  const { startServer } = await import('../scripts/arb-server.cjs');
  const distDir = process.env.NEXT_DIST_DIR || '.next';
  ensureBuild({ distDir, log: (msg) => console.error(msg) });
  const server = await startServer({ dataDir, distDir, env });
  return { url: server.url, close: server.stop };
}

async function main() {
  const { values } = parseArgs({
    options: {
      server: { type: 'boolean', default: false },
      next: { type: 'boolean', default: false }, // the former name of --server
      duration: { type: 'string', default: process.env.BENCH_DURATION ?? '5' },
      connections: { type: 'string', default: '20' },
    },
  });
  const seconds = Math.max(1, Math.round(Number(values.duration)) || 5); // per server, in one-second turns
  const connections = Math.max(1, Number(values.connections) || 20);

  const fakes = await startAppStoreFakes();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arb-bench-'));
  // The stores are the fakes, logs stay quiet, no worker competes for the CPU, Play is not throttled.
  const serverEnv = { ...fakes.env, LOG_LEVEL: 'warn', WORKER: 'off', GOOGLE_PLAY_MIN_INTERVAL_MS: '0' };
  let server: Served;
  const realServer = values.server || values.next;
  if (realServer) {
    server = await startRealServer(dataDir, serverEnv);
  } else {
    // In this process: set before anything reads env(); secrets given so none is written to a lasting place.
    Object.assign(process.env, {
      ...serverEnv,
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      AUTH_SECRET: randomBytes(32).toString('hex'),
      ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    });
    server = await startRouteFileServer();
  }
  const prefix = realServer ? 'arb_router' : 'arb_router_inprocess';
  const cases: Array<{ name: string; call: Call }> = [
    {
      name: 'app_details',
      call: { method: 'GET', path: `/api/v1/public/app-details?app_id=${DEMO_APPS.streakly.ios}&app_store=apple_app_store&country=us` },
    },
    {
      name: 'search',
      call: { method: 'POST', path: '/api/search', body: JSON.stringify({ query: 'habit', country: 'us', app_store: 'google_play_store' }) },
    },
  ];

  try {
    for (const { name, call } of cases) {
      // Warm the cache (and Next's lazy route compilation), then check that it really answers from the cache.
      const first = await request(server.url, call);
      if (first.status !== 200) throw new Error(`${name}: warm-up answered ${first.status}: ${first.body.toString()}`);
      const storeRequests = fakes.itunes.requests.length + fakes.play.requests.length;
      const warm = await request(server.url, call);
      if (fakes.itunes.requests.length + fakes.play.requests.length !== storeRequests) {
        throw new Error(`${name}: the second request went to the store again; the cache is not working`);
      }

      const { api, ceiling } = await againstCeiling(name, server, call, warm, seconds, connections);

      console.log(`${prefix}.${name}.cached.rps: ${Math.round(api.rps)} req/s`);
      console.log(`${prefix}.${name}.cached.p99: ${api.p99} ms`);
      console.log(`ceiling.${name}.rps: ${Math.round(ceiling.rps)} req/s`);
      console.log(`ceiling.${name}.p99: ${ceiling.p99} ms`);
      console.log(`${prefix}.${name}.cached.ratio_of_ceiling: ${(api.rps / ceiling.rps).toFixed(2)} ratio`);
    }
  } finally {
    await server.close();
    await fakes.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

runBench(main);
