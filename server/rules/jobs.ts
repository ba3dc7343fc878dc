/**
 * The rules' background job (listed in server/jobs.ts): every RULES_TICK_MS, one cheap question — does any review
 * wait in rule_queue, or any reply action after its pass? — and, when one does, passes until the queue is empty
 * (runner.ts) and the pending replies handed over (replies.ts). So a review is evaluated within a second of the
 * statement that stored it. Every worker process runs it: passes lock the reviews they take (SKIP LOCKED), so
 * processes share the queue and never evaluate one review at once. Not a periodicJob: those run once per period
 * across processes and claim a job_runs row on each look, which four looks a second would turn into needless writes.
 */
import type { BackgroundJob } from '../background';
import { log } from '../log';
import { workWaiting } from './data';
import { runPendingReplies } from './replies';
import { drainRuleQueue } from './runner';

export const RULES_TICK_MS = 250;

/** One look: evaluate what is queued and hand over pending replies. */
export async function rulesTick(): Promise<void> {
  const waiting = await workWaiting();
  if (waiting.queued) await drainRuleQueue(40);
  if (waiting.replies) await runPendingReplies();
}

export const rulesJob: BackgroundJob = {
  name: 'rules',
  start: () => {
    let stopped = false;
    let current: Promise<void> | null = null;
    let timer: NodeJS.Timeout | undefined;
    const schedule = () => {
      if (stopped) return;
      timer = setTimeout(() => {
        current = rulesTick()
          .catch((err) => log.error('rules run failed', { err }))
          .finally(() => {
            current = null;
            schedule();
          });
      }, RULES_TICK_MS);
      timer.unref();
    };
    schedule();
    return async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await current;
    };
  },
};
