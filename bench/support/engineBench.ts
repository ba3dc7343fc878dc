/**
 * Shared set-up for the review-engine benchmarks: a database of the requested kind made the process's database
 * (PostgreSQL started from the system binaries, or PGlite in memory / in a directory), quiet logs, loopback webhooks
 * allowed. Each bench prints `name: value unit` lines only.
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { sql, type KyselyPlugin, type RawBuilder } from 'kysely';
import type { DB } from '../../server/db/client';
import type { ChatPlatform } from '../../tests/fakes/chatWebhooks';
import { SERVER_NODE_FLAGS } from '../../scripts/server-node-args.cjs';

export type BenchDb = { kind: 'postgres' | 'pglite'; db: DB; close: () => Promise<void> };

/**
 * Loads one of the project's TypeScript modules when a bench asks for it (after benchEnv), by require: the benches
 * that run under the server's node flags have tsx's CommonJS hook only, which import() of a .ts file does not go
 * through (scripts/server-node-args.cjs). `from`: the caller's __filename, for relative ids.
 */
export function loadModule<T>(from: string, id: string): T {
  return createRequire(from)(id) as T;
}

export function benchEnv(extra: Record<string, string> = {}): void {
  Object.assign(process.env, { LOG_LEVEL: 'silent', ALLOW_PRIVATE_WEBHOOKS: '1', ALLOW_PRIVATE_WEBHOOKS_IN_PRODUCTION: '1', NODE_ENV: 'production', ...extra });
}

export async function openBenchDb(kind: 'postgres' | 'pglite', pgliteDir?: string): Promise<BenchDb> {
  const { openDatabase, setDbForTests } = loadModule<typeof import('../../server/db/client')>(__filename, '../../server/db/client');
  const { migrateToLatest } = loadModule<typeof import('../../server/db/migrate')>(__filename, '../../server/db/migrate');
  let stopServer = async () => {};
  let handle: Awaited<ReturnType<typeof openDatabase>>;
  if (kind === 'postgres') {
    const { startPostgres } = loadModule<typeof import('../../tests/helpers/postgres')>(__filename, '../../tests/helpers/postgres');
    // BENCH_PG_STATEMENTS=1: the server counts each statement's planning and execution (printStatementStats).
    const settings: Record<string, string> = process.env.BENCH_PG_STATEMENTS ? { shared_preload_libraries: 'pg_stat_statements', 'pg_stat_statements.track_planning': 'on' } : {};
    // BENCH_PG_EXPLAIN_MS=n: the plan (EXPLAIN ANALYZE) of every statement slower than n ms, in the server's log under
    // BENCH_PG_LOG_DIR (default tmp/bench-logs/pg-explain; the server runs as user postgres when we are root).
    if (process.env.BENCH_PG_EXPLAIN_MS) {
      const fs = await import('node:fs');
      const dir = path.resolve(process.env.BENCH_PG_LOG_DIR ?? 'tmp/bench-logs/pg-explain');
      fs.mkdirSync(dir, { recursive: true, mode: 0o777 });
      fs.chmodSync(dir, 0o777);
      settings.shared_preload_libraries = [settings.shared_preload_libraries, 'auto_explain'].filter(Boolean).join(',');
      Object.assign(settings, { 'auto_explain.log_min_duration': `${process.env.BENCH_PG_EXPLAIN_MS}ms`, 'auto_explain.log_analyze': 'on', 'auto_explain.log_nested_statements': 'on', logging_collector: 'on', log_directory: dir });
    }
    const server = await startPostgres({ settings });
    stopServer = () => server.stop();
    handle = await openDatabase({ kind: 'postgres', url: server.url, max: 20 });
  } else {
    handle = await openDatabase({ kind: 'pglite', dataDir: pgliteDir });
  }
  await migrateToLatest(handle.db);
  if (kind === 'postgres' && process.env.BENCH_PG_STATEMENTS) await sql`create extension if not exists pg_stat_statements`.execute(handle.db);
  setDbForTests(handle);
  // What the server does once its database is open (server/main.ts): the engine runs in the same memory regime.
  const { startFootprintUpkeep } = loadModule<typeof import('../../server/memory/footprint')>(__filename, '../../server/memory/footprint');
  const stopFootprintUpkeep = startFootprintUpkeep(kind);
  return {
    kind,
    db: handle.db,
    close: async () => {
      stopFootprintUpkeep();
      setDbForTests(null);
      await handle.close();
      await stopServer();
    },
  };
}

/**
 * BENCH_PG_STATEMENTS=1, PostgreSQL: the statements that cost the server most since it started — calls, how many of
 * them were planned, total planning and execution time — on stderr (the figures stay on stdout).
 */
export async function printStatementStats(bench: BenchDb): Promise<void> {
  if (bench.kind !== 'postgres' || !process.env.BENCH_PG_STATEMENTS) return;
  const r = await sql<{ calls: number; plans: number; plan_ms: number; exec_ms: number; statement: string }>`
    select calls::int, plans::int, round(total_plan_time::numeric, 1)::float8 as plan_ms, round(total_exec_time::numeric, 1)::float8 as exec_ms,
           left(regexp_replace(query, '\\s+', ' ', 'g'), 100) as statement
      from pg_stat_statements order by total_plan_time + total_exec_time desc limit 12`.execute(bench.db);
  console.error(r.rows.map((x) => `${x.calls} calls, ${x.plans} planned, plan ${x.plan_ms} ms, exec ${x.exec_ms} ms: ${x.statement}`).join('\n'));
}

