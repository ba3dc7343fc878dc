/**
 * End-to-end tests: the built app served by the real one-process server (server/main.ts) against loopback fakes of
 * the outside world, in Debian Chromium. tests/e2e/support/globalSetup.ts builds once when needed, starts the fakes and
 * the server, and hands their addresses to the tests through E2E_* variables (see tests/e2e/fixtures.ts).
 * Never `playwright install`: the browser is the system's /usr/bin/chromium.
 */
import { defineConfig, devices } from '@playwright/test';
import { PLAYWRIGHT_LAUNCH_OPTIONS } from './scripts/chromium.cjs';

/** Specs that start a server with settings of their own beside the run's shared one. */
const OWN_SERVER_SPECS = ['**/static-pages.spec.ts', '**/billing.spec.ts', '**/askArb.spec.ts'];

export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: '**/*.spec.ts',
  globalSetup: './tests/e2e/support/globalSetup.ts',
  // The whole suite shares one server. Four workers on two cores: most of a test's time is spent waiting (the engine's
  // 5 s polls, deliveries, the server's answers), and with two workers the run used a third of the two cores
  // (551 s of wall for 365 s of CPU). Every test makes its own users, apps and hooks, so tests never share state.
  // E2E_WORKERS overrides (1 to debug).
  workers: Number(process.env.E2E_WORKERS) || 4,
  fullyParallel: true,
  retries: process.env.CI === 'true' ? 1 : 0,
  reporter: 'list',
  // Generous: on a 2-core machine busy with builds a page can take seconds. Passing tests never wait for these.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  forbidOnly: process.env.CI === 'true',
  // Playwright hands out tests in project order, then file order. The specs that start a server of their own (a
  // second Next and embedded database, ~8 s of CPU and 10–20 s of wall each) go first, so their start-up overlaps the
  // shared run; last in file order, static-pages.spec ran alone for the final ~25 s.
  projects: [
    { name: 'own-server', testMatch: OWN_SERVER_SPECS },
    { name: 'shared-server', testIgnore: OWN_SERVER_SPECS },
  ],
  outputDir: 'test-results',
  use: {
    ...devices['Desktop Chrome'],
    browserName: 'chromium',
    launchOptions: PLAYWRIGHT_LAUNCH_OPTIONS,
    // A trace snapshots the page at every action and screencasts it: recorded for every test (retain-on-failure), it
    // was a fifth of the suite's CPU (header.spec: 112 → 86 s). Recorded on the retry of a failed test (CI retries
    // once); locally, `npx playwright test --trace on` for one.
    trace: 'on-first-retry',
    screenshot: 'only-on-failure',
    locale: 'en-US',
    timezoneId: 'UTC',
  },
});
