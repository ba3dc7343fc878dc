// kill -9 of a worker process in the middle of delivering, then a restart: nothing lost, nothing repeated.
//
// How the kill is made to land mid-delivery: the receivers answer slowly, and once each receiver has answered 8
// deliveries it stops answering (holdAfter). The test waits until each receiver is holding a request — the worker is
// blocked inside its HTTP call for that message — and sends SIGKILL. Those held requests are the messages whose fate a
// crash leaves unknown: the receiver got the payload but never answered, and the worker never recorded an outcome.
// (A real platform may or may not have posted such a message; no webhook offers a way to ask.) The restarted worker
// finds their attempts without an outcome (`interrupted`) once the dead worker's lease expires and sends them again.
//
// What is asserted, by counting at the receivers: every review completed exactly once per destination (zero lost,
// zero duplicated among completed deliveries), and each message that was in flight at the kill was completed exactly
// once afterwards. The one window not covered — the kill landing after a receiver's answer but before the worker
// records it — is the at-least-once edge documented in server/monitor/README.md.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { setEnvForTests } from '@/server/env';
import { openDatabase, setDbForTests } from '@/server/db/client';
import { migrateToLatest } from '@/server/db/migrate';
import { createDestination, drainDeliveries, ensureApp, pollAppNow } from '@/server/monitor/service';
import { createTestDb, type TestDb } from '../helpers/testDb';
import { appStoreFeedRoutes, createAppStoreFeed } from '../fakes/appStoreFeed';
import { startFakeServer, type FakeServer } from '../fakes/http';
import { startChatWebhooks, type ChatHook, type ChatWebhooks } from '../fakes/chatWebhooks';
import { spawnWorker, type WorkerChild } from './helpers/processes';
import { marker, tally } from './helpers/world';

const APP = { store: 'apple_app_store' as const, appId: '4000001' };
const REVIEWS = 40;
const isPostgres = process.env.ARB_TEST_DB === 'postgres';

const feed = createAppStoreFeed();
let stores: FakeServer;
let chat: ChatWebhooks;
let pg: TestDb | null = null;
let pgliteDir: string | null = null;
let restoreEnv: () => void = () => {};
const children: WorkerChild[] = [];

async function openPglite() {
  const handle = await openDatabase({ kind: 'pglite', dataDir: path.join(pgliteDir!, 'pglite') });
  await migrateToLatest(handle.db);
  setDbForTests(handle);
  return handle;
}

beforeAll(async () => {
  stores = await startFakeServer([appStoreFeedRoutes(feed)]);
  chat = await startChatWebhooks();
  restoreEnv = setEnvForTests({ ITUNES_BASE_URL: stores.url, ALLOW_PRIVATE_WEBHOOKS: '1', DELIVERY_PACING: 'off' });
  if (isPostgres) pg = await createTestDb();
  else pgliteDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arb-crash-'));
}, 60_000);

afterAll(async () => {
  for (const c of children) if (c.proc.exitCode === null && c.proc.signalCode === null) c.proc.kill('SIGKILL');
  restoreEnv();
  await chat.close();
  await stores.close();
  if (pg) await pg.close();
  if (pgliteDir) fs.rmSync(pgliteDir, { recursive: true, force: true });
});

function startWorkerProcess(): WorkerChild {
  const child = spawnWorker('tests/worker/helpers/engineProcess.ts', {
    ...(pg ? { DATABASE_URL: pg.url! } : { DATA_DIR: pgliteDir! }),
    ITUNES_BASE_URL: stores.url,
    ALLOW_PRIVATE_WEBHOOKS: '1',
    DELIVERY_PACING: 'off',
    WORKER_LEASE_SECONDS: '2',
    POLL_INTERVAL_SECONDS: '3600',
    LOG_LEVEL: 'warn',
  });
  children.push(child);
  return child;
}

test('kill -9 during delivery, restart: every review arrives once per destination', async () => {
  const handle = pg ? null : await openPglite();
  await ensureApp({ ...APP, title: 'Orbit Chess' });
  const hooks: ChatHook[] = [chat.hook('slack'), chat.hook('mattermost'), chat.hook('webex')];
  for (const h of hooks) await createDestination({ platform: h.platform, url: h.url, apps: [APP], welcomeCount: 0 });
  await pollAppNow(APP);
  await drainDeliveries({ waitForRetries: true }); // the welcome intros: not part of what is counted
  for (const h of hooks) h.requests.length = 0;
  for (let i = 1; i <= REVIEWS; i++) feed.publish(APP.appId, 'us', { content: `review ${marker(i)}`, updated: new Date(Date.now() + 1000 + i) });
  await pollAppNow(APP); // 3 × 40 deliveries queued, nothing sent yet
  if (handle) {
    setDbForTests(null);
    await handle.close(); // PGlite is single-process: the worker opens the directory now
  }

  for (const h of hooks) {
    h.delayMs = 20; // slow answers: the worker spends its time inside HTTP calls
    h.holdAfter(8); // …and after 8 answered messages the receiver stops answering: the 9th is in flight at the kill
  }
  const first = startWorkerProcess();
  for (const h of hooks) await h.waitForRequests(1, (r) => r.held && r.outcome === 'pending', 60_000);
  first.proc.kill('SIGKILL');
  expect(await first.exited).toMatchObject({ signal: 'SIGKILL' });
  for (const h of hooks) await h.waitForRequests(1, (r) => r.outcome === 'aborted', 5_000);
  const inFlight = hooks.map((h) => h.requests.filter((r) => r.outcome === 'aborted'));
  const deliveredBeforeKill = hooks.map((h) => h.delivered().length);
  expect(deliveredBeforeKill).toEqual([8, 8, 8]); // the kill landed mid-queue, with the 9th message in flight

  for (const h of hooks) {
    h.delayMs = 0;
    h.release();
  }
  const second = startWorkerProcess();
  for (const h of hooks) await h.waitForDelivered(REVIEWS, 30_000);
  second.proc.kill('SIGTERM'); // graceful: finishes or releases what it holds, exits 0
  expect(await second.exited).toMatchObject({ code: 0 });

  for (const [i, h] of hooks.entries()) {
    const counts = tally(h.delivered());
    expect(counts.size, h.platform).toBe(REVIEWS); // zero lost
    expect([...counts.values()].every((n) => n === 1), h.platform).toBe(true); // zero duplicates
    expect(inFlight[i].length, h.platform).toBeGreaterThanOrEqual(1);
    for (const r of inFlight[i]) for (const m of tally([r]).keys()) expect(counts.get(m), `${h.platform} ${m}`).toBe(1);
  }
  expect(second.output()).toContain('sending again a delivery whose previous attempt was interrupted');

  const check = pg ? null : await openPglite();
  const db = (pg ?? { db: check!.db }).db;
  const rows = await db.selectFrom('deliveries').select(['status', 'attempts', 'kind']).where('app_key', '=', `apple_app_store__${APP.appId}`).where('kind', '=', 'new').execute();
  expect(rows).toHaveLength(REVIEWS * hooks.length);
  expect(rows.every((r) => r.status === 'delivered')).toBe(true);
  expect(rows.filter((r) => r.attempts === 2)).toHaveLength(inFlight.reduce((n, a) => n + a.length, 0));
  if (check) {
    setDbForTests(null);
    await check.close();
  }
}, 120_000);
