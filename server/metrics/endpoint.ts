/**
 * GET /metrics in Prometheus's text format, for operators: off (the path is the site's 404) unless METRICS_TOKEN is
 * set, and then only with `Authorization: Bearer <METRICS_TOKEN>`. `npm start` answers it on its own port ahead of the
 * API and Next (server/main.ts); each `npm run worker` on METRICS_PORT (server/metrics/server.ts).
 */
import { timingSafeEqual, createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { env } from '../env';
import { log } from '../log';
import { metrics } from './registry';

export const METRICS_PATH = '/metrics';

const digest = (s: string) => createHash('sha256').update(s).digest();

/** Compared as digests: the same length whatever was sent, so the time taken says nothing about the token. */
function bearerMatches(header: string | undefined, token: string): boolean {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return !!m && timingSafeEqual(digest(m[1]), digest(token));
}

function answer(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', ...headers });
  res.end(text);
}

/** Answers /metrics and returns true; returns false (untouched) for other paths or when metrics are off. */
export function serveMetrics(req: IncomingMessage, res: ServerResponse): boolean {
  const rawUrl = req.url ?? '/';
  const q = rawUrl.indexOf('?');
  if ((q === -1 ? rawUrl : rawUrl.slice(0, q)) !== METRICS_PATH) return false;
  const token = env().METRICS_TOKEN;
  if (!token) return false;
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    answer(res, 405, 'Only GET reads the metrics.\n', { Allow: 'GET, HEAD' });
    return true;
  }
  if (!bearerMatches(req.headers.authorization, token)) {
    answer(res, 401, 'Send the metrics token as Authorization: Bearer <token>.\n', { 'WWW-Authenticate': 'Bearer realm="metrics"' });
    return true;
  }
  const registry = metrics().registry;
  registry
    .metrics()
    .then((text) => answer(res, 200, req.method === 'HEAD' ? '' : text, { 'Content-Type': registry.contentType }))
    .catch((err: unknown) => {
      log.error('metrics could not be collected', { err });
      if (!res.headersSent) answer(res, 500, 'The metrics could not be collected; see the server log.\n');
    });
  return true;
}
