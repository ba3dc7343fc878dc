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

// Projects: unit (node), component (jsdom), and the API/worker suites on PGlite and on a real PostgreSQL that
// tests/helpers/pgGlobalSetup.ts starts and stops.
// PostgreSQL runs what its semantics can change: the worker files, and every API file about stored data, SQL, races,
// locks, queues, the pipeline, billing sync or claims. The files below prove HTTP behaviour — validation, the error
// shape, fuzzing, authorization answers, outside services' formats, in-memory caches and single flights — which the
// database underneath cannot change: they run once, on PGlite. A file that starts to depend on what the database does
// (concurrent requests meeting in SQL, a query's result, a lock) leaves this list.
const HTTP_BEHAVIOUR_ONLY = [
  'tests/api/http.test.ts', // the endpoint framework: methods, bodies, validation, request ids, headers, CORS, OpenAPI
  'tests/api/fuzz.test.ts', // malformed input to every route: 4xx, never a 500
  'tests/api/auth.test.ts', // sign-in, sessions, hand-off: answers and limits (its races on one row: authRaces.test.ts)
  'tests/api/orgAuthorization.test.ts', // another organisation's ids → 404, a member where admins act → 403
  'tests/api/strangerRequests.test.ts', // what a stranger's half-sent request costs before anyone is known
  'tests/api/idsInLogs.test.ts', // what the log says
  'tests/api/appDetails.test.ts', // store lookups through the fakes; the single flight is in memory
  'tests/api/search.test.ts', // the same for searches
  'tests/api/contact.test.ts', // validation, the e-mail, the per-IP limit (the limiter itself: rateLimit.test.ts)
  'tests/api/billing.test.ts', // 503 without Stripe, Checkout and portal requests in Stripe's formats
  'tests/api/connectOAuth.test.ts', // Slack and Discord OAuth exchanges and their signed state
  'tests/api/apiKeys.test.ts', // a key shown once, listed, revoked: answers and roles
  'tests/api/aiDrafts.test.ts', // the model's request and the draft's limits
  'tests/api/aiTranslate.test.ts', // translators' request shapes on loopback
  'tests/api/translateReview.test.ts', // the translate route's answers
  'tests/api/askArbCeilings.test.ts', // what one question may ask of the model
  'tests/api/appEvent.test.ts', // the analytics event: validated, stored as sent
  'tests/api/dbLock.test.ts', // PGlite's own data-directory lock (skipped on PostgreSQL)
  'tests/api/pgliteDir.test.ts', // PGlite's own initdb (skipped on PostgreSQL)
  'tests/api/n8nNode.test.ts', // the n8n node in n8n's engine: its requests and what it makes of the answers (the API's stored-data behaviour: publicApiSeedRequests.test.ts, both databases)
  'tests/api/n8nDeclarative.test.ts', // what n8n's declarative engine (RoutingNode) sends, recorded on loopback, and the answers
];
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
          setupFiles: ['tests/helpers/answerCheckSetup.ts', 'tests/helpers/statusCheckSetup.ts', 'tests/helpers/messageKindsSetup.ts'], // answers checked against the schema and the document; the engine's message kinds (server/messageKinds.ts)
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
          setupFiles: ['tests/helpers/answerCheckSetup.ts', 'tests/helpers/statusCheckSetup.ts', 'tests/helpers/messageKindsSetup.ts'], // answers checked against the schema and the document; the engine's message kinds (server/messageKinds.ts)
          include: ['tests/api/**/*.test.ts', 'tests/worker/**/*.test.ts'],
          exclude: HTTP_BEHAVIOUR_ONLY,
          globalSetup: ['tests/helpers/pgGlobalSetup.ts'],
          env: { ...quiet, ARB_TEST_DB: 'postgres' },
        },
      },
    ],
  },
});
