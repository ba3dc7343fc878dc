/**
 * The base of every loopback fake: an HTTP server on 127.0.0.1 with a random port that records each request and
 * hands it to route handlers. Fakes compose: several handlers can share one server (e.g. one "Google Play" host that
 * serves search pages and reviews), which is how the real hosts look to the app.
 *
 *   const fake = await startFakeServer([itunesSearchRoutes(data), appStoreFeedRoutes(feed)]);
 *   env ITUNES_BASE_URL = fake.url
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type RecordedRequest = { method: string; path: string; query: URLSearchParams; headers: http.IncomingHttpHeaders; body: string; at: number };

/** Return true when the handler answered the request. */
export type FakeHandler = (req: RecordedRequest, res: http.ServerResponse) => boolean | Promise<boolean>;

export type FakeServer = {
  url: string;
  port: number;
  requests: RecordedRequest[];
  /** Resolves once `n` requests matching `filter` have been received (no sleeps in tests). */
  waitForRequests(n: number, filter?: (r: RecordedRequest) => boolean, timeoutMs?: number): Promise<RecordedRequest[]>;
  close(): Promise<void>;
};

export function json(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
}

export async function startFakeServer(handlers: FakeHandler[], port = 0): Promise<FakeServer> {
  const requests: RecordedRequest[] = [];
  const waiters: Array<() => void> = [];
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const url = new URL(req.url ?? '/', 'http://fake');
    const rec: RecordedRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      body: Buffer.concat(chunks).toString('utf8'),
      at: Date.now(),
    };
    requests.push(rec);
    waiters.splice(0).forEach((w) => w());
    try {
      for (const h of handlers) if (await h(rec, res)) return;
      json(res, 404, { error: `fake: no route for ${rec.method} ${rec.path}` });
    } catch (err) {
      json(res, 500, { error: `fake failed: ${(err as Error).message}` });
    }
  });
  // Longer than undici's idle margin, so clients reuse connections as they would with the real hosts.
  server.keepAliveTimeout = 5000;
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  const actualPort = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actualPort}`,
    port: actualPort,
    requests,
    async waitForRequests(n, filter = () => true, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const matching = requests.filter(filter);
        if (matching.length >= n) return matching;
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`fake: expected ${n} requests, got ${matching.length}`);
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(t);
            resolve();
          });
        });
      }
    },
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
