// What a stranger's request costs before anyone is known, through the real routes over raw loopback sockets (so a
// request can send its headers and never its body): Stripe's webhook and Slack's interactions refuse a header that
// cannot be the sender's — Stripe's `t=…,v1=…` shape and five-minute window, Slack's timestamp window — without
// reading the body, the Stripe body stops at 256 KiB, a client that leaves mid-body is one info line without a stack,
// and the server itself (server/http/serverLimits.ts, as server/main.ts makes it) gives a request 30 s, caps the
// connections of one address and destroys the ones over it.
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { DEFAULT_SERVER_LIMITS, createLimitedServer } from '@/server/http/serverLimits';
import { WEBHOOK_MAX_BYTES } from '@/server/billing/webhook';
import { startApiWorld, type ApiWorld } from '../helpers/apiWorld';
import { captureLogs } from '../helpers/captureLogs';

let w: ApiWorld;
const SETTINGS = { STRIPE_SECRET_KEY: 'sk_test_strangers', STRIPE_WEBHOOK_SECRET: 'whsec_strangers', SLACK_SIGNING_SECRET: 'slack-signing-secret' };

beforeAll(async () => {
  w = await startApiWorld(SETTINGS);
});
afterEach(() => w.setEnv());
afterAll(async () => {
  await w.close();
});

type Raw = { status: number | null; text: string; closedBy: 'server' | 'timeout'; ms: number };

/**
 * Writes `head` (and `body`, if any) on a fresh connection and keeps it open, reading what comes back until the server
 * closes it or `waitMs` pass. A request that sends its headers and then nothing is what a server reading the body
 * would wait on: only a server that answers from the headers closes it in time.
 */
function rawRequest(url: string, head: string, body = '', waitMs = 3000): Promise<Raw> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = net.connect(Number(port), hostname);
    let text = '';
    const finish = (closedBy: Raw['closedBy']) => {
      clearTimeout(timer);
      socket.destroy();
      const status = /^HTTP\/1\.1 (\d{3})/.exec(text);
      resolve({ status: status ? Number(status[1]) : null, text, closedBy, ms: performance.now() - started });
    };
    const timer = setTimeout(() => finish('timeout'), waitMs);
    socket.setEncoding('utf8');
    socket.on('data', (c: string) => (text += c));
    socket.on('end', () => finish('server'));
    socket.on('error', () => finish('server'));
    socket.write(head + body);
  });
}

const now = () => Math.floor(Date.now() / 1000);
const stripeHead = (signature: string, length: number) =>
  `POST /api/v1/stripe/webhook HTTP/1.1\r\nHost: arb.test\r\nContent-Type: application/json\r\nStripe-Signature: ${signature}\r\nContent-Length: ${length}\r\n\r\n`;
const hex = 'ab'.repeat(32);

describe("Stripe's webhook, before the body", () => {
  test('a header that is not Stripe’s shape, or outside the five minutes, is 400 without the body being read', async () => {
    for (const signature of ['nonsense', `t=${now()}`, `t=${now()},v1=short`, `v1=${hex}`, `t=${now() - 600},v1=${hex}`, `t=${now() + 600},v1=${hex}`]) {
      const r = await rawRequest(w.api.url, stripeHead(signature, 200_000));
      expect(r.closedBy, signature).toBe('server');
      expect(r.status, signature).toBe(400);
      expect(r.text).toMatch(/"code":"invalid_signature"/);
      expect(r.text).toMatch(/connection: close/i);
    }
  });

  test(`a body over ${WEBHOOK_MAX_BYTES / 1024} KiB is 413: declared, before it is sent; streamed, once it passes the limit`, async () => {
    expect(WEBHOOK_MAX_BYTES).toBe(256 * 1024);
    const declared = await rawRequest(w.api.url, stripeHead(`t=${now()},v1=${hex}`, WEBHOOK_MAX_BYTES + 1));
    expect(declared.closedBy).toBe('server');
    expect(declared.status).toBe(413);

    const chunk = 'x'.repeat(16 * 1024);
    const chunked = `POST /api/v1/stripe/webhook HTTP/1.1\r\nHost: arb.test\r\nContent-Type: application/json\r\nStripe-Signature: t=${now()},v1=${hex}\r\nTransfer-Encoding: chunked\r\n\r\n`;
    const body = `${chunk.length.toString(16)}\r\n${chunk}\r\n`.repeat(17) + '0\r\n\r\n'; // 272 KiB
    const streamed = await rawRequest(w.api.url, chunked, body, 1000);
    expect(streamed.status).toBe(413);
  });
});

