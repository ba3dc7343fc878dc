// server/db/types.ts (the tables' types) is generated from the migrated schema by scripts/db-types.ts (kysely-codegen);
// this fails while the committed file is not what `npm run db-types` would write now. It needs a migrated database, so
// it runs in the PostgreSQL project, on a copy of the run's migrated template (PGlite has the same schema from the same
// migrations; one database is enough to read it). The script is loaded there only: kysely-codegen brings TypeScript.
import fs from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestDb, type TestDb } from '../helpers/testDb';

type DbTypesScript = typeof import('../../scripts/db-types');

describe.runIf(process.env.ARB_TEST_DB === 'postgres')('generated table types', () => {
  let testDb: TestDb;
  let renderDbTypes: DbTypesScript['renderDbTypes'];
  let DB_TYPES_FILE: string;

  beforeAll(async () => {
    ({ renderDbTypes, DB_TYPES_FILE } = await import('../../scripts/db-types'));
    testDb = await createTestDb();
  });
  afterAll(async () => {
    await testDb?.close();
  });

  test('server/db/types.ts is what `npm run db-types` writes for the schema the migrations make', async () => {
    expect(fs.readFileSync(DB_TYPES_FILE, 'utf8')).toBe(await renderDbTypes(testDb.db));
  }, 30_000);

  test('a column a migration adds makes the committed file stale', async () => {
    await sql`alter table apps add column added_by_a_migration text`.execute(testDb.db);
    const source = await renderDbTypes(testDb.db);
    expect(source).toContain('  added_by_a_migration: string | null;\n');
    expect(source).not.toBe(fs.readFileSync(DB_TYPES_FILE, 'utf8'));
  }, 30_000);

  test('a column dropped while server/db/columnTypes.ts still describes it is named', async () => {
    await sql`alter table orgs drop column grace_notice`.execute(testDb.db);
    await expect(renderDbTypes(testDb.db)).rejects.toThrow('server/db/columnTypes.ts names what the schema does not have: orgs.grace_notice');
  }, 30_000);
});
