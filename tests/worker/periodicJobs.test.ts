// Every periodic job (digests, outbox and contact retries, housekeeping) runs in `npm run worker` processes too — not
// only in `npm start` — and exactly once per period across all of them. Two real worker processes on one PostgreSQL,
// every job at a 1.5 s period: the runs of each job, from both logs together, are never closer than a period, and
// both processes take turns. PostgreSQL only: the embedded database is one process anyway.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { setEnvForTests } from '@/server/env';
import { createTestDb, type TestDb } from '../helpers/testDb';
import { spawnWorker, type WorkerChild } from './helpers/processes';

const isPostgres = process.env.ARB_TEST_DB === 'postgres';
const PERIOD_MS = 1500;
const JOBS = ['auth-housekeeping', 'contact-resend', 'review-email-outbox', 'review-email-digest', 'weekly-summaries'];

type Run = { job: string; at: number; by: string };

function runsIn(output: string): Run[] {
  const runs: Run[] = [];
  for (const line of output.split('\n')) {
    if (!line.includes('periodic job running')) continue;
    const entry = JSON.parse(line) as { started: string; job: string; by: string };
    runs.push({ job: entry.job, at: Date.parse(entry.started), by: entry.by });
  }
  return runs;
}

describe.skipIf(!isPostgres)('periodic jobs across worker processes', () => {
  let db: TestDb;
  let restore: () => void = () => {};
  const children: WorkerChild[] = [];

  beforeAll(async () => {
    db = await createTestDb();
    restore = setEnvForTests({});
  }, 60_000);

  afterAll(async () => {
    for (const c of children) if (c.proc.exitCode === null && c.proc.signalCode === null) c.proc.kill('SIGKILL');
    restore();
    await db.close();
  });

  test('two `npm run worker` processes: each job runs once per period, housekeeping included', async () => {
    // An expired rate-limit counter: only the hourly housekeeping deletes it.
    await db.db.insertInto('rate_limits').values({ key: 'test:expired', count: 3, window_ends_at: new Date(Date.now() - 60_000) }).execute();

    const workerEnv = {
      DATABASE_URL: db.url!,
      LOG_LEVEL: 'debug',
      POLL_INTERVAL_SECONDS: '3600',
      PERIODIC_JOB_INTERVAL_MS: String(PERIOD_MS),
    };
    children.push(spawnWorker('server/worker-main.ts', workerEnv), spawnWorker('server/worker-main.ts', workerEnv));
    const deadline = Date.now() + 40_000;
    while (!children.every((c) => c.output().includes('worker running')) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 6 * PERIOD_MS));
    for (const c of children) c.proc.kill('SIGTERM');
    for (const c of children) expect(await c.exited, c.output().slice(-2000)).toMatchObject({ code: 0 });

    const runs = children.flatMap((c) => runsIn(c.output()));
    for (const job of JOBS) {
      const times = runs.filter((r) => r.job === job).map((r) => r.at).sort((a, b) => a - b);
      expect(times.length, job).toBeGreaterThanOrEqual(3);
      // Never two runs in one period (start times as the database's clock gave them when each run was claimed).
      for (let i = 1; i < times.length; i++) expect(times[i] - times[i - 1], job).toBeGreaterThanOrEqual(PERIOD_MS);
    }
    expect(new Set(runs.map((r) => r.by.split(':')[1])).size).toBe(2); // both processes took turns

    const left = await db.db.selectFrom('rate_limits').select('key').where('key', '=', 'test:expired').execute();
    expect(left).toHaveLength(0);
  }, 90_000);
});