describe("Slack's requests, before the body", () => {
  const slackHead = (timestamp: string, signature: string) =>
    `POST /api/v1/slack/interactions HTTP/1.1\r\nHost: arb.test\r\nContent-Type: application/x-www-form-urlencoded\r\nX-Slack-Request-Timestamp: ${timestamp}\r\nX-Slack-Signature: ${signature}\r\nContent-Length: 100000\r\n\r\n`;

  test('a timestamp outside five minutes, or no signature, is 401 without the body being read', async () => {
    for (const [timestamp, signature] of [[String(now() - 301), `v0=${hex}`], [String(now() + 400), `v0=${hex}`], ['yesterday', `v0=${hex}`], [String(now()), 'none']]) {
      const r = await rawRequest(w.api.url, slackHead(timestamp, signature));
      expect(r.closedBy, timestamp).toBe('server');
      expect(r.status, timestamp).toBe(401);
      expect(r.text).toMatch(/X-Slack-(Request-Timestamp|Signature)/);
    }
  });
});


describe('a client that leaves mid-body', () => {
  test('is one info line without a stack, not an error', async () => {
    w.setEnv({ LOG_LEVEL: 'info' });
    const logs = captureLogs();
    const { port } = new URL(w.api.url);
    const socket = net.connect(Number(port), '127.0.0.1');
    await new Promise<void>((r) => socket.once('connect', () => r()));
    socket.write('POST /api/v1/public/contact HTTP/1.1\r\nHost: arb.test\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"email":');
    await new Promise((r) => setTimeout(r, 100));
    socket.destroy();
    await expect.poll(() => logs().filter((l) => l.path === '/api/v1/public/contact').length, { timeout: 5000 }).toBeGreaterThan(0);
    const lines = logs().filter((l) => l.path === '/api/v1/public/contact');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 'info', msg: 'request abandoned by the client' });
    expect(JSON.stringify(lines[0])).not.toMatch(/stack/);
    vi.restoreAllMocks();
  });
});

describe('the server’s own limits', () => {
  const servers: http.Server[] = [];
  afterAll(async () => {
    for (const s of servers) {
      s.closeAllConnections();
      await new Promise<void>((r) => s.close(() => r()));
    }
  });
  async function serve(limits: Partial<Parameters<typeof createLimitedServer>[1]> = {}) {
    const server = createLimitedServer((req, res) => {
      req.resume();
      req.on('end', () => res.end('ok'));
    }, { ...DEFAULT_SERVER_LIMITS, maxConnectionsPerAddress: 64, ...limits });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
  }

  test('as server/main.ts makes it: 30 s for a whole request, headers within it, idle connections 65 s', async () => {
    const { server } = await serve();
    expect(server.requestTimeout).toBe(30_000);
    expect(server.headersTimeout).toBeLessThanOrEqual(server.requestTimeout);
    expect(server.keepAliveTimeout).toBe(65_000);
  });

  test('a request whose body trickles past the request timeout gets 408 and is closed', async () => {
    const { url } = await serve({ requestTimeoutMs: 600, headersTimeoutMs: 600, checkIntervalMs: 100 });
    const { port } = new URL(url);
    const socket = net.connect(Number(port), '127.0.0.1');
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (c: string) => (text += c));
    socket.write('POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n');
    const trickle = setInterval(() => socket.writable && socket.write('a'), 150);
    await new Promise<void>((r) => socket.once('close', () => r()));
    clearInterval(trickle);
    expect(text).toMatch(/^HTTP\/1\.1 408/);
  });

  test('connections over the per-address cap are destroyed at once; one closing makes room', async () => {
    const { server, url } = await serve({ maxConnectionsPerAddress: 3 });
    const { port } = new URL(url);
    const open = async () => {
      const s = net.connect(Number(port), '127.0.0.1');
      await new Promise<void>((r) => s.once('connect', () => r()));
      return s;
    };
    const held = [await open(), await open(), await open()];
    await expect.poll(() => new Promise<number>((r) => server.getConnections((_e, n) => r(n)))).toBe(3);
    const over = await open();
    await new Promise<void>((r) => over.once('close', () => r()));
    expect(over.destroyed).toBe(true);
    expect(held.every((s) => !s.destroyed)).toBe(true);
    const refused = await rawRequest(url, 'GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(refused.status).toBeNull();

    held[0].destroy();
    await expect.poll(() => new Promise<number>((r) => server.getConnections((_e, n) => r(n)))).toBe(2);
    const room = await rawRequest(url, 'GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(room.status).toBe(200);
    for (const s of held) s.destroy();
  });
});
