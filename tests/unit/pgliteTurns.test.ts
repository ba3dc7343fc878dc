// The embedded database's statements take turns with node's timers and sockets (server/db/pgliteTurns.ts): a chain of
// statements on real PGlite, long enough for many slices, and a timer set before it starts. Ordering, not speed: the
// question is whether the timer runs before the chain ends.
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openDatabase } from '@/server/db/client';
import { SLICE_MS, takingTurns, turnTaker } from '@/server/db/pgliteTurns';

/** Statements one after another for `forMs`; when (after how many) a timer set at the start ran, or -1 if only after. */
async function timerDuringChain(statement: () => Promise<unknown>, forMs: number): Promise<{ ranAfter: number; statements: number }> {
  let fired = false;
  let ranAfter = -1;
  setTimeout(() => {
    fired = true;
  }, 0);
  const started = performance.now();
  let statements = 0;
  while (performance.now() - started < forMs) {
    await statement();
    statements++;
    if (fired && ranAfter < 0) ranAfter = statements;
  }
  return { ranAfter, statements };
}

const CHAIN_MS = 15 * SLICE_MS;
const WORK = 'select count(*) from generate_series(1, 5000)';

describe('PGlite statements take turns with timers', () => {
  let raw: PGlite;
  beforeAll(async () => {
    raw = await PGlite.create();
  }, 60_000);
  afterAll(async () => {
    await raw?.close();
  });

  test('PGlite alone holds the thread for the whole chain (what the wrapper is for)', async () => {
    const r = await timerDuringChain(() => raw.query(WORK), CHAIN_MS);
    expect(r.statements).toBeGreaterThan(5);
    expect(r.ranAfter, 'a timer ran while PGlite statements were chained: the wrapper may no longer be needed').toBe(-1);
  });

  test('wrapped, a timer runs during the chain, and every statement still answers in order', async () => {
    const client = takingTurns(raw);
    const r = await timerDuringChain(() => client.query(WORK), CHAIN_MS);
    expect(r.ranAfter).toBeGreaterThan(0);
    expect(r.ranAfter).toBeLessThan(r.statements);
    const answers = await Promise.all([1, 2, 3].map((n) => client.query<{ n: number }>('select $1::int as n', [n])));
    expect(answers.map((a) => a.rows[0].n)).toEqual([1, 2, 3]);
  });

  test('the embedded database the server opens is wrapped: a timer runs during a transaction of many statements', async () => {
    const handle = await openDatabase({ kind: 'pglite' });
    try {
      let result: { ranAfter: number; statements: number } | undefined;
      await handle.db.transaction().execute(async (trx) => {
        result = await timerDuringChain(() => sql.raw(WORK).execute(trx), CHAIN_MS);
      });
      expect(result!.ranAfter).toBeGreaterThan(0);
      expect(result!.ranAfter).toBeLessThan(result!.statements);
    } finally {
      await handle.close();
    }
  }, 60_000);

  test('a turn is taken only once a slice is used up', async () => {
    let now = 0;
    const turn = turnTaker(20, { now: () => now });
    let yielded = 0;
    const track = async () => {
      let settled = false;
      const p = turn().then(() => (settled = true));
      await Promise.resolve();
      await Promise.resolve();
      if (!settled) yielded++;
      await p;
    };
    await track(); // the slice begins
    now = 19;
    await track(); // within it
    expect(yielded).toBe(0);
    now = 20;
    await track(); // used up: waits for the check phase
    expect(yielded).toBe(1);
    now = 25;
    await track(); // a new slice began after the turn
    expect(yielded).toBe(1);
  });
});
