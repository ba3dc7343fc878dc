/**
 * Serves the real API route files (pages/api/**) on a loopback port without Next, for API tests: the files are read
 * with the same file-to-URL mapping that generates the route table (scripts/api-routes.mjs), so a fixture folder works
 * too, and requests go through the same router and OpenAPI route as `npm start` (server/http/router.ts).
 */
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { ApiRouteEntry, RouteHandler } from '@/server/http/api';
import { withOpenApiDocument } from '@/server/http/openapi';
import { createApiRouter } from '@/server/http/router';
import { apiRouteFiles } from '../../scripts/api-routes.mjs';
import { flushApiUsage } from '@/server/apiKeys/callCounts';
import { serveMetrics } from '@/server/metrics/endpoint';

export type TestApi = { url: string; close: () => Promise<void> };

export async function startTestApi(root = path.resolve(__dirname, '../../pages/api')): Promise<TestApi> {
  const entries: ApiRouteEntry[] = await Promise.all(
    apiRouteFiles(root).map(async ({ file, path: p }) => ({ path: p, route: ((await import(file)) as { default: RouteHandler }).default })),
  );
  const route = createApiRouter(withOpenApiDocument(entries));
  // The router answers every /api/ path (a JSON 404 for unknown ones); anything else is not served here.
  // As server/main.ts: /metrics (only with METRICS_TOKEN set) ahead of the API.
  const server = http.createServer((req, res) => {
    if (serveMetrics(req, res)) return;
    if (route(req, res)) return;
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      await new Promise<void>((r) => server.close(() => r()));
      // The public API's batched counts, written while the database is still open (as the server does at shutdown).
      await flushApiUsage();
    },
  };
}
