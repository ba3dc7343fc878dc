/**
 * The engine's two loops — poll due sources, deliver due messages — each claiming work up to its concurrency, idling
 * about a second when there is none, woken at once by wake() when this process queues work, and at the due time of a
 * destination it gave back to wait a little (its pace, a short Retry-After). The destinations a process holds share
 * grouped queue reads and writes (createDeliveryGroups: one statement for all of them at a time). Any number of these
 * run against one PostgreSQL (`npm start` runs one in the site's process, `npm run worker` adds more); correctness
 * comes from the leases and unique constraints, never from there being one engine.
 *
 * stop() finishes or releases what the engine holds: in-flight polls are aborted and their sources given back
 * untouched (nothing was committed), each destination being sent to finishes its current message, records it, and is
 * given back.
 */
import { setMaxListeners } from 'node:events';
import os from 'node:os';
import { randomBytes } from 'node:crypto';
import type { DB } from '../db/client';
import { env } from '../env';
import { log } from '../log';
import { defaultWebhookSender, type WebhookSender } from '../destinations/send';
import type { SourceAdapter, SourceKind } from '../sources/types';
import { claimDestinations, createDeliveryGroups, processDestination, type ClaimedDestination } from './deliveryWorker';
import { pollLeasedSource } from './poller';
import { claimDueSources, type SourceRow } from './sources';
import { onWake, type WakeTarget } from './wake';

export type EngineOptions = {
  workerId: string;
  concurrency: number;
  leaseMs: number;
  /** How long one destination is sent to before it is given back (DELIVERY_HOLD_MS; deliveryWorker.ts's default when unset). */
  maxHoldMs?: number;
  idleMs: number;
  pacing: 'platform' | 'off';
  intervalSeconds: number;
  sender: WebhookSender;
  poll: boolean;
  deliver: boolean;
  adapterFor?: (kind: SourceKind) => SourceAdapter;
  /** First retry delay after a 5xx or network error; defaults to 10 s. */
  retryBaseMs?: number;
  /** Rate limits in a row after which a destination is paused (deliveryWorker.ts RATE_LIMIT_PAUSE_AFTER). */
  rateLimitPauseAfter?: number;
};

