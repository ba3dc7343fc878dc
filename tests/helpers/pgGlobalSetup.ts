// vitest globalSetup for the PostgreSQL projects: one server for the run, and ONE migrated database on it that every
// test file's database is created from (`create database … template`): copying a small database is one statement,
// where migrating a fresh one is hundreds.
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../server/db/client';
import { migrateToLatest } from '../../server/db/migrate';
import { startPostgres } from './postgres';

export const PG_TEMPLATE_DB = 'arb_template';

export default async function setup(project: TestProject) {
  process.env.LOG_LEVEL ??= 'silent'; // the migration log lines are noise here
  const server = await startPostgres();
  try {
    const { default: pg } = await import('pg');
    const admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    await admin.query(`create database ${PG_TEMPLATE_DB}`);
    await admin.end();
    // A template must have no open connection while it is copied: migrate, then close the pool.
    const handle = await openDatabase({ kind: 'postgres', url: server.url.replace(/\/postgres$/, `/${PG_TEMPLATE_DB}`) });
    await migrateToLatest(handle.db);
    await handle.close();
  } catch (err) {
    await server.stop();
    throw err;
  }
  project.provide('pgAdminUrl', server.url);
  project.provide('pgTemplateDb', PG_TEMPLATE_DB);
  return async () => server.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
    pgTemplateDb: string;
  }
}
