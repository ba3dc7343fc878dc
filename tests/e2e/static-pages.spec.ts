/**
 * Prerendered pages answered from memory (server/http/staticPages.ts) must be byte-for-byte what Next answers: a second
 * server on the same build with STATIC_PAGES=next is the reference. Every prerendered route of the build is compared:
 * plain and gzip GET (status, headers, raw body bytes), HEAD, and a conditional GET with the page's ETag (304).
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { startServer, type RunningServer } from '../../scripts/arb-server.cjs';

// As globalSetup names it (relative: next.config.js takes it as is); read through `built`.
const distDir = process.env.NEXT_DIST_DIR || '.next';
const built = (file: string) => path.resolve(distDir, file);
/** Per-connection or per-moment headers, and Next's informational cache header. */
const IGNORED = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length', 'x-nextjs-cache']);

type Raw = { status: number; headers: Array<[string, string]>; body: Buffer };

function fetchRaw(base: string, route: string, method: 'GET' | 'HEAD', headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.request(new URL(route, base), { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const pairs: Array<[string, string]> = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          const name = res.rawHeaders[i].toLowerCase();
          if (!IGNORED.has(name)) pairs.push([name, res.rawHeaders[i + 1]]);
        }
        resolve({ status: res.statusCode ?? 0, headers: pairs.sort(([a], [b]) => a.localeCompare(b)), body: Buffer.concat(chunks) });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** The build's prerendered routes, as Next lists them. */
function prerenderedRoutes(): string[] {
  const prerender = JSON.parse(fs.readFileSync(built('prerender-manifest.json'), 'utf8')) as { routes: Record<string, unknown> };
  const pages = JSON.parse(fs.readFileSync(built('server/pages-manifest.json'), 'utf8')) as Record<string, string>;
  const routes = [...Object.keys(prerender.routes), ...Object.entries(pages).filter(([, f]) => f.endsWith('.html')).map(([r]) => r)];
  return [...new Set(routes)].filter((r) => !r.startsWith('/_') && r !== '/404' && r !== '/500').sort();
}

test.describe('prerendered pages from memory', () => {
  test.describe.configure({ mode: 'serial' });
  let reference: RunningServer;
  let dataDir: string;
  const ours = () => process.env.E2E_BASE_URL!;

  test.beforeAll(async () => {
    test.setTimeout(360_000); // a second server: a copy of the run's empty embedded database and Next, started beside the busy run
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arb-e2e-next-'));
    reference = await startServer({ dataDir, distDir, pgliteTemplate: process.env.E2E_PGLITE_TEMPLATE, env: { STATIC_PAGES: 'next', WORKER: 'off', LOG_LEVEL: 'warn' } });
  });

  test.afterAll(async () => {
    await reference?.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test('every prerendered route answers exactly as Next does', async () => {
    const routes = prerenderedRoutes();
    expect(routes.length).toBeGreaterThan(30);
    for (const route of [...routes, '/pricing?app_id=1&app_store=apple_app_store']) {
      for (const [label, method, headers] of [
        ['GET', 'GET', {}],
        ['GET gzip', 'GET', { 'accept-encoding': 'gzip, deflate, br' }],
        ['HEAD', 'HEAD', { 'accept-encoding': 'gzip' }],
      ] as const) {
        const [a, b] = await Promise.all([fetchRaw(ours(), route, method, headers), fetchRaw(reference.url, route, method, headers)]);
        expect(a.status, `${label} ${route}`).toBe(b.status);
        expect(a.headers, `${label} ${route}`).toEqual(b.headers);
        expect(a.body.equals(b.body), `${label} ${route}: same bytes`).toBe(true);
      }
      const etag = (await fetchRaw(ours(), route, 'HEAD')).headers.find(([n]) => n === 'etag')?.[1];
      expect(etag, route).toBeTruthy();
      const [a, b] = await Promise.all([
        fetchRaw(ours(), route, 'GET', { 'if-none-match': etag! }),
        fetchRaw(reference.url, route, 'GET', { 'if-none-match': etag! }),
      ]);
      expect([a.status, b.status], `conditional ${route}`).toEqual([304, 304]);
      expect(a.headers, `conditional ${route}`).toEqual(b.headers);
    }
  });

  test('the fast path is the one answering, and leaves redirects, other methods and unknown paths to Next', async () => {
    // Next marks the pages it serves from its cache; ours do not carry the mark.
    const page = await new Promise<http.IncomingMessage>((resolve) => http.get(new URL('/features', ours()), resolve));
    page.resume();
    expect(page.statusCode).toBe(200);
    expect(page.headers['x-nextjs-cache']).toBeUndefined();

    const redirect = await fetchRaw(ours(), '/books', 'GET');
    expect(redirect.status).toBe(308);
    expect(redirect.headers).toContainEqual(['location', '/ebooks']);
    const slash = await fetchRaw(ours(), '/features/', 'GET');
    expect(slash.status).toBe(308);
    const post = await new Promise<number>((resolve, reject) => {
      const req = http.request(new URL('/features', ours()), { method: 'POST', agent: false }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(post).toBe(405);
    expect((await fetchRaw(ours(), '/no-such-page', 'GET')).status).toBe(404);
  });

  test("the code a page starts with carries V8's compile hint (scripts/compile-hints.cjs), as served", async () => {
    const html = (await fetchRaw(ours(), '/pricing', 'GET')).body.toString('utf8');
    // Code chunks; the build's manifests (_buildManifest.js, _ssgManifest.js) are data, left as they are.
    const scripts = [...html.matchAll(/data-src="([^"]+\.js)"/g)].map((m) => m[1]).filter((src) => src.includes('/_next/static/chunks/'));
    expect(scripts.length).toBeGreaterThan(2);
    for (const src of scripts) {
      const js = await fetchRaw(ours(), src, 'GET');
      expect(js.status, src).toBe(200);
      const hint = '//# allFunctionsCalledOnLoad\n';
      expect(js.body.subarray(0, hint.length).toString('utf8'), src).toBe(hint);
    }
  });
});
