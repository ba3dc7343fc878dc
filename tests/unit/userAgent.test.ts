// ARB names itself the same way to every server it calls on its own: store review pages and chat webhooks.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createWebhookSender } from '@/server/destinations/send';
import { sourceFetch } from '@/server/sources/http';
import { USER_AGENT } from '@/server/userAgent';

const seen: (string | undefined)[] = [];
let server: http.Server;
let base: string;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push(req.headers['user-agent']);
    req.resume().on('end', () => res.end('{"ok":true}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

test('a store poll and a webhook delivery both carry ARB’s user agent', async () => {
  await sourceFetch(`${base}/feed`, { service: 'Test store', timeoutMs: 2000 });
  const sender = createWebhookSender({ allowPrivate: true });
  const sent = await sender.postJson(`${base}/hook`, { text: 'hi' });
  await sender.close();
  expect(sent.status).toBe(200);
  expect(seen).toEqual([USER_AGENT, USER_AGENT]);
  expect(USER_AGENT).toMatch(/^ARB /);
});
