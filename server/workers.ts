/**
 * Starts every registered background job and returns one stop function for all of them.
 * Modules register their jobs on import: list them in ./jobs so the import happens here.
 */
import './jobs';
import { backgroundJobs } from './background';
import { log } from './log';

export async function startWorkers(): Promise<() => Promise<void>> {
  const stops: Array<() => Promise<void>> = [];
  for (const job of backgroundJobs()) {
    stops.push(await job.start());
    log.info('background job started', { job: job.name });
  }
  return async () => {
    await Promise.all(stops.map((s) => s()));
  };
}
