// Deliveries per second to loopback receivers, across many destinations, through the real engine (claim → format →
// SSRF-guarded send → record), one worker process with its default settings except WORKER_CONCURRENCY=32 (messages in
// flight; destinations held: up to 64). The chat receivers run in their own process (bench/support/chatProcess.ts),
// as Slack's or Discord's servers would: their parsing and checking of every message is not ARB's work and no longer
// shares ARB's event loop.
//   deliver_<db>         40 destinations × 25 reviews, platform pacing off (the engine's own ceiling; the fake Discord
//                        still sends its bucket headers, a 50 ms pause every 5 messages, which the engine honours);
//   deliver_paced_<db>   200 destinations × 3 reviews at each platform's real pace. The welcome intro (sent just
//                        before the clock starts) is the first of a burst, so Slack's and Webex's third review (burst 3,
//                        then 1/s) may only go 1 s after it: this run is bounded by the platforms (~600/s), and
//   deliver_paced_<db>_behind_pace  says how long after the pace allowed the last message it arrived (0 = pace-bound).
// Each run is measured until its queue is empty or for at most 15 s (one request the chat process answers then, so
// the bench's own waiting costs this process nothing measurable). Goal: ≥ 1,200 deliveries/s across destinations
// (1,000 with 20 % to spare), on PostgreSQL and on PGlite.
//   deliver_<db>_cpu / _statements  this process's CPU (on PGlite the database's too) and the engine's statements per
//                        delivery in the measured window: what the machine's load changes least; _ingest_cpu is the
//                        part of _cpu spent storing the reviews and queueing their deliveries (the poll that starts
//                        the window), per delivery;
//   deliver_<db>_ceiling, _ceiling_cpu, _ratio_of_ceiling  the same messages sent right after by a bare HTTP loop (no
//                        database, no formatting, no guard), and the engine's rate as a share of it, from the same run.
// BENCH_TIMELINE=1 also prints when each destination's last message arrived; BENCH_CPU_PROFILE_DIR=dir writes a CPU
// profile of each measured run.
// Figures: quiet machine (load 0.1), receivers in the bench's process: PostgreSQL 829/s, PGlite 783/s. Two runs at
// load 15–17 (receivers in their own process): PostgreSQL 144–251/s, PGlite 94–247/s, paced 140–439/s; the CPU profile
// of the measured window: 2.7 ms of this process's CPU per delivery on PostgreSQL, 4.1 ms on PGlite, a flat profile
// (formatting ~7 %, the HTTP client ~9 %, the database driver ~4 %, GC ~4 %): at that load the process waits for a core. The timeline
// shows the run's shape: 32 destinations send their 25 messages each in ~0.7 s, then the 8 that found no free slot
// send theirs, 8 at a time, for another ~0.5 s (Discord's pauses bound the last) — about a third of the run. Giving a
// held destination back after 250 ms while others wait was tried and dropped: under load the queue read alone can take
// that long, and destinations were given back before sending anything (two workers at concurrency 2 on three
// destinations nearly stopped). No after figure: on the shared machine at load 17–32 the figure swings 40–240/s for
// the previous and the current engine alike. Earlier, before grouping the per-message writes (deliveryMarks.ts):
// ~520–800, ~380–515/s.
// With the load-independent figures (4 runs, load 4–22): the engine's process spends 1.27–1.91 ms of CPU per delivery
// on PostgreSQL and 1.44–2.37 ms on PGlite, of which the poll that stores and fans out the reviews is 0.02–0.22 ms;
// 0.10–0.17 statements per delivery (the grouped marks and reads). The bare HTTP loop to the same receivers costs
// 0.22–0.55 ms per message: ~1 ms per delivery is ARB's own work around the exchange, in a flat profile (formatting,
// undici's request set-up and URL parsing, the per-request timeout signal, streams, GC), none of it above ~5 %.
// At 1,200/s that must fall under ~0.5 ms per delivery, with the receivers and PostgreSQL on the same two cores.
// Before that, each database's first run was the only warm-up, printed as deliver_<db>_cold (_cpu): the first ~1,000 deliveries
// of a process run while V8 still compiles and optimises the engine's code (0.2–0.4 ms more per delivery than the
// next run, same minute), which a worker that has been up for a minute did long ago. And per delivery, less work: a
// payload formatted and serialised once per platform and input, not once per destination (formatting was ~0.1 ms of
// a delivery; the lookup costs a JSON of the input), and one clearable timer per request instead of
// AbortSignal.timeout, whose timer fired 10 s after every delivery and built a DOMException. Figures with these,
// 3 runs alternating with the previous engine's bench (whose one run per database was a first run), load 6–9 on the
// shared machine (Lighthouse, tsc and eslint running): PostgreSQL 0.73–0.96 ms per delivery, 405–862/s (previous
// 1.03–1.45 ms, 270–454/s; this engine's _cold 0.84–1.16 ms); PGlite 0.96–1.42 ms, 329–500/s (previous 1.63–1.80 ms,
// 345–417/s); the bare loop 0.29–0.44 ms per message, 715–2,207/s. At load 2.8–4.7 just after: PostgreSQL 533–801/s at
// 0.64–1.03 ms, PGlite 499–725/s at 0.84–1.23 ms. 1,200/s was not reached: the rate is bound by each message's round
// trips more than by this process's CPU (801/s × 0.64 ms is half a core) — the timeline shows the 32 destinations held
// first taking ~50 ms a message (its committed 'sending' mark, then the POST, on two cores that also run the receivers
// and PostgreSQL) and ending at ~1.3 s, the 8 others at ~1.9 s. Where the rest goes (warm profiles, load 5–7,
// wall-clock samples, so inflated where the process waits for a core): the HTTP client and sockets ~0.5 ms, the
// database driver and Kysely ~0.15 ms (0.12 statements per delivery: the grouped marks and queue reads, ~50 columns a
// row), the format lookup ~0.05 ms, the worker's own code, timers and GC the rest.
// Since (Nov 28, later): the figures follow three more warm-up runs (warmUp below): perf showed compiling at ~40 % of
// the process's CPU in the run after the first, and the engine's CPU per delivery fell run by run to ~0.37 ms, so the
// old figure (the second run's) counted V8 optimising the engine. Warm, at load 3–6: PostgreSQL 0.35–0.44 ms per
// delivery (the bare loop ~0.25–0.3), the rate still bound by the machine's load (464–1,206/s, 0.3–0.79 of the ceiling).
// BENCH_PG_STATEMENTS=1 prints pg_stat_statements' planning and execution time per statement: reading the held
// destinations' queues was planned on every call, 6.1 ms of planning for 4.2 ms of execution, and the marks 0.5 ms
// for 1.4 ms — planning was two fifths of the database's time. The engine's hot statements now go as prepared
// statements (server/db/preparedStatements.ts): the marks were planned 19–24 times in ~485 calls. 3 pairs alternating
// DATABASE_PREPARED_STATEMENTS=false/true, load 3–6: PostgreSQL 1,083 / 912 / 749 vs 893 / 912 / 852 per s, 0.50 / 0.69 /
// 0.42 vs 0.64 / 0.69 / 0.61 of the ceiling; the database's CPU is not in _cpu. Tried and dropped: two groups of marks
// in flight at once on PostgreSQL (grouped.ts): 510 / 605 vs 693 / 980 per s one at a time, alternating at load 4–5 —
// the statements then compete for the same two cores. A trace of the groups at 477/s: 164 statements of 7.6 marks on
// average, p50 5.7 ms, p90 18 ms, one in flight 69 % of the run.
// Then, with both, load 2–2.7, 3 runs: PostgreSQL 901 / 975 / 925 per s at 0.49–0.53 ms per delivery (the bare loop
// 2,076–2,269/s at 0.38–0.41 ms: 0.40–0.47 of it), PGlite 710–891/s at 1.08–1.43 ms.
// Since (Nov 28, night): the receivers' process is started once for the whole bench (it was started afresh for every
// run). A fresh one ran the engine's window while still compiling its own code: its CPU (/proc) was 0.47 ms per message
// there against 0.18–0.27 ms warm, on the same two cores, and the bare loop right after met it warmer. And a claim asks
// whether a destination's queue head is due (deliveryWorker.ts claimDestinations): asked whether any open message was,
// PostgreSQL's plan, made from statistics that lagged the fan-out, joined every destination to every due open delivery
// (auto_explain: 36 ms a claim over 132 destinations when they changed hands often; 0.9 ms now). In alternating runs
// at load 1.7–2.2: 1,279 / 1,370 per s; the previous claim 1,017 / 1,256; the previous bench (receivers per run) 892 /
// 1,126. Where the engine's own CPU goes (/proc, load ~2, per delivery): this process 0.33–0.42 ms, PostgreSQL
// 0.2–0.28, the receivers 0.18–0.27. The timeline still shows the run's shape: the 32 destinations held first end
// together, the 8 others start then, and the Discord ones among them (four 50 ms pauses each) end last. Tried and
// dropped, at load 4–7 while another bench ran, so only "no gain beyond that noise": holds cut to turns of 100–250 ms
// while the last claim left due destinations without a slot (the hand-overs — a claim, a queue read, a release — cost
// what the shorter tail saved; at 100 ms, before the claim's change, each claim took 39 ms), giving the slot back
// instead of waiting out a Discord pause while others wait, two groups of marks in flight, no lingering turns before
// a group. Figures, load 1.7–2.6, 6 runs: PostgreSQL 1,254–1,447/s at 0.33–0.42 ms per delivery, the bare loop
// 3,013–3,631/s (0.37–0.47 of it); PGlite 758–855/s; paced 591–605/s. At load 2.7–3.1, 2 runs: 1,123 / 1,170 per s
// (0.44–0.48 ms per delivery). At load 3–7, another bench running: 579–1,335/s.
// Since (Nov 28, late night): a destination waiting out its pace (here the fake Discord's 50 ms pauses) frees its
// slot meanwhile (engine.ts stepAside), so the 8 destinations without a slot start during the first pauses instead of
// after the first 32 have ended. Per message (instrumented, load ~1.5): its 'sending' mark 5–7 ms from asking to
// commit (the group statement itself p50 1–3 ms), its POST 4–6 ms; the run now ends with the Discord destinations'
// own chains (25 messages and 4 pauses, ~550–650 ms). Alternating, same minutes: 1,158 / 1,555 / 1,659 per s with it,
// 1,308 / 1,253 / 1,309 without. Tried again at load ~2 and dropped, no difference in alternating runs: two groups of
// marks in flight (1,322 / 1,430 / 1,200 vs 1,381 / 1,367 / 1,147), no lingering turns, DELIVERY_HOLD_MS=150; and
// ANALYZE after the warm-up (the marks' plan reads the young deliveries table whole when its statistics lag, ~0.3–1.7
// ms of a statement; analysed, the runs were no faster). Figures, load 1.7–2.3, 8 runs: PostgreSQL 1,145 / 1,147 /
// 1,350 / 1,367 / 1,381 / 1,383 / 1,644 / 1,647 per s (0.39–0.53 of the bare loop, 0.33–0.44 ms per delivery), PGlite
// 791–1,018/s, paced 587–602/s. Then a message's 'sending' mark stopped changing the delivery's status (deliveryMarks.ts:
// the status is in the open-queue indexes' predicate, so each mark wrote four index entries; now PostgreSQL can update
// the row in place). Alternating with the previous mark, load 1.7–3.3: the marks' statements 411–565 vs 673–850 ms of
// database time per run (pg_stat_statements), PostgreSQL 1,218 / 1,292 / 1,525 vs 1,105 / 1,453 / 1,360 per s, PGlite
// 900 / 1,158 / 964 vs 715 / 922 / 685. Figures with it, load 2.2–3.2, 6 runs: PostgreSQL 1,060 / 1,175 / 1,181 /
// 1,337 / 1,365 / 1,473 per s (0.34–0.52 of the bare loop), PGlite 887–1,209/s. The timeline at load ~3: the 32
// destinations held first end together (~530–620 ms, one message per ~21 ms each), the Discord ones 150–400 ms later.
// Since (Nov 28, before midnight): a slot is for formatting and sending (engine.ts, server/monitor/README.md §7). A
// held destination waiting for its 'sending' mark to commit, and then for its pace, gives its slot up and takes one
// back before its POST, so WORKER_CONCURRENCY=32 here means 32 messages in flight and up to 64 destinations held (all
// 40 from the start), and the mark is committed before a pace's short wait instead of after it (the Discord pauses
// hid two commits each). The instrumented start of a run: the poll ~50–70 ms, the claim 5–15 ms, the first queue read
// (32 × 25 rows) 25–70 ms, then the first POSTs; the timeline: the 32 non-Discord destinations end together, the 8
// Discord ones 130–200 ms later (their four 50 ms pauses). Alternating with the previous engine, load 1.6–2: 1,698 /
// 1,683 / 1,163 per s vs 1,183 / 1,411 / 994. Figures, whole bench, load 1.5–3.7, 7 runs: PostgreSQL 1,409 / 1,427 /
// 1,479 / 1,632 / 1,684 / 1,724 / 1,729 per s at 0.28–0.39 ms per delivery (0.42–0.56 of the bare loop); PGlite
// 963–1,373/s; paced 588–606/s, 2–19 ms behind the platforms' pace.
//
// History, as the README's benchmark table recorded it until 2026-12-02 (docs/BENCHMARKS.md keeps the latest
// row; the figures above may repeat part of it):
//   deliveries to loopback webhooks, 40 destinations, receivers in their own process (`bench/deliver.ts`) — goal ≥
//   1,200/s (1,000 + 20 %). PostgreSQL ≥ 1,200/s in 14 of 15 runs at load 1.3–3.7 (1,163–1,933/s, median 1,683); the
//   one under, in a minute when the engine before made 994/s. Nov 28, before midnight, the whole bench, load 1.5–3.7,
//   7 runs: PostgreSQL 1,409 / 1,427 / 1,479 / 1,632 / 1,684 / 1,724 / 1,729 per s at 0.28–0.39 ms of the engine's CPU
//   per delivery, 0.42–0.56 of the bare HTTP loop to the same receivers in the same run; PGlite 963–1,373/s; at the
//   platforms' pace (200 destinations × 3) 588–606/s. And 5 runs of the PostgreSQL part alone at load 1.3–1.6:
//   1,625–1,933/s. What changed: a slot is for formatting and sending — a held destination waiting for its 'sending'
//   mark to commit, then for its pace, gives its slot up and takes one back before its POST
//   (`server/monitor/engine.ts`, §7 of `server/monitor/README.md`), so all 40 destinations start at once instead of 8
//   of them after a whole hold, and the mark is committed before a pace's short wait rather than after it. Alternating
//   with the engine before, same minutes, load 1.6–2: 1,698 / 1,683 / 1,163 vs 1,183 / 1,411 / 994 per s. Before (Nov
//   28, night): ≥ 1,200/s in 9 of 14 runs (1,060–1,647/s). The history, and what each earlier change was worth, is in
//   the bench's header
import { runBench } from './support/runBench';
import { benchEnv, eachAtATime, figure, openBenchDb, printStatementStats, profileWindow, startChatProcess, statementCounter, type BenchDb, type ChatProcess, type RemoteHook } from './support/engineBench';
import { PLATFORM_PACE } from '../server/destinations/pacing';

