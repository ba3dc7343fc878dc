/**
 * One database client per process (STYLE.md #10), kept on globalThis so that Next's bundled API routes and the
 * custom server (server/main.ts) share it. PostgreSQL semantics everywhere:
 *  - DATABASE_URL set → node-postgres pool;
 *  - otherwise → PGlite (embedded PostgreSQL) in DATA_DIR/pglite. PGlite is single-process: a second process opening
 *    the same directory is refused with a clear message (see lockDataDir).
 */
import fs from 'node:fs';
import path from 'node:path';
import { Kysely, PostgresDialect } from 'kysely';
import { env } from '../env';
import { log } from '../log';
import type { Database } from './types';
import { migrateToLatest } from './migrate';
import { makePrivateDir } from '../privateFiles';
import { projectRequire } from '../projectRequire';
import { initPgliteDir } from './pglite-initdb.cjs';
import { preparingPool } from './preparedStatements';
import { takingTurns } from './pgliteTurns';

export type DB = Kysely<Database>;

/** Milliseconds; unset ones come from DATABASE_*_TIMEOUT_MS. */
export type PoolTimeouts = { connectMs?: number; statementMs?: number; idleInTransactionMs?: number };

export type DbTarget =
  | { kind: 'postgres'; url: string; max?: number; timeouts?: PoolTimeouts }
  /** `loadDataDir`: start from a dump (PGlite's dumpDataDir) instead of an empty cluster — skips initdb (tests). */
  | { kind: 'pglite'; dataDir?: string; loadDataDir?: Blob };

type Handle = {
  db: DB;
  close: () => Promise<void>;
  target: DbTarget;
  /** PGlite only: the whole data directory as a tarball (a template that `loadDataDir` starts from). */
  dumpDataDir?: () => Promise<Blob>;
};

const g = globalThis as unknown as { __arbDb?: Promise<Handle> };

export class DataDirLockedError extends Error {}

/** A pid lock file next to the PGlite data: a stale lock (dead pid) is taken over. */
function lockDataDir(dir: string): () => void {
  makePrivateDir(dir); // the database files: this user only (PostgreSQL asks the same of its data directory)
  const lockFile = path.join(dir, 'arb.lock');
  const tryCreate = () => fs.writeFileSync(lockFile, String(process.pid), { flag: 'wx' });
  try {
    tryCreate();
  } catch {
    const pid = Number(fs.readFileSync(lockFile, 'utf8'));
    let alive = false;
    if (pid && pid !== process.pid) {
      try {
        process.kill(pid, 0);
        alive = true;
      } catch {
        alive = false;
      }
    }
    if (alive) {
      throw new DataDirLockedError(
        `The embedded database in ${dir} is already open in another process (pid ${pid}). ` +
          'PGlite is single-process: stop that process, or set DATABASE_URL to share a PostgreSQL server between processes. ' +
          `(If no such process is running, delete ${lockFile}.)`,
      );
    }
    fs.rmSync(lockFile, { force: true });
    tryCreate();
  }
  const release = () => {
    try {
      if (fs.readFileSync(lockFile, 'utf8') === String(process.pid)) fs.rmSync(lockFile, { force: true });
    } catch {
      /* already gone */
    }
  };
  // A process that exits without closing the database (process.exit after an error) still frees the directory.
  process.once('exit', release);
  return () => {
    process.off('exit', release);
    release();
  };
}

/**
 * PGlite runs PostgreSQL inside this process's memory, so its settings are this process's footprint. Its default
 * shared_buffers (128 MB) is sized for a server with the machine to itself; an embedded database that also serves the
 * site and runs the engine keeps 12 MB of buffers and lets the OS page cache hold the rest of the files (NodeFS reads
 * real files). Measured: 128 → 32 MB, 276 → 170 MB RSS once open, ingest speed unchanged (bench/ingest.ts); 32 → 16 MB,
 * with 10,000 sources polled (bench/sources-memory.ts) 285–294 → 265–267 MB (12 MB: 257–262), and ingest into a
 * PGlite data directory 1,850 / 1,944 vs 1,841 / 1,914 reviews/s at 32 and 12 MB, alternating. 16 → 12 MB: the
 * touched WebAssembly memory once open and migrated (smaps) 31.8 → 25.8 MB (8 MB: 21.8) — the whole pool is touched
 * at start, whatever is read; work_mem 1 MB, maintenance_work_mem 2 MB and temp_buffers 1 MB changed nothing there
 * (31.8 MB), so they keep PostgreSQL's defaults. The review inbox over 200,000 reviews on PGlite (bench/inbox.ts,
 * INBOX_BENCH_REVIEWS=200000), 2 alternating pairs at load 3: p95 first page 17 / 13 vs 38 / 16 ms, filtered 44 / 42
 * vs 52 / 41, full-text search 127 / 45 vs 79 / 37, an app's 90-day stats 80 / 47 vs 84 / 49 (16 vs 12 MB): no
 * difference beyond the machine's noise.
 */
const PGLITE_SETTINGS = ['-c', 'shared_buffers=12MB'];

