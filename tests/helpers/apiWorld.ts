/**
 * The set-up API test files share: the outside fakes a file needs, the env pointing at them, a fresh database
 * (testDb.ts) and the real API routes on loopback (api.ts), and one close() for all of it.
 *
 *   const w = setUpStoreApi();   // at the top of a test file: started before its tests, closed after them
 *
 * Files with other outside services start their own fakes and pass them to startApiWorld (billing.test.ts), or build
 * a world of their own (tests/api/support/connectWorld.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { setEnvForTests } from '@/server/env';
import { clearDetailsCache } from '@/server/apps/details';
import { clearSearchCache } from '@/server/apps/search';
import { createTestDb, type TestDb } from './testDb';
import { startTestApi, type TestApi } from './api';
import { startAppStoreFakes, type AppStoreFakes } from '../fakes/appStores';
import { startFakeSmtp, type FakeSmtp } from '../fakes/smtp';

type Env = Record<string, string | undefined>;

export type ApiWorld = {
  db: TestDb;
  api: TestApi;
  /** The file's settings with `overrides` over them, until the next setEnv; `setEnv()` puts the file's own back. */
  setEnv(overrides?: Env): void;
  /** Stops everything and restores the settings from before the file started. */
  close(): Promise<void>;
};

/** The database and the API with the settings `env`; `closeOutside` stops the file's own fakes after them. */
export async function startApiWorld(env: Env, closeOutside: () => Promise<void> = async () => {}): Promise<ApiWorld> {
  const restore = setEnvForTests(env);
  const db = await createTestDb();
  const api = await startTestApi();
  return {
    db,
    api,
    setEnv(overrides = {}) {
      setEnvForTests({ ...env, ...overrides });
    },
    async close() {
      await api.close();
      await db.close();
      restore();
      await closeOutside();
    },
  };
}

export type StoreApi = ApiWorld & { fakes: AppStoreFakes };

/**
 * App search and details: both store hosts (tests/fakes/appStores.ts), an upstream timeout short enough that a hanging
 * store fails fast yet long enough for a real answer on a loaded CI machine (400 ms flaked), and no pacing between
 * Google Play requests.
 */
export async function startStoreApi(env: Env = {}): Promise<StoreApi> {
  const fakes = await startAppStoreFakes();
  const world = await startApiWorld(
    { ...fakes.env, APPS_UPSTREAM_TIMEOUT_MS: '1500', GOOGLE_PLAY_MIN_INTERVAL_MS: '0', ...env },
    () => fakes.close(),
  );
  return { ...world, fakes };
}

/**
 * startStoreApi for the whole test file, and each test starts clean: no store trouble, default Play options, no
 * recorded requests, nothing in the search and details caches (a cached answer would hide the store's).
 * The returned object is filled in by the time the tests run.
 */
export function setUpStoreApi(): StoreApi {
  const world = {} as StoreApi;
  beforeAll(async () => {
    Object.assign(world, await startStoreApi());
  }, 60_000);
  beforeEach(() => {
    clearSearchCache();
    clearDetailsCache();
    world.fakes.reset();
  });
  afterAll(() => world.close());
  return world;
}

export type MailApi = ApiWorld & { smtp: FakeSmtp; dataDir: string };

/**
 * Endpoints that send e-mail: a real SMTP server on loopback, a DATA_DIR of the file's own (the outbox when
 * SMTP_URL is unset; removed by close) and TRUST_PROXY on, so that each call's `ip` is its own client for per-IP limits.
 */
export async function startMailApi(name: string, env: Env = {}): Promise<MailApi> {
  const smtp = await startFakeSmtp();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `arb-${name}-`));
  const world = await startApiWorld({ DATA_DIR: dataDir, TRUST_PROXY: '1', SMTP_URL: smtp.url, ...env }, async () => {
    await smtp.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  return { ...world, smtp, dataDir };
}

/** startMailApi for the whole test file; a test that changes the settings (w.setEnv) has the file's own back after it. */
export function setUpMailApi(name: string, env: Env = {}): MailApi {
  const world = {} as MailApi;
  beforeAll(async () => {
    Object.assign(world, await startMailApi(name, env));
  });
  afterEach(() => world.setEnv());
  afterAll(() => world.close());
  return world;
}
