/**
 * Dispatches /api/* requests straight to the route handlers of server/http/routes.ts, the same files Next serves
 * from pages/api. server/main.ts puts this in front of Next: Next's own routing costs far more per request than our
 * handlers do (the benchmark measured ~20× fewer cached requests per second through it), and the API is the hot path.
 * Paths it does not know fall through to Next.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RouteHandler } from './api';
import type { ApiRouteEntry } from './routes';

type Segment = { name: string; catchAll: boolean };
type Compiled = { pattern: RegExp; segments: Segment[]; route: RouteHandler; dynamic: boolean };

function compile(entry: ApiRouteEntry): Compiled {
  const segments: Segment[] = [];
  const source = entry.path
    .split('/')
    .map((seg) => {
      const m = /^\[(\.\.\.)?(\w+)\]$/.exec(seg);
      if (!m) return seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      segments.push({ name: m[2], catchAll: !!m[1] });
      return m[1] ? '(.+)' : '([^/]+)';
    })
    .join('/');
  return { pattern: new RegExp(`^${source}/?$`), segments, route: entry.route, dynamic: segments.length > 0 };
}

export type ApiRouter = (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;

/** A function that answers a request when one of `routes` matches its path, and returns whether it did. */
export function createApiRouter(routes: ApiRouteEntry[]): ApiRouter {
  // Static paths win over dynamic ones, as in Next.
  const compiled = routes.map(compile).sort((a, b) => Number(a.dynamic) - Number(b.dynamic));
  return async (req, res) => {
    const rawUrl = req.url ?? '/';
    const q = rawUrl.indexOf('?');
    const pathname = q === -1 ? rawUrl : rawUrl.slice(0, q);
    if (!pathname.startsWith('/api/')) return false;
    for (const c of compiled) {
      const m = c.pattern.exec(pathname);
      if (!m) continue;
      const query: Record<string, string | string[]> = Object.fromEntries(new URLSearchParams(q === -1 ? '' : rawUrl.slice(q + 1)));
      c.segments.forEach(({ name, catchAll }, i) => {
        let value: string;
        try {
          value = decodeURIComponent(m[i + 1]);
        } catch {
          value = m[i + 1]; // malformed %-escape: the endpoint's own validation answers 400
        }
        // Next gives a catch-all segment ([...slug]) as an array of its parts.
        query[name] = catchAll ? value.split('/') : value;
      });
      (req as IncomingMessage & { query: typeof query }).query = query;
      await c.route(req, res);
      return true;
    }
    return false;
  };
}
