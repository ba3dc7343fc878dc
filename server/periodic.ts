/**
 * A background job that runs `run` now and then every `everyMs`, for housekeeping (pruning expired rows, retrying
 * e-mails). A failed run is logged and the next one still happens; stop() waits for a run in progress.
 */
import type { BackgroundJob } from './background';
import { log } from './log';

export function periodicJob(input: { name: string; everyMs: number; run: () => Promise<void> }): BackgroundJob {
  return {
    name: input.name,
    start: () => {
      let current: Promise<void> | null = null;
      const tick = () => {
        if (current) return;
        current = input
          .run()
          .catch((err) => log.error('background job run failed', { job: input.name, err }))
          .finally(() => {
            current = null;
          });
      };
      tick();
      const timer = setInterval(tick, input.everyMs);
      timer.unref();
      return async () => {
        clearInterval(timer);
        await current;
      };
    },
  };
}