/** Counts the statements sent through a database handle it is plugged into (`db.withPlugin(counter.plugin)`). */
export function statementCounter(): { plugin: KyselyPlugin; count: () => number } {
  let n = 0;
  return {
    plugin: {
      transformQuery: (args) => {
        n++;
        return args.node;
      },
      transformResult: async (args) => args.result,
    },
    count: () => n,
  };
}

/**
 * Runs this bench's file again in a child node started as `npm start` starts the server (scripts/server-node-args.cjs:
 * its young generation's size and its one V8 helper thread change what garbage collection and compilation cost), with
 * `env` added; its output goes to ours. Throws when the child fails.
 */
export function rerunWithServerFlags(file: string, env: Record<string, string>): void {
  const r = spawnSync(process.execPath, [...SERVER_NODE_FLAGS, file], { env: { ...process.env, ...env }, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) throw new Error(`${path.basename(file)} (${Object.entries(env).map(([k, v]) => `${k}=${v}`).join(' ')}) failed (${r.status ?? r.signal})`);
}

/** Calls `work(i)` for every i below `count`, at most `concurrency` at a time, each worker taking the next index. */
export async function eachAtATime(count: number, concurrency: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      for (let i = next++; i < count; i = next++) await work(i);
    }),
  );
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/**
 * The statement's plan as it ran (EXPLAIN ANALYZE: the statement runs) to the log under `title`. `extra`: more EXPLAIN
 * options before `costs off` ('buffers', 'settings on'). Costs stay off, so the log diffs across runs (and, as with
 * costs off, PostgreSQL prints no JIT section).
 */
export async function logPlan(db: DB, title: string, statement: RawBuilder<unknown>, extra: string[] = []): Promise<void> {
  const options = sql.raw(['analyze', ...extra, 'costs off'].join(', '));
  const plan = await sql<Record<string, string>>`explain (${options}) ${statement}`.execute(db);
  console.error(`\n--- ${title}\n${plan.rows.map((r) => Object.values(r)[0]).join('\n')}`);
}

export function figure(name: string, value: number, unit: string): void {
  const shown = value >= 100 ? Math.round(value) : Math.round(value * 100) / 100;
  process.stdout.write(`${name}: ${shown} ${unit}\n`);
}

/** In a bench's child process: never outlive the benchmark that started it, even if that one crashed. */
export function exitWithParent(): void {
  const parent = Number(process.env.BENCH_PARENT_PID);
  setInterval(() => {
    try {
      process.kill(parent, 0);
    } catch {
      process.exit(0);
    }
  }, 500).unref();
}

/** Starts a bench/support/*Process.ts script and resolves with the first line it prints (its URL or URLs). */
async function startChild(script: string, env: Record<string, string>): Promise<{ line: string; stop: () => void }> {
  const { spawn } = await import('node:child_process');
  const path = await import('node:path');
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, script)], {
    env: { ...process.env, ...env, BENCH_PARENT_PID: String(process.pid) },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += String(d);
      if (out.includes('\n')) resolve(out.split('\n')[0].trim());
    });
    child.once('exit', (code) => reject(new Error(`${script} exited (${code})`)));
  });
  return { line, stop: () => child.kill('SIGTERM') };
}

/** Starts bench/support/feedProcess.ts and resolves with its URL once it listens. */
export async function startFeedProcess(env: Record<string, string>): Promise<{ url: string; stop: () => void }> {
  const { line, stop } = await startChild('feedProcess.ts', env);
  return { url: line, stop };
}

export type RemoteHook = { platform: ChatPlatform; url: string };

/** The chat webhook fakes in their own process (bench/support/chatProcess.ts), as far away as a real receiver. */
export type ChatProcess = {
  hook: (platform: ChatPlatform) => Promise<RemoteHook>;
  deliveredCount: () => Promise<number>;
  /** Resolves with the count once it reaches `n`, or after `ms`: one request, answered by the chat process. */
  waitForDelivered: (n: number, ms: number) => Promise<number>;
  /** Per hook URL, when each delivered message arrived (ms since epoch). */
  delivered: () => Promise<Record<string, number[]>>;
  stop: () => void;
};

export async function startChatProcess(): Promise<ChatProcess> {
  const { line, stop } = await startChild('chatProcess.ts', {});
  const control = line.split(' ')[1];
  const get = async <T>(path: string, method = 'GET') => (await (await fetch(`${control}${path}`, { method })).json()) as T;
  return {
    hook: async (platform) => ({ platform, url: (await get<{ url: string }>(`/hook?platform=${platform}`, 'POST')).url }),
    deliveredCount: async () => (await get<{ delivered: number }>('/count')).delivered,
    waitForDelivered: async (n, ms) => (await get<{ delivered: number }>(`/wait?n=${n}&ms=${ms}`)).delivered,
    delivered: () => get<Record<string, number[]>>('/delivered'),
    stop,
  };
}

/**
 * When BENCH_CPU_PROFILE_DIR is set, records a CPU profile of this process for just the measured part of a run (a
 * whole-run `node --cpu-prof` is mostly set-up: starting PostgreSQL, migrations) and writes `<dir>/<name>.cpuprofile`
 * on stop, for Chrome DevTools or any .cpuprofile reader. Otherwise does nothing.
 */
export async function profileWindow(name: string): Promise<() => Promise<void>> {
  const dir = process.env.BENCH_CPU_PROFILE_DIR;
  if (!dir) return async () => {};
  const { Session } = await import('node:inspector/promises');
  const fs = await import('node:fs');
  const path = await import('node:path');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 500 });
  await session.post('Profiler.start');
  return async () => {
    const { profile } = await session.post('Profiler.stop');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `${name}.cpuprofile`), JSON.stringify(profile));
    session.disconnect();
  };
}
