/**
 * A fresh, migrated database for one test file, made the process's database (so handlers use it).
 * ARB_TEST_DB=postgres (the *-postgres vitest projects) → a new database on the harness's PostgreSQL server, copied
 * from its migrated template;
 * otherwise → an in-memory PGlite (started from the run's migrated template when there is one).
 */
import { inject } from 'vitest';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { openDatabase, setDbForTests, type DB } from '@/server/db/client';
import { migrateToLatest } from '@/server/db/migrate';

export type TestDb = { db: DB; kind: 'pglite' | 'postgres'; url?: string; close: () => Promise<void> };

export async function createTestDb(): Promise<TestDb> {
  if (process.env.ARB_TEST_DB === 'postgres') {
    const admin = inject('pgAdminUrl');
    const name = `t_${randomBytes(6).toString('hex')}`;
    const { default: pg } = await import('pg');
    const c = new pg.Client({ connectionString: admin });
    await c.connect();
    // A copy of the run's migrated template (tests/helpers/pgGlobalSetup.ts): this run's migrations, already applied.
    const template = inject('pgTemplateDb');
    await c.query(`create database ${name}${template ? ` template ${template}` : ''}`);
    await c.end();
    const url = admin.replace(/\/postgres$/, `/${name}`);
    const handle = await openDatabase({ kind: 'postgres', url });
    if (!template) await migrateToLatest(handle.db);
    setDbForTests(handle);
    return { db: handle.db, kind: 'postgres', url, close: async () => { setDbForTests(null); await handle.close(); } };
  }
  // Start from the run's migrated template when the project provides one (tests/helpers/pgliteGlobalSetup.ts): made
  // by this run's migrations, so there is nothing left to apply.
  const template = inject('pgliteTemplate');
  const loadDataDir = template ? new Blob([fs.readFileSync(template)]) : undefined;
  const handle = await openDatabase({ kind: 'pglite', loadDataDir });
  if (!template) await migrateToLatest(handle.db);
  setDbForTests(handle);
  return { db: handle.db, kind: 'pglite', close: async () => { setDbForTests(null); await handle.close(); } };
}
