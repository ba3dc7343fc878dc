/** sitemap.xml and robots.txt: absolute URLs for every public route, from a trusted origin only. */
import { describe, expect, test } from 'vitest';
import { PUBLIC_ROUTES } from '@/lib/publicRoutes';
import { buildRobots, buildSitemap, siteOrigin } from '@/server/sitemap';

const req = (headers: Record<string, string | string[]>) => ({ headers });

describe('siteOrigin', () => {
  test('uses the configured public URL when there is one', () => {
    expect(siteOrigin(req({ host: 'internal:3000' }), 'https://arb.example/')).toBe('https://arb.example');
  });

  test('otherwise uses the host the request came to, and https only when the proxy says so', () => {
    expect(siteOrigin(req({ host: 'localhost:3000' }), '')).toBe('http://localhost:3000');
    expect(siteOrigin(req({ host: 'a:1', 'x-forwarded-host': 'arb.example', 'x-forwarded-proto': 'https' }), '')).toBe('https://arb.example');
    expect(siteOrigin(req({ 'x-forwarded-host': 'arb.example, proxy.local', 'x-forwarded-proto': 'https,http' }), '')).toBe('https://arb.example');
  });

  test('ignores a Host header that is not a plain host name (no markup can reach the XML)', () => {
    expect(siteOrigin(req({ host: 'evil.example"><script>' }), '')).toBe('http://localhost');
    expect(siteOrigin(req({}), '')).toBe('http://localhost');
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
