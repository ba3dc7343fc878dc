// What every PostgreSQL connection of ARB's pool is set to before its first statement (server/db/client.ts): no JIT
// compilation, which on a million reviews made the inbox's 2 ms counts cost ~50 ms (bench/inbox-queue.ts). Several
// connections at once, so the pool opens more than one.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestDb, type TestDb } from '../helpers/testDb';

describe.runIf(process.env.ARB_TEST_DB === 'postgres')('the pool’s connections', () => {
  let testDb: TestDb;
  beforeAll(async () => {
    testDb = await createTestDb();
  });
  afterAll(async () => {
    await testDb?.close();
  });

  test('run without JIT, from their first statement', async () => {
    const rows = await Promise.all(
      [1, 2, 3, 4].map(() => testDb.db.transaction().execute(async (trx) => (await sql<{ jit: string; pid: number }>`select current_setting('jit') as jit, pg_backend_pid() as pid`.execute(trx)).rows[0])),
    );
    expect(new Set(rows.map((r) => r.pid)).size).toBeGreaterThan(1);
    expect(rows.map((r) => r.jit)).toEqual(['off', 'off', 'off', 'off']);
  });
});
