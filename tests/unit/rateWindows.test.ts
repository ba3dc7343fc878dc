// The public API's per-key rate decided in memory (server/apiKeys/rateWindows.ts) against a shared window that behaves
// as the reservation statement does (apiKeys/data.ts reserveKeyCalls: the count after adding what is asked, a new
// window once the stored one has ended): exact for one process, never past the rate for several, answered without a
// promise while hits are held, and a new window after the end.
import { describe, expect, test } from 'vitest';
import { createRateWindows, reserveAtMost, type RateAnswer, type Reserve } from '@/server/apiKeys/rateWindows';

const MINUTE = 60_000;

/** One key's window in "the database", shared by every limiter given its `reserve`; counts the statements. */
function sharedWindow(): { reserve: Reserve; statements: () => number; count: () => number } {
  let count = 0;
  let endsAt = 0;
  let statements = 0;
  return {
    reserve: async (_keyId, want, now) => {
      statements++;
      if (endsAt <= now) {
        count = want;
        endsAt = now + MINUTE;
      } else count += want;
      return { count, windowEndsAt: endsAt };
    },
    statements: () => statements,
    count: () => count,
  };
}

const T0 = 1_700_000_000_000;
let now = T0;
const clock = () => now;

describe('one process', () => {
  test('a small rate is exact: every hit its own reservation, Remaining counting down, then refused until the window ends', async () => {
    const db = sharedWindow();
    const rate = createRateWindows(db.reserve, clock);
    const answers: RateAnswer[] = [];
    for (let i = 0; i < 4; i++) {
      now = T0 + i;
      answers.push(await rate.take('k', 3));
    }
    expect(answers.map((a) => a.allowed)).toEqual([true, true, true, false]);
    expect(answers.map((a) => a.remaining)).toEqual([2, 1, 0, 0]);
    expect(answers[3].windowEndsAt).toBe(T0 + MINUTE);
    expect(db.statements()).toBe(3); // the refusal was decided in memory
    // Still refused just before the end; a new window after it.
    now = T0 + MINUTE - 1;
    expect(await rate.take('k', 3)).toMatchObject({ allowed: false });
    now = T0 + MINUTE;
    expect(await rate.take('k', 3)).toMatchObject({ allowed: true, remaining: 2, windowEndsAt: T0 + 2 * MINUTE });
  });

  test('a busy key reserves rarely, is answered without a promise while it holds hits, and gets exactly its rate', async () => {
    const db = sharedWindow();
    const rate = createRateWindows(db.reserve, clock);
    const limit = 1000;
    let allowed = 0;
    let withoutPromise = 0;
    let lastRemaining = limit;
    for (let i = 0; i < 1200; i++) {
      now = T0 + i;
      const answer = rate.take('k', limit);
      if (!(answer instanceof Promise)) withoutPromise++;
      const a = await answer;
      if (a.allowed) {
        allowed++;
        // One process alone: Remaining is exact.
        expect(a.remaining).toBe(lastRemaining - 1);
        lastRemaining = a.remaining;
      }
    }
    expect(allowed).toBe(limit);
    expect(db.count()).toBeGreaterThanOrEqual(limit); // asking past the rate is counted, so others see it spent
    // 1, 1, 2, 4 … up to a tenth of the rate per reservation: 8 to reach 100, then 9 more of 100.
    expect(db.statements()).toBeLessThan(20);
    expect(withoutPromise).toBeGreaterThan(1150);
  });

  test('callers arriving together share one reservation and none is refused while the rate has room', async () => {
    const db = sharedWindow();
    const rate = createRateWindows(db.reserve, clock);
    now = T0;
    const answers = await Promise.all(Array.from({ length: 8 }, () => rate.take('k', 100)));
    expect(answers.every((a) => a.allowed)).toBe(true);
    expect(db.count()).toBeLessThanOrEqual(100);
    expect(db.statements()).toBeLessThan(8);
  });
});

describe('several processes on one key', () => {
  test.each([10, 100, 300, 1000])('never more than the rate (%i) in a window together, however their calls interleave', async (limit) => {
    const db = sharedWindow();
    const processes = [createRateWindows(db.reserve, clock), createRateWindows(db.reserve, clock), createRateWindows(db.reserve, clock)];
    let seed = limit;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    let allowed = 0;
    for (let i = 0; i < limit * 2; i++) {
      // Some calls at once on one process, some one by one on another.
      const p = processes[Math.floor(random() * processes.length)];
      const burst = 1 + Math.floor(random() * 4);
      now = T0 + i;
      const answers = await Promise.all(Array.from({ length: burst }, () => p.take('k', limit)));
      allowed += answers.filter((a) => a.allowed).length;
    }
    expect(allowed).toBeLessThanOrEqual(limit);
    // What may stay unspent is what each process reserved and did not use: at most a tenth of the rate each.
    expect(allowed).toBeGreaterThanOrEqual(limit - processes.length * reserveAtMost(limit));
  });
});
