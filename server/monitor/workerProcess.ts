/**
 * A process that runs the background work without a web server: what `npm run worker` starts. Opens and migrates the
 * database, starts every registered background job — the engine's poll and delivery loops and every periodic job
 * (digests, outbox and contact retries, housekeeping; each runs once per period across all worker processes) — and on
 * SIGINT/SIGTERM stops them, finishing or releasing what they hold, before closing the database and exiting 0 (the
 * same shutdown sequence as `npm start`: server/shutdown.ts).
 */
import { startBackgroundJobs } from '../background';
import { closeDb } from '../db/client';
import { BACKGROUND_JOBS } from '../jobs';
import { registerMessageKinds } from '../messageKinds';
import { databaseOrExit, envOrExit, loadEnvFiles } from '../startup';
import { log } from '../log';
import { exitOnSignals, onShutdown, SHUTDOWN_ORDER } from '../shutdown';
import { startFootprintUpkeep } from '../memory/footprint';
import { startMetricsServer } from '../metrics/server';

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
  registerMessageKinds(); // before the delivery loop sends an alert or a weekly summary (server/messageKinds.ts)
  onShutdown('stopping the background jobs', await startBackgroundJobs(BACKGROUND_JOBS), SHUTDOWN_ORDER.stopWork);
  const stopMetrics = await startMetricsServer(); // METRICS_TOKEN set: this process's own /metrics on METRICS_PORT
  if (stopMetrics) onShutdown('metrics listener close', stopMetrics, SHUTDOWN_ORDER.stopWork);
  onShutdown('database close', closeDb, SHUTDOWN_ORDER.closeDatabase);
  onShutdown('footprint upkeep stop', stopFootprintUpkeep, SHUTDOWN_ORDER.afterDatabase);
  log.info('worker running', { pid: process.pid });
  exitOnSignals({ message: 'worker shutting down', deadlineMs: 30_000 });
}
