/**
 * Shared set-up for the review-engine benchmarks: a database of the requested kind made the process's database
 * (PostgreSQL started from the system binaries, or PGlite in memory / in a directory), quiet logs, loopback webhooks
 * allowed. Each bench prints `name: value unit` lines only.
 */
import type { DB } from '../../server/db/client';

export type BenchDb = { kind: 'postgres' | 'pglite'; db: DB; close: () => Promise<void> };

export function benchEnv(extra: Record<string, string> = {}): void {
  Object.assign(process.env, { LOG_LEVEL: 'silent', ALLOW_PRIVATE_WEBHOOKS: '1', ALLOW_PRIVATE_WEBHOOKS_IN_PRODUCTION: '1', NODE_ENV: 'production', ...extra });
}

export async function openBenchDb(kind: 'postgres' | 'pglite', pgliteDir?: string): Promise<BenchDb> {
  const { openDatabase, setDbForTests } = await import('../../server/db/client');
  const { migrateToLatest } = await import('../../server/db/migrate');
  let stopServer = async () => {};
  let handle: Awaited<ReturnType<typeof openDatabase>>;
  if (kind === 'postgres') {
    const { startPostgres } = await import('../../tests/helpers/postgres');
    const server = await startPostgres();
    stopServer = () => server.stop();
    handle = await openDatabase({ kind: 'postgres', url: server.url, max: 20 });
  } else {
    handle = await openDatabase({ kind: 'pglite', dataDir: pgliteDir });
  }
  await migrateToLatest(handle.db);
  setDbForTests(handle);
  return {
    kind,
    db: handle.db,
    close: async () => {
      setDbForTests(null);
      await handle.close();
      await stopServer();
    },
  };
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export function figure(name: string, value: number, unit: string): void {
  const shown = value >= 100 ? Math.round(value) : Math.round(value * 100) / 100;
  process.stdout.write(`${name}: ${shown} ${unit}\n`);
}

/** Starts bench/support/feedProcess.ts and resolves with its URL once it listens. */
export async function startFeedProcess(env: Record<string, string>): Promise<{ url: string; stop: () => void }> {
  const { spawn } = await import('node:child_process');
  const path = await import('node:path');
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'feedProcess.ts')], {
    env: { ...process.env, ...env, BENCH_PARENT_PID: String(process.pid) },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += String(d);
      if (out.includes('\n')) resolve(out.split('\n')[0].trim());
    });
    child.once('exit', (code) => reject(new Error(`feed process exited (${code})`)));
  });
  return { url, stop: () => child.kill('SIGTERM') };
}
