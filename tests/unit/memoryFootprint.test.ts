// What a long-running process does for its memory (server/memory/), each measured in a fresh node process:
// - giving the C heap's free pages back to the OS (mallocTrim.ts): 62 MB of 64 KB buffers, interleaved with small ones
//   kept alive so the freed memory sits in the middle of the heap, where glibc never returns it on its own;
// - on the embedded database, major GCs at 20 % heap growth (footprint.ts): a stream of objects that live long enough
//   to be promoted, then die — the engine's pattern.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, test } from 'vitest';

const memoryModule = (name: string) => JSON.stringify(path.resolve(__dirname, '../../server/memory', name));

/**
 * Runs `body` (an ES module's code, with `trim` = mallocTrim.ts and `footprint` = footprint.ts) in node with tsx and a
 * callable gc(); its last line is JSON.
 */
function inFreshNode<T>(body: string): T {
  const script = `const load = async (m) => { const loaded = await import(m); return loaded.default ?? loaded; };
const trim = await load(${memoryModule('mallocTrim.ts')});
const footprint = await load(${memoryModule('footprint.ts')});
const gc = globalThis.gc;
const keep = [];
const mb = () => process.memoryUsage.rss() / 1048576;
/** Allocates the buffers, drops the big ones and collects them with two major GCs; returns the RSS while they lived. */
async function fragment() {
  let drop = [];
  for (let i = 0; i < 1000; i++) { drop.push(Buffer.alloc(64 * 1024, 1)); keep.push(Buffer.alloc(512, 2)); }
  const peak = mb();
  drop = [];
  gc(); await new Promise((r) => setTimeout(r, 50)); gc();
  return peak;
}
${body}`;
  const out = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', script], {
    encoding: 'utf8',
    env: { ...process.env, LOG_LEVEL: 'error' },
  });
  return JSON.parse(out.trim().split('\n').at(-1)!);
}

const glibc = process.platform === 'linux' && Boolean((process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header?.glibcVersionRuntime);

describe.runIf(glibc)('malloc_trim on Linux with glibc', () => {
  test('memory freed in the middle of the heap stays resident until the trim, which gives it back and keeps live data', () => {
    const r = inFreshNode<{ idle: number; freed: number; dropped: number; intact: boolean }>(`
const peak = await fragment();
await new Promise((r) => setTimeout(r, 200));
const idle = peak - mb();
const freed = trim.trimMallocHeap();
const dropped = peak - mb();
console.log(JSON.stringify({ idle, freed, dropped, intact: keep.every((b) => b.length === 512 && b[0] === 2 && b[511] === 2) }));`);
    expect(r.idle).toBeLessThan(10); // glibc alone keeps it
    expect(r.dropped).toBeGreaterThan(40);
    expect(r.freed).toBeGreaterThan(40);
    expect(r.intact).toBe(true);
  });

  test('keepMallocHeapTrimmed trims after a major GC on its own, and not once stopped', () => {
    const run = (stopAtOnce: boolean) =>
      inFreshNode<{ released: number }>(`
const stop = trim.keepMallocHeapTrimmed(0);
if (${stopAtOnce}) stop();
const peak = await fragment(); // ends with two major GCs
await new Promise((r) => setTimeout(r, 1500)); // the trimmer waits a second after a major GC
console.log(JSON.stringify({ released: peak - mb() }));`);
    // Both allocated 62.5 MB of buffers and freed them: with the trimmer on, most of it left the process.
    expect(run(false).released).toBeGreaterThan(40);
    expect(run(true).released).toBeLessThan(20);
  });
});

test('on the embedded database the old generation stays near what is live; on PostgreSQL V8 keeps its own factor', () => {
  const peakHeap = (database: string) =>
    inFreshNode<{ peak: number }>(`
footprint.startFootprintUpkeep('${database}');
const live = [];
for (let i = 0; i < 300_000; i++) live.push({ a: i, s: 'x' + i });
// Each object outlives ~100,000 allocations: long enough to be promoted, then garbage.
const ring = new Array(100_000);
let peak = 0;
for (let i = 0; i < 6_000_000; i++) {
  ring[i % ring.length] = { i, arr: [i, i + 1, i + 2] };
  if (i % 100_000 === 0) {
    peak = Math.max(peak, process.memoryUsage().heapUsed / 1048576);
    await new Promise((r) => setImmediate(r));
  }
}
console.log(JSON.stringify({ peak, live: live.length }));`).peak;
  const embedded = peakHeap('pglite');
  const server = peakHeap('postgres');
  // Measured: 30–35 MB against 138–159 MB.
  expect(embedded).toBeLessThan(server * 0.6);
});

test('where glibc is missing the module says so instead of failing', async () => {
  const { canTrimMallocHeap, trimMallocHeap } = await import('@/server/memory/mallocTrim');
  expect(canTrimMallocHeap()).toBe(glibc);
  if (!glibc) expect(trimMallocHeap()).toBeNull();
});
