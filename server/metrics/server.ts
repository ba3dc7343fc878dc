/**
 * The metrics listener of a process without a web server (`npm run worker`): GET /metrics on METRICS_PORT, nothing
 * else. Started only when METRICS_TOKEN is set; with several workers on one host give each its own METRICS_PORT.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { env } from '../env';
import { log } from '../log';
import { serveMetrics } from './endpoint';

export async function startMetricsServer(): Promise<(() => Promise<void>) | null> {
  const e = env();
  if (!e.METRICS_TOKEN) return null;
  const server = http.createServer((req, res) => {
    if (serveMetrics(req, res)) return;
    res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
    res.end('Only /metrics is served here.\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(e.METRICS_PORT, e.METRICS_HOST, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  log.info('metrics listening', { url: `http://${e.METRICS_HOST}:${port}/metrics` });
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}
