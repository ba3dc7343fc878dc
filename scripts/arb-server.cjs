// Starts the real one-process server (as `npm start` starts it: scripts/server-node-args.cjs; env → database → workers
// → Next) on a free loopback port with its own DATA_DIR, for the end-to-end suite and the benchmarks, and stops it cleanly.
// CommonJS on purpose: Playwright loads TypeScript as CommonJS and cannot load an ES module that uses import.meta.
'use strict';
const { spawn } = require('node:child_process');
const { initPgliteDir } = require('../server/db/pglite-initdb.cjs');
const { serverArgs } = require('./server-node-args.cjs');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const { pathToFileURL } = require('node:url');

const root = path.resolve(__dirname, '..');

/** A port the OS just gave out and released; the caller binds it right after. */
function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.unref();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

function tail(file, lines = 40) {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

async function waitUntilServing(url, child, logFile, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let exited = null;
  child.once('exit', (code, signal) => (exited = `exited with ${code ?? signal}`));
  while (Date.now() < deadline) {
    if (exited) throw new Error(`The server ${exited} before serving. Its log (${logFile}):\n${tail(logFile)}`);
    try {
      // Any answer will do: server/main.ts listens only after Next is prepared. A fresh PGlite directory (initdb in WASM)
      // and Next's start take 5–20 s on an idle machine, minutes on a busy one.
      const r = await fetch(`${url}/robots.txt`, { signal: AbortSignal.timeout(2000) });
      await r.arrayBuffer();
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 150)); // the port is not open yet: nothing to subscribe to but polling
    }
  }
  throw new Error(`The server did not answer on ${url} within ${timeoutMs} ms. Its log (${logFile}):\n${tail(logFile)}`);
}

/**
 * Creates an empty embedded database (a PGlite cluster) in `dir`, in a child process as server/db/client.ts does for a
 * new DATA_DIR: initdb in WebAssembly, ~10 s of CPU. A run that starts several servers makes one and hands it to each
 * as `pgliteTemplate`; copying it takes a tenth of a second.
 */
function createPgliteTemplate(dir) {
  const pglite = pathToFileURL(require.resolve('@electric-sql/pglite', { paths: [root] })).href;
  return initPgliteDir(dir, pglite).then(() => dir);
}

/**
 * Start the server with `env` added to its environment (fakes' base URLs, SMTP_URL…). APP_URL is the loopback URL the
 * browser uses, so links, CORS and cookies agree with the page's origin. stdout and stderr go to `<dataDir>/server.log`.
 * With `pgliteTemplate` (from createPgliteTemplate) a new DATA_DIR's embedded database starts as a copy of it.
 */
async function startServer({ dataDir, distDir = process.env.NEXT_DIST_DIR || '.next', env = {}, pgliteTemplate }) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  fs.mkdirSync(dataDir, { recursive: true });
  const pgliteDir = path.join(dataDir, 'pglite');
  if (pgliteTemplate && !fs.existsSync(pgliteDir)) fs.cpSync(pgliteTemplate, pgliteDir, { recursive: true });
  const logFile = path.join(dataDir, 'server.log');
  const out = fs.openSync(logFile, 'a');
  const child = spawn(process.execPath, serverArgs(), {
    cwd: root,
    stdio: ['ignore', out, out],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      NEXT_TELEMETRY_DISABLED: '1',
      PORT: String(port),
      APP_URL: url,
      DATA_DIR: dataDir,
      NEXT_DIST_DIR: distDir,
      ...env,
    },
  });
  fs.closeSync(out);
  // If this process ends without stopping the server (a crash, an uncaught error), the server goes with it instead of
  // living on and holding the port and the PGlite directory.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => process.removeListener('exit', killOnExit));
  // Generous: without a template, a fresh embedded database is ~12 s of initdb in WebAssembly on a quiet machine, many
  // times that beside a busy e2e run.
  await waitUntilServing(url, child, logFile, 300_000).catch((err) => {
    child.kill('SIGKILL');
    throw err;
  });
  return {
    url,
    port,
    logFile,
    pid: child.pid,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const force = setTimeout(() => child.kill('SIGKILL'), 15_000);
        child.once('exit', () => {
          clearTimeout(force);
          resolve();
        });
        child.kill('SIGTERM'); // server/main.ts stops the workers and closes the database on SIGTERM
      }),
  };
}

module.exports = { createPgliteTemplate, freePort, startServer };
