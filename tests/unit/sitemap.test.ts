/** sitemap.xml and robots.txt: absolute URLs for every public route, on APP_URL; the request's host only behind TRUST_PROXY. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PUBLIC_ROUTES } from '@/shared/publicRoutes';
import { setEnvForTests } from '@/server/env';
import { buildRobots, buildSitemap, sendRobots, sendSitemap, siteOrigin } from '@/server/sitemap';

const req = (headers: Record<string, string | string[]>) => ({ headers });
const direct = { APP_URL: 'https://arb.example', TRUST_PROXY: false };
const proxied = { APP_URL: 'https://arb.example', TRUST_PROXY: true };

describe('siteOrigin', () => {
  test('without TRUST_PROXY: APP_URL, whatever Host and X-Forwarded-* say', () => {
    expect(siteOrigin(req({ host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'http' }), direct)).toEqual({ origin: 'https://arb.example', fromHeaders: false });
    expect(siteOrigin(req({}), { APP_URL: 'http://localhost:3000/', TRUST_PROXY: false }).origin).toBe('http://localhost:3000');
  });

  test('behind a trusted proxy: the host it forwards, https only when it says so (else APP_URL’s scheme)', () => {
    expect(siteOrigin(req({ host: 'a:1', 'x-forwarded-host': 'www.arb.example', 'x-forwarded-proto': 'http' }), proxied)).toEqual({ origin: 'http://www.arb.example', fromHeaders: true });
    expect(siteOrigin(req({ 'x-forwarded-host': 'www.arb.example, proxy.local', 'x-forwarded-proto': 'https,http' }), proxied).origin).toBe('https://www.arb.example');
    expect(siteOrigin(req({ host: 'www.arb.example:8443' }), proxied).origin).toBe('https://www.arb.example:8443');
  });

  test('a host that is not a plain host name falls back to APP_URL (no markup can reach the XML)', () => {
    expect(siteOrigin(req({ host: 'evil.example"><script>' }), proxied)).toEqual({ origin: 'https://arb.example', fromHeaders: false });
    expect(siteOrigin(req({}), proxied).origin).toBe('https://arb.example');
  });
});

describe('over HTTP, as the pages answer', () => {
  let server: http.Server;
  let url: string;
  let restore = () => {};
  beforeAll(async () => {
    server = http.createServer((q, r) => (q.url === '/robots.txt' ? sendRobots(q, r) : sendSitemap(q, r)));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  const settings = (o: Record<string, string | undefined>) => {
    restore();
    restore = setEnvForTests(o);
  };
  afterAll(async () => {
    restore();
    await new Promise<void>((r) => server.close(() => r()));
  });
  const get = (path: string, host: string) =>
    new Promise<{ status: number; vary: string | undefined; body: string }>((resolve, reject) => {
      // fetch cannot send another Host; a plain request can, as any client on the internet can.
      http
        .get(`${url}${path}`, { headers: { Host: host, 'X-Forwarded-Host': host, 'X-Forwarded-Proto': 'http' } }, (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (body += c));
          res.on('end', () => resolve({ status: res.statusCode!, vary: res.headers.vary, body }));
        })
        .on('error', reject);
    });

  test('a spoofed Host header never reaches sitemap.xml or robots.txt', async () => {
    settings({ APP_URL: 'https://arb.example', TRUST_PROXY: undefined });
    const sitemap = await get('/sitemap.xml', 'evil.example');
    expect(sitemap.status).toBe(200);
    expect(sitemap.body).not.toContain('evil.example');
    expect([...sitemap.body.matchAll(/<loc>([^<]+)<\/loc>/g)].every((m) => m[1].startsWith('https://arb.example/'))).toBe(true);
    expect(sitemap.vary).toBeUndefined();
    const robots = await get('/robots.txt', 'evil.example');
    expect(robots.body).toContain('Sitemap: https://arb.example/sitemap.xml');
    expect(robots.body).not.toContain('evil.example');
  });

  test('behind TRUST_PROXY the forwarded host is used, and the answer varies with it', async () => {
    settings({ APP_URL: 'https://arb.example', TRUST_PROXY: '1' });
    const sitemap = await get('/sitemap.xml', 'www.arb.example');
    expect(sitemap.body).toContain('<loc>http://www.arb.example/</loc>');
    expect(sitemap.vary).toBe('Host, X-Forwarded-Host, X-Forwarded-Proto');
  });
});

describe('buildSitemap', () => {
  test('lists every public route once, as an absolute URL', () => {
    const xml = buildSitemap('https://arb.example');
    const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">')).toBe(true);
    expect(locs).toHaveLength(PUBLIC_ROUTES.length);
    expect(locs).toContain('https://arb.example/');
    expect(locs).toContain('https://arb.example/blog/how-to-track-app-uninstall-effectively');
    expect(locs).toContain('https://arb.example/platform/microsoft-teams');
    expect(new Set(locs).size).toBe(locs.length);
  });

  test('escapes XML in URLs', () => {
    expect(buildSitemap('https://a.example', ['/x?a=1&b=2'])).toContain('<loc>https://a.example/x?a=1&amp;b=2</loc>');
  });
});

test('robots.txt allows everything and names the sitemap', () => {
  expect(buildRobots('https://arb.example')).toBe('User-agent: *\nAllow: /\n\nSitemap: https://arb.example/sitemap.xml\n');
});
