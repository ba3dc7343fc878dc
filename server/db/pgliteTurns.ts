/**
 * PGlite runs every statement on this thread and answers through promises, so a run of statements — a poll storing
 * 500 reviews, four polls queued behind one another — is one unbroken chain of microtasks: node runs no timer and
 * reads no socket until it ends. Measured in bench/rules.ts: three rounds of polls (6,000 reviews, ~2 s) went by
 * without one tick of the rules job's 250 ms timer, so its reviews waited until the polls were over, and an HTTP
 * request arriving meanwhile waits the same way. PostgreSQL's driver answers from the socket, a macrotask, so it
 * never has the problem.
 *
 * `takingTurns` wraps the PGlite client the Kysely dialect uses: before a statement, once this chain of microtasks
 * has held the thread for SLICE_MS, it waits for the event loop's next check phase (setImmediate), letting timers
 * and I/O run. Only whether and when a statement starts changes, never its order on the one connection (the dialect
 * queues connections first in, first out), so transactions are untouched. A turn costs one loop iteration, ~µs,
 * at most once every SLICE_MS.
 */
import type { PGlite } from '@electric-sql/pglite';

/** How long a chain of statements may hold the thread before timers and sockets get a turn. */
export const SLICE_MS = 20;

type Clock = { now: () => number };

/** The thread-holding tracker: `turn()` resolves at once, or after the event loop has had a turn (see the top). */
export function turnTaker(sliceMs = SLICE_MS, clock: Clock = performance) {
  let sliceStart = 0;
  let inSlice = false;
  const endSlice = () => {
    inSlice = false;
  };
  const nextCheckPhase = () => new Promise<void>((resolve) => setImmediate(resolve));
  return async function turn(): Promise<void> {
    if (!inSlice) {
      // The first statement since the loop last reached its check phase: a slice begins, and ends when it does.
      inSlice = true;
      sliceStart = clock.now();
      setImmediate(endSlice);
      return;
    }
    if (clock.now() - sliceStart >= sliceMs) await nextCheckPhase();
  };
}

/** The part of PGlite the Kysely dialect calls (kysely-pglite-dialect 1.x: query, close). */
type DialectClient = Pick<PGlite, 'query' | 'close'>;

/** The client for the dialect: each statement takes its turn first (see the top). */
export function takingTurns(client: PGlite): PGlite {
  const turn = turnTaker();
  const wrapped: DialectClient = {
    query: (async (text: string, params?: unknown[], options?: Parameters<PGlite['query']>[2]) => {
      await turn();
      return client.query(text, params, options);
    }) as PGlite['query'],
    close: () => client.close(),
  };
  return wrapped as PGlite;
}
