/**
 * In-memory counters of this process's engine work, exposed on /api/health. Kept on globalThis because `npm start`
 * loads the engine through tsx and the health route through Next's bundle: two module instances, one process.
 */
export type CounterName =
  | 'polled'
  | 'poll_failed'
  /** Polls that failed on a store payload we could not read (also counted in poll_failed). */
  | 'format_errors'
  | 'ingested'
  | 'edited'
  | 'fanned_out'
  | 'delivered'
  | 'retried'
  | 'failed'
  | 'resent'
  /** Messages set aside after their sending was interrupted too many times in a row (deliveryWorker.ts). */
  | 'parked';

export type Counters = Record<CounterName, number> & { since: string };

const g = globalThis as unknown as { __arbCounters?: Counters };

function state(): Counters {
  if (!g.__arbCounters) {
    g.__arbCounters = {
      since: new Date().toISOString(),
      polled: 0,
      poll_failed: 0,
      format_errors: 0,
      ingested: 0,
      edited: 0,
      fanned_out: 0,
      delivered: 0,
      retried: 0,
      failed: 0,
      resent: 0,
      parked: 0,
    };
  }
  return g.__arbCounters;
}

export function count(name: CounterName, by = 1): void {
  state()[name] += by;
}

export function counters(): Counters {
  return { ...state() };
}
