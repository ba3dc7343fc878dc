// What one delivery claim costs (deliveryWorker.ts claimDestinations) as the number of active destinations grows while
// few have anything queued — the usual state of a deployment: every worker process claims at least once a second,
// idle or not. 40 destinations have a message waiting (not yet due, so every claim finds nothing and leases nothing);
//   claims_<db>_40_destinations          ms per claim with those 40 alone (the reference);
//   claims_<db>_10k_idle_destinations    ms per claim once 10,000 more active destinations with empty queues exist;
//   claims_<db>_10k_ratio                the second over the first, from the same run: what the idle ones add.
// The 10,000 are copies of one destination's row (statistics then analysed, as autovacuum would have done long before
// a deployment grows that large). Each figure is the mean of 3 rounds of 50 claims after 20 unmeasured ones.
// Figures (Nov 28, night, load 2–4, 3 runs): PostgreSQL 0.52–0.83 ms with the 40 alone, 0.71–0.84 ms with the
// 10,000 more (1.02–1.37 ×); PGlite 1.85–2.73 / 1.54–1.98 ms. The previous claim, which tested every active destination for
// a due queue head: PostgreSQL 0.94 → 73 ms (78 ×), PGlite 1.83 → 126 ms (68 ×), on PGlite on the server's event loop.
// The claim now walks the open-queue index from one destination with something queued to the next.
//
// History, as the README's benchmark table recorded it until 2026-12-02 (docs/BENCHMARKS.md keeps the latest
// row; the figures above may repeat part of it):
//   one delivery claim as active destinations grow, 40 of them with a queue (`bench/claims.ts`) — goal ≤ 2 × the
//   40-destination claim. Nov 28, night, 3 runs: PostgreSQL 0.52–0.83 ms with the 40 alone, 0.71–0.84 ms with 10,000
//   more idle ones (1.02–1.37 ×); PGlite 1.85–2.73 / 1.54–1.98 ms. The claim walks the open-queue index from one
//   destination with something queued to the next; the previous one tested every active destination: 0.94 → 73 ms (78
//   ×) on PostgreSQL, 1.83 → 126 ms (68 ×) on PGlite, at least once a second per worker process, idle or not (on
//   PGlite, on the server's event loop)
import { runBench } from './support/runBench';
import { sql } from 'kysely';
import { benchEnv, figure, openBenchDb, startChatProcess, type BenchDb, type ChatProcess } from './support/engineBench';

benchEnv();
const QUEUED = 40;
const IDLE = 10_000;

async function msPerClaim(bench: BenchDb): Promise<number> {
  const { claimDestinations } = await import('../server/monitor/deliveryWorker');
  const claim = async () => {
    const got = await claimDestinations(bench.db, 'bench-claims', 32, 60_000);
    if (got.length) throw new Error(`claimed ${got.length} destinations: nothing should be due`);
  };
  for (let i = 0; i < 20; i++) await claim();
  const rounds: number[] = [];
  for (let r = 0; r < 3; r++) {
    const started = performance.now();
    for (let i = 0; i < 50; i++) await claim();
    rounds.push((performance.now() - started) / 50);
  }
  return rounds.reduce((a, b) => a + b, 0) / rounds.length;
}

async function run(kind: 'postgres' | 'pglite', chat: ChatProcess) {
  const bench = await openBenchDb(kind);
  const { createDestination, ensureApp, pollNow } = await import('../server/monitor/service');
  const appId = '8100001';
  const app = await ensureApp({ store: 'apple_app_store', appId, title: 'Bench Claims' });
  const ids: string[] = [];
  for (let i = 0; i < QUEUED; i++) {
    const hook = await chat.hook('mattermost');
    ids.push((await createDestination({ platform: 'mattermost', url: hook.url, apps: [{ store: 'apple_app_store', appId }], welcomeCount: 0 })).id);
  }
  // The first poll queues each destination's welcome intro; an hour's wait keeps it queued and not due.
  const source = await bench.db.selectFrom('monitored_sources').select('id').where('app_key', '=', app.key).executeTakeFirstOrThrow();
  await pollNow(source.id, { adapterFor: () => ({ kind: 'appstore_feed' as const, poll: async () => ({ reviews: [], complete: true }) }) });
  await sql`update deliveries set next_attempt_at = now() + interval '1 hour'`.execute(bench.db);
  await sql`analyze`.execute(bench.db);
  const few = await msPerClaim(bench);

  const columns = (await sql<{ column_name: string }>`
    select column_name from information_schema.columns where table_name = 'destinations' order by ordinal_position`.execute(bench.db)).rows.map((r) => r.column_name);
  const copied = columns.map((c) => (c === 'id' ? `'bench-idle-' || g` : c === 'target_hash' ? `md5(g::text)` : c));
  await sql`insert into destinations (${sql.raw(columns.join(', '))})
    select ${sql.raw(copied.join(', '))} from destinations, generate_series(1, ${IDLE}) g where id = ${ids[0]}`.execute(bench.db);
  await sql`analyze`.execute(bench.db);
  const active = (await sql<{ n: number }>`select count(*)::int as n from destinations where status = 'active'`.execute(bench.db)).rows[0].n;
  if (active !== QUEUED + IDLE) throw new Error(`${active} active destinations, expected ${QUEUED + IDLE}`);
  const many = await msPerClaim(bench);

  figure(`claims_${kind}_40_destinations`, few, 'ms');
  figure(`claims_${kind}_10k_idle_destinations`, many, 'ms');
  figure(`claims_${kind}_10k_ratio`, many / few, 'ratio');
  await bench.close();
}

async function main() {
  const chat = await startChatProcess();
  await run('postgres', chat);
  await run('pglite', chat);
  chat.stop();
}

runBench(main);
