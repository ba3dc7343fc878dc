// The /dashboard overview at a million reviews: `GET v1/org/overview` through the real route on loopback (keep-alive,
// one request at a time: the server's time plus a loopback round trip) on PostgreSQL, 1,000,000 reviews over 20 apps
// of one organisation (bench/support/millionReviews.ts: one review every 20 s back from now, so ~13,000 per app in
// the 60 days the overview compares), with a month of store rating snapshots per app, an open alert and two
// destinations that need attention. Measured:
//   - overview_p95_postgres: p95 over 60 requests after 10 of warm-up                             goal ≤ 100 ms
//   - overview_first_postgres: the first request of the run, when no app's terms are counted yet (they are counted
//     once per app and kept for a few minutes, server/insights/appTerms.ts; an app not ready within TERMS_WAIT_MS
//     is answered without them, so this is the wait plus the figures)                            no goal
//   - overview_terms_counted_postgres: how long until every app's terms were counted (the answer with
//     terms_pending false), the CPU cost the first visit starts in the background                 no goal
// and, as the reference of the same run, `GET v1/org/members` (the cheapest signed-in call: the session check and one
// small read), with each figure's ratio to it. The plans of the overview's two review reads (EXPLAIN ANALYZE) go to
// the log (tmp/bench-logs/overview.log). OVERVIEW_BENCH_REVIEWS=200000 for a quicker run.
import { runBench } from './support/runBench';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { benchEnv, figure, logPlan } from './support/engineBench';
import { benchAppKey, seedMillionReviews } from './support/millionReviews';
import { migratedPostgres } from './support/migratedPostgres';
import { signedInApi } from './support/signedInApi';

const APPS = 20;
const REVIEWS = Number(process.env.OVERVIEW_BENCH_REVIEWS ?? 1_000_000);
const GOAL_MS = 100;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arb-bench-overview-'));
benchEnv({ DATA_DIR: dataDir, NODE_ENV: 'test' });

const ORG_ID = 'org_benchoverviewABCDEFGHIJKL';
const USER_ID = 'usr_benchoverview';

async function main() {
  const { setDbForTests } = await import('../server/db/client');
  const { sql } = await import('kysely');
  const { handle, close } = await migratedPostgres();
  try {
    const started = performance.now();
    await handle.db.connection().execute(async (conn) => {
      await sql.raw(`set maintenance_work_mem = '256MB'`).execute(conn);
      await seedMillionReviews(conn, { orgId: ORG_ID, userId: USER_ID, apps: APPS, reviews: REVIEWS });
    });
    const db = handle.db;
    // A month of daily store rating snapshots per app (two storefronts), an open alert, a paused and a failing destination.
    await sql`
      insert into store_rating_snapshots (app_key, country, day, rating, ratings_count, histogram)
      select 'apple_app_store__' || (7100000 + a), c, current_date - d, 4.2 + (a % 7) / 10.0 + d / 1000.0, 18000 + a * 100 - d * 10, null
        from generate_series(0, ${APPS - 1}) a, generate_series(0, 30) d, unnest(array['us', 'gb']) c`.execute(db);
    await db.insertInto('spike_episodes').values({ app_key: benchAppKey(3), scope_kind: 'country', scope_value: 'de', since: new Date(Date.now() - 86_400_000), details: '{}' }).execute();
    for (const [n, status, failures] of [[1, 'paused', 0], [2, 'active', 4]] as const) {
      await db
        .insertInto('destinations')
        .values({ id: `dst_benchoverview${n}`, org_id: ORG_ID, platform: 'slack', target_enc: 'x', target_hash: `bench-overview-${n}`, target_hint: 'hooks.slack.com …abcd', filters: '{}', status, consecutive_failures: failures, label: `#bench-${n}` })
        .execute();
    }
    await sql`analyze app_review_days`.execute(db);
    await sql`analyze store_rating_snapshots`.execute(db);
    console.error(`postgres: ${REVIEWS} reviews inserted, indexed and analyzed in ${((performance.now() - started) / 1000).toFixed(1)} s`);

    setDbForTests(handle);
    const api = await signedInApi({ userId: USER_ID, orgId: ORG_ID });
    type Answer = { apps: unknown[]; terms_pending: boolean };
    const once = (p: string) => api.once<Answer>(p);
    const timed = (p: string) => api.p95([p]);

    const first = await once('/api/v1/org/overview');
    if (first.body.data.apps.length !== APPS) throw new Error(`the overview has ${first.body.data.apps.length} apps, not ${APPS}`);
    const countedFrom = performance.now();
    for (let pending = first.body.data.terms_pending; pending; ) {
      await new Promise((r) => setTimeout(r, 200));
      pending = (await once('/api/v1/org/overview')).body.data.terms_pending;
    }
    const counted = performance.now() - countedFrom + first.ms;

    const reference = await timed('/api/v1/org/members');
    const p95 = await timed('/api/v1/org/overview');
    figure('overview_reference_members_p95_postgres', reference, 'ms');
    figure('overview_p95_postgres', p95, 'ms');
    figure('overview_vs_reference_postgres', p95 / reference, 'x');
    figure('overview_first_postgres', first.ms, 'ms');
    figure('overview_first_vs_reference_postgres', first.ms / reference, 'x');
    figure('overview_terms_counted_postgres', counted, 'ms');
    if (p95 > GOAL_MS) console.error(`postgres: the overview's p95 ${p95.toFixed(1)} ms is over its goal of ${GOAL_MS} ms`);

    const { appFiguresQuery, replyTimesQuery } = await import('../server/overview/data');
    const keys = Array.from({ length: APPS }, (_, a) => benchAppKey(a));
    for (const [label, q] of [
      ['app figures (app_review_days)', appFiguresQuery(ORG_ID, new Date())],
      ['reply times (reviews_replied_idx)', replyTimesQuery(keys, new Date())],
    ] as const) {
      await logPlan(db, `postgres: ${label}`, q);
    }
    await api.close();
    setDbForTests(null);
  } finally {
    await close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

runBench(main);
