/**
 * A fresh, migrated database for one test file, made the process's database (so handlers use it).
 * ARB_TEST_DB=postgres (the *-postgres vitest projects) → a new database on the harness's PostgreSQL server, copied
 * from its migrated template;
 * otherwise → an embedded PGlite database as the run's migrated template left it (see below).
 */
import { inject } from 'vitest';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { openDatabase, setDbForTests, type DB } from '@/server/db/client';
import { migrateToLatest } from '@/server/db/migrate';

export type TestDb = { db: DB; kind: 'pglite' | 'postgres'; url?: string; close: () => Promise<void> };

type PgliteHandle = Awaited<ReturnType<typeof openDatabase>>;

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
  const handle = await takePglite();
  setDbForTests(handle);
  return {
    db: handle.db,
    kind: 'pglite',
    close: async () => {
      setDbForTests(null);
      await givePgliteBack(handle);
    },
  };
}

/*
 * Starting an embedded PostgreSQL costs ~2.5 s of CPU however it starts (from the template's dump or from a copied
 * directory; measured), which was a third of the PGlite project's time. The API and worker files run one after another
 * in their worker (vitest.config.ts: isolate: false), so the worker keeps its PGlite between files: a file's close()
 * gives it back, and the next file gets it back emptied to exactly the template's state (every table truncated, every
 * sequence restarted, the session reset). An instance whose schema no longer matches the template's (a test that
 * altered it), or that no longer answers (a test closed it), is dropped, and a new one started from the template.
 */
let spare: { handle: PgliteHandle; fingerprint: string } | undefined;
let templateFingerprint: string | undefined;

const RESET_TIMEOUT_MS = 10_000;

async function takePglite(): Promise<PgliteHandle> {
  const kept = spare;
  spare = undefined;
  if (kept) {
    if (kept.fingerprint === templateFingerprint && (await withTimeout(emptyToTemplate(kept.handle.db), RESET_TIMEOUT_MS))) return kept.handle;
    await kept.handle.close().catch(() => {});
  }
  // Start from the run's migrated template when the project provides one (tests/helpers/pgliteGlobalSetup.ts): made
  // by this run's migrations, so there is nothing left to apply.
  const template = inject('pgliteTemplate');
  const loadDataDir = template ? new Blob([fs.readFileSync(template)]) : undefined;
  const handle = await openDatabase({ kind: 'pglite', loadDataDir });
  if (!template) await migrateToLatest(handle.db);
  templateFingerprint ??= await schemaFingerprint(handle.db);
  return handle;
}

async function givePgliteBack(handle: PgliteHandle): Promise<void> {
  const fingerprint = await withTimeout(schemaFingerprint(handle.db), RESET_TIMEOUT_MS);
  if (spare || !fingerprint) {
    await handle.close().catch(() => {});
    return;
  }
  spare = { handle, fingerprint };
}

/** Resolves to the promise's value, or to undefined when it fails or takes longer than `ms`. */
async function withTimeout<T>(p: Promise<T>, ms: number): Promise<T | undefined> {
  const timer = new AbortController();
  const late = sleep(ms, undefined, { signal: timer.signal }).catch(() => undefined);
  try {
    return await Promise.race([p.catch(() => undefined), late]);
  } finally {
    timer.abort();
  }
}

/** Every table, column, default, index, constraint, trigger, function, sequence, enum and applied migration. */
async function schemaFingerprint(db: DB): Promise<string> {
  const { rows } = await sql<{ f: string }>`
    select md5(coalesce(string_agg(x, E'\n' order by x), '')) as f from (
      select 'column ' || table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable || ' ' || coalesce(column_default, '') as x
        from information_schema.columns where table_schema = 'public'
      union all select 'index ' || indexdef from pg_indexes where schemaname = 'public'
      union all select 'constraint ' || conrelid::regclass || ' ' || conname || ' ' || pg_get_constraintdef(oid)
        from pg_constraint where connamespace = 'public'::regnamespace
      union all select 'trigger ' || tgrelid::regclass || ' ' || tgname from pg_trigger where not tgisinternal
      union all select 'function ' || proname || ' ' || md5(prosrc) from pg_proc where pronamespace = 'public'::regnamespace
      union all select 'sequence ' || sequencename from pg_sequences where schemaname = 'public'
      union all select 'enum ' || typname || ' ' || enumlabel from pg_enum join pg_type t on t.oid = enumtypid
        where typnamespace = 'public'::regnamespace
      union all select 'migration ' || name from arb_migrations
    ) parts`.execute(db);
  return rows[0].f;
}

/** Back to the template's rows: none but the migration records, every sequence at its start, a fresh session. */
async function emptyToTemplate(db: DB): Promise<boolean> {
  const tables = await sql<{ t: string }>`
    select quote_ident(tablename) as t from pg_tables
    where schemaname = 'public' and tablename not in ('arb_migrations', 'arb_migrations_lock')`.execute(db);
  if (tables.rows.length) await sql.raw(`truncate table ${tables.rows.map((r) => r.t).join(', ')} restart identity cascade`).execute(db);
  const sequences = await sql<{ s: string }>`select quote_ident(sequencename) as s from pg_sequences where schemaname = 'public'`.execute(db);
  for (const { s } of sequences.rows) await sql.raw(`alter sequence ${s} restart`).execute(db);
  await sql`update arb_migrations_lock set is_locked = 0`.execute(db);
  await sql`discard all`.execute(db);
  return true;
}