/**
 * Creates a new PGlite cluster in `dir` in a short-lived child process. initdb inside PGlite leaves ~450 MB of WebAssembly
 * memory reachable from the instance that ran it, for as long as that instance lives; run in our own process, a fresh
 * `npm start` would carry it forever. The child exits and takes that memory with it; we then open the ready directory.
 */
async function createPgliteDir(dir: string): Promise<void> {
  const { pathToFileURL } = await import('node:url');
  // Resolved from the project (not this file: Next may bundle it), as a file URL the child can import from anywhere.
  const pglite = pathToFileURL(projectRequire().resolve('@electric-sql/pglite')).href;
  const started = Date.now();
  await initPgliteDir(dir, pglite);
  log.info('created the embedded database', { dir, ms: Date.now() - started });
}

export async function openDatabase(target: DbTarget): Promise<Handle> {
  if (target.kind === 'postgres') {
    const { default: pg } = await import('pg');
    // BIGINT (int8) as JS number: our counters and ids fit comfortably.
    pg.types.setTypeParser(20, (v: string) => Number(v));
    const e = env();
    const t = target.timeouts ?? {};
    // Bounded waits: an unreachable server, a runaway query or a transaction left open by a stuck request fail with
    // an error after a while instead of holding a pool connection (and the request behind it) for ever.
    const pool = new pg.Pool({
      connectionString: target.url,
      max: target.max ?? 10,
      connectionTimeoutMillis: t.connectMs ?? e.DATABASE_CONNECT_TIMEOUT_MS,
      statement_timeout: t.statementMs ?? e.DATABASE_STATEMENT_TIMEOUT_MS,
      idle_in_transaction_session_timeout: t.idleInTransactionMs ?? e.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS,
    });
    pool.on('error', (err) => log.error('postgres pool error', { err }));
    // A connection the server ends while it is checked out (a timeout above, a restart) emits 'error' on the client:
    // the query in progress fails with it; without a listener it would also take the whole process down.
    pool.on('connect', (client) => {
      client.on('error', (err) => log.warn('postgres connection lost', { err: err.message }));
      // No JIT compilation: ARB's statements are short, and on a million reviews the planner's costs passed
      // jit_above_cost, so the inbox's 2 ms counts spent ~50 ms compiling first (bench/inbox-queue.ts; EXPLAIN shows
      // JIT only with costs on). Sent first on each new connection (node-postgres queues it before any other query);
      // a SET, not the `options` startup parameter, which poolers such as PgBouncer refuse.
      client.query('set jit = off').catch((err: Error) => log.warn('postgres: could not turn JIT off', { err: err.message }));
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: e.DATABASE_PREPARED_STATEMENTS ? preparingPool(pool) : pool }) });
    return { db, target, close: () => db.destroy() };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { PGliteDialect } = await import('kysely-pglite-dialect');
  const dir = target.dataDir;
  const unlock = dir ? lockDataDir(dir) : () => {};
  try {
    if (dir && !target.loadDataDir && !fs.existsSync(path.join(dir, 'PG_VERSION'))) await createPgliteDir(dir);
    const options = {
      startParams: [...PGlite.defaultStartParams, ...PGLITE_SETTINGS],
      ...(target.loadDataDir ? { loadDataDir: target.loadDataDir } : {}),
    };
    const client = dir ? await PGlite.create(dir, options) : await PGlite.create(options);
    // Statements take turns with timers and sockets (pgliteTurns.ts): PGlite would otherwise hold the thread.
    const db = new Kysely<Database>({ dialect: new PGliteDialect(takingTurns(client)) });
    return {
      db,
      target,
      dumpDataDir: async () => (await client.dumpDataDir('none')) as Blob,
      close: async () => {
        await db.destroy();
        if (!client.closed) await client.close();
        unlock();
      },
    };
  } catch (err) {
    unlock();
    throw err;
  }
}

export function defaultTarget(): DbTarget {
  const e = env();
  return e.DATABASE_URL
    ? { kind: 'postgres', url: e.DATABASE_URL }
    : { kind: 'pglite', dataDir: path.join(e.DATA_DIR, 'pglite') };
}

/** The process's database, opened and migrated on first use. */
export function getDbHandle(): Promise<Handle> {
  if (!g.__arbDb) {
    g.__arbDb = (async () => {
      const handle = await openDatabase(defaultTarget());
      await migrateToLatest(handle.db);
      return handle;
    })();
    g.__arbDb.catch(() => {
      g.__arbDb = undefined;
    });
  }
  return g.__arbDb;
}

export async function getDb(): Promise<DB> {
  return (await getDbHandle()).db;
}

export async function closeDb(): Promise<void> {
  const h = g.__arbDb;
  g.__arbDb = undefined;
  if (h) await (await h).close();
}

/** Tests: make an already-open database the process's database. */
export function setDbForTests(handle: Handle | null): void {
  g.__arbDb = handle ? Promise.resolve(handle) : undefined;
}

export function isPostgres(): boolean {
  return !!env().DATABASE_URL;
}
