// CPU milliseconds this process spends per poll of an App Store feed source — fetch (HTTP), parse the JSON page(s),
// compare with what is stored, write the outcome — on PostgreSQL (the database's own CPU is in its own process, and the
// feed fake runs in a child process, so only ARB's work is counted). Two cases:
//   poll_cpu_steady   nothing new since the last poll (the common case: one page, one compare, one update);
//   poll_cpu_new      5 new reviews per poll (stored, fanned out to 2 destinations).
// Goal: ≤ 5 ms per poll.
import { benchEnv, figure, openBenchDb, startFeedProcess } from './support/engineBench';

const APPS = 100;
const FIRST_APP = 7_100_000;

async function main() {
  const feed = await startFeedProcess({ APPS: String(APPS), FIRST_APP: String(FIRST_APP), REVIEWS: '50' });
  benchEnv({ ITUNES_BASE_URL: feed.url, DELIVERY_PACING: 'off' });
  const bench = await openBenchDb('postgres');
  const { ensureApp, addSource, createDestination, pollNow } = await import('../server/monitor/service');
  const ids: number[] = [];
  for (let a = 0; a < APPS; a++) {
    const ref = { store: 'apple_app_store' as const, appId: String(FIRST_APP + a) };
    await ensureApp({ ...ref, title: `App ${a}` });
    ids.push((await addSource({ ...ref, kind: 'appstore_feed', country: 'us' })).id);
  }
  const refs = Array.from({ length: APPS }, (_, a) => ({ store: 'apple_app_store' as const, appId: String(FIRST_APP + a) }));
  await createDestination({ platform: 'slack', url: 'http://127.0.0.1:9/services/T0000/B0000/benchbenchbench', apps: refs, welcomeCount: 0 });
  await createDestination({ platform: 'webex', url: 'http://127.0.0.1:9/v1/webhooks/incoming/benchbench', apps: refs, welcomeCount: 0 });
  for (const id of ids) await pollNow(id); // first polls: store the history (not measured)
  for (const id of ids) await pollNow(id); // warm up the steady path

  const measure = async (before?: (i: number) => Promise<void>) => {
    let cpu = 0;
    for (const [i, id] of ids.entries()) {
      if (before) await before(i);
      const start = process.cpuUsage();
      const outcome = await pollNow(id);
      const used = process.cpuUsage(start);
      if (!outcome?.ok) throw new Error(`poll failed: ${JSON.stringify(outcome)}`);
      cpu += (used.user + used.system) / 1000;
    }
    return cpu / ids.length;
  };
  figure('poll_cpu_steady', await measure(), 'ms/poll');
  const publish = async (i: number) => {
    await fetch(`${feed.url}/__publish?app=${FIRST_APP + i}&n=5`, { method: 'POST' });
  };
  figure('poll_cpu_new', await measure(publish), 'ms/poll');
  feed.stop();
  await bench.close();
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
