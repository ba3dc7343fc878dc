// Which pages the in-memory fast path takes from a build, and how it answers (server/http/staticPages.ts). The byte-for-
// byte comparison with Next on a real build is tests/e2e/static-pages.spec.ts; here a hand-made build directory covers
// the cases a real build of this site does not have (revalidated pages, middleware, extra header rules).
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, test } from 'vitest';
import { acceptsGzip, loadStaticPages } from '@/server/http/staticPages';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

type BuildSpec = { routes?: object; prerender?: Record<string, number | false>; pages?: Record<string, string>; middleware?: object };

function fakeBuild(spec: BuildSpec = {}): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arb-static-'));
  dirs.push(dir);
  fs.mkdirSync(path.join(dir, 'server/pages/blog'), { recursive: true });
  const write = (file: string, value: unknown) => fs.writeFileSync(path.join(dir, file), typeof value === 'string' ? value : JSON.stringify(value));
  write('routes-manifest.json', {
    basePath: '',
    headers: [{ source: '/:path*', headers: [{ key: 'X-Content-Type-Options', value: 'nosniff' }] }],
    redirects: [{ regex: '^(?!/_next)/books(?:/)?$' }],
    rewrites: { beforeFiles: [], afterFiles: [], fallback: [] },
    ...spec.routes,
  });
  const prerender = spec.prerender ?? { '/': false, '/pricing': false, '/news': 60, '/books': false, '/404': false };
  write('prerender-manifest.json', { routes: Object.fromEntries(Object.entries(prerender).map(([r, s]) => [r, { initialRevalidateSeconds: s }])) });
  write('server/pages-manifest.json', spec.pages ?? { '/login': 'pages/login.html', '/dashboard': 'pages/dashboard.js' });
  write('server/middleware-manifest.json', { middleware: spec.middleware ?? {} });
  for (const name of ['index', 'pricing', 'news', 'books', '404', 'login']) write(`server/pages/${name}.html`, `<!DOCTYPE html><h1>${name}</h1>${'x'.repeat(2000)}`);
  return dir;
}

async function serve(dir: string) {
  const pages = loadStaticPages(dir);
  const server = http.createServer((req, res) => {
    if (!pages.handle(req, res)) {
      res.statusCode = 599; // "went on to Next"
      res.end();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const get = (p: string, headers: Record<string, string> = {}, method = 'GET') =>
    new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      const req = http.request(base + p, { method, headers, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      });
      req.on('error', reject);
      req.end();
    });
  return { pages, get, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe('loadStaticPages', () => {
  test('takes prerendered pages without revalidation and static shells; leaves redirects, error pages, revalidated and server-rendered pages', () => {
    expect(loadStaticPages(fakeBuild()).paths.sort()).toEqual(['/', '/login', '/pricing']);
  });

  test.each([
    ['middleware', { middleware: { '/': { name: 'middleware' } } }],
    ['rewrites', { routes: { rewrites: { beforeFiles: [{ source: '/a', destination: '/b' }], afterFiles: [], fallback: [] } } }],
    ['a header rule of its own', { routes: { headers: [{ source: '/pricing', headers: [{ key: 'X-A', value: '1' }] }] } }],
    ['a basePath', { routes: { basePath: '/docs' } }],
  ])('a build with %s sends every page to Next', (_, spec) => {
    expect(loadStaticPages(fakeBuild(spec as BuildSpec)).paths).toEqual([]);
  });

  test('a directory that is not a build sends every page to Next', () => {
    expect(loadStaticPages(path.join(os.tmpdir(), 'arb-no-such-build')).paths).toEqual([]);
  });

  test('answers GET, gzip, HEAD and If-None-Match from memory; anything else goes on', async () => {
    const s = await serve(fakeBuild());
    try {
      const plain = await s.get('/pricing?utm_source=x');
      expect(plain.status).toBe(200);
      expect(plain.body.toString()).toContain('<h1>pricing</h1>');
      expect(plain.headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'cache-control': 's-maxage=31536000', 'content-type': 'text/html; charset=utf-8' });
      expect(plain.headers['content-encoding']).toBeUndefined();

      const zipped = await s.get('/pricing', { 'accept-encoding': 'br, gzip' });
      expect(zipped.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(zipped.body).equals(plain.body)).toBe(true);

      const head = await s.get('/pricing', { 'accept-encoding': 'gzip' }, 'HEAD');
      expect([head.status, head.body.length, head.headers['content-length']]).toEqual([200, 0, String(plain.body.length)]);

      const etag = plain.headers.etag!;
      expect((await s.get('/pricing', { 'if-none-match': `"other", ${etag}` })).status).toBe(304);
      expect((await s.get('/pricing', { 'if-none-match': '"other"' })).status).toBe(200);

      // A static shell (no getStaticProps) carries no Cache-Control, as Next sends it.
      expect((await s.get('/login')).headers['cache-control']).toBeUndefined();

      for (const [p, headers, method] of [
        ['/pricing', {}, 'POST'],
        ['/pricing/', {}, 'GET'],
        ['/books', {}, 'GET'],
        ['/news', {}, 'GET'],
        ['/dashboard', {}, 'GET'],
        ['/pricing', { cookie: 'a=1; __prerender_bypass=abc' }, 'GET'],
      ] as const) {
        expect((await s.get(p, headers, method)).status, `${method} ${p}`).toBe(599);
      }
    } finally {
      await s.close();
    }
  });
});

test('acceptsGzip reads qualities', () => {
  expect(acceptsGzip('gzip, deflate, br')).toBe(true);
  expect(acceptsGzip('br;q=1.0, gzip;q=0.8')).toBe(true);
  expect(acceptsGzip('*')).toBe(true);
  expect(acceptsGzip('gzip;q=0')).toBe(false);
  expect(acceptsGzip('br, deflate')).toBe(false);
  expect(acceptsGzip(undefined)).toBe(false);
  expect(acceptsGzip('identity')).toBe(false);
});
