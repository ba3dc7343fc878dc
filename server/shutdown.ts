/**
 * One shutdown sequence for `npm start` (server/main.ts) and `npm run worker` (server/monitor/workerProcess.ts). Each
 * process registers a step with `onShutdown(name, fn, order)` as it opens what must be closed; on SIGINT or SIGTERM
 * the steps run by ascending order — steps with the same order together (the web server drains while the workers
 * stop) — and the process exits 0. A step that fails is logged and the next ones still run: the database closes even
 * if a worker's stop threw. Past the deadline the process exits 1, so a hung step cannot keep it alive.
 */
import { log } from './log';

/** The orders the processes use: stop taking work, write what is counted in memory, close the database, the rest. */
export const SHUTDOWN_ORDER = { stopWork: 10, flushCounts: 20, closeDatabase: 30, afterDatabase: 40 } as const;

type Step = { name: string; order: number; run: () => Promise<unknown> | unknown };

/** A sequence of steps (one per process: `onShutdown` below; tests make their own). */
export function shutdownSequence() {
  const steps: Step[] = [];
  let running: Promise<void> | null = null;
  return {
    /** `name` says what the step does: its failure is logged as "<name> failed". */
    onShutdown(name: string, run: Step['run'], order: number): void {
      steps.push({ name, order, run });
    },
    /** Runs every step once, by order; a second call waits for the first. */
    run(): Promise<void> {
      running ??= (async () => {
        const orders = [...new Set(steps.map((s) => s.order))].sort((a, b) => a - b);
        for (const order of orders) {
          await Promise.all(
            steps
              .filter((s) => s.order === order)
              .map(async (s) => {
                try {
                  await s.run();
                } catch (err) {
                  log.error(`${s.name} failed`, { err });
                }
              }),
          );
        }
      })();
      return running;
    },
  };
}

const processSequence = shutdownSequence();

export const onShutdown = processSequence.onShutdown;

/** On SIGINT or SIGTERM: log `message`, run the steps, exit 0 (or 1 after `deadlineMs`). Repeated signals are ignored. */
export function exitOnSignals(opts: { message: string; deadlineMs: number }): void {
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info(opts.message, { signal });
    const force = setTimeout(() => process.exit(1), opts.deadlineMs);
    force.unref();
    await processSequence.run();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}
