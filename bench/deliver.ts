// Deliveries per second to loopback receivers, across many destinations, through the real engine (claim → format →
// SSRF-guarded send → record), one worker process:
//   deliver_<db>         40 destinations × 25 reviews, platform pacing off (the engine's own ceiling);
//   deliver_paced_<db>   200 destinations × 3 reviews at each platform's real pace (3 fits every platform's burst).
// Each run is measured until its queue is empty or for at most 15 s. Goal: ≥ 1,000 deliveries/s across destinations.
import { benchEnv, figure, openBenchDb, type BenchDb } from './support/engineBench';

benchEnv({ WORKER_CONCURRENCY: '32' });
const PLATFORMS = ['slack', 'msteams', 'mattermost', 'discord', 'webex'] as const;
const TIME_BOX_MS = 15_000;
let nextApp = 8_000_001;

async function run(bench: BenchDb, destinations: number, perDestination: number, pacing: 'platform' | 'off', name: string) {
  const { startChatWebhooks } = await import('../tests/fakes/chatWebhooks');
  const { createDestination, ensureApp, pollNow } = await import('../server/monitor/service');
  const { startEngine, engineOptionsFromEnv } = await import('../server/monitor/engine');
  type Hook = ReturnType<Awaited<ReturnType<typeof startChatWebhooks>>['hook']>;

  const chat = await startChatWebhooks();
  const appId = String(nextApp++);
  const app = await ensureApp({ store: 'apple_app_store', appId, title: 'Bench Deliver' });
  const hooks: Hook[] = [];
  for (let i = 0; i < destinations; i++) {
    const hook = chat.hook(PLATFORMS[i % PLATFORMS.length]);
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
  const engine = startEngine(bench.db, engineOptionsFromEnv({ poll: false, pacing, idleMs: 50 }));
  const deliveredCount = () => hooks.reduce((s, h) => s + h.delivered().length, 0);
  while (deliveredCount() < destinations) await new Promise((r) => setTimeout(r, 20)); // the intros, not timed

  const started = performance.now();
  await pollNow(source.id, { adapterFor: () => adapter });
  const target = destinations * (perDestination + 1);
  while (deliveredCount() < target && performance.now() - started < TIME_BOX_MS) await new Promise((r) => setTimeout(r, 20));
  const sent = deliveredCount() - destinations;
  const seconds = (performance.now() - started) / 1000;
  await engine.stop();
  figure(name, sent / seconds, 'deliveries/s');
  await chat.close();
}

async function main() {
  const pg = await openBenchDb('postgres');
  await run(pg, 40, 25, 'off', 'deliver_postgres');
  await run(pg, 200, 3, 'platform', 'deliver_paced_postgres');
  await pg.close();
  const lite = await openBenchDb('pglite');
  await run(lite, 40, 25, 'off', 'deliver_pglite');
  await lite.close();
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
