// CPU milliseconds this process spends per poll of an App Store feed source, as the engine's poll loop does it:
// batched claim, fetch (HTTP), parse the JSON page(s), compare with what is stored, write the outcome. On PostgreSQL:
// the database's own CPU is in its own process, and the feed fake runs in a child process, so only ARB's work counts.
//   poll_cpu_steady   nothing new since the last poll (the common case);
//   poll_cpu_new      5 new reviews per poll, stored and fanned out to 2 destinations;
//   poll_statements_*  the engine's statements per poll in the same rounds, the claims included (a transaction's
//                     begin and commit are not: they bypass Kysely's plugins); each is a round trip whose socket write
//                     and wake-up this process pays.
// Goal: ≤ 4 ms per poll with new reviews (5 ms with 20 % to spare). BENCH_CPU_PROFILE_DIR=dir writes a CPU profile of
// each measured phase. The bench waits for each round on the engine's in-memory poll count (counters.ts), so none of
// its own statements fall in the measured window.
// What a poll sends (tests/worker/pollStatements.test.ts): with new reviews, the app and source locks in one statement,
// the stored reviews with the destinations, then the new reviews with their deliveries and the reschedule (3; 4 before,
// 9 before that); with nothing new, one read to compare and the reschedule (2; 3 before). The app's store and id are read once per process, store polls
// use undici's request() (fetch()'s WHATWG layers were a fifth of the CPU), and the loop claims due sources once a
// quarter of its slots are free instead of once per finished poll.
// Figures: quiet machine (load 0.1), the engine before: 2.96 ms (steady), 5.32 ms (new). This round, 6 pairs run back
// to back with that engine (same bench, load 13–26 on the 2-core machine shared by five people, which inflates CPU time
// per poll for both): steady 2.25–4.83 ms vs 4.34–10.29 (0.47–0.77 ×), new 6.52–10.57 ms vs 7.02–17.21 (0.61–1.04 ×).
// No quiet figure: at those ratios 1.4–2.3 ms and 3.2–5.5 ms are expected quiet. These changes were once withdrawn
// because two worker processes (tests/worker/twoWorkers.test.ts) delivered ~10 × slower with them; measured again at
// load 8–15, the engine before and this one delivered about as much per destination in the first 50 s (1,744/1,314/
// 1,291 and 1,649/1,262/1,226), and both missed the test's 100 s for 10,000: the slowdown was the machine's load (the
// test's workers do not poll at all).
// Since: the insert of a poll's new reviews joined the statement with their deliveries and the reschedule (a round
// trip less; the statement count above), and each store request is bounded by one clearable timer (server/deadline.ts)
// instead of AbortSignal.timeout + AbortSignal.any, whose timer fired 20 s after every request.
// Figures (Nov 28, load 5–9 on the shared machine): new reviews 5.00–5.41 ms in 6 runs, steady 2.49–3.16 ms; the
// engine before these two changes, 3 runs alternating with 3 of these: 5.14–6.33 ms and 2.71–2.98 ms. What is left in
// a poll with news (wall-clock profile, load 7): the database driver, Kysely and their socket writes (5 round trips with
// BEGIN and COMMIT) about half, parsing the feed's JSON page ~0.5 ms, language and sentiment ~0.2–0.3 ms, GC.
import { benchEnv, figure, openBenchDb, profileWindow, startFeedProcess, statementCounter, type BenchDb } from './support/engineBench';

const APPS = 50; // one destination watches at most 50 apps
const FIRST_APP = 7_100_000;
const ROUNDS = 4;

async function main() {
  const feed = await startFeedProcess({ APPS: String(APPS), FIRST_APP: String(FIRST_APP), REVIEWS: '50' });
  benchEnv({ ITUNES_BASE_URL: feed.url, DELIVERY_PACING: 'off', WORKER_CONCURRENCY: '8' });
  const bench = await openBenchDb('postgres');
  try {
    await measureAll(feed.url, bench);
  } finally {
    feed.stop();
    await bench.close();
  }
}

async function measureAll(feedUrl: string, bench: BenchDb) {
  const { sql } = await import('kysely');
  const { ensureApp, addSource, createDestination, pollNow } = await import('../server/monitor/service');
  const { startEngine, engineOptionsFromEnv } = await import('../server/monitor/engine');
  const { counters } = await import('../server/monitor/counters');
  const refs = Array.from({ length: APPS }, (_, a) => ({ store: 'apple_app_store' as const, appId: String(FIRST_APP + a) }));
  const ids: number[] = [];
  for (const ref of refs) {
    await ensureApp({ ...ref, title: `App ${ref.appId}` });
    ids.push((await addSource({ ...ref, kind: 'appstore_feed', country: 'us' })).id);
  }
  await createDestination({ platform: 'slack', url: 'http://127.0.0.1:9/services/T0000/B0000/benchbenchbench', apps: refs, welcomeCount: 0 });
  await createDestination({ platform: 'webex', url: 'http://127.0.0.1:9/v1/webhooks/incoming/benchbench', apps: refs, welcomeCount: 0 });
  for (const id of ids) await pollNow(id); // first polls store the history (not measured)

  const statements = statementCounter();
  const engine = startEngine(bench.db.withPlugin(statements.plugin), engineOptionsFromEnv({ deliver: false, idleMs: 50, intervalSeconds: 3600 }));
  /** Statements the engine sent in the measured rounds (the claims included). */
  let sent = 0;
  /** Makes every source due, waits until the loop has polled each once, returns CPU ms per poll. */
  const round = async (before?: () => Promise<void>) => {
    if (before) await before();
    const polledBefore = counters().polled;
    const statementsBefore = statements.count();
    const start = process.cpuUsage();
    await sql`update monitored_sources set next_poll_at = now()`.execute(bench.db);
    // Waits on the engine's own in-memory count of polls: asking the database every few ms would add this bench's
    // statements to the CPU measured per poll.
    while (counters().polled < polledBefore + ids.length) await new Promise((resolve) => setTimeout(resolve, 5));
    const used = process.cpuUsage(start);
    sent += statements.count() - statementsBefore;
    return (used.user + used.system) / 1000 / ids.length;
  };
  await round(); // warm-up
  let stopProfile = await profileWindow('poll_cpu_steady');
  sent = 0;
  let steady = 0;
  for (let i = 0; i < ROUNDS; i++) steady += await round();
  await stopProfile();
  figure('poll_cpu_steady', steady / ROUNDS, 'ms/poll');
  figure('poll_statements_steady', sent / ROUNDS / ids.length, 'statements/poll');
  const publish = async () => {
    await Promise.all(refs.map((ref) => fetch(`${feedUrl}/__publish?app=${ref.appId}&n=5`, { method: 'POST' })));
  };
  // Its own warm-up, as the steady phase has: the first round with news runs the insert and fan-out code for the first
  // time (compiling it), which a running engine did long ago.
  await round(publish);
  stopProfile = await profileWindow('poll_cpu_new');
  sent = 0;
  let fresh = 0;
  for (let i = 0; i < ROUNDS; i++) fresh += await round(publish);
  await stopProfile();
  figure('poll_cpu_new', fresh / ROUNDS, 'ms/poll');
  figure('poll_statements_new', sent / ROUNDS / ids.length, 'statements/poll');
  await engine.stop();
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
