/**
 * The per-key rate of the public API, decided in memory against a fixed window shared through the database: a process
 * reserves hits of the key's window (`reserve`: one statement that adds `want` to the window's count and returns the
 * count after it and the window's end) and spends them from memory.
 *
 * The first reservation of a window asks for one hit; each next one for as many as this process has spent in the
 * window so far (a busy key reserves rarely: about log2 of its calls per window, then once per tenth of the rate), at
 * most a tenth of the rate. A process spends only what it reserved, so all processes together never pass the rate
 * in a window. The price: a process may hold up to a tenth of the rate unspent, so several processes serving one key
 * may refuse it a little before the whole rate is used (never after); `remaining` counts the other processes'
 * reservations as spent. Under 20 a minute every hit is its own reservation: exact, as one counter would be.
 */
export type Reserve = (keyId: string, want: number, now: number) => Promise<{ count: number; windowEndsAt: number }>;

export type RateAnswer = { allowed: boolean; remaining: number; windowEndsAt: number };

type Window = {
  endsAt: number;
  /** Reserved by this process and not yet spent. */
  left: number;
  /** Spent by this process in this window. */
  spent: number;
  /** What the window had left unreserved after this process's last reservation. */
  unreserved: number;
};

/** Most hits one reservation asks for. */
export const reserveAtMost = (limit: number) => Math.max(1, Math.floor(limit / 10));

export function createRateWindows(reserve: Reserve, clock: () => number = Date.now) {
  const windows = new Map<string, Window>();
  const reserving = new Map<string, Promise<void>>();

  function reserveFor(keyId: string, limit: number, now: number): Promise<void> {
    const running = reserving.get(keyId);
    if (running) return running;
    const w = windows.get(keyId);
    const want = Math.min(reserveAtMost(limit), Math.max(1, w && now < w.endsAt ? w.spent : 1));
    const p = reserve(keyId, want, now)
      .then(({ count, windowEndsAt }) => {
        // What was still under the limit before this reservation, up to what was asked.
        const granted = Math.min(want, Math.max(0, limit - (count - want)));
        const unreserved = Math.max(0, limit - count);
        const current = windows.get(keyId);
        if (current && current.endsAt === windowEndsAt) {
          current.left += granted;
          current.unreserved = unreserved;
        } else {
          windows.set(keyId, { endsAt: windowEndsAt, left: granted, spent: 0, unreserved });
        }
      })
      .finally(() => reserving.delete(keyId));
    reserving.set(keyId, p);
    return p;
  }

  /** One hit of the key's rate: from memory while this process holds a reserved hit, else after one reservation. */
  function take(keyId: string, limit: number): RateAnswer | Promise<RateAnswer> {
    const now = clock();
    const w = windows.get(keyId);
    if (w && now < w.endsAt) {
      if (w.left > 0) {
        w.left--;
        w.spent++;
        return { allowed: true, remaining: w.unreserved + w.left, windowEndsAt: w.endsAt };
      }
      if (w.unreserved === 0) return { allowed: false, remaining: 0, windowEndsAt: w.endsAt };
    }
    // Each reservation moves the shared count on, so this ends: with a hit, or with the window spent (refused).
    return reserveFor(keyId, limit, now).then(() => take(keyId, limit));
  }

  /** Forgets windows that ended: nothing is left to decide with them. */
  function prune(now = clock()): void {
    for (const [id, w] of windows) if (w.endsAt <= now && !reserving.has(id)) windows.delete(id);
  }

  return { take, prune };
}
