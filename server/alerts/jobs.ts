// The spike check as a periodic job (listed in server/jobs.ts): once per period across every worker process.
import { periodicJob } from '../periodic';
import { checkSpikes } from './check';

/** Every 15 minutes: the window is the last 24 hours, so a surge is seen within a quarter of an hour of crossing. */
export const SPIKE_CHECK_EVERY_MS = 15 * 60_000;

export const spikeAlertsJob = periodicJob({
  name: 'spike-alerts',
  everyMs: SPIKE_CHECK_EVERY_MS,
  run: async () => {
    await checkSpikes();
  },
});
