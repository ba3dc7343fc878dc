// Review-to-chat latency against the poll interval: 30 apps, each polled every POLL_INTERVAL_SECONDS (5 s, the
// shortest allowed) by the engine running in this process (as `npm start` runs it, embedded database), each with a
// Slack receiver. One review per app is published in the App Store feed fake at a random moment; latency is from
// publication to arrival at the receiver. Expect about half the interval at p50 and about the interval at p99, plus
// the loop's idle tick (≤ 1 s) and the work itself.
import { runBench } from './support/runBench';
import { benchEnv, figure, openBenchDb, percentile } from './support/engineBench';

const APPS = 30;
const INTERVAL_S = 5;
const WINDOW_MS = 20_000;

async function main() {
  benchEnv({ POLL_INTERVAL_SECONDS: String(INTERVAL_S) });
  const bench = await openBenchDb('pglite');
  const { appStoreFeedRoutes, createAppStoreFeed } = await import('../tests/fakes/appStoreFeed');
  const { startFakeServer } = await import('../tests/fakes/http');
  const { startChatWebhooks } = await import('../tests/fakes/chatWebhooks');
  const { setEnvForTests } = await import('../server/env');
  const feed = createAppStoreFeed();
  const stores = await startFakeServer([appStoreFeedRoutes(feed)]);
  setEnvForTests({ ITUNES_BASE_URL: stores.url });
  const chat = await startChatWebhooks();
  const { createDestination, ensureApp } = await import('../server/monitor/service');
  const { startEngine, engineOptionsFromEnv } = await import('../server/monitor/engine');
  type Hook = ReturnType<typeof chat.hook>;

  const engine = startEngine(bench.db, engineOptionsFromEnv());
  const hooks: Hook[] = [];
  try {
    for (let a = 0; a < APPS; a++) {
      const appId = String(7_300_000 + a);
      feed.publish(appId, 'us', { content: 'An older review', updated: new Date(Date.now() - 86_400_000) });
      await ensureApp({ store: 'apple_app_store', appId, title: `Latency ${a}` });
      const hook = chat.hook('slack');
      hooks.push(hook);
      await createDestination({ platform: 'slack', url: hook.url, apps: [{ store: 'apple_app_store', appId }], welcomeCount: 0 });
    }
    // Wait for every welcome: each source has had its first poll and is on its interval now.
    while (hooks.some((h) => h.delivered().length < 1)) await new Promise((r) => setTimeout(r, 50));

    const published: number[] = [];
    const started = Date.now();
    await Promise.all(
      hooks.map(async (hook, a) => {
        await new Promise((r) => setTimeout(r, Math.random() * WINDOW_MS));
        published[a] = Date.now();
        feed.publish(String(7_300_000 + a), 'us', { content: `Fresh review ${a}`, updated: new Date(published[a]) });
      }),
    );
    while (hooks.some((h) => h.delivered().length < 2) && Date.now() - started < WINDOW_MS + 4 * INTERVAL_S * 1000) {
      await new Promise((r) => setTimeout(r, 20));
    }
    const latencies = hooks.flatMap((h, a) => (h.delivered()[1] ? [h.delivered()[1].receivedAt - published[a]] : []));
    if (latencies.length < APPS) throw new Error(`only ${latencies.length} of ${APPS} reviews arrived`);
    figure('latency_poll_interval', INTERVAL_S * 1000, 'ms');
    figure('latency_p50', percentile(latencies, 50), 'ms');
    figure('latency_p99', percentile(latencies, 99), 'ms');
  } finally {
    await engine.stop();
    await chat.close();
    await stores.close();
    await bench.close();
  }
}

runBench(main);
