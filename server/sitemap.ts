/**
 * sitemap.xml and robots.txt, built per request so their URLs are absolute for whatever host serves the site.
 * The origin is NEXT_PUBLIC_SITE_URL when set (the public address behind a proxy), otherwise the request's own host.
 */
import type { IncomingMessage } from 'node:http';
import { PUBLIC_ROUTES } from '@/lib/publicRoutes';

// A Host header is client input: only a plain host[:port] may end up in the XML.
const HOST = /^[a-z0-9.-]+(:\d{1,5})?$/i;

export function siteOrigin(req: Pick<IncomingMessage, 'headers'>, configured = process.env.NEXT_PUBLIC_SITE_URL): string {
  if (configured) return configured.replace(/\/+$/, '');
  const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)?.split(',')[0].trim();
  const host = first(req.headers['x-forwarded-host']) || first(req.headers.host) || '';
  const proto = first(req.headers['x-forwarded-proto']) === 'https' ? 'https' : 'http';
  return HOST.test(host) ? `${proto}://${host}` : 'http://localhost';
}

function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

export function buildSitemap(origin: string, routes: readonly string[] = PUBLIC_ROUTES): string {
  const urls = routes.map((route) => `  <url><loc>${escapeXml(`${origin}${route === '/' ? '/' : route}`)}</loc></url>`);
  return ['<?xml version="1.0" encoding="UTF-8"?>', '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">', ...urls, '</urlset>', ''].join('\n');
}

export function buildRobots(origin: string): string {
  return ['User-agent: *', 'Allow: /', '', `Sitemap: ${origin}/sitemap.xml`, ''].join('\n');
}
