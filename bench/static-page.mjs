// Requests/s and p99 latency for a statically generated marketing page served by the real server (npm start's
// process), next to a minimal Node `http` server answering the same bytes on the same machine: the ceiling.
// autocannon on loopback; both servers run in their own process so neither shares the load generator's CPU.
// The page is answered from memory ahead of Next (server/http/staticPages.ts, STATIC_PAGES=memory): ~16k req/s, about
// the ceiling; through Next's pipeline (STATIC_PAGES=next) it was ~1.6k req/s, 0.09 of it.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { ensureBuild } from '../scripts/ensure-build.cjs';
import { freePort, startServer } from '../scripts/arb-server.cjs';
import { replayedHeaders, requestRaw } from './lib/rawHttp.mjs';

const PAGE = '/pricing';
const SECONDS = Number(process.env.BENCH_SECONDS || 10);
const CONNECTIONS = 50;

function load(url, duration) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections: CONNECTIONS, duration }, (err, r) => {
      if (err) return reject(err);
      if (r.non2xx || r.errors) return reject(new Error(`${url}: ${r.non2xx} non-2xx answers, ${r.errors} errors`));
      resolve(r);
    });
  });
}

async function measure(name, url) {
  await load(url, 2); // warm-up: JIT, Next's page cache, keep-alive sockets
  const r = await load(url, SECONDS);
  console.log(`${name}.static_page.rps: ${Math.round(r.requests.average)} req/s`);
  console.log(`${name}.static_page.p99: ${r.latency.p99} ms`);
  return r.requests.average;
}

/**
 * A bare `http` server in a child process that answers every request with the page's exact bytes: the same status line,
 * headers (but Date, Connection, Keep-Alive, which Node adds) and body as our server sent.
 */
async function startCeiling(bodyFile, rawHeaders) {
  const port = await freePort();
  const headers = replayedHeaders(rawHeaders);
  const code = `
    const fs = require('node:fs');
    const body = fs.readFileSync(${JSON.stringify(bodyFile)});
    const headers = ${JSON.stringify(headers)};
    require('node:http').createServer((req, res) => {
      res.writeHead(200, headers);
      res.end(body);
    }).listen(${port}, '127.0.0.1', () => process.send('ready'));`;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (c) => reject(new Error(`ceiling server exited with ${c}`)));
  });
  return { url: `http://127.0.0.1:${port}${PAGE}`, stop: () => child.kill('SIGTERM') };
}

const distDir = process.env.NEXT_DIST_DIR || '.next';
ensureBuild({ distDir, log: (m) => console.error(m) });
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arb-bench-static-'));
const server = await startServer({ dataDir, distDir, env: { LOG_LEVEL: 'warn', WORKER: 'off' } });
let ceiling;
try {
  const res = await requestRaw(`${server.url}${PAGE}`);
  if (res.status !== 200) throw new Error(`${PAGE} answered ${res.status}`);
  const bodyFile = path.join(dataDir, 'page.html');
  fs.writeFileSync(bodyFile, res.body);
  const ours = await measure('http', `${server.url}${PAGE}`);
  await server.stop(); // the ceiling gets the machine to itself, as the server had
  ceiling = await startCeiling(bodyFile, res.rawHeaders);
  const best = await measure('ceiling', ceiling.url);
  console.log(`http.static_page.ratio_of_ceiling: ${(ours / best).toFixed(2)} x`);
} finally {
  ceiling?.stop();
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
