// The background jobs are one explicit list (server/jobs.ts) that `npm start` and `npm run worker` start: a job module
// exports its job and starts nothing when imported. A job someone defines but forgets to list would silently never
// run, so every job any server module exports must be in the list, each under its own name.
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import type { BackgroundJob } from '@/server/background';
import { BACKGROUND_JOBS } from '@/server/jobs';

const root = path.resolve(__dirname, '../..');
const server = path.join(root, 'server');
const serverFiles = fs
  .readdirSync(server, { recursive: true, encoding: 'utf8' })
  .filter((f) => /\.ts$/.test(f) && !f.endsWith('.d.ts'))
  .map((f) => f.split(path.sep).join('/'));

/** Modules that build a job: they call periodicJob or type a value as a BackgroundJob (the helpers themselves aside). */
const jobModules = serverFiles.filter(
  (f) => !['background.ts', 'periodic.ts', 'jobs.ts'].includes(f) && /\bperiodicJob\(|:\s*BackgroundJob\b/.test(fs.readFileSync(path.join(server, f), 'utf8')),
);

const isJob = (v: unknown): v is BackgroundJob =>
  typeof v === 'object' && v !== null && typeof (v as BackgroundJob).name === 'string' && typeof (v as BackgroundJob).start === 'function';

test('every job a server module exports is in the list of server/jobs.ts', async () => {
  expect(jobModules.length).toBeGreaterThanOrEqual(12);
  const missing: string[] = [];
  for (const file of jobModules) {
    const exported = Object.values((await import(path.join(server, file))) as Record<string, unknown>).filter(isJob);
    expect(exported.length, `server/${file} builds a job but exports none: export it and list it in server/jobs.ts`).toBeGreaterThan(0);
    for (const job of exported) if (!BACKGROUND_JOBS.includes(job)) missing.push(`${job.name} (server/${file})`);
  }
  expect(missing).toEqual([]);
});

test('each job has its own name (job_runs keys periodic jobs by name)', () => {
  const names = BACKGROUND_JOBS.map((j) => j.name);
  expect(new Set(names).size).toBe(names.length);
});

test('no server module registers a job as a side effect of being imported', () => {
  const offenders = serverFiles.filter((f) => /\bregisterBackgroundJob\s*\(/.test(fs.readFileSync(path.join(server, f), 'utf8')));
  expect(offenders).toEqual([]);
});
