/**
 * What one client may cost the HTTP server before any handler runs: how long it may take to send a request, how
 * long an idle connection is kept, and how many connections one address may hold open at once. server/main.ts
 * creates its server with `createLimitedServer`; the tests do the same with shorter times.
 */
import http from 'node:http';
import type { Socket } from 'node:net';
import ipaddr from 'ipaddr.js';
import { log } from '../log';
import { ipRateKey } from './rateLimit';

export type ServerLimits = {
  /** The whole request (headers and body) must have arrived within this; past it Node answers 408 and closes. */
  requestTimeoutMs: number;
  /** The headers alone. Node requires headersTimeout ≤ requestTimeout (it throws at creation otherwise). */
  headersTimeoutMs: number;
  /** How often Node looks for requests over those times: the timeouts fire up to this much late. */
  checkIntervalMs: number;
  /** An idle keep-alive connection is kept this long. */
  keepAliveTimeoutMs: number;
  /** Connections one client address (IPv6: its /64) may hold open at once; more are destroyed at once. 0 = no cap. */
  maxConnectionsPerAddress: number;
};

/**
 * 30 s for a whole request: the API's bodies are at most a megabyte, and a client slower than that is either gone or
 * holding a connection on purpose (a slow-loris). Headers get 20 s of it.
 *
 * The idle keep-alive connection stays open 65 s, not Node's 5 s: a client that reuses a connection it kept idle for
 * about as long — Node's own agent keeps them 5 s, a load balancer 60 s — would otherwise write its request into a
 * connection we are closing at that moment and get ECONNRESET (seen once in the e2e run). The server, not the client,
 * should be the last to give an idle connection up. headersTimeout used to be 66 s to stay above it (the old advice for
 * Node before 18, whose header timer ran over the idle time too); since Node 18 the header and request times count
 * from a request's first byte and an idle keep-alive connection is under keepAliveTimeout alone (checked on Node 20:
 * a second request sent on a connection idle for twice headersTimeout is answered), so both can be shorter than it.
 */
export const DEFAULT_SERVER_LIMITS: Omit<ServerLimits, 'maxConnectionsPerAddress'> = {
  requestTimeoutMs: 30_000,
  headersTimeoutMs: 20_000,
  checkIntervalMs: 5_000,
  keepAliveTimeoutMs: 65_000,
};

/** The address a connection counts against: IPv4 as is, IPv6 by its /64 (one client usually owns a whole one). */
function addressKey(socket: Socket): string {
  const raw = socket.remoteAddress ?? '';
  return ipaddr.isValid(raw) ? ipRateKey(ipaddr.process(raw).toString()) : 'unknown';
}

/**
 * Destroys a new connection when its address already holds `max` open ones. Counted by the socket's own address:
 * behind a proxy (TRUST_PROXY) every connection comes from the proxy, so the caller does not cap there (the proxy
 * limits its clients' connections; the address in X-Forwarded-For is known only once a request's headers are read).
 */
export function capConnectionsPerAddress(server: http.Server, max: number): void {
  if (max <= 0) return;
  const open = new Map<string, number>();
  // Addresses already told about since their last connection closed: one line per burst, not per socket (a client
  // opening thousands must not fill the log either). Only addresses with open connections are in it.
  const reported = new Set<string>();
  server.on('connection', (socket: Socket) => {
    const key = addressKey(socket);
    const count = open.get(key) ?? 0;
    if (count >= max) {
      if (!reported.has(key)) {
        reported.add(key);
        log.info('connections refused: too many open from one address', { max });
      }
      socket.destroy();
      return;
    }
    open.set(key, count + 1);
    socket.once('close', () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left > 0) return void open.set(key, left);
      open.delete(key);
      reported.delete(key);
    });
  });
}

/**
 * A malformed or too slow request, or a client that reset its connection: Node's own answer (400, 408, 431) when the
 * socket can still take it, and one line without a stack — a client's mistake or departure is not our failure. A
 * reset is debug only: browsers drop idle keep-alive connections all day (a request abandoned mid-body is the API's
 * info line, server/http/api.ts).
 */
function onClientError(err: NodeJS.ErrnoException & { code?: string }, socket: Socket): void {
  const gone = err.code === 'ECONNRESET' || err.code === 'EPIPE' || !socket.writable;
  if (!gone) {
    const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    const text = status === 431 ? 'Request Header Fields Too Large' : status === 408 ? 'Request Timeout' : 'Bad Request';
    socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  }
  if (gone) log.debug('client closed the connection', { code: err.code ?? err.name });
  else log.info(err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 'request timed out' : 'malformed request refused', { code: err.code ?? err.name });
  socket.destroy();
}

/** An HTTP server with ARB's limits on what one client may hold (see ServerLimits). */
export function createLimitedServer(listener: http.RequestListener, limits: ServerLimits): http.Server {
  const server = http.createServer(
    { requestTimeout: limits.requestTimeoutMs, headersTimeout: limits.headersTimeoutMs, connectionsCheckingInterval: limits.checkIntervalMs },
    listener,
  );
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  capConnectionsPerAddress(server, limits.maxConnectionsPerAddress);
  server.on('clientError', onClientError);
  return server;
}