export function newWorkerId(): string {
  return `${os.hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
}

export function engineOptionsFromEnv(overrides: Partial<EngineOptions> = {}): EngineOptions {
  const e = env();
  return {
    workerId: newWorkerId(),
    concurrency: e.WORKER_CONCURRENCY,
    leaseMs: e.WORKER_LEASE_SECONDS * 1000,
    maxHoldMs: e.DELIVERY_HOLD_MS,
    idleMs: 1000,
    pacing: e.DELIVERY_PACING,
    intervalSeconds: e.POLL_INTERVAL_SECONDS,
    sender: defaultWebhookSender(),
    poll: true,
    deliver: true,
    ...overrides,
  };
}

type Loop = { stop: () => Promise<void> };

function runLoop<T extends { id: K }, K>(spec: {
  name: string;
  target: WakeTarget;
  concurrency: number;
  idleMs: number;
  /**
   * While items are in flight, claim only once this many slots are free: one claim statement for several finished
   * items instead of one per item. (With nothing in flight, any free slot claims.)
   */
  minClaim?: number;
  /** Claim up to n items, never one of `busy` (still being worked on here). */
  claim: (n: number, busy: K[]) => Promise<T[]>;
  /**
   * Resolves with when the item, given back unfinished, is due again (ms), or null. `stepAside()` frees the item's slot
   * while it only waits (and returns the call that takes a slot back, resolved once one is free), so that another item
   * can use it meanwhile.
   */
  work: (item: T, stepAside: () => () => Promise<void>) => Promise<number | null>;
  onStop?: () => void;
}): Loop {
  let stopping = false;
  const busy = new Set<K>();
  let woken = false;
  let interrupt: (() => void) | null = null;
  const inFlight = new Set<Promise<unknown>>();
  // Items in flight that stepped aside (a destination waiting for its 'sending' mark to commit, or out its platform's
  // pace): held, but not in a slot, so the slot sends to another destination meanwhile. Held in all: at most twice
  // the concurrency; in a slot (formatting or sending): at most the concurrency.
  let aside = 0;
  // Items whose wait is over, each waiting for a slot to take back, first come first served.
  const slotWaiters: Array<() => void> = [];
  const grantSlots = () => {
    while (slotWaiters.length > 0 && inFlight.size - aside < spec.concurrency) {
      aside--;
      slotWaiters.shift()!();
    }
  };
  const poke = () => {
    woken = true;
    interrupt?.();
  };
  const unsubscribe = onWake((t) => t === spec.target && poke());
  // An item given back to wait (a destination's pace, a short Retry-After) is claimed again when it is due, not at the
  // next idle tick: the due times wait in `due`, one timer for the earliest. A few ms late, so that the database's clock
  // agrees it is due.
  let due: number[] = [];
  let dueTimer: NodeJS.Timeout | null = null;
  let dueTimerAt = Infinity;
  const armDueTimer = () => {
    if (dueTimer) clearTimeout(dueTimer);
    dueTimer = null;
    dueTimerAt = stopping ? Infinity : due.reduce((a, b) => Math.min(a, b), Infinity);
    if (dueTimerAt === Infinity) return;
    const at = dueTimerAt;
    dueTimer = setTimeout(() => {
      due = due.filter((t) => t > at);
      armDueTimer();
      poke();
    }, Math.max(0, at - Date.now()) + 5);
  };
  const pokeAt = (at: number) => {
    due.push(at);
    if (at < dueTimerAt) armDueTimer();
  };

  // Whether the last claim filled every free slot, i.e. more may be waiting: only then does a finished item's freed
  // slot call for a claim right away. Otherwise nothing was due then, and what becomes due later arrives by wake(),
  // by the due timer above or, from other processes, at the idle tick — a claim per finished item would find nothing.
  let backlog = true;

  const loop = (async () => {
    while (!stopping) {
      woken = false;
      // Items asking for their slot back come before new ones.
      const free = Math.min(spec.concurrency - (inFlight.size - aside) - slotWaiters.length, 2 * spec.concurrency - inFlight.size);
      let claimed: T[] = [];
      if (free > 0 && (free >= (spec.minClaim ?? 1) || inFlight.size === 0)) {
        try {
          claimed = await spec.claim(free, [...busy]);
          backlog = claimed.length === free;
        } catch (err) {
          // Database away (restart, network): keep the loop alive and try again after the idle pause.
          log.error(`${spec.name}: claiming work failed`, { err });
        }
      }
      for (const item of claimed) {
        busy.add(item.id);
        let stepped = false;
        const stepAside = () => {
          if (stepped) return async () => {};
          stepped = true;
          aside++;
          grantSlots();
          if (backlog && slotWaiters.length === 0) poke();
          return () =>
            new Promise<void>((resolve) => {
              if (!stepped) return resolve();
              slotWaiters.push(() => {
                stepped = false;
                resolve();
              });
              grantSlots();
            });
        };
        const p: Promise<unknown> = spec
          .work(item, stepAside)
          .then((dueAt) => dueAt !== null && dueAt - Date.now() < spec.idleMs && pokeAt(dueAt))
          .catch((err) => log.error(`${spec.name}: work failed`, { err }))
          .finally(() => {
            if (stepped) aside--;
            inFlight.delete(p);
            busy.delete(item.id);
            grantSlots();
            if (backlog) poke();
          });
        inFlight.add(p);
      }
      if (stopping) break;
      if (free > 0 && claimed.length === free) continue; // probably more due right now
      // Slots freed but fewer than minClaim: the next finished item pokes the loop again.
      if (!woken && backlog && inFlight.size > 0 && free < (spec.minClaim ?? 1)) {
        await new Promise<void>((resolve) => (interrupt = resolve));
        interrupt = null;
        continue;
      }
      if (!woken) {
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, spec.idleMs);
          interrupt = () => {
            clearTimeout(t);
            resolve();
          };
        });
        interrupt = null;
      }
    }
  })();

  return {
    async stop() {
      stopping = true;
      armDueTimer(); // clears it
      spec.onStop?.();
      poke();
      await loop;
      await Promise.allSettled([...inFlight]);
      unsubscribe();
    },
  };
}

export type Engine = { workerId: string; stop: () => Promise<void> };

export function startEngine(db: DB, opts: EngineOptions): Engine {
  const loops: Loop[] = [];
  let stopping = false;
  if (opts.poll) {
    const abort = new AbortController();
    // Every poll in flight (up to `concurrency`, a page request at a time each) listens for the stop on this signal.
    setMaxListeners(opts.concurrency + 10, abort.signal);
    loops.push(
      runLoop<SourceRow, number>({
        name: 'poll',
        target: 'poll',
        concurrency: opts.concurrency,
        idleMs: opts.idleMs,
        // A poll waits on the store most of its time: a slot or three left free for a moment costs little, a claim
        // statement per poll costs a statement's CPU on every poll.
        minClaim: Math.max(1, Math.floor(opts.concurrency / 4)),
        claim: (n, busy) => claimDueSources(db, opts.workerId, n, opts.leaseMs, busy),
        work: (source) =>
          pollLeasedSource(db, source, { workerId: opts.workerId, intervalSeconds: opts.intervalSeconds, signal: abort.signal, adapterFor: opts.adapterFor }).then(
            () => null,
          ),
        onStop: () => abort.abort(new Error('engine stopping')),
      }),
    );
  }
  if (opts.deliver) {
    const groups = createDeliveryGroups(db, opts.workerId, opts.leaseMs);
    loops.push(
      runLoop<ClaimedDestination, string>({
        name: 'deliver',
        target: 'deliver',
        concurrency: opts.concurrency,
        idleMs: opts.idleMs,
        claim: (n, busy) => claimDestinations(db, opts.workerId, n, opts.leaseMs, busy),
        work: async (dest, stepAside) => (await processDestination(db, dest, { ...opts, groups, stepAside, isStopping: () => stopping })).dueAt,
        onStop: () => {
          stopping = true;
        },
      }),
    );
  }
  log.info('review engine started', { worker: opts.workerId, poll: opts.poll, deliver: opts.deliver, concurrency: opts.concurrency });
  return {
    workerId: opts.workerId,
    async stop() {
      stopping = true;
      await Promise.all(loops.map((l) => l.stop()));
      log.info('review engine stopped', { worker: opts.workerId });
    },
  };
}