benchEnv({ WORKER_CONCURRENCY: '32' });
const PLATFORMS = ['slack', 'msteams', 'mattermost', 'discord', 'webex'] as const;
const TIME_BOX_MS = 15_000;
let nextApp = 8_000_001;

/** report: every figure, only the rate and CPU (the process's first run), or nothing (a warm-up run). */
async function run(bench: BenchDb, chat: ChatProcess, destinations: number, perDestination: number, pacing: 'platform' | 'off', name: string, report: 'all' | 'cold' | 'none' = 'all') {
  const { createDestination, ensureApp, pollNow } = await import('../server/monitor/service');
  const { startEngine, engineOptionsFromEnv } = await import('../server/monitor/engine');

  const before = await chat.deliveredCount(); // the receivers' count from earlier runs
  const appId = String(nextApp++);
  const app = await ensureApp({ store: 'apple_app_store', appId, title: 'Bench Deliver' });
  const hooks: RemoteHook[] = [];
  for (let i = 0; i < destinations; i++) {
    const hook = await chat.hook(PLATFORMS[i % PLATFORMS.length]);
    hooks.push(hook);
    await createDestination({ platform: hook.platform, url: hook.url, apps: [{ store: 'apple_app_store', appId }], welcomeCount: 0 });
  }
  const source = await bench.db.selectFrom('monitored_sources').select('id').where('app_key', '=', app.key).executeTakeFirstOrThrow();
  const base = Date.now() + 5_000;
  let round = 0;
  const adapter = {
    kind: 'appstore_feed' as const,
    async poll() {
      // First poll: no reviews (it queues the welcome intros); second: the reviews to deliver.
      if (round++ === 0) return { reviews: [], complete: true };
      return {
        complete: true,
        reviews: Array.from({ length: perDestination }, (_, i) => ({
          store: 'apple_app_store' as const, appId, storeReviewId: `${appId}-${i}`, country: 'us', language: null, authorName: 'Bench',
          title: `Review ${i}`, body: `A review to deliver, number ${i}.`, rating: 4, appVersion: '1.0', createdAt: null,
          updatedAt: new Date(base + i), replyText: null, replyUpdatedAt: null, permalink: null,
        })),
      };
    },
  };
  await pollNow(source.id, { adapterFor: () => adapter });
  const statements = statementCounter();
  const engine = startEngine(bench.db.withPlugin(statements.plugin), engineOptionsFromEnv({ poll: false, pacing }));
  while ((await chat.deliveredCount()) < before + destinations) await new Promise((r) => setTimeout(r, 20)); // the intros, not timed

  const stopProfile = await profileWindow(name);
  const cpuBefore = process.cpuUsage();
  const statementsBefore = statements.count();
  const started = performance.now();
  await pollNow(source.id, { adapterFor: () => adapter });
  const ingestCpu = process.cpuUsage(cpuBefore);
  const target = destinations * (perDestination + 1);
  let sent = (await chat.waitForDelivered(before + target, TIME_BOX_MS)) - before;
  const seconds = (performance.now() - started) / 1000;
  sent -= destinations;
  const cpu = process.cpuUsage(cpuBefore);
  const engineStatements = statements.count() - statementsBefore;
  await stopProfile();
  await engine.stop();
  if (report === 'none') return;
  figure(name, sent / seconds, 'deliveries/s');
  // This process's CPU (the engine's, and on PGlite the database's too) per message delivered in the window: what the
  // machine's load does not change, unlike the rate.
  figure(`${name}_cpu`, (cpu.user + cpu.system) / 1000 / Math.max(1, sent), 'ms/delivery');
  if (report === 'cold') return;
  figure(`${name}_ingest_cpu`, (ingestCpu.user + ingestCpu.system) / 1000 / Math.max(1, sent), 'ms/delivery');
  figure(`${name}_statements`, engineStatements / Math.max(1, sent), 'statements/delivery');
  if (process.env.BENCH_TIMELINE) {
    const arrivals = await chat.delivered();
    const t0 = performance.timeOrigin + started;
    const ends = hooks.map((h) => Math.round(arrivals[h.url].at(-1)! - t0)).sort((a, b) => a - b);
    console.log(`${name} last message per destination (ms):`, ends.join(' '));
  }
  if (pacing === 'off') {
    const bare = await ceiling(hooks, perDestination, Number(process.env.WORKER_CONCURRENCY));
    figure(`${name}_ceiling`, bare.rate, 'deliveries/s');
    figure(`${name}_ceiling_cpu`, bare.cpuMs, 'ms/delivery');
    figure(`${name}_ratio_of_ceiling`, sent / seconds / bare.rate, 'ratio');
  }
  if (pacing === 'platform') {
    const arrivals = await chat.delivered();
    // GCRA after the intro at t: the last of n more messages may go at t + n·interval − (burst − 1)·interval at the
    // earliest. The latest such time over all destinations is when the platforms let the run end.
    const allowed = Math.max(...hooks.map((h) => {
      const { intervalMs, burst } = PLATFORM_PACE[h.platform];
      return arrivals[h.url][0] + (perDestination - burst + 1) * intervalMs;
    }));
    const last = Math.max(...hooks.map((h) => arrivals[h.url].at(-1)!));
    figure(`${name}_behind_pace`, Math.max(0, last - allowed), 'ms');
  }
}

