/**
 * What every ARB process (`npm start`, `npm run worker`) does first: read the .env files, validate the environment and
 * open the database. A bad setting or a held PGlite directory is a person's problem, not a crash: print the message
 * that says what to do and exit 1, without a stack trace.
 */
import fs from 'node:fs';
import path from 'node:path';
import { env, EnvError, type Env } from './env';
import { getDbHandle, DataDirLockedError } from './db/client';

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
    return env();
  } catch (err) {
    if (err instanceof EnvError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
}

export async function databaseOrExit(): Promise<Awaited<ReturnType<typeof getDbHandle>>> {
  try {
    return await getDbHandle();
  } catch (err) {
    if (err instanceof DataDirLockedError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
}
