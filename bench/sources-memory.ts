// Resident memory of a process running the review engine with 10,000 monitored sources, all due at once, polled against
// the App Store feed fake (in a child process) for 15 s, on the embedded database (the default `npm start`: PGlite's
// memory is inside this process) and on PostgreSQL (the database in its own process), each in a fresh process. The
// engine claims sources in small batches, so memory does not grow with the number of sources:
// rss_engine_growth_* is what the polling adds to the process once its database is open. Goal: ≤ 240 MB RSS (300 MB
// with 20 % to spare).
// Where PGlite's figure goes (process.memoryUsage() and /proc/self/smaps at each step, node as `npm start` runs it):
//   node + tsx, nothing loaded                                     75–88 MB
//   importing PGlite (its JS; 10 MB of wasm, 6 MB of data files)  +37–54 MB
//   opening the database and migrating: the touched part of its 128 MB WebAssembly memory (~47 MB: shared_buffers,
//   catalogs, its data files), the compiled database code, and the compilers' malloc arenas — several 20–40 MB arenas
//   when four V8 helper threads compiled the wasm in parallel                      → 245–340 MB
//   the app's modules, 10,000 sources, polling                     +10–40 MB (the JS heap)
// Taken: --v8-pool-size=1 (scripts/server-node-args.cjs): one helper thread, one arena: 318 → 301 MB in this bench,
// 333 → 293 MB peak step by step, same minute. Tried: MALLOC_ARENA_MAX=1/2 (within noise once the pool is one
// thread); --max-semi-space-size=2 (−25 MB, but a smaller young generation costs the API's request rate; not taken);
// --liftoff-only (the database's wasm never optimized: 235 MB, slower queries; not taken); shared_buffers 16 or 8 MB
// (nothing beyond the noise); initialMemory below the module's 128 MB (refused). MALLOC_MMAP_THRESHOLD_=32768 (glibc,
// set when the server starts: blocks ≥ 32 KB mapped apart and unmapped when freed, so the wasm compilers' freed zones
// leave the arenas): opened and migrated 266 → 179 MB (64 KB: 192 MB), and with 10,000 sources the growth once open
// 167–231 → 46–107 MB (load 15–27); but CPU per poll with news 5.2–5.3 → 12.3–13.0 ms (64 KB: 8.2 ms), steady
// 2.4–3.7 → 3.9–4.3 ms, pairs back to back: every large Buffer and V8 compile zone became an mmap + page faults. Not
// taken. --wasm-tiering-budget=18000000 (fewer functions optimized): 267 → 249 MB opened, within the noise; not taken. So ≤ 240 MB is out of reach with the
// embedded database inside the process, its code optimized. A child process for it only moves the memory: the
// server's RSS would be rss_10000_sources_postgres, and the child another ~210–250 MB.
// What the polling added, found with V8's sampling heap profiler (live objects by allocation site after a forced GC),
// process.memoryUsage() each second and /proc/self/smaps: not a leak and not per-poll data. The first poll that stores
// reviews loads the language detector (server/ai/enrich), and importing eld's n-gram database — a 2 MB object literal
// — cost +164–171 MB RSS in a bare node: 58 MB of live objects, the rest V8's compiler memory, left in the malloc heap
// ([heap] in smaps +90 MB) and never given back. That is the rise from 310–331 to 432–547 MB when enrichment came in.
// Read as JSON instead (eldData.ts), with equal score sets shared: +56–63 MB, 20 MB live. The rest of the growth is
// collectable garbage: the JS heap's used size climbs from ~47 to ~160 MB while polling and falls to ~60 MB at a forced
// GC (before: 105 MB, of which eld 48 MB); over 40 s and 2,568 polls it reached 223 MB used and again ~108 MB after
// the GC, so the figure grows with the polls a machine manages in 15 s, as V8 sizes the old generation from what
// survived. --heap-growing-percent=20 (a major GC sooner) changed nothing measurable in 2 pairs; not taken.
// Figures (this bench): quiet, before --v8-pool-size=1: PGlite 342–394 MB (growth 41–73), PostgreSQL 182–195 MB.
// At load 15–23 (only 166–192 polls in the 15 s, so less growth): PGlite 290–301 MB, PostgreSQL 164 MB.
// Nov 28, load 5–7, 4 runs: PGlite 389–456 MB (growth 119–163), PostgreSQL 260–269 MB (growth 111–122); the engine
// before the JSON database, 2 runs alternating (load 6–11): 470–493 MB (209–217), 249–260 MB (105–112). On PostgreSQL
// the full bench's figure did not move, although the PostgreSQL half run alone (BENCH_ONLY=postgres, same flags, load
// 3–7) gave 191 and 197 MB (growth 44–46): its peak is garbage, and where V8's next major GC falls decides it.
// Since (Nov 28, late): the process does what the server does once its database is open (openBenchDb →
// server/memory/footprint.ts). That garbage was the target: on PGlite V8 now collects the old generation at 20 %
// growth (--heap-growing-percent, set at run time on the embedded database only) instead of its own factor, which let
// the heap climb from ~60 to ~160 MB between major GCs here (--trace-gc: one major GC in 14 s, 0.3 MB promoted per
// scavenge; with 20 %, one every ~2.2 s and the heap at 61–78 MB); and glibc's free C-heap pages are given back after
// opening and after major GCs (malloc_trim: opened and migrated 256 → 191 MB in one step, the wasm compiler's arena
// 27 → 3 MB resident). 3 alternating runs each, same minutes (load 1.5–2): 394–437 MB as before, 338–346 MB with the
// GC setting, 319–321 with the trims too; 50 % growth instead of 20: 331–336. Tried: --optimize-for-size (292–297 MB
// but CPU per poll with news 3.2–3.8 → 4.8–6.3 ms, and the floor's with it: V8 optimises less);
// --no-allocation-site-pretenuring (no change). On PostgreSQL the GC setting is not used: it cost the API's cached
// answers 5–15 % of their rate. Figures: PGlite 330–342 MB in 5 runs (load 1–2.4), growth 38–68 MB; PostgreSQL 272 MB
// (2 runs). Then node's flags: --require tsx/cjs instead of --import tsx (scripts/server-node-args.cjs), whose ES-module
// hooks ran on a loader thread with its own V8 isolate: 2 alternating pairs, 336–338 → 284–286 MB. Figures: PGlite
// 284–292 MB in 4 runs (load 1–2.7), growth 38–56 MB; PostgreSQL 245–246 MB. Still over 240: ~165 MB is the process
// with its database open, migrated and trimmed, before the sources, the language detector and polling. Then PGlite's
// shared_buffers 32 → 16 MB (server/db/client.ts): 285–294 → 265–267 MB, 2 runs each. Figures: PGlite 265–269 MB in 4
// runs (load 1.5–2.7), growth 48–57 MB; PostgreSQL 245–247 MB. Then the language detector's database from a compact
// JSON file made once by a child process (server/ai/enrich/eldData.ts): its load +81 → +33 MB in a bare node, and here
// PGlite 248–263 MB in 5 runs (load 1–3, growth 31–50 MB), PostgreSQL 171–174 MB in 3. Creating the 10,000 sources in
// statements of 1,000 instead of one changed nothing (2 pairs): the process is at 200–235 MB before they are made.
// Then three changes, found with /proc/self/smaps, V8's heap spaces and glibc's malloc_stats at each step of this run:
//  - glibc kept the free top of V8's helper-thread arena resident: 41–48 MB of arena with 3.4 MB in use, 20–29 MB
//    resident after every malloc_trim, which releases free pages inside the arenas but shrinks only the main heap's
//    top; and glibc had stopped trimming tops on free() itself, having raised its trim threshold (up to 64 MB) when a
//    large block was freed. The thresholds are now fixed once the database is open (server/memory/mallocTrim.ts:
//    trim at 4 MB, mmap at glibc's own 32 MB maximum): the run ends 17–19 MB lower (1 MB: the same; 16 MB: nothing).
//    CPU per poll on PostgreSQL (bench/poll-cpu.ts), 4 alternating pairs at load 3–5, the trim threshold alone: with
//    news 2.67–3.63 vs 2.84–3.77 ms, steady 1.54–2.33 vs 1.59–2.57 ms; all three changes against the code before, 3
//    pairs at load 5–7.5: 3.31–3.67 vs 3.22–3.97 ms and 2.07–2.29 vs 2.24–2.62 ms. Ingest (bench/ingest.ts), 3 pairs
//    at load 3.6–5.5: PGlite 1,484 / 1,520 / 2,805 vs 1,311 / 1,543 / 1,784 reviews/s, PostgreSQL 1,830 / 1,673 / 2,025
//    vs 1,515 / 1,468 / 1,619.
//  - nlp.js's 13 language packages were all loaded with the engine (~9 MB resident, 5 MB live, in a bare node); each
//    is now loaded at the first review in its language (server/ai/enrich/sentiment.ts; 5–25 ms once; this run's
//    reviews are English, so it holds one). Results unchanged (75 texts × ratings in 14 languages compared with the
//    former module). nodemailer (~1 MB) is loaded at the first e-mail (server/mail/send.ts).
//  - PGlite's shared_buffers 16 → 12 MB (server/db/client.ts): the whole pool is touched when the database starts,
//    and its touched WebAssembly memory went 31.8 → 25.8 MB (8 MB: 21.8; work_mem, maintenance_work_mem and
//    temp_buffers lowered: no change, 31.8). The inbox over 200,000 reviews on PGlite showed no difference (2 pairs).
// Figures, 6 alternating pairs of the whole bench, same minutes (Nov 28, 19:46–20:05, load 1.4–5.9): PGlite 243–252 →
// 222–228 MB (growth 21–36 MB; polls in the 15 s alike), PostgreSQL 165–180 → 147–175 MB. Tried and dropped: source maps off for the packages'
// own maps (PGlite's are 1.3 M characters, parsed and kept by node because tsx turns source maps on) or for everything:
// −4 to −12 MB in 2–3 pairs, within the run-to-run spread, and stack traces would lose the TypeScript lines.
// Left as they are: the eld database (12 MB live, 6 MB of it one dictionary of 105,548 n-grams, the format the
// package's detector reads), a 9.4 MB block the size of pglite.wasm (the module's bytes, which V8 keeps to compile its
// functions lazily), node's own mapped binary (~53 MB of file pages), and the JS heap's headroom (new space 16 MB + 20 %
// over what survives a major GC).
//
// History, as the README's benchmark table recorded it until 2026-12-02 (docs/BENCHMARKS.md keeps the latest
// row; the figures above may repeat part of it):
//   RSS with 10,000 monitored sources (`bench/sources-memory.ts`) — goal ≤ 240 MB (300 − 20 %). PGlite 222–232 MB:
//   under 240; PostgreSQL 147–175 MB. Nov 29, just after midnight, load 3.6, 2 runs: PGlite 232 / 222 MB, PostgreSQL
//   157 / 156 MB. Nov 28 (19:46–20:05), load 1.4–5.9, 6 runs each (and 223 / 231 MB, PostgreSQL 165 / 147 MB, in 2
//   runs at load 3–4 after the merge), alternating with the code before in the same minutes (PGlite 243–252 MB,
//   PostgreSQL 165–180 MB); polling added 21–36 MB on PGlite. Three changes: glibc's trim and mmap thresholds are
//   fixed once the database is open (`server/memory/mallocTrim.ts`): `malloc_trim` never shrinks the top of the arenas
//   other than the main one, and glibc had stopped doing it on `free()` after raising its own threshold, so V8's
//   helper-thread arena kept 20–29 MB of free memory resident (3.4 MB in use), now 17–19 MB less at the end of the
//   run, CPU per poll and ingest rate unchanged; nlp.js's 13 language packages are loaded at the first review in each
//   language, not all with the engine (~9 MB; this bench's reviews are English: a server whose reviews come in every
//   language holds them all), and nodemailer at the first e-mail; PGlite keeps 12 MB of shared buffers (was 16: its
//   touched WebAssembly memory 31.8 → 25.8 MB; the inbox over 200,000 reviews unchanged). Before, Nov 28 (late), load
//   1–3: PGlite 248–263 MB in 5 runs (31–50 MB added by polling), PostgreSQL 171–174 MB in 3. The language detector's
//   database is now loaded from a compact JSON file made once per eld version by a child process (`DATA_DIR/cache`,
//   `server/ai/enrich/eldData.ts`): its load was +81 MB of transient garbage, now +33 MB (PGlite 265–269 → 248–263,
//   PostgreSQL 245–247 → 171–174 MB). Before that, 4 runs: PGlite 265–269 MB, PostgreSQL 245–247 MB. PGlite's shared
//   buffers 32 → 16 MB: 285–294 → 265–267 MB, 2 runs each; ingest into a PGlite directory unchanged. The server now
//   runs its TypeScript through tsx's CommonJS hook only (`--require tsx/cjs`, `scripts/server-node-args.cjs`):
//   `--import tsx` also ran tsx's ES-module hooks on a loader thread with a V8 isolate of its own, 50 MB for nothing
//   (2 alternating pairs: 336–338 → 284–286 MB; the server idle after start 380 → 321 MB). Before that, the same
//   evening, 5 runs: PGlite 330–342 MB, PostgreSQL 272 MB, with: on the embedded database V8 collects its old
//   generation at 20 % growth instead of ~2–2.5× (polling promotes short-lived data steadily: the old generation
//   climbed from ~60 to ~160 MB of garbage between major GCs), and glibc's free C-heap pages are given back after
//   opening and after major GCs (`server/memory/`). Alternating runs, same minutes: 394–437 MB without either, 338–346
//   MB with the GC setting, 319–321 MB with both. Before (Nov 28, load 5–7): PGlite 389–456 MB, PostgreSQL 260–269 MB.
//   What is left on PGlite at the peak (`/proc/self/smaps`): node's own mapped binary ~53 MB, PGlite's touched
//   WebAssembly memory ~26 MB and a 9.4 MB copy of its wasm module, the JavaScript heap ~85–90 MB committed (55–70 MB
//   in use, the language detector's data 12 MB of it; the rest the young generation's 16 MB and 20 % of headroom), the
//   C heap ~20–30 MB
import { runBench } from './support/runBench';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { benchEnv, figure, loadModule, openBenchDb, rerunWithServerFlags, startFeedProcess } from './support/engineBench';

