/**
 * A process that runs the background work without a web server: what `npm run worker` starts. Opens and migrates the
 * database, starts every registered background job — the engine's poll and delivery loops and every periodic job
 * (digests, outbox and contact retries, housekeeping; each runs once per period across all worker processes) — and on
 * SIGINT/SIGTERM stops them, finishing or releasing what they hold, before closing the database and exiting 0.
 */
import { closeDb } from '../db/client';
import { databaseOrExit, envOrExit, loadEnvFiles } from '../startup';
import { log } from '../log';
import { startWorkers } from '../workers';
import { startFootprintUpkeep } from '../memory/footprint';

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
  const h = await databaseOrExit();
  const stopFootprintUpkeep = startFootprintUpkeep(h.target.kind);
  const stopWorkers = await startWorkers();
  log.info('worker running', { pid: process.pid });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info('worker shutting down', { signal });
    const force = setTimeout(() => process.exit(1), 30_000);
    force.unref();
    await stopWorkers().catch((err) => log.error('stopping the background jobs failed', { err }));
    await closeDb().catch((err) => log.error('database close failed', { err }));
    stopFootprintUpkeep();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}
