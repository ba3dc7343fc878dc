// The route table (server/http/routes.ts) is generated from the files under pages/api by scripts/api-routes.mjs; the
// router, the OpenAPI document and the API tests read it. These tests fail when it is stale or a route file breaks
// the framework's rules.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { apiRoutes } from '@/server/http/routes';
import { withOpenApiDocument } from '@/server/http/openapi';
import { TABLE_FILE, apiRouteFiles, renderRouteTable } from '../../scripts/api-routes.mjs';

const pagesApi = path.resolve(__dirname, '../../pages/api');

describe('server/http/routes.ts', () => {
  const files = apiRouteFiles(pagesApi);

  test('is what scripts/api-routes.mjs writes for the files under pages/api (run `npm run routes`)', () => {
    expect(fs.readFileSync(TABLE_FILE, 'utf8')).toBe(renderRouteTable(files));
  });

  test.each(files.map((f) => [path.relative(pagesApi, f.file), f] as const))('serves pages/api/%s at its URL', async (_name, { file, path: urlPath }) => {
    const entry = apiRoutes.find((r) => r.path === urlPath);
    const mod = (await import(file)) as { default: unknown; config?: { api?: { bodyParser?: boolean } } };
    expect(entry?.route, `the entry for ${urlPath} must be the default export of its file`).toBe(mod.default);
    // The framework reads bodies itself (size limit → 413, bad JSON → 400).
    expect(mod.config?.api?.bodyParser, `${urlPath}: export const config = { api: { bodyParser: false } }`).toBe(false);
  });

  test('maps file names to URLs as Next does', () => {
    const paths = files.map((f) => f.path);
    expect(paths).toContain('/api/v1/auth/email'); // index.ts answers for its folder
    expect(paths).toContain('/api/v1/auth/email/confirm');
    expect(paths).toContain('/api/v1/public/destination/[id]');
    expect(new Set(paths).size).toBe(paths.length);
  });

  test('every endpoint, the OpenAPI document included, has a summary', () => {
    for (const r of withOpenApiDocument(apiRoutes)) {
      for (const [method, ep] of Object.entries(r.route.endpoints)) expect(ep?.summary, `${method} ${r.path}`).toBeTruthy();
    }
  });
});