const SOURCES = 10_000;
const FIRST_APP = 7_200_000;
const RUN_MS = 15_000;

async function run(kind: 'pglite' | 'postgres') {
  // PGlite in a data directory, as `npm start` runs it (an in-memory PGlite also keeps its files in this process).
  const dir = kind === 'pglite' ? fs.mkdtempSync(path.join(os.tmpdir(), 'arb-bench-mem-')) : undefined;
  const bench = await openBenchDb(kind, dir && path.join(dir, 'pglite'));
  const { sql } = await import('kysely');
  const { startEngine, engineOptionsFromEnv } = loadModule<typeof import('../server/monitor/engine')>(__filename, '../server/monitor/engine');
  try {
    // Bulk-create the apps and their sources (the service's one-by-one path would dominate the run).
    const ids = Array.from({ length: SOURCES }, (_, i) => String(FIRST_APP + i));
    await sql`insert into apps (key, store, app_id, title)
              select 'apple_app_store__' || id, 'apple_app_store', id, 'App ' || id from unnest(${ids}::text[]) as id`.execute(bench.db);
    await sql`insert into monitored_sources (app_key, kind, country)
              select 'apple_app_store__' || id, 'appstore_feed', 'us' from unnest(${ids}::text[]) as id`.execute(bench.db);
    const afterSetup = process.memoryUsage().rss;
    let peak = afterSetup;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 100);
    const engine = startEngine(bench.db, engineOptionsFromEnv({ deliver: false, idleMs: 100, intervalSeconds: 3600 }));
    await new Promise((r) => setTimeout(r, RUN_MS));
    await engine.stop();
    clearInterval(sampler);
    const polled = await sql<{ n: number }>`select count(*)::int as n from monitored_sources where last_success_at is not null`.execute(bench.db);
    figure(`rss_10000_sources_${kind}`, peak / 1024 / 1024, 'MB');
    // What polling 10,000 sources adds on top of the process with its database open and the sources created.
    figure(`rss_engine_growth_${kind}`, (peak - afterSetup) / 1024 / 1024, 'MB');
    figure(`polls_in_15s_${kind}`, polled.rows[0].n, 'polls');
  } finally {
    await bench.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  const only = process.env.BENCH_ONLY as 'pglite' | 'postgres' | undefined;
  if (!only) {
    // Each database in its own process, so one's memory does not count against the other; node runs it as `npm start`
    // runs the server.
    for (const kind of ['pglite', 'postgres']) rerunWithServerFlags(__filename, { BENCH_ONLY: kind });
    return;
  }
  const feed = await startFeedProcess({ APPS: String(SOURCES), FIRST_APP: String(FIRST_APP), REVIEWS: '3' });
  benchEnv({ ITUNES_BASE_URL: feed.url, WORKER_CONCURRENCY: '16' });
  try {
    await run(only);
  } finally {
    feed.stop();
  }
}

runBench(main);
