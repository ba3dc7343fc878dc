// The weekly summaries as a periodic job (listed in server/jobs.ts): once per period across every worker process.
import { periodicJob } from '../periodic';
import { runWeeklySummaries } from './weekly';

/**
 * Every hour: the first run after Monday 00:00 UTC summarises the week that ended and queues it; the later runs of the
 * week find it stored and only queue it to recipients who opted in since (none twice). A server stopped on Monday
 * catches up at its next run.
 */
export const WEEKLY_SUMMARY_CHECK_EVERY_MS = 60 * 60_000;

export const weeklySummariesJob = periodicJob({
  name: 'weekly-summaries',
  everyMs: WEEKLY_SUMMARY_CHECK_EVERY_MS,
  run: async () => {
    await runWeeklySummaries();
  },
});
