/**
 * The throughput comparison the API benches share: our server's answer to one call, a bare Node `http` server that
 * replays those exact bytes (the ceiling this machine allows), and autocannon (in a child process, so the load does not
 * share the event loop of the server under test) measuring both in alternating one-second turns of the same run, so
 * other work on the machine weighs on both alike.
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { replayedHeaders, requestRaw, type RawAnswer } from '../lib/rawHttp.mjs';

const root = path.resolve(__dirname, '../..');
const WARMUP_SECONDS = 1;

export type Served = { url: string; close: () => Promise<void> };
export type Call = { path: string; method: 'GET' | 'POST'; body?: string; headers?: Record<string, string> };
export type LoadResult = {
  rps: number;
  p99: number;
  /**
   * CPU time of THIS process per answered request during the runs, in µs: the server's cost when it runs in the bench's
   * process (the ceiling always does; autocannon never does). Steadier than req/s on a busy machine.
   */
  cpuUsPerRequest: number;
};

/** One call of `call` on the server at `base`. */
export const request = (base: string, call: Call): Promise<RawAnswer> => requestRaw(`${base}${call.path}`, { method: call.method, body: call.body, headers: call.headers });

export function listen(server: http.Server): Promise<Served> {
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise((r) => {
            server.closeAllConnections();
            server.close(() => r());
          }),
      });
    });
  });
}

/**
 * A server that answers every request with the recorded answer: the same status, headers (names as sent,
 * Content-Length included so that Node does not switch to chunked encoding) and body bytes. Date, Connection and
 * Keep-Alive are left to Node, which adds them to both servers' answers alike.
 */
export function startCeiling(answer: RawAnswer): Promise<Served> {
  const headers = replayedHeaders(answer.rawHeaders);
  return listen(
    http.createServer((_req, res) => {
      res.writeHead(answer.status, headers);
      res.end(answer.body);
    }),
  );
}

/**
 * The ceiling must answer what our server answered — status, body, every header but Date with the same name and value
 * (the order may differ: Node puts a Content-Length it computed itself after its own headers) — or the comparison is
 * not fair.
 */
export function assertSameAnswer(name: string, ours: RawAnswer, ceiling: RawAnswer): void {
  const headers = (raw: string[]) => {
    const pairs: string[] = [];
    for (let i = 0; i < raw.length; i += 2) if (raw[i].toLowerCase() !== 'date') pairs.push(`${raw[i]}: ${raw[i + 1]}`);
    return JSON.stringify(pairs.sort());
  };
  const same = ours.status === ceiling.status && ours.body.equals(ceiling.body) && headers(ours.rawHeaders) === headers(ceiling.rawHeaders);
  if (!same) {
    throw new Error(`${name}: the ceiling answers differently:\n${JSON.stringify(ours.rawHeaders)}\n${JSON.stringify(ceiling.rawHeaders)}`);
  }
}

export function autocannon(url: string, call: Call, seconds: number, connections: number): Promise<LoadResult> {
  const bin = path.join(root, 'node_modules/autocannon/autocannon.js');
  const args = [bin, '-j', '-c', String(connections), '-d', String(seconds), '-m', call.method];
  if (call.body) args.push('-H', 'Content-Type=application/json', '-b', call.body);
  for (const [k, v] of Object.entries(call.headers ?? {})) args.push('-H', `${k}=${v}`);
  args.push(`${url}${call.path}`);
  return new Promise((resolve, reject) => {
    const cpuBefore = process.cpuUsage();
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`autocannon exited with ${code}: ${err.trim()}`));
      const r = JSON.parse(out) as { requests: { average: number; total: number }; latency: { p99: number }; non2xx: number; errors: number; timeouts: number };
      if (r.non2xx > 0 || r.errors > 0 || r.timeouts > 0) {
        return reject(new Error(`${call.method} ${call.path}: ${r.non2xx} non-2xx answers, ${r.errors} errors, ${r.timeouts} timeouts`));
      }
      const cpu = process.cpuUsage(cpuBefore);
      resolve({ rps: r.requests.average, p99: r.latency.p99, cpuUsPerRequest: (cpu.user + cpu.system) / Math.max(1, r.requests.total) });
    });
  });
}

/** Several runs as one: the mean requests/s and the worst p99 (the runs' latencies are not kept to merge). */
function combine(runs: LoadResult[]): LoadResult {
  const mean = (f: (r: LoadResult) => number) => runs.reduce((sum, r) => sum + f(r), 0) / runs.length;
  return { rps: mean((r) => r.rps), p99: Math.max(...runs.map((r) => r.p99)), cpuUsPerRequest: mean((r) => r.cpuUsPerRequest) };
}

/**
 * Our server against the ceiling replaying `answer` (checked to be the same bytes first): an unmeasured warm-up run
 * each, then `seconds` one-second runs taking turns.
 */
export async function againstCeiling(name: string, server: Served, call: Call, answer: RawAnswer, seconds: number, connections: number): Promise<{ api: LoadResult; ceiling: LoadResult }> {
  const ceilingServer = await startCeiling(answer);
  try {
    assertSameAnswer(name, answer, await request(ceilingServer.url, call));
    // Each server gets a short unmeasured run first, so both are measured with their code already optimised by V8.
    await autocannon(server.url, call, WARMUP_SECONDS, connections);
    await autocannon(ceilingServer.url, call, WARMUP_SECONDS, connections);
    const ours: LoadResult[] = [];
    const bare: LoadResult[] = [];
    for (let i = 0; i < seconds; i++) {
      ours.push(await autocannon(server.url, call, 1, connections));
      bare.push(await autocannon(ceilingServer.url, call, 1, connections));
    }
    return { api: combine(ours), ceiling: combine(bare) };
  } finally {
    await ceilingServer.close();
  }
}
