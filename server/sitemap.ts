/**
 * sitemap.xml and robots.txt. Their URLs are absolute, on the site's public origin: APP_URL. A Host or
 * X-Forwarded-Host header is client input — a stranger could otherwise have a cache or a crawler store our sitemap
 * pointing at their host — so the request's headers are used only behind a trusted proxy (TRUST_PROXY), which sets
 * them, and the answer then says `Vary: Host, X-Forwarded-Host, X-Forwarded-Proto` so no cache hands one host's
 * sitemap to another.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PUBLIC_ROUTES } from '@/shared/publicRoutes';
import { env } from './env';

// Only a plain host[:port] may end up in the XML.
const HOST = /^[a-z0-9.-]+(:\d{1,5})?$/i;

/** The headers an answer built from the request's host depends on. */
export const ORIGIN_VARY = 'Host, X-Forwarded-Host, X-Forwarded-Proto';

type OriginSettings = { APP_URL: string; TRUST_PROXY: boolean };

/** The origin the sitemap's URLs use, and whether it came from the request's headers (then the answer must Vary). */
export function siteOrigin(req: Pick<IncomingMessage, 'headers'>, e: OriginSettings = env()): { origin: string; fromHeaders: boolean } {
  const configured = { origin: e.APP_URL.replace(/\/+$/, ''), fromHeaders: false };
  if (!e.TRUST_PROXY) return configured;
  const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)?.split(',')[0].trim();
  const host = first(req.headers['x-forwarded-host']) || first(req.headers.host) || '';
  if (!HOST.test(host)) return configured;
  const forwardedProto = first(req.headers['x-forwarded-proto']);
  const proto = forwardedProto === 'https' || forwardedProto === 'http' ? forwardedProto : new URL(e.APP_URL).protocol.slice(0, -1);
  return { origin: `${proto}://${host}`, fromHeaders: true };
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

/** Writes one of the two documents; `Vary` when its URLs came from the request's headers. */
function send(req: IncomingMessage, res: ServerResponse, type: string, build: (origin: string) => string): void {
  const { origin, fromHeaders } = siteOrigin(req);
  res.setHeader('Content-Type', type);
  res.setHeader('Cache-Control', 'public, max-age=3600');
  if (fromHeaders) res.setHeader('Vary', ORIGIN_VARY);
  res.end(build(origin));
}

export const sendSitemap = (req: IncomingMessage, res: ServerResponse) => send(req, res, 'application/xml; charset=utf-8', (o) => buildSitemap(o));
export const sendRobots = (req: IncomingMessage, res: ServerResponse) => send(req, res, 'text/plain; charset=utf-8', buildRobots);
