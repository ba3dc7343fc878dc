/**
 * Once per `playwright test` run: build the app when the build is stale (scripts/ensure-build.cjs), start the loopback
 * fakes of the outside world, then the real server (server/main.ts) pointed at them with a fresh DATA_DIR. The tests
 * find the server at E2E_BASE_URL and the fakes' control API at E2E_CONTROL_URL (tests/e2e/fixtures.ts).
 * Returns the teardown: server first (it may still be talking to the fakes), then the fakes, then the temp folder.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureBuild } from '../../../scripts/ensure-build.cjs';
import { createPgliteTemplate, startServer } from '../../../scripts/arb-server.cjs';
import { startOutsideWorld } from './outsideWorld';
import { E2E_METRICS_TOKEN } from './metricsToken';

export default async function globalSetup(): Promise<() => Promise<void>> {
  const distDir = process.env.NEXT_DIST_DIR || '.next';
  const build = ensureBuild({ distDir });
  if (build.built) console.log(`Built the app in ${Math.round(build.ms / 1000)} s (${build.reason}).`);

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arb-e2e-'));
  // One empty embedded database for every server of the run (this one and those specs start with settings of their
  // own): initdb once, not once per server beside the busy run.
  const [world, pgliteTemplate] = await Promise.all([startOutsideWorld(), createPgliteTemplate(path.join(dataDir, 'pglite-template'))]);
  process.env.E2E_PGLITE_TEMPLATE = pgliteTemplate;
  let server;
  try {
    server = await startServer({
      dataDir,
      distDir,
      pgliteTemplate,
      env: {
        ...world.serverEnv,
        ALLOW_PRIVATE_WEBHOOKS: '1',
        ALLOW_PRIVATE_WEBHOOKS_IN_PRODUCTION: '1', // the fakes are on loopback; the server runs as in production
        POLL_INTERVAL_SECONDS: '5',
        LOG_LEVEL: 'info',
        // As behind a reverse proxy: each sign-in in the run comes from a network of its own (X-Forwarded-For, set by
        // tests/e2e/support/signIn.ts), as visitors do; from one address, the run's sign-ins would pass the per-network
        // limit of sign-in codes (20 an hour), which the API tests check.
        TRUST_PROXY: '1',
        // /metrics on (tests/e2e/metrics.spec.ts reads it from this `npm start` process with the same token).
        METRICS_TOKEN: E2E_METRICS_TOKEN,
      },
    });
  } catch (err) {
    await world.close();
    throw err;
  }
  process.env.E2E_BASE_URL = server.url;
  process.env.E2E_CONTROL_URL = world.controlUrl;
  process.env.E2E_SERVER_LOG = server.logFile;
  // The outside world's addresses, for a spec that starts a server of its own with other settings (billing on).
  process.env.E2E_WORLD_ENV = JSON.stringify(world.serverEnv);

  return async () => {
    await server.stop();
    await world.close();
    if (process.env.E2E_KEEP_DATA === '1') console.log(`Kept the e2e data and server log in ${dataDir}`);
    else fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
