/**
 * A process that only runs the review engine (no web server): what `npm run worker` starts. Opens and migrates the
 * database, runs the poll and delivery loops, and on SIGINT/SIGTERM stops them — finishing or releasing what they
 * hold — before closing the database and exiting 0.
 */
import { closeDb } from '../db/client';
import { databaseOrExit, envOrExit, loadEnvFiles } from '../startup';
import { log } from '../log';
import { engineOptionsFromEnv, startEngine } from './engine';

export const EMBEDDED_REFUSAL =
  'npm run worker adds worker processes to a shared PostgreSQL, so it needs DATABASE_URL (postgres://…). ' +
  'Without it ARB uses the embedded database (PGlite), which only one process may open — and `npm start` already ' +
  'runs the worker inside that process. Set DATABASE_URL for both `npm start` and `npm run worker` to run more workers.';

export async function runWorkerProcess(opts: { allowEmbedded: boolean }): Promise<void> {
  loadEnvFiles();
  const e = envOrExit();
  if (!e.DATABASE_URL && !opts.allowEmbedded) {
    console.error(EMBEDDED_REFUSAL);
    process.exit(1);
  }
  const { db } = await databaseOrExit();
  const engine = startEngine(db, engineOptionsFromEnv());
  log.info('worker running', { worker: engine.workerId });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info('worker shutting down', { signal });
    const force = setTimeout(() => process.exit(1), 30_000);
    force.unref();
    await engine.stop().catch((err) => log.error('engine stop failed', { err }));
    await closeDb().catch((err) => log.error('database close failed', { err }));
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}
