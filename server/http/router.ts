/**
 * Dispatches /api/* requests straight to the route handlers of server/http/routes.ts, the same files Next serves
 * from pages/api. server/main.ts puts this in front of Next: Next's own routing costs far more per request than our
 * handlers do (the benchmark measured ~20× fewer cached requests per second through it), and the API is the hot path.
 * Every path under /api/ is answered here, in the API's error shape when no route matches (a JSON 404 with the request
 * id, never the site's HTML 404 page); other paths fall through to Next.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendApiError, type ApiRouteEntry } from './api';
import { HttpError, notFound } from './errors';
import { documentedStatusCheck } from './answeredStatuses';
import { env } from '../env';
import { log } from '../log';
import { recordHttpRequest } from '../metrics/registry';

type Segment = { name: string; catchAll: boolean };
type Compiled = { pattern: RegExp; segments: Segment[]; entry: ApiRouteEntry };

function compile(entry: ApiRouteEntry): Compiled {
  const segments: Segment[] = [];
  const source = entry.path
    .split('/')
    .filter(Boolean)
    .map((seg) => {
      // [id], [...path], and the optional catch-all [[...path]] (which also matches nothing at all).
      const m = /^\[(\[)?(\.\.\.)?(\w+)\]?\]$/.exec(seg);
      if (!m) return `/${seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`;
      segments.push({ name: m[3], catchAll: !!m[2] });
      if (m[1]) return '(?:/(.+))?';
      return m[2] ? '/(.+)' : '/([^/]+)';
    })
    .join('');
  return { pattern: new RegExp(`^${source}/?$`), segments, entry };
}

/** A path segment as Next gives it: %-decoded, or as sent when the escape is malformed (the endpoint's validation answers 400). */
function decodeSegment(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** Answers the request and returns true when one of the routes matches its path; returns false (untouched) otherwise. */
export type ApiRouter = (req: IncomingMessage, res: ServerResponse) => boolean;

/** apiRoute handlers answer their own errors; this is for a bug in that, so the request still gets an answer. */
function failed(err: unknown, req: IncomingMessage, res: ServerResponse): void {
  log.error('request handler failed', { err, path: req.url });
  if (!res.headersSent) sendApiError(req, res, new HttpError(500, 'internal_error', 'Something went wrong on our side. Try again.'));
  else res.end();
}

/** The API's own space: /api and everything under it. */
export function isApiPath(pathname: string): boolean {
  return pathname === '/api' || pathname.startsWith('/api/');
}

/** A function that answers a request when one of `routes` matches its path, and returns whether it did. */
export function createApiRouter(routes: ApiRouteEntry[]): ApiRouter {
  // Static paths are one map lookup (with or without a trailing slash) and win over dynamic ones, as in Next.
  const exact = new Map<string, ApiRouteEntry>();
  const dynamic: Compiled[] = [];
  for (const entry of routes) {
    if (/\[/.test(entry.path)) {
      dynamic.push(compile(entry));
    } else {
      exact.set(entry.path, entry);
      exact.set(`${entry.path}/`, entry);
    }
  }
  // Tests only: every answer's status must be in the OpenAPI document (server/http/answeredStatuses.ts).
  const checkStatus = env().NODE_ENV === 'test' ? documentedStatusCheck(routes) : null;
  const run = ({ path, route }: ApiRouteEntry, req: IncomingMessage, res: ServerResponse) => {
    checkStatus?.(path, req, res);
    // By the route's pattern (/api/v1/org/reviews/[id]), never the path itself: the label's values stay a short list.
    const started = performance.now();
    res.once('finish', () => recordHttpRequest(path, req.method ?? 'GET', res.statusCode, (performance.now() - started) / 1000));
    try {
      route(req, res)?.catch((err: unknown) => failed(err, req, res));
    } catch (err) {
      failed(err, req, res); // answered at once, and failed at once
    }
    return true;
  };
  return (req, res) => {
    const rawUrl = req.url ?? '/';
    const q = rawUrl.indexOf('?');
    const pathname = q === -1 ? rawUrl : rawUrl.slice(0, q);
    if (!isApiPath(pathname)) return false;
    // A static route reads its query from req.url itself (apiRoute); req.query carries only dynamic segments' needs.
    const entry = exact.get(pathname);
    if (entry) return run(entry, req, res);
    for (const c of dynamic) {
      const m = c.pattern.exec(pathname);
      if (!m) continue;
      const query: Record<string, string | string[]> = Object.fromEntries(new URLSearchParams(q === -1 ? '' : rawUrl.slice(q + 1)));
      c.segments.forEach(({ name, catchAll }, i) => {
        const value = m[i + 1];
        if (value === undefined) return; // an optional catch-all that matched nothing
        // Next gives a catch-all segment ([...slug]) as an array of its parts, each decoded on its own.
        query[name] = catchAll ? value.split('/').map(decodeSegment) : decodeSegment(value);
      });
      (req as IncomingMessage & { query: typeof query }).query = query;
      return run(c.entry, req, res);
    }
    sendApiError(req, res, notFound(`There is no API endpoint at ${req.method ?? 'GET'} ${pathname.slice(0, 200)}. See /api/openapi.json for the endpoints.`));
    return true;
  };
}
