import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const alias = { '@': path.resolve(__dirname) };
const quiet = { LOG_LEVEL: 'silent', DATA_DIR: path.resolve(__dirname, 'data-test'), NODE_ENV: 'test' as const };
// Inline projects do not inherit the root `test` options: each spreads these (a cold PGlite or PostgreSQL database
// takes seconds on a busy machine, well past vitest's 5 s/10 s defaults).
const timeouts = { testTimeout: 30_000, hookTimeout: 60_000 };
// Unit and component files run one after another in the same worker, with the modules they imported and (component)
// the jsdom window already set up: a fresh environment and module graph per file was most of these projects' time.
// What a file changes on the side is put back after every test (spies, stubbed env and globals; componentSetup.ts
// empties the DOM and localStorage; resetStores() resets the zustand stores).
// The API and worker files too: a new process per file cost each of them a process start, the whole server's modules
// evaluated again and (PGlite) a new embedded database; now a worker keeps all three. Each file still gets a database
// of its own that starts as the migrated template (tests/helpers/testDb.ts), sets its settings with setEnvForTests
// and puts them back when it closes (tests/helpers/apiWorld.ts).
const shared = { isolate: false, restoreMocks: true, unstubEnvs: true, unstubGlobals: true };

// Projects: unit (node), component (jsdom), and the API/worker suites twice — on PGlite and on a real PostgreSQL
// that tests/helpers/pgGlobalSetup.ts starts and stops.
export default defineConfig({
  resolve: { alias },
  test: {
    globals: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // vitest's default on a 2-core machine is ONE test file at a time (cores − 1). Most API and worker files spend much
    // of their time waiting (PostgreSQL in its own process, loopback fakes, timers, worker processes), so three files
    // at a time keep both cores busy: a clean-clone run took 288 s at two (vmstat: 20–36 % idle) and 222 s at three,
    // with the same CPU; four took 220 s for 7 % more CPU. Every file has its own database (createTestDb) and ports, so
    // they don't share state.
    maxWorkers: 3,
    projects: [
      { resolve: { alias }, test: { ...timeouts, ...shared, name: 'unit', environment: 'node', include: ['tests/unit/**/*.test.ts'], env: quiet } },
      {
        plugins: [react()],
        resolve: { alias },
        test: {
          ...timeouts,
          ...shared,
          name: 'component',
          environment: 'jsdom',
          include: ['tests/component/**/*.test.tsx', 'tests/component/**/*.test.ts'],
          setupFiles: ['tests/helpers/componentSetup.ts'],
          env: { ...quiet, NEXT_PUBLIC_API_BASE: 'http://api.test/api/' },
        },
      },
      {
        resolve: { alias },
        test: {
          ...timeouts,
          ...shared,
          name: 'api-pglite',
          environment: 'node',
          include: ['tests/api/**/*.test.ts', 'tests/worker/**/*.test.ts'],
          globalSetup: ['tests/helpers/pgliteGlobalSetup.ts'],
          env: { ...quiet, ARB_TEST_DB: 'pglite' },
        },
      },
      {
        resolve: { alias },
        test: {
          ...timeouts,
          ...shared,
          name: 'api-postgres',
          environment: 'node',
          include: ['tests/api/**/*.test.ts', 'tests/worker/**/*.test.ts'],
          globalSetup: ['tests/helpers/pgGlobalSetup.ts'],
          env: { ...quiet, ARB_TEST_DB: 'postgres' },
        },
      },
    ],
  },
});