/**
 * The same number of messages POSTed by a bare loop to the same receivers right after the engine's run: undici's
 * request() on a keep-alive Agent, each destination's messages one after another, as many destinations at a time as
 * the engine's concurrency, each platform's body formatted once beforehand. No claims, no database, no per-message
 * formatting, no SSRF guard, no Discord pauses: what the HTTP exchanges alone reach on this machine at this moment,
 * so that the engine's rate can be read against it on a machine whose load keeps changing.
 */
async function ceiling(hooks: RemoteHook[], perDestination: number, concurrency: number): Promise<{ rate: number; cpuMs: number }> {
  const { Agent, request } = await import('undici');
  const { formatReviewFor } = await import('../server/destinations/format');
  const agent = new Agent({ keepAliveTimeout: 10_000 });
  const bodies = new Map<string, string>();
  for (const hook of hooks) {
    if (bodies.has(hook.platform)) continue;
    const review = {
      store: 'apple_app_store' as const, appId: '1', storeReviewId: 'ceiling', country: 'us', language: null, authorName: 'Bench', title: 'Review',
      body: 'A review to deliver, number 1.', rating: 4, appVersion: '1.0', createdAt: null, updatedAt: new Date(), replyText: null, replyUpdatedAt: null, permalink: null,
    };
    const message = formatReviewFor(hook.platform, { kind: 'new', review, app: { store: 'apple_app_store', appId: '1', title: 'Bench Deliver' } });
    if (message.kind !== 'json') throw new Error(`${hook.platform}: not a JSON message`);
    bodies.set(hook.platform, JSON.stringify(message.body));
  }
  let failed = 0;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  await eachAtATime(hooks.length, concurrency, async (h) => {
    for (let i = 0; i < perDestination; i++) {
      const res = await request(hooks[h].url, { method: 'POST', dispatcher: agent, headers: { 'content-type': 'application/json' }, body: bodies.get(hooks[h].platform) });
      await res.body.text();
      if (res.statusCode >= 300) failed++;
    }
  });
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  await agent.close();
  if (failed) throw new Error(`ceiling: ${failed} messages were not accepted`);
  const total = hooks.length * perDestination;
  return { rate: total / seconds, cpuMs: (cpu.user + cpu.system) / 1000 / total };
}

