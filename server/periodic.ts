/**
 * A background job that runs `run` every `everyMs`, for housekeeping (pruning expired rows, retrying e-mails, sending
 * digests). Every worker process — `npm start` with WORKER=on and each `npm run worker` — registers the same jobs, and
 * each job runs once per period across all of them: a process looks a few times per period whether the job is due and
 * starts it only if its claim in job_runs (jobRuns.ts) succeeds (the looks are jittered, so no process wins every
 * claim). A failed run is logged and the next period still runs; stop() waits for a run in progress.
 */
import os from 'node:os';
import { randomBytes } from 'node:crypto';
import type { BackgroundJob } from './background';
import { env } from './env';
import { claimJobRun, finishJobRun } from './jobRuns';
import { log } from './log';

/** How long a run holds its job at most: a process that died mid-run frees it after this. */
export function runLeaseMs(everyMs: number): number {
  return Math.max(2 * everyMs, 5 * 60_000);
}

/** How often, on average, a process asks whether the job is due: a period is never late by more than ~15 % of it. */
export function checkEveryMs(everyMs: number): number {
  return Math.min(30_000, Math.max(200, Math.round(everyMs / 10)));
}

export function periodicJob(input: { name: string; everyMs: number; run: () => Promise<void> }): BackgroundJob {
  return {
    name: input.name,
    start: () => {
      // PERIODIC_JOB_INTERVAL_MS (tests only) runs every job at one short period.
      const everyMs = env().PERIODIC_JOB_INTERVAL_MS ?? input.everyMs;
      const owner = `${os.hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
      let current: Promise<void> | null = null;
      let stopped = false;
      const tick = () => {
        if (current || stopped) return;
        current = (async () => {
          const started = await claimJobRun(input.name, everyMs, runLeaseMs(everyMs), owner);
          if (!started) return;
          log.debug('periodic job running', { job: input.name, by: owner, started: started.toISOString() });
          try {
            await input.run();
          } finally {
            await finishJobRun(input.name, owner);
          }
        })()
          .catch((err) => log.error('background job run failed', { job: input.name, err }))
          .finally(() => {
            current = null;
          });
      };
      // Each look comes after a random 50–150 % of the check interval, not on a fixed beat: with fixed beats the process
      // whose timer happened to start first would win every claim, and one process would run every job for good.
      let timer: NodeJS.Timeout;
      const schedule = () => {
        timer = setTimeout(() => {
          tick();
          if (!stopped) schedule();
        }, Math.round(checkEveryMs(everyMs) * (0.5 + Math.random())));
        timer.unref();
      };
      tick();
      schedule();
      return async () => {
        stopped = true;
        clearTimeout(timer);
        await current;
      };
    },
  };
}
