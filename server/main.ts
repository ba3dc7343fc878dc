/**
 * `npm start`: ONE process — validate env, open and migrate the database, start the background workers, serve Next.
 * Ctrl-C (SIGINT) or SIGTERM stops it cleanly (server/shutdown.ts): stop accepting requests and let those in flight
 * finish (up to 10 s) while the workers stop (they finish or release their work), write the public API's counts, and
 * only then close the database.
 */
import path from 'node:path';
import next from 'next';
import { log } from './log';
import { warnIfCaptchaOff } from './auth/captcha';
import { closeDb } from './db/client';
import { databaseOrExit, envOrExit, loadEnvFiles } from './startup';
import { startBackgroundJobs } from './background';
import { BACKGROUND_JOBS } from './jobs';
import { registerMessageKinds } from './messageKinds';
import { exitOnSignals, onShutdown, SHUTDOWN_ORDER } from './shutdown';
import { createApiRouter } from './http/router';
import { withOpenApiDocument } from './http/openapi';
import { sendApiError } from './http/api';
import { HttpError } from './http/errors';
import { apiRoutes } from './http/routes';
import { loadStaticPages } from './http/staticPages';
import { drainServer } from './http/shutdown';
import { createLimitedServer, DEFAULT_SERVER_LIMITS } from './http/serverLimits';
import { flushApiUsage } from './apiKeys/callCounts';
import { hashPageCspOf, pageCspFor } from './http/scriptHashes';
import { startFootprintUpkeep } from './memory/footprint';
import { serveMetrics } from './metrics/endpoint';

async function main() {
  const dev = process.argv.includes('--dev');
  loadEnvFiles();
  const e = envOrExit();
  warnIfCaptchaOff();
  const h = await databaseOrExit();
  log.info('database ready', { kind: h.target.kind, ...(h.target.kind === 'pglite' ? { dataDir: h.target.dataDir } : {}) });
  const stopFootprintUpkeep = startFootprintUpkeep(h.target.kind);
  // Alerts and weekly summaries are message kinds of their own areas: the engine learns them before it sends.
  registerMessageKinds();
  if (e.WORKER === 'on') onShutdown('stopping the background jobs', await startBackgroundJobs(BACKGROUND_JOBS), SHUTDOWN_ORDER.stopWork);

  const root = path.resolve(__dirname, '..');
  const app = next({ dev, dir: root, port: e.PORT, hostname: 'localhost' });
  await app.prepare();
  const handle = app.getRequestHandler();
  // The API is answered by its own router (same handlers as pages/api), prerendered pages from memory, the rest by Next.
  const routeApi = createApiRouter(withOpenApiDocument(apiRoutes));
  const distDir = path.resolve(root, e.NEXT_DIST_DIR);
  // Pages allow their inline scripts by hash, not 'unsafe-inline' (server/http/scriptHashes.ts); development keeps it.
  const pageCsp = dev ? null : pageCspFor(distDir);
  const staticPages = !dev && e.STATIC_PAGES === 'memory' ? loadStaticPages(distDir, pageCsp ?? undefined) : null;
  // Timeouts, the idle keep-alive time and the per-address connection cap: server/http/serverLimits.ts says why each.
  const limits = { ...DEFAULT_SERVER_LIMITS, maxConnectionsPerAddress: e.TRUST_PROXY ? 0 : e.MAX_CONNECTIONS_PER_ADDRESS };
  const server = createLimitedServer((req, res) => {
    if (serveMetrics(req, res)) return; // only with METRICS_TOKEN set: server/metrics/endpoint.ts
    try {
      if (routeApi(req, res)) return;
    } catch (err) {
      // The router answers its own errors; a throw here is a bug before any handler ran. Still an API-shaped answer.
      log.error('API routing failed', { err, path: req.url });
      if (!res.headersSent) sendApiError(req, res, new HttpError(500, 'internal_error', 'Something went wrong on our side. Try again.'));
      return;
    }
    if (staticPages?.handle(req, res)) return;
    if (pageCsp) hashPageCspOf(res, pageCsp, req.url ?? '');
    handle(req, res).catch((err) => {
      log.error('request handler failed', { err, path: req.url });
      if (!res.headersSent) {
        res.statusCode = 500;
        res.end('Internal error');
      }
    });
  }, limits);
  server.listen(e.PORT, () => log.info('ARB is running', { url: e.APP_URL, port: e.PORT }));

  // Workers stop while the last requests finish; the database closes after both.
  onShutdown(
    'draining the web server',
    async () => {
      if (!(await drainServer(server, 10_000))) log.warn('requests still running after 10 s were cut off at shutdown');
    },
    SHUTDOWN_ORDER.stopWork,
  );
  // The public API's call counts and key uses counted since the last batch, before the database closes.
  onShutdown('public API usage flush', flushApiUsage, SHUTDOWN_ORDER.flushCounts);
  onShutdown('database close', closeDb, SHUTDOWN_ORDER.closeDatabase);
  onShutdown('footprint upkeep stop', stopFootprintUpkeep, SHUTDOWN_ORDER.afterDatabase);
  exitOnSignals({ message: 'shutting down', deadlineMs: 25_000 });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
