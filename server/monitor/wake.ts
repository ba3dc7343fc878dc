/**
 * Wakes this process's engine loops right away instead of at their next idle tick — e.g. after a new destination is
 * saved (its welcome should arrive within seconds) or after an ingest queued deliveries; and the rules job
 * (server/rules/jobs.ts) after a poll stored or edited reviews. On globalThis because the API routes (Next's bundle)
 * and the engine (server/main.ts) are different module instances in one process. Other processes don't hear this;
 * their idle tick (about a second; the rules job's 250 ms) picks the work up.
 */
export type WakeTarget = 'poll' | 'deliver' | 'rules';

const g = globalThis as unknown as { __arbWake?: Set<(target: WakeTarget) => void> };

function listeners(): Set<(target: WakeTarget) => void> {
  g.__arbWake ??= new Set();
  return g.__arbWake;
}

export function onWake(listener: (target: WakeTarget) => void): () => void {
  listeners().add(listener);
  return () => listeners().delete(listener);
}

export function wake(target: WakeTarget): void {
  for (const l of listeners()) l(target);
}
