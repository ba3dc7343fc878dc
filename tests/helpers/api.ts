/**
 * Serves the real API route files (pages/api/**) on a loopback port without Next, for API tests: the file system is
 * the route table, exactly as Next reads it ([param] segments, index files), and requests go through the same router
 * as `npm start` (server/http/router.ts).
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { RouteHandler } from '@/server/http/api';
import { createApiRouter } from '@/server/http/router';
import type { ApiRouteEntry } from '@/server/http/routes';

/** Every route file under `dir` with its URL path as Next serves it (`/api/v1/items/[id]`). */
function collect(dir: string, prefix = ''): Array<{ file: string; path: string }> {
  const out: Array<{ file: string; path: string }> = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      out.push(...collect(full, `${prefix}/${entry.name}`));
      continue;
    }
    if (!/\.tsx?$/.test(entry.name)) continue;
    const base = entry.name.replace(/\.tsx?$/, '');
    out.push({ file: full, path: `/api${prefix}${base === 'index' ? '' : `/${base}`}` });
  }
  return out;
}

export type TestApi = { url: string; close: () => Promise<void> };

export async function startTestApi(root = path.resolve(__dirname, '../../pages/api')): Promise<TestApi> {
  const entries: ApiRouteEntry[] = await Promise.all(
    collect(root).map(async ({ file, path: p }) => ({ path: p, route: ((await import(file)) as { default: RouteHandler }).default })),
  );
  const route = createApiRouter(entries);
  // The router answers every /api/ path (a JSON 404 for unknown ones); anything else is not served here.
  const server = http.createServer((req, res) => {
    if (route(req, res)) return;
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(() => r())) };
}
