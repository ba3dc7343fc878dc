// vitest globalSetup for the PGlite projects: creates and migrates ONE embedded database per run and dumps it to a
// file; createTestDb() then starts each test file's database from that dump. A fresh PGlite cluster runs initdb, which
// is most of its start-up time (seconds, and far more on a busy machine); loading the dump skips it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../server/db/client';
import { migrateToLatest } from '../../server/db/migrate';

export default async function setup(project: TestProject) {
  process.env.LOG_LEVEL ??= 'silent'; // the migration log lines are noise here
  const handle = await openDatabase({ kind: 'pglite' });
  await migrateToLatest(handle.db);
  const dump = await handle.dumpDataDir!();
  await handle.close();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arb-pglite-template-'));
  const file = path.join(dir, 'template.tar');
  fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide('pgliteTemplate', file);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
  }
}
