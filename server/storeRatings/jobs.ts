// The daily snapshot of the stores' ratings as a periodic job (listed in server/jobs.ts): hourly, once per hour across
// every worker process; each run fetches only what the UTC day still lacks (./snapshot.ts). A run first waits a
// random 30 s–2 min (at most half the period), so processes that start together, or a fleet restarted at once, do
// not all ask the stores in the same second, and a process stopped soon after starting asks nothing. Stopping the
// process ends a run at its next request (what it saved stays; the next run does the rest).
import { setTimeout as sleep } from 'node:timers/promises';
import type { BackgroundJob } from '../background';
import { env } from '../env';
import { periodicJob } from '../periodic';
import { snapshotStoreRatings } from './snapshot';

export const STORE_RATINGS_EVERY_MS = 60 * 60_000;

/** The wait before a run's first request: a random 30 s–2 min, at most half the period. */
export function startDelayMs(everyMs: number, random = Math.random()): number {
  return Math.round(Math.min(everyMs / 2, 30_000 + random * 90_000));
}

export const storeRatingsJob: BackgroundJob = {
  name: 'store-ratings',
  start: () => {
    const stopping = new AbortController();
    const stop = periodicJob({
      name: 'store-ratings',
      everyMs: STORE_RATINGS_EVERY_MS,
      run: async () => {
        const everyMs = env().PERIODIC_JOB_INTERVAL_MS ?? STORE_RATINGS_EVERY_MS;
        const waited = await sleep(startDelayMs(everyMs), true, { signal: stopping.signal }).catch(() => false);
        if (waited) await snapshotStoreRatings({ signal: stopping.signal });
      },
    }).start();
    return async () => {
      stopping.abort();
      await (await stop)();
    };
  },
};
