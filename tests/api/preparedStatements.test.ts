// On PostgreSQL, the statements marked PREPARED are prepared once per connection and then sent by name
// (server/db/preparedStatements.ts): the server's own list of the session's prepared statements shows it, answers are
// the same as unnamed ones', unmarked statements are not prepared, and DATABASE_PREPARED_STATEMENTS=false turns it off.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openDatabase } from '@/server/db/client';
import { PREPARED } from '@/server/db/preparedStatements';
import { setEnvForTests } from '@/server/env';
import { createTestDb, type TestDb } from '../helpers/testDb';

const onPostgres = process.env.ARB_TEST_DB === 'postgres';
let shared: TestDb;

beforeAll(async () => {
  shared = await createTestDb();
});

test('PREPARED puts the mark first in the SQL Kysely compiles, and the database runs the statement as it is', async () => {
  const query = sql<{ n: number }>`${PREPARED}select ${41}::int + 1 as n`;
  expect(query.compile(shared.db).sql).toBe('/* prepared */ select $1::int + 1 as n');
  for (let i = 0; i < 2; i++) expect((await query.execute(shared.db)).rows).toEqual([{ n: 42 }]);
});
afterAll(async () => {
  await shared?.close();
});

/** One connection, so that the session whose prepared statements are listed is the one that ran the queries. */
async function runTwiceAndList(): Promise<{ answers: unknown[]; prepared: string[] }> {
  const handle = await openDatabase({ kind: 'postgres', url: shared.url!, max: 1 });
  try {
    const answers: unknown[] = [];
    for (const key of ['apple_app_store__1', 'apple_app_store__2', 'apple_app_store__3']) {
      const r = await sql<{ key: string; n: number }>`${PREPARED}select ${key}::text as key, count(*)::int as n from apps where key = ${key}`.execute(handle.db);
      answers.push(r.rows[0]);
      await sql`select ${key}::text as key from reviews where app_key = ${key}`.execute(handle.db); // not marked
    }
    const list = await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements order by name`.execute(handle.db);
    expect(list.rows.filter((r) => r.statement.includes('from reviews where app_key'))).toEqual([]);
    return { answers, prepared: list.rows.filter((r) => r.statement.includes('from apps where key')).map((r) => r.name) };
  } finally {
    await handle.close();
  }
}

describe.skipIf(!onPostgres)('prepared statements on PostgreSQL', () => {
  test('a marked statement is prepared on the connection once, by a name from its text, and answers as before; others are not', async () => {
    const restore = setEnvForTests({ DATABASE_PREPARED_STATEMENTS: 'true' });
    try {
      const { answers, prepared } = await runTwiceAndList();
      expect(prepared).toHaveLength(1);
      expect(prepared[0]).toMatch(/^arb_/);
      expect(answers).toEqual([
        { key: 'apple_app_store__1', n: 0 },
        { key: 'apple_app_store__2', n: 0 },
        { key: 'apple_app_store__3', n: 0 },
      ]);
    } finally {
      restore();
    }
  });

  test('DATABASE_PREPARED_STATEMENTS=false: nothing is prepared', async () => {
    const restore = setEnvForTests({ DATABASE_PREPARED_STATEMENTS: 'false' });
    try {
      const { answers, prepared } = await runTwiceAndList();
      expect(prepared).toEqual([]);
      expect(answers).toHaveLength(3);
    } finally {
      restore();
    }
  });
});
