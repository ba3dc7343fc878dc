/**
 * Background work that runs inside `npm start` (and `npm run worker`): each job starts a loop and returns a stop
 * function that finishes or releases what it holds. The jobs are the list in server/jobs.ts; their modules export
 * them and start nothing when imported.
 */
import { log } from './log';

export type BackgroundJob = { name: string; start: () => Promise<() => Promise<void>> | (() => Promise<void>) };

/** Starts `jobs` one after the other and returns one stop function for all of them (they stop together). */
export async function startBackgroundJobs(jobs: readonly BackgroundJob[]): Promise<() => Promise<void>> {
  const stops: Array<() => Promise<void>> = [];
  for (const job of jobs) {
    stops.push(await job.start());
    log.info('background job started', { job: job.name });
  }
  return async () => {
    await Promise.all(stops.map((s) => s()));
  };
}
