import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { apiRoute, endpoint } from '@/server/http/api';
import { createApiRouter } from '@/server/http/router';

const echo = endpoint({
  summary: 'echo the path parameters',
  params: z.object({ id: z.string() }),
  handler: ({ params }) => params,
});
const rest = endpoint({
  summary: 'echo a catch-all',
  params: z.object({ parts: z.array(z.string()) }),
  handler: ({ params }) => params,
});
const docs = endpoint({
  summary: 'echo an optional catch-all',
  params: z.object({ slug: z.array(z.string()).optional() }),
  handler: ({ params }) => params,
});
const fixed = endpoint({ summary: 'a static path', handler: () => 'static' });
const find = endpoint({ summary: 'echo the query', query: z.object({ q: z.string(), n: z.string().optional() }), handler: ({ query }) => query });

let server: http.Server;
let base = '';
beforeAll(async () => {
  const route = createApiRouter([
    { path: '/api/v1/things/[id]', route: apiRoute({ GET: echo }) },
    { path: '/api/v1/things/special', route: apiRoute({ GET: fixed }) },
    { path: '/api/v1/files/[...parts]', route: apiRoute({ GET: rest }) },
    { path: '/api/v1/find', route: apiRoute({ GET: find }) },
    { path: '/api/v1/docs/[[...slug]]', route: apiRoute({ GET: docs }) },
  ]);
  server = http.createServer(async (req, res) => {
    if (!(await route(req, res))) {
      res.statusCode = 418;
      res.end('fell through');
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('the API router in front of Next', () => {
  test('passes dynamic segments as params, decoded', async () => {
    const r = await fetch(`${base}/api/v1/things/a%20b?x=1`);
    expect(await r.json()).toEqual({ data: { id: 'a b' } });
  });
  test('prefers a static path over a dynamic one', async () => {
    expect(await (await fetch(`${base}/api/v1/things/special`)).json()).toEqual({ data: 'static' });
  });
  test('answers a static path with or without a trailing slash, its query validated', async () => {
    expect(await (await fetch(`${base}/api/v1/things/special/`)).json()).toEqual({ data: 'static' });
    expect(await (await fetch(`${base}/api/v1/find?q=a+b&n=1&q=c%20d`)).json()).toEqual({ data: { q: 'c d', n: '1' } });
    expect((await fetch(`${base}/api/v1/find/?n=1`)).status).toBe(400);
  });
  test('gives a catch-all segment as an array, each part decoded on its own (as Next does)', async () => {
    expect(await (await fetch(`${base}/api/v1/files/a/b/c`)).json()).toEqual({ data: { parts: ['a', 'b', 'c'] } });
    expect(await (await fetch(`${base}/api/v1/files/a%2Fb/c%20d`)).json()).toEqual({ data: { parts: ['a/b', 'c d'] } });
  });
  test('an optional catch-all matches with and without segments', async () => {
    expect(await (await fetch(`${base}/api/v1/docs`)).json()).toEqual({ data: {} });
    expect(await (await fetch(`${base}/api/v1/docs/x/y`)).json()).toEqual({ data: { slug: ['x', 'y'] } });
  });
  test('passes a malformed escape through raw instead of crashing', async () => {
    const r = await fetch(`${base}/api/v1/things/%E0%A4%A`);
    expect(r.status).toBe(200); // the raw segment is a valid string id; the endpoint decides
  });
  test('answers an unknown API path itself: a JSON 404 in the error shape, with the request id', async () => {
    for (const [method, path] of [['GET', '/api/v1/org'], ['POST', '/api/v1/nothing/at/all?x=1'], ['GET', '/api'], ['DELETE', '/api/']]) {
      const r = await fetch(`${base}${path}`, { method, headers: { 'X-Request-Id': 'req-404-test' } });
      expect(r.status, path).toBe(404);
      expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(r.headers.get('x-request-id')).toBe('req-404-test');
      expect(r.headers.get('x-content-type-options')).toBe('nosniff');
      const body = (await r.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('not_found');
      expect(body.error.message).toContain(path.split('?')[0]);
    }
  });
  test('leaves pages to Next', async () => {
    expect((await fetch(`${base}/pricing`)).status).toBe(418);
    expect((await fetch(`${base}/apiary`)).status).toBe(418);
  });
});
