/** Worker processes for the crash and multi-process tests: real child processes, started as `npm run worker` starts one. */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { env as testEnv } from '@/server/env';
import { argsFor } from '../../../scripts/server-node-args.cjs';

const ROOT = path.resolve(__dirname, '../../..');

export type WorkerChild = {
  proc: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output: () => string;
};

/**
 * A worker of this test's installation: it gets this process's AUTH_SECRET and ENCRYPTION_KEY, as every host sharing a
 * database must (start-up refuses generated secrets with DATABASE_URL, and checks the keys' fingerprints); `env` adds
 * or overrides the rest.
 */
export function spawnWorker(entry: string, env: Record<string, string>): WorkerChild {
  // The server's node flags and its CommonJS-only TypeScript hook (scripts/server-node-args.cjs), as scripts/worker.cjs.
  const proc = spawn(process.execPath, argsFor(entry), {
    cwd: ROOT,
    env: { ...process.env, AUTH_SECRET: testEnv().AUTH_SECRET, ENCRYPTION_KEY: testEnv().ENCRYPTION_KEY, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout?.on('data', (d) => (out += String(d)));
  proc.stderr?.on('data', (d) => (out += String(d)));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { proc, exited, output: () => out };
}
