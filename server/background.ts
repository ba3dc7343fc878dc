/**
 * Background work that runs inside `npm start` (and `npm run worker`): each entry starts a loop and returns a stop
 * function that finishes or releases what it holds. Registered by the modules that own the work.
 */
export type BackgroundJob = { name: string; start: () => Promise<() => Promise<void>> | (() => Promise<void>) };

const jobs: BackgroundJob[] = [];

export function registerBackgroundJob(job: BackgroundJob): void {
  if (!jobs.some((j) => j.name === job.name)) jobs.push(job);
}

export function backgroundJobs(): readonly BackgroundJob[] {
  return jobs;
}
