// Requests/s and p99 latency for a statically generated marketing page served by the real server (npm start's
// process), next to `next start` serving the same page from the same build: the reference, Next's own production
// server. Both run in their own process, so neither shares the load generator's CPU, and they are measured in
// alternating one-second turns, so that other work on the machine weighs on both alike. The page must be the same
// bytes from both (checked before measuring).
//   arb.static_page.*       our server: prerendered pages answered from memory ahead of Next (server/http/staticPages.ts)
//   next_start.static_page.* `next start` on the same build
//   arb.static_page.ratio_of_next_start  ours / next start, from the same run
// Figures (2 shared cores, load ~5): ours 8.3k req/s, next start 1.1k: 7.4 × (quiet, earlier: ours ~16k req/s).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { ensureBuild } from '../scripts/ensure-build.cjs';
import { freePort, startServer } from '../scripts/arb-server.cjs';
import { requestRaw } from './lib/rawHttp.mjs';

const PAGE = '/pricing';
const TURNS = Number(process.env.BENCH_SECONDS || 8);
const CONNECTIONS = 50;
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

function load(url, duration) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections: CONNECTIONS, duration }, (err, r) => {
      if (err) return reject(err);
      if (r.non2xx || r.errors) return reject(new Error(`${url}: ${r.non2xx} non-2xx answers, ${r.errors} errors`));
      resolve({ rps: r.requests.average, p99: r.latency.p99 });
    });
  });
}

/** `next start` on the build in `distDir`, on a free loopback port; resolves once it answers the page. */
async function startNext(distDir, logFile) {
  const port = await freePort();
  const out = fs.openSync(logFile, 'a');
  const child = spawn(process.execPath, [path.join(root, 'node_modules/next/dist/bin/next'), 'start', '-H', '127.0.0.1', '-p', String(port)], {
    cwd: root,
    stdio: ['ignore', out, out],
    env: { ...process.env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1', NEXT_DIST_DIR: distDir },
  });
  fs.closeSync(out);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`next start exited with ${child.exitCode}: ${fs.readFileSync(logFile, 'utf8')}`);
    try {
      if ((await requestRaw(`${url}${PAGE}`)).status === 200) break;
    } catch {
      // not listening yet: nothing to wait on but the port
    }
    if (Date.now() > deadline) throw new Error(`next start did not answer ${PAGE} within 2 minutes`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', resolve);
        child.kill('SIGTERM');
      }),
  };
}

const distDir = process.env.NEXT_DIST_DIR || '.next';
ensureBuild({ distDir, log: (m) => console.error(m) });
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arb-bench-static-'));
const server = await startServer({ dataDir, distDir, env: { LOG_LEVEL: 'warn', WORKER: 'off' } });
let next;
try {
  next = await startNext(distDir, path.join(dataDir, 'next-start.log'));
  const ours = await requestRaw(`${server.url}${PAGE}`);
  const theirs = await requestRaw(`${next.url}${PAGE}`);
  if (ours.status !== 200) throw new Error(`${PAGE} answered ${ours.status}`);
  if (!ours.body.equals(theirs.body)) throw new Error(`${PAGE}: next start answers other bytes than our server; not the same page`);

  const sides = { arb: `${server.url}${PAGE}`, next_start: `${next.url}${PAGE}` };
  for (const url of Object.values(sides)) await load(url, 2); // warm-up: JIT, Next's page cache, keep-alive sockets
  const runs = { arb: [], next_start: [] };
  for (let i = 0; i < TURNS; i++) for (const [name, url] of Object.entries(sides)) runs[name].push(await load(url, 1));
  const rps = {};
  for (const [name, list] of Object.entries(runs)) {
    rps[name] = list.reduce((s, r) => s + r.rps, 0) / list.length;
    console.log(`${name}.static_page.rps: ${Math.round(rps[name])} req/s`);
    console.log(`${name}.static_page.p99: ${Math.max(...list.map((r) => r.p99))} ms`);
  }
  console.log(`arb.static_page.ratio_of_next_start: ${(rps.arb / rps.next_start).toFixed(2)} x`);
} finally {
  await next?.stop();
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
