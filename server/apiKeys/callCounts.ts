/**
 * The public API's counts, decided in memory and written to the database in batches.
 *
 * **The per-key rate** (a fixed one-minute window in rate_limits, shared by every process): hits reserved in the
 * database and spent from memory (rateWindows.ts): all processes together never pass the rate.
 *
 * **The month's calls** (org_usage_months.api_calls, the plan's allowance and billing) and **the key's last use**
 * (api_keys.last_used_at, stamped at most once a minute per key) are counted in memory and written every
 * FLUSH_EVERY_MS, and by flushApiUsage() at shutdown (server/main.ts, after the last requests are answered). A write
 * that fails keeps its counts for the next one. Calls are never lost while the process lives; a process killed without
 * its shutdown (SIGKILL, a crash) loses at most the last second's counts.
 *
 * On globalThis: the API routes and the server code may load this module as two copies in one process.
 */
import { log } from '../log';
import { addApiCalls, reserveKeyCalls, stampKeysUsed, type MonthCalls } from './data';
import { noteMonthCalls } from './keyState';
import { createRateWindows, type RateAnswer } from './rateWindows';

export type { RateAnswer };

export const FLUSH_EVERY_MS = 1000;
/** last_used_at is written at most this often per key. */
export const LAST_USED_EVERY_MS = 60_000;
const WINDOW_SECONDS = 60;
/** The rate's counter: the same rule name and row as hitRateLimit would use. */
const RATE_RULE = 'public-api:key';

type State = {
  rate: ReturnType<typeof createRateWindows>;
  /** `orgId month` → calls not yet written; those being written now. */
  calls: Map<string, number>;
  writing: Map<string, number>;
  /** key id → the last use not yet written; → the last stamp written or read. */
  uses: Map<string, number>;
  stamped: Map<string, number>;
  timer: NodeJS.Timeout | null;
  flushing: Promise<void> | null;
};

const g = globalThis as unknown as { __arbApiCallCounts?: State };
const state = (g.__arbApiCallCounts ??= {
  rate: createRateWindows((keyId, want, now) =>
    reserveKeyCalls({ rateKey: `${RATE_RULE}:${keyId}`, want, windowSeconds: WINDOW_SECONDS, now: new Date(now) }).then((r) => ({
      count: r.count,
      windowEndsAt: r.windowEndsAt.getTime(),
    })),
  ),
  calls: new Map(),
  writing: new Map(),
  uses: new Map(),
  stamped: new Map(),
  timer: null,
  flushing: null,
});

/** One hit of the key's rate (rateWindows.ts): without a promise while this process holds a reserved hit. */
export const takeRateHit = (keyId: string, limit: number): RateAnswer | Promise<RateAnswer> => state.rate.take(keyId, limit);

/**
 * One call of the organisation in `month`: counted in memory (written within FLUSH_EVERY_MS). Returns the month's
 * count with it, as far as this process knows: the database's count it last read or wrote, plus what it has not
 * written yet.
 */
export function countCall(orgId: string, month: string, knownInDatabase: number): number {
  const k = `${orgId} ${month}`;
  const pending = (state.calls.get(k) ?? 0) + 1;
  state.calls.set(k, pending);
  scheduleFlush();
  return knownInDatabase + pending + (state.writing.get(k) ?? 0);
}

/** The key was used at `now`: stamped in the next write when its last stamp is a minute old or more. */
export function noteKeyUse(keyId: string, lastUsedAt: number | null, now = Date.now()): void {
  const last = state.stamped.get(keyId) ?? lastUsedAt;
  if (last !== null && now - last < LAST_USED_EVERY_MS) return;
  state.stamped.set(keyId, now);
  state.uses.set(keyId, now);
  scheduleFlush();
}

function scheduleFlush(): void {
  if (state.timer) return;
  state.timer = setInterval(() => void flushApiUsage(), FLUSH_EVERY_MS);
  // Never what keeps a process alive: shutdown flushes explicitly.
  state.timer.unref();
}

/**
 * Writes the counted calls and key uses now (one statement each); what fails stays for the next write. Waits for a
 * write already running. Call it at shutdown, after the last requests are answered and before the database closes.
 */
export async function flushApiUsage(): Promise<void> {
  while (state.flushing) await state.flushing;
  pruneWindows();
  if (state.calls.size === 0 && state.uses.size === 0) {
    if (state.timer) clearInterval(state.timer);
    state.timer = null;
    return;
  }
  state.flushing = writeCounts().finally(() => {
    state.flushing = null;
  });
  await state.flushing;
}

async function writeCounts(): Promise<void> {
  const calls = state.calls;
  state.calls = new Map();
  state.writing = calls;
  const uses = state.uses;
  state.uses = new Map();
  try {
    const rows: MonthCalls[] = [...calls].map(([k, n]) => {
      const [orgId, month] = k.split(' ');
      return { orgId, month, calls: n };
    });
    for (const total of await addApiCalls(rows)) noteMonthCalls(total.orgId, total.month, total.calls);
  } catch (err) {
    for (const [k, n] of calls) state.calls.set(k, (state.calls.get(k) ?? 0) + n);
    log.error('public API call counts not written; kept for the next try', { err, organisations: calls.size });
  } finally {
    state.writing = new Map();
  }
  try {
    await stampKeysUsed([...uses].map(([id, at]) => ({ id, at: new Date(at) })));
  } catch (err) {
    for (const [id, at] of uses) state.uses.set(id, Math.max(at, state.uses.get(id) ?? 0));
    log.error('API keys last use not written; kept for the next try', { err, keys: uses.size });
  }
}

/** Windows that ended and stamps older than their interval: nothing left to decide with them. */
function pruneWindows(now = Date.now()): void {
  state.rate.prune(now);
  for (const [id, at] of state.stamped) if (now - at >= LAST_USED_EVERY_MS) state.stamped.delete(id);
}
