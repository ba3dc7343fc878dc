// How node runs the one-process server (site + API + review engine): `npm start` (scripts/start.mjs), the e2e and API
// benchmarks (scripts/arb-server.cjs) and the memory benchmark (bench/sources-memory.ts) all start it the same way.
//
// --max-semi-space-size=8: V8 sizes the young generation from the machine's memory (16 MB semi-spaces here), and the
// engine's steady stream of short-lived objects (feed pages, query results) then keeps ~50–90 MB more resident before
// collection. 8 MB semi-spaces measured, with 10,000 monitored sources on the embedded database (bench/sources-memory.ts):
// 380–406 → 341–349 MB RSS; polls per second, delivery rate and CPU per poll unchanged; cached API requests/s ~7 % lower.
// --v8-pool-size=1: one V8 helper thread (GC, background compilation) instead of four. Each helper compiling the
// embedded database's WebAssembly in parallel keeps its own malloc arena of compiler memory, resident long after;
// one helper is what two cores can use anyway. Measured with 10,000 sources on the embedded database, same minute:
// 318 → 301 MB (bench/sources-memory.ts), and 333 → 293 MB peak in a step-by-step run of the same set-up.
// --require tsx/cjs, not --import tsx: `--import tsx` also registers tsx's ES-module hooks, which node 20 runs on a
// loader thread with a V8 isolate of its own, holding a copy of every module it compiles. The server's TypeScript is
// all loaded by require (its imports compile to require(); its only import() calls load packages, which need no
// hook), so the loader thread was memory for nothing: the server idle after start (PGlite, 4 pages served)
// 380–381 → 320–323 MB RSS, 2 runs each; a bare node 74 → 47 MB. A file loaded with import() must then be JavaScript
// or come from a package; code that runs in this process loads TypeScript with require (the engine benches do).
const path = require('node:path');

const root = path.resolve(__dirname, '..');

/** node's arguments before the script: V8 settings, then tsx's CommonJS hook (the server is TypeScript run as is). */
const SERVER_NODE_FLAGS = ['--max-semi-space-size=8', '--v8-pool-size=1', '--require', 'tsx/cjs'];

/** node's arguments for a server entry point (relative to the project root): the server's, or `npm run worker`'s. */
const argsFor = (entry) => [...SERVER_NODE_FLAGS, path.join(root, entry)];

/**
 * Runs `entry` in a child node started with the server's flags, standing in for it: SIGINT and SIGTERM are passed on
 * (a worker finishes what it holds before it exits), and the child's exit is this process's. `npm start` and
 * `npm run worker` both start this way, so extra workers run in the same memory regime as the server.
 */
function runWithServerFlags(entry, env = process.env) {
  const { spawn } = require('node:child_process');
  const child = spawn(process.execPath, argsFor(entry), { cwd: root, stdio: 'inherit', env });
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

module.exports = { SERVER_NODE_FLAGS, argsFor, serverArgs: () => argsFor('server/main.ts'), runWithServerFlags };
