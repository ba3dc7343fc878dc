// A fresh PGlite data directory is created (initdb) in a child process and then opened here with the embedded
// settings (server/db/client.ts): the cluster must be usable, keep its data across reopen, and run with the small
// buffer pool that keeps `npm start` light.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, test } from 'vitest';
import { openDatabase } from '@/server/db/client';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'arb-pglite-dir-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe.skipIf(process.env.ARB_TEST_DB === 'postgres')('PGlite data directory', { timeout: 60_000 }, () => {
  test('a new directory is initialised, opened with 12 MB of shared buffers, and keeps its data across reopen', async () => {
    const dir = path.join(tmp, 'pglite');
    const first = await openDatabase({ kind: 'pglite', dataDir: dir });
    expect(fs.existsSync(path.join(dir, 'PG_VERSION'))).toBe(true);
    const buffers = await sql<{ shared_buffers: string }>`show shared_buffers`.execute(first.db);
    expect(buffers.rows[0].shared_buffers).toBe('12MB');
    await sql`create table kept (v text)`.execute(first.db);
    await sql`insert into kept values ('still here')`.execute(first.db);
    await first.close();

    const again = await openDatabase({ kind: 'pglite', dataDir: dir });
    const rows = await sql<{ v: string }>`select v from kept`.execute(again.db);
    expect(rows.rows).toEqual([{ v: 'still here' }]);
    await again.close();
  });
});
