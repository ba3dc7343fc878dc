import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, test } from 'vitest';
import { drainServer } from '@/server/http/shutdown';

async function serve(handler: http.RequestListener): Promise<{ server: http.Server; url: string }> {
  const server = http.createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('drainServer (shutdown)', () => {
  test('a request in flight is answered before the drain ends; new connections are refused meanwhile', async () => {
    const events: string[] = [];
    const { server, url } = await serve((_req, res) => {
      setTimeout(() => {
        events.push('answered');
        res.end('done');
      }, 400);
    });
    const inFlight = fetch(url).then(async (r) => ({ status: r.status, text: await r.text() }));
    await new Promise((r) => setTimeout(r, 100)); // the request has arrived
    const drained = drainServer(server, 5000).then((ok) => {
      events.push('drained');
      return ok;
    });
    await new Promise((r) => setTimeout(r, 50));
    await expect(fetch(url)).rejects.toThrow(); // no longer accepting
    expect(await inFlight).toEqual({ status: 200, text: 'done' });
    expect(await drained).toBe(true);
    expect(events).toEqual(['answered', 'drained']); // the database may close only now
  });

  test('a request that never ends is cut at the deadline', async () => {
    const { server, url } = await serve(() => undefined);
    const hung = fetch(url).catch((err: Error) => err);
    await new Promise((r) => setTimeout(r, 100));
    const started = Date.now();
    expect(await drainServer(server, 300)).toBe(false);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(await hung).toBeInstanceOf(Error);
  });
});
