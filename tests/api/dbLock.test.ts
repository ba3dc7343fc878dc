// PGlite is single-process: a second process that opens the same data directory must be refused with a clear message,
// and a directory left behind by a dead process must open again. The tests share one data directory (initialising a
// PGlite directory is the slow part) and run in order.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, test } from 'vitest';
import { DataDirLockedError, openDatabase } from '@/server/db/client';

const root = path.resolve(__dirname, '../..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'arb-lock-'));
const dataDir = path.join(tmp, 'data');
const pgliteDir = path.join(dataDir, 'pglite'); // where `npm start` puts it for DATA_DIR
const lockFile = path.join(pgliteDir, 'arb.lock');
const children: ChildProcess[] = [];

afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** Starts tests/helpers/holdPglite.ts and resolves once it holds the directory. */
async function holdInAnotherProcess(dir: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'tests/helpers/holdPglite.ts'), dir], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout!.on('data', (d) => {
      out += String(d);
      if (out.includes('ARB-HOLDING')) resolve();
    });
    child.stderr!.on('data', (d) => (err += String(d)));
    child.on('exit', (code) => reject(new Error(`holder exited (${code}): ${err}`)));
  });
  return child;
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));
}

describe.skipIf(process.env.ARB_TEST_DB === 'postgres')('PGlite data directory lock', { timeout: 60_000 }, () => {
  let holder: ChildProcess;

  test('a second process opening the same directory gets a clear error naming the holder', async () => {
    holder = await holdInAnotherProcess(pgliteDir);
    const attempt = openDatabase({ kind: 'pglite', dataDir: pgliteDir });
    await expect(attempt).rejects.toBeInstanceOf(DataDirLockedError);
    await expect(attempt).rejects.toThrow(new RegExp(`already open in another process \\(pid ${holder.pid}\\).*DATABASE_URL`));
    expect(fs.readFileSync(lockFile, 'utf8')).toBe(String(holder.pid));
  });

  test('npm start (server/main.ts) on the held directory exits 1 with that message', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'server/main.ts')], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent', WORKER: 'off' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    children.push(child);
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += String(d)));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(stderr).toMatch(/already open in another process/);
    expect(code).toBe(1);
  });

  test('closing frees the directory', async () => {
    holder.kill('SIGTERM');
    await exited(holder);
    expect(holder.exitCode).toBe(0);
    expect(fs.existsSync(lockFile)).toBe(false);
  });

  test('a killed holder leaves a stale lock, which the next process takes over', async () => {
    const crashed = await holdInAnotherProcess(pgliteDir);
    crashed.kill('SIGKILL');
    await exited(crashed);
    expect(fs.readFileSync(lockFile, 'utf8')).toBe(String(crashed.pid));

    const handle = await openDatabase({ kind: 'pglite', dataDir: pgliteDir });
    const { rows } = await sql<{ ok: number }>`select 1 as ok`.execute(handle.db);
    expect(rows[0].ok).toBe(1);
    expect(fs.readFileSync(lockFile, 'utf8')).toBe(String(process.pid));
    await handle.close();
    expect(fs.existsSync(lockFile)).toBe(false);
  });
});
