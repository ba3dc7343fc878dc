/**
 * What every ARB process (`npm start`, `npm run worker`) does first: read the .env files, validate the environment and
 * open the database. A bad setting or a held PGlite directory is a person's problem, not a crash: print the message
 * that says what to do and exit 1, without a stack trace.
 */
import fs from 'node:fs';
import path from 'node:path';
import { env, EnvError, type Env } from './env';
import { getDbHandle, DataDirLockedError, type DbTarget } from './db/client';
import { checkKeyFingerprints, KeyMismatchError } from './db/keyFingerprints';
import { log } from './log';

/**
 * Settings from .env.local and .env in the project folder (as `next build` reads them), read before env() so the server
 * sees what the build saw. Variables already in the environment win over the files.
 */
export function loadEnvFiles(root = path.resolve(__dirname, '..')): void {
  for (const name of ['.env.local', '.env']) {
    const file = path.join(root, name);
    if (fs.existsSync(file)) process.loadEnvFile(file);
  }
}

export function envOrExit(): Env {
  try {
    const e = env();
    warnAboutRiskySettings(e);
    return e;
  } catch (err) {
    if (err instanceof EnvError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
}

/** Settings an operator chose against the defaults' advice: said at every start, so nobody forgets them. */
function warnAboutRiskySettings(e: Env): void {
  if (e.ALLOW_PRIVATE_WEBHOOKS && e.NODE_ENV === 'production') {
    log.warn('ALLOW_PRIVATE_WEBHOOKS_IN_PRODUCTION is set: webhooks may point at loopback and private-network addresses, so anyone who connects one can make this server send requests inside your network');
  }
}

/** The database for messages: the PGlite folder, or PostgreSQL's host and database name (never the password). */
function describeTarget(target: DbTarget): string {
  if (target.kind === 'pglite') return target.dataDir ?? 'in memory';
  try {
    const u = new URL(target.url);
    return `postgres ${u.host}${u.pathname}`;
  } catch {
    return 'postgres';
  }
}

/**
 * Opens and migrates the database, then checks that this process's keys are the ones the data was written with
 * (server/db/keyFingerprints.ts).
 */
export async function databaseOrExit(): Promise<Awaited<ReturnType<typeof getDbHandle>>> {
  try {
    const h = await getDbHandle();
    const e = env();
    await checkKeyFingerprints(h.db, { AUTH_SECRET: e.AUTH_SECRET, ENCRYPTION_KEY: e.ENCRYPTION_KEY }, describeTarget(h.target));
    return h;
  } catch (err) {
    if (err instanceof DataDirLockedError || err instanceof KeyMismatchError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
}