/**
 * A process's first deliveries run while V8 still compiles the engine's code (TurboFan on its helper thread, in this
 * process's CPU): in a perf profile of the run after the first, compiling was ~40 % of the process's CPU, and per run
 * of 1,000 deliveries the CPU per delivery fell 1.07–1.18 → 0.79–0.94 → 0.66–0.68 → 0.42–0.48 → 0.53–0.54 →
 * 0.37 ms. A worker that has been up for a few minutes did that long ago, so the figures are the fifth run's; the
 * first is printed as deliver_<db>_cold.
 */
async function warmUp(bench: BenchDb, chat: ChatProcess) {
  await run(bench, chat, 40, 25, 'off', `deliver_${bench.kind}_cold`, 'cold');
  for (let i = 0; i < 3; i++) await run(bench, chat, 40, 25, 'off', `deliver_${bench.kind}_warm_up`, 'none');
}

async function main() {
  // One receivers' process for the whole bench, warm like the platforms' servers it stands for.
  const chat = await startChatProcess();
  const pg = await openBenchDb('postgres');
  await warmUp(pg, chat);
  await run(pg, chat, 40, 25, 'off', 'deliver_postgres');
  await run(pg, chat, 200, 3, 'platform', 'deliver_paced_postgres');
  await printStatementStats(pg);
  await pg.close();
  const lite = await openBenchDb('pglite');
  await warmUp(lite, chat);
  await run(lite, chat, 40, 25, 'off', 'deliver_pglite');
  await lite.close();
  chat.stop();
}

runBench(main);
