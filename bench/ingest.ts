// Reviews ingested per second — parse (the App Store feed's real JSON pages) + store + fan-out (3 destinations) — on
// PostgreSQL and on the embedded PGlite. 20 apps × 500 reviews (a full 10-page feed each), each app's result stored
// by the engine's one-transaction ingest, enrichment included (language detection and sentiment of every review:
// the texts are the evaluation set's, tests/fixtures/review-eval.json, in 12 languages). Goal: ≥ 5,000 reviews/s on
// PostgreSQL.
import { runBench } from './support/runBench';
import fs from 'node:fs';
import path from 'node:path';
import { benchEnv, figure, openBenchDb } from './support/engineBench';

benchEnv({ DELIVERY_PACING: 'off' });

const APPS = 20;
const PER_APP = 500;

async function run(kind: 'postgres' | 'pglite') {
  const bench = await openBenchDb(kind);
  const { createAppStoreFeed } = await import('../tests/fakes/appStoreFeed');
  const { parseFeedPage } = await import('../server/sources/appStoreFeed');
  const { createDestination, ensureApp } = await import('../server/monitor/service');
  const { claimSource } = await import('../server/monitor/sources');
  const { ingestPollResult } = await import('../server/monitor/ingest');
  const { engineOptionsFromEnv } = await import('../server/monitor/engine');
  type AppRow = Awaited<ReturnType<typeof ensureApp>>;

  const feed = createAppStoreFeed();
  const texts = (JSON.parse(fs.readFileSync(path.join(__dirname, '../tests/fixtures/review-eval.json'), 'utf8')) as { reviews: Array<{ title: string; body: string; rating: number }> }).reviews;
  const apps: AppRow[] = [];
  for (let a = 0; a < APPS; a++) apps.push(await ensureApp({ store: 'apple_app_store', appId: String(7_000_000 + a), title: `Bench ${a}` }));
  const refs = apps.map((a) => ({ store: 'apple_app_store' as const, appId: a.app_id }));
  for (const platform of ['slack', 'mattermost', 'discord'] as const) {
    const url = {
      slack: 'http://127.0.0.1:9/services/T0000/B0000/benchbenchbench',
      mattermost: 'http://127.0.0.1:9/hooks/abcdefghijklmnopqrstuvwxyz',
      discord: 'http://127.0.0.1:9/api/webhooks/123456789012345678/benchtoken',
    }[platform];
    await createDestination({ platform, url, apps: refs, welcomeCount: 0 });
  }
  // The feed pages as the store sends them (text), published after the sources exist so every review is "new".
  const base = Date.now() + 5_000;
  const pages: string[][] = apps.map((a, i) => {
    for (let r = 0; r < PER_APP; r++) {
      const t = texts[(i * PER_APP + r) % texts.length];
      feed.publish(a.app_id, 'us', { title: t.title, content: `${t.body} (${i}-${r})`, rating: t.rating, updated: new Date(base + r * 1000) });
    }
    return Array.from({ length: PER_APP / 50 }, (_, p) => JSON.stringify(feed.page(a.app_id, 'us', p + 1)));
  });
  const sources = await bench.db.selectFrom('monitored_sources').selectAll().orderBy('id').execute();
  const opts = engineOptionsFromEnv();

  // The language detector's database loads once per process, at start in the server (server/ai/jobs.ts): here too,
  // before the clock starts.
  const { enrichReviews } = await import('../server/ai/enrich');
  await enrichReviews([{ title: null, body: 'Warm-up review text.', rating: 3 }]);

  let reviews = 0;
  let deliveries = 0;
  const started = performance.now();
  for (const [i, app] of apps.entries()) {
    const source = (await claimSource(bench.db, sources.find((s) => s.app_key === app.key)!.id, opts.workerId, opts.leaseMs))!;
    const parsed = pages[i].flatMap((text) => parseFeedPage(JSON.parse(text), app.app_id, 'us').reviews);
    const outcome = await ingestPollResult(bench.db, source, app, { reviews: parsed, complete: true }, { workerId: opts.workerId, intervalSeconds: 300 });
    reviews += outcome!.inserted;
    deliveries += outcome!.deliveries;
  }
  const seconds = (performance.now() - started) / 1000;
  if (reviews !== APPS * PER_APP || deliveries !== reviews * 3) throw new Error(`ingested ${reviews} reviews, ${deliveries} deliveries`);
  figure(`ingest_${kind}`, reviews / seconds, 'reviews/s');
  figure(`ingest_fanout_${kind}`, deliveries / seconds, 'deliveries/s');
  await bench.close();
}

async function main() {
  await run('postgres');
  await run('pglite');
}

runBench(main);
