// The route table (server/http/routes.ts) feeds the OpenAPI document and the fuzz test, so it must list every file
// under pages/api — this test fails as soon as a route file is added without its line there.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { apiRoutes } from '@/server/http/routes';

const pagesApi = path.resolve(__dirname, '../../pages/api');

/** Every route file as the URL Next serves it from (index files → their folder). */
function routeFiles(dir = pagesApi): Array<{ file: string; urlPath: string }> {
  const out: Array<{ file: string; urlPath: string }> = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...routeFiles(full));
    else if (/\.tsx?$/.test(entry.name) && !/\.d\.ts$/.test(entry.name)) {
      const rel = path.relative(pagesApi, full).replace(/\.tsx?$/, '').split(path.sep);
      if (rel[rel.length - 1] === 'index') rel.pop();
      out.push({ file: full, urlPath: `/api${rel.length ? `/${rel.join('/')}` : ''}` });
    }
  }
  return out;
}

describe('server/http/routes.ts', () => {
  const files = routeFiles();

  test.each(files.map((f) => [path.relative(pagesApi, f.file), f] as const))('lists pages/api/%s', async (_name, { file, urlPath }) => {
    const entry = apiRoutes.find((r) => r.path === urlPath);
    expect(entry, `add { path: '${urlPath}', route: … } to server/http/routes.ts`).toBeDefined();
    const mod = (await import(file)) as { default: unknown; config?: { api?: { bodyParser?: boolean } } };
    expect(entry!.route, `the entry for ${urlPath} must be the default export of its file`).toBe(mod.default);
    // The framework reads bodies itself (size limit → 413, bad JSON → 400).
    expect(mod.config?.api?.bodyParser, `${urlPath}: export const config = { api: { bodyParser: false } }`).toBe(false);
  });

  test('has no entry without a file, and no path twice', () => {
    const urls = new Set(files.map((f) => f.urlPath));
    for (const r of apiRoutes) expect(urls.has(r.path), `${r.path} has no file under pages/api`).toBe(true);
    expect(new Set(apiRoutes.map((r) => r.path)).size).toBe(apiRoutes.length);
  });

  test('every endpoint has a summary for the OpenAPI document', () => {
    for (const r of apiRoutes) for (const [method, ep] of Object.entries(r.route.endpoints)) expect(ep?.summary, `${method} ${r.path}`).toBeTruthy();
  });
});
