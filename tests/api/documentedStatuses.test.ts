// The OpenAPI document lists every status an operation answers, with the error body and the headers that matter
// (server/http/openapi.ts, server/http/statuses.ts). What the tests answer is checked against it as they run
// (server/http/answeredStatuses.ts through tests/helpers/statusCheckSetup.ts): here, that the check sees what it must,
// and that the document says what clients need of the whole route table.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { apiRoutes } from '@/server/http/routes';
import { buildOpenApiDocument, openApiPath, withOpenApiDocument } from '@/server/http/openapi';
import { takeUndocumentedStatuses } from '@/server/http/answeredStatuses';
import type { Endpoint, Method } from '@/server/http/api';
import { startTestApi, type TestApi } from '../helpers/api';

type Response = { description: string; headers?: Record<string, { $ref: string }>; content?: Record<string, { schema: unknown }> };
type Operation = { responses: Record<string, Response> };

let fixtures: TestApi;
beforeAll(async () => {
  fixtures = await startTestApi(path.resolve(__dirname, '../fixtures/statusRoutes'));
});
afterAll(async () => {
  await fixtures.close();
});

const routes = withOpenApiDocument(apiRoutes);
const document = buildOpenApiDocument(routes, 'https://arb.example') as { paths: Record<string, Record<string, Operation>>; components: { headers: Record<string, unknown> } };
const operations = routes.flatMap(({ path: p, route }) =>
  (Object.entries(route.endpoints) as Array<[Method, Endpoint]>).map(([method, ep]) => ({ label: `${method} ${p}`, ep, op: document.paths[openApiPath(p)][method.toLowerCase()] })),
);
const headersOf = (r: Response) => Object.keys(r.headers ?? {});

describe('answers are checked against the document', () => {
  test('a status the endpoint declares passes; one it does not, thrown or written by the handler, is reported', async () => {
    takeUndocumentedStatuses();
    expect((await fetch(`${fixtures.url}/api/v1/items`)).status).toBe(409);
    expect(takeUndocumentedStatuses()).toEqual([]);

    expect((await fetch(`${fixtures.url}/api/v1/items`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: '{}' })).status).toBe(409);
    expect((await fetch(`${fixtures.url}/api/v1/items`, { method: 'DELETE', redirect: 'manual' })).status).toBe(303);
    const found = takeUndocumentedStatuses();
    expect(found).toHaveLength(2);
    expect(found[0]).toMatch(/^PUT \/api\/v1\/items answered 409, which its OpenAPI operation does not list/);
    expect(found[1]).toMatch(/^DELETE \/api\/v1\/items answered 303/);
    // Statuses every endpoint answers need no entry; a method the route does not serve has no operation.
    expect((await fetch(`${fixtures.url}/api/v1/items`, { method: 'POST', headers: { 'Content-Type': 'text/plain' } })).status).toBe(405);
    expect(takeUndocumentedStatuses()).toEqual([]);
  });
});

describe('the document, over the whole route table', () => {
  test('every response names X-Request-Id; every error status has the error body', () => {
    expect(operations.length).toBeGreaterThan(70);
    for (const { label, op } of operations) {
      for (const [status, r] of Object.entries(op.responses)) {
        expect(headersOf(r), `${label} ${status}`).toContain('X-Request-Id');
        for (const name of headersOf(r)) expect(document.components.headers, `${label} ${status} ${name}`).toHaveProperty(name);
        if (Number(status) >= 400) expect(r.content?.['application/json']?.schema, `${label} ${status}`).toEqual({ $ref: '#/components/schemas/Error' });
      }
    }
  });

  test('each declared status is documented; Retry-After, ETag and the key’s rate where they are sent', () => {
    for (const { label, ep, op } of operations) {
      for (const status of ep.statuses ?? []) expect(op.responses, label).toHaveProperty(String(status));
      expect(headersOf(op.responses[429]), label).toContain('Retry-After');
      if (op.responses[503]) expect(headersOf(op.responses[503]), label).toContain('Retry-After');
      if (op.responses[304]) {
        expect(headersOf(op.responses[304]), label).toContain('ETag');
        expect(headersOf(op.responses[200]), label).toContain('ETag');
      }
      if (ep.auth === 'api_key') {
        expect(headersOf(op.responses[200]), label).toContain('X-RateLimit-Remaining');
        expect(headersOf(op.responses[429]), label).toContain('X-RateLimit-Remaining');
      }
      if (op.responses[201]) expect(op.responses[201].content, label).toEqual(op.responses[200].content);
    }
    // The statuses the issue names are each documented somewhere (the declarations are in use, not only possible).
    const documented = new Set(operations.flatMap(({ op }) => Object.keys(op.responses)));
    for (const status of ['201', '304', '402', '404', '409', '502', '503']) expect(documented, status).toContain(status);
  });
});
