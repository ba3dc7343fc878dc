/**
 * The rules' background job (listed in server/jobs.ts): every RULES_TICK_MS, one cheap question — does any review
 * wait in rule_queue, or any reply action after its pass? — and, when one does, passes until the queue is empty
 * (runner.ts) and the pending replies handed over (replies.ts). A poll of this process that stored or edited reviews
 * wakes it at once (wake('rules') in server/monitor/ingest.ts), so a review is evaluated within a second of the
 * statement that stored it; reviews another process stored wait for the next tick at most. Every worker process runs
 * it: passes lock the reviews they take (SKIP LOCKED), so processes share the queue and never evaluate one review at
 * once. Not a periodicJob: those run once per period across processes and claim a job_runs row on each look, which
 * four looks a second would turn into needless writes.
 */
import type { BackgroundJob } from '../background';
import { log } from '../log';
import { onWake } from '../monitor/wake';
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

/** The job's loop: a look every `tickMs`, and at once when this process stores reviews; returns its stop. */
export function startRulesLoop(tickMs: number): () => Promise<void> {
  let stopped = false;
  let current: Promise<void> | null = null;
  let timer: NodeJS.Timeout | undefined;
  // Woken while a look runs: the next one starts as soon as it ends (the reviews just stored may be past its pass).
  let again = false;
  const look = () => {
    timer = undefined;
    current = rulesTick()
      .catch((err) => log.error('rules run failed', { err }))
      .finally(() => {
        current = null;
        if (again) {
          again = false;
          if (!stopped) look();
        } else schedule();
      });
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(look, tickMs);
    timer.unref();
  };
  const unsubscribe = onWake((target) => {
    if (target !== 'rules' || stopped) return;
    if (current) again = true;
    else {
      clearTimeout(timer);
      look();
    }
  });
  schedule();
  return async () => {
    stopped = true;
    unsubscribe();
    if (timer) clearTimeout(timer);
    await current;
  };
}

export const rulesJob: BackgroundJob = { name: 'rules', start: () => startRulesLoop(RULES_TICK_MS) };
