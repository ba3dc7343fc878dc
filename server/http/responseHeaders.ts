/**
 * The headers of API answers (server/http/api.ts): the security headers for the current APP_URL, built once, and CORS
 * for the site's own origin. Flat [name, value, name, value…] lists, as res.writeHead takes them.
 */
import type { IncomingMessage } from 'node:http';
import { API_CONTENT_SECURITY_POLICY, securityHeaders } from './securityHeaders.cjs';
import { env } from '../env';

const CORS_ALLOWED_HEADERS = 'Authorization, Content-Type, X-Request-Id';

/**
 * What every answer carries for the current APP_URL, built once per environment (env() is replaced in tests), not per
 * request: this is the API's hot path. Headers are flat [name, value, name, value…] lists for res.writeHead.
 */
export type Site = { appUrl: string; origin: string; security: string[] };
let site: Site | null = null;
export function currentSite(): Site {
  const appUrl = env().APP_URL;
  if (site?.appUrl !== appUrl) {
    const security = securityHeaders({ csp: API_CONTENT_SECURITY_POLICY, https: appUrl.startsWith('https://') }).flat();
    site = { appUrl, origin: new URL(appUrl).origin, security };
  }
  return site;
}

/**
 * CORS for the site's own origin only (APP_URL): another origin gets no Access-Control-* headers, so browsers keep
 * its scripts from reading our answers. Same-origin calls (no Origin header) need none of this: null.
 */
export function corsHeaders(req: IncomingMessage, origin: string, allow: string): string[] | null {
  const from = req.headers.origin;
  if (!from) return null;
  if (from !== origin) return ['Vary', 'Origin'];
  const headers = [
    'Vary', 'Origin',
    'Access-Control-Allow-Origin', from,
    'Access-Control-Allow-Credentials', 'true',
    'Access-Control-Expose-Headers', 'X-Request-Id, Retry-After',
  ];
  if (req.method === 'OPTIONS' && req.headers['access-control-request-method']) {
    headers.push('Access-Control-Allow-Methods', allow, 'Access-Control-Allow-Headers', CORS_ALLOWED_HEADERS, 'Access-Control-Max-Age', '600');
  }
  return headers;
}

/** In a flat header list, the last value of a name wins (as with setHeader): earlier entries of that name go. */
export function lastWins(headers: string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (let i = headers.length - 2; i >= 0; i -= 2) {
    const key = headers[i].toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(headers[i + 1], headers[i]);
  }
  return out.reverse();
}
