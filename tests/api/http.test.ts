// The API framework (server/http/api.ts) through real HTTP: methods, bodies, validation, errors, request ids,
// security headers, CORS, dynamic route params, and the OpenAPI document.
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { billingTokenFor } from '../helpers/session';
import { apiRoutes } from '@/server/http/routes';
import { startTestApi, type TestApi } from '../helpers/api';
import { startApiWorld, type ApiWorld } from '../helpers/apiWorld';
import { call } from '../helpers/request';

let w: ApiWorld; // w.api: the real pages/api
let fixtures: TestApi; // tests/fixtures/apiRoutes: framework-only routes
const APP_URL = 'https://arb.example';

beforeAll(async () => {
  w = await startApiWorld({ APP_URL });
  fixtures = await startTestApi(path.resolve(__dirname, '../fixtures/apiRoutes'));
});
afterEach(() => {
  w.setEnv();
});
afterAll(async () => {
  await fixtures.close();
  await w.close();
});

describe('methods', () => {
  test('another method → 405 with Allow, in the error shape', async () => {
    const r = await call(w.api, 'PUT', '/api/v1/public/contact', { email: 'a@example.com', message: 'hi' });
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('POST, OPTIONS');
    expect(r.json.error).toEqual({ code: 'method_not_allowed', message: 'Method PUT is not allowed here. Use POST, OPTIONS.' });
  });

  test('an unknown API path → JSON 404 in the error shape with the request id; a 405 carries one too', async () => {
    const r = await call(w.api, 'GET', '/api/v1/organisation');
    expect(r.status).toBe(404);
    expect(r.json.error).toEqual({ code: 'not_found', message: 'There is no API endpoint at GET /api/v1/organisation. See /api/openapi.json for the endpoints.' });
    expect(r.headers.get('x-request-id')).toMatch(/^[\w-]+$/);
    const wrong = await call(w.api, 'DELETE', '/api/v1/public/contact');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('x-request-id')).toMatch(/^[\w-]+$/);
  });

  test('OPTIONS → 204 with Allow', async () => {
    const r = await call(w.api, 'OPTIONS', '/api/v1/auth/token/refresh');
    expect(r.status).toBe(204);
    expect(r.headers.get('allow')).toBe('GET, OPTIONS');
  });
});

describe('bodies', () => {
  test('invalid JSON → 400 invalid_json', async () => {
    const r = await call(fixtures, 'POST', '/api/v1/echo', undefined, { rawBody: '{"text": "unterminated', headers: { 'Content-Type': 'application/json' } });
    expect(r.status).toBe(400);
    expect(r.json.error).toEqual({ code: 'invalid_json', message: 'Request body is not valid JSON.' });
  });

  test('a number too large for a double (JSON.parse would make it Infinity) → 400 invalid_json', async () => {
    const r = await call(fixtures, 'POST', '/api/v1/echo', undefined, { rawBody: '{"text": "hi", "n": 1e999999}', headers: { 'Content-Type': 'application/json' } });
    expect(r.status).toBe(400);
    expect(r.json.error).toEqual({ code: 'invalid_json', message: 'Request body is not valid JSON.' });
  });

  test('a missing body → 400 saying so', async () => {
    const r = await call(fixtures, 'POST', '/api/v1/echo', undefined, { headers: { 'Content-Type': 'application/json' } });
    expect(r.status).toBe(400);
    expect(r.json.error.message).toBe('Request body is missing: send a JSON object.');
  });

  test('a body over the limit → 413, declared or streamed', async () => {
    const big = JSON.stringify({ text: 'x'.repeat(2000) });
    const declared = await call(fixtures, 'POST', '/api/v1/echo', undefined, { rawBody: big, headers: { 'Content-Type': 'application/json' } });
    expect(declared.status).toBe(413);
    expect(declared.json.error).toEqual({ code: 'payload_too_large', message: 'Request body is larger than 1024 bytes.' });

    // Chunked (no Content-Length): the limit still holds while reading.
    const chunks = [Buffer.from('{"text":"'), Buffer.from('y'.repeat(1500)), Buffer.from('"}')];
    const stream = new ReadableStream({
      start(controller) {
        for (const c of chunks) controller.enqueue(c);
        controller.close();
      },
    });
    const res = await fetch(`${fixtures.url}/api/v1/echo`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: stream, duplex: 'half' } as RequestInit);
    expect(res.status).toBe(413);
  });

  test('the default limit is 64 KiB', async () => {
    const r = await call(w.api, 'POST', '/api/v1/public/contact', { email: 'a@example.com', message: 'x'.repeat(70_000) });
    expect(r.status).toBe(413);
  });

  test('a non-JSON content type → 415', async () => {
    for (const type of ['application/x-www-form-urlencoded', 'text/plain', 'multipart/form-data; boundary=x']) {
      const r = await call(fixtures, 'POST', '/api/v1/echo', undefined, { rawBody: 'text=hi', headers: { 'Content-Type': type } });
      expect(r.status).toBe(415);
      expect(r.json.error.code).toBe('unsupported_media_type');
    }
    const vendor = await call(fixtures, 'POST', '/api/v1/echo', undefined, { rawBody: '{"text":"hi"}', headers: { 'Content-Type': 'application/vnd.api+json; charset=utf-8' } });
    expect(vendor.status).toBe(200);
  });

  // The requests a page on another site can make its visitors' browsers send without a CORS preflight.
  test('a body without a JSON Content-Type → 415, also where the endpoint reads no body', async () => {
    const raw = async (method: string, url: string, init: RequestInit) => {
      const res = await fetch(`${fixtures.url}${url}`, { method, ...init });
      return { status: res.status, body: (await res.json()) as { error: { code: string; message: string } }, requestId: res.headers.get('x-request-id') };
    };
    const cases: Array<[string, string, RequestInit]> = [
      ['POST', '/api/v1/echo', {}], // no Content-Type, empty body
      ['POST', '/api/v1/echo', { body: new Uint8Array([123, 125]) }], // bytes, no Content-Type
      ['POST', '/api/v1/echo', { body: '{"text":"hi"}' }], // Node fetch's string body: text/plain;charset=UTF-8
      ['PUT', '/api/v1/echo', {}],
      ['PUT', '/api/v1/echo', { body: '{}' }],
      ['PUT', '/api/v1/echo', { body: 'a=1', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } }],
      ['POST', '/api/v1/echo', { body: '{"text":"hi"}', headers: { 'Content-Type': 'application/json; charset=iso-8859-1' } }],
      ['PATCH', '/api/v1/echo', { body: 'x', headers: { 'Content-Type': 'text/plain' } }], // opted into forms, not text
    ];
    for (const [method, url, init] of cases) {
      const r = await raw(method, url, init);
      expect(r.status, `${method} ${JSON.stringify(init)}`).toBe(415);
      expect(r.body.error.code).toBe('unsupported_media_type');
      expect(r.body.error.message).toMatch(/application\/json/);
      expect(r.requestId).toBeTruthy();
    }
    expect((await raw('POST', '/api/v1/echo', {})).body.error.message).toMatch(/^Content-Type is missing/);
  });

  test('JSON with charset parameters passes; an endpoint may opt into other types', async () => {
    for (const type of ['application/json; charset=utf-8', 'Application/JSON;charset="UTF-8"', 'application/json;charset=utf8']) {
      const r = await call(fixtures, 'POST', '/api/v1/echo', undefined, { rawBody: '{"text":"hi"}', headers: { 'Content-Type': type } });
      expect(r.status, type).toBe(200);
    }
    expect((await call(fixtures, 'PUT', '/api/v1/echo', {})).status).toBe(200);
    const form = await call(fixtures, 'PATCH', '/api/v1/echo', undefined, { rawBody: 'List-Unsubscribe=One-Click', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    expect(form.status).toBe(200);
    expect((await call(fixtures, 'PATCH', '/api/v1/echo', {})).status).toBe(200);
    // GET and a body-less DELETE carry nothing to type.
    expect((await call(fixtures, 'GET', '/api/v1/echo?q=a')).status).toBe(200);
  });

  test('validation names the nested field', async () => {
    const r = await call(fixtures, 'POST', '/api/v1/echo', { text: 'hi', nested: { count: 'three' } });
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe('invalid_request');
    expect(r.json.error.message).toMatch(/^nested\.count: /);
  });

  test('NUL characters are refused naming the field (PostgreSQL text cannot hold them)', async () => {
    const r = await call(fixtures, 'POST', '/api/v1/echo', { text: 'a\u0000b' });
    expect(r.status).toBe(400);
    expect(r.json.error.message).toBe('text: text cannot contain NUL (\\u0000) characters or unpaired surrogates (\\uD800–\\uDFFF alone).');
    const q = await call(fixtures, 'GET', '/api/v1/echo?q=%00');
    expect(q.status).toBe(400);
    expect(q.json.error.message).toMatch(/^q: /);
  });

  test('unpaired surrogates are refused too (PostgreSQL jsonb refuses their escape); paired ones are ordinary text', async () => {
    for (const text of ['\uD800', 'a\uDFFFb', '\uDBFF\uDBFF\uDC00']) {
      const r = await call(fixtures, 'POST', '/api/v1/echo', { text });
      expect(r.status, JSON.stringify(text)).toBe(400);
      expect(r.json.error.message).toMatch(/^text: .*unpaired surrogates/);
    }
    expect((await call(fixtures, 'POST', '/api/v1/echo', { text: '𝕏 👩‍👩‍👧‍👦' })).status).toBe(200);
  });

  test('a valid body is parsed and answered as { data }', async () => {
    const r = await call(fixtures, 'POST', '/api/v1/echo', { text: 'hi', extra: 'dropped' });
    expect(r.status).toBe(200);
    expect(r.json.data).toEqual({ body: { text: 'hi' }, ip: '127.0.0.1' });
    expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(r.headers.get('cache-control')).toBe('no-store');
  });
});

describe('query and path parameters', () => {
  test('query strings are validated and coerced', async () => {
    expect((await call(fixtures, 'GET', '/api/v1/echo?q=hello&n=5')).json.data).toEqual({ q: 'hello', n: 5 });
    const bad = await call(fixtures, 'GET', '/api/v1/echo?n=5');
    expect(bad.status).toBe(400);
    expect(bad.json.error.message).toMatch(/^q: /);
  });

  test('a dynamic [id] segment arrives through req.query as a validated param', async () => {
    const r = await call(fixtures, 'GET', '/api/v1/items/item_42?view=full');
    expect(r.json.data).toEqual({ id: 'item_42', view: 'full' });
    const bad = await call(fixtures, 'GET', '/api/v1/items/nope');
    expect(bad.status).toBe(400);
    expect(bad.json.error.message).toBe('id: id must look like item_123');
  });

  test('a catch-all [...path] arrives as an array of decoded segments', async () => {
    const r = await call(fixtures, 'GET', '/api/v1/files/a/b%20c/d');
    expect(r.json.data).toEqual({ segments: ['a', 'b c', 'd'] });
  });
});

describe('errors and request ids', () => {
  test('every answer has an X-Request-Id; a well-formed incoming one is kept', async () => {
    const mine = await call(fixtures, 'GET', '/api/v1/echo?q=x', undefined, { headers: { 'X-Request-Id': 'req-abc_123' } });
    expect(mine.headers.get('x-request-id')).toBe('req-abc_123');
    const odd = await call(fixtures, 'GET', '/api/v1/echo?q=x', undefined, { headers: { 'X-Request-Id': 'bad id with spaces' } });
    expect(odd.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const again = await call(fixtures, 'GET', '/api/v1/echo?q=x');
    expect(again.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(again.headers.get('x-request-id')).not.toBe(odd.headers.get('x-request-id'));
  });

  test('a bug in a handler → 500 with the request id, no stack trace', async () => {
    const r = await call(fixtures, 'DELETE', '/api/v1/echo');
    expect(r.status).toBe(500);
    expect(r.json.error.code).toBe('internal_error');
    expect(r.json.error.message).toContain(r.headers.get('x-request-id')!);
    expect(r.text).not.toMatch(/boom|at .*\.ts/);
  });
});

describe('security headers', () => {
  test('on success and error answers alike', async () => {
    for (const r of [
      await call(fixtures, 'GET', '/api/v1/echo?q=x'),
      await call(fixtures, 'GET', '/api/v1/echo'),
      await call(w.api, 'DELETE', '/api/v1/public/contact'),
    ]) {
      expect(r.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(r.headers.get('x-content-type-options')).toBe('nosniff');
      expect(r.headers.get('x-frame-options')).toBe('DENY');
      expect(r.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      expect(r.headers.get('permissions-policy')).toMatch(/camera=\(\)/);
      expect(r.headers.get('strict-transport-security')).toMatch(/max-age=/); // APP_URL is https
    }
  });

  test('no HSTS when the site is served over plain http', async () => {
    w.setEnv({ APP_URL: 'http://localhost:3000' });
    const r = await call(fixtures, 'GET', '/api/v1/echo?q=x');
    expect(r.headers.get('strict-transport-security')).toBeNull();
  });
});

describe('CORS: only the site itself', () => {
  test("the site's own origin may read answers, with credentials", async () => {
    const r = await call(fixtures, 'GET', '/api/v1/echo?q=x', undefined, { headers: { Origin: APP_URL } });
    expect(r.headers.get('access-control-allow-origin')).toBe(APP_URL);
    expect(r.headers.get('access-control-allow-credentials')).toBe('true');
    expect(r.headers.get('vary')).toMatch(/Origin/);
  });

  test('a preflight from the site gets methods and headers', async () => {
    const r = await call(w.api, 'OPTIONS', '/api/v1/auth/token/refresh', undefined, {
      headers: { Origin: APP_URL, 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'authorization' },
    });
    expect(r.status).toBe(204);
    expect(r.headers.get('access-control-allow-methods')).toBe('GET, OPTIONS');
    expect(r.headers.get('access-control-allow-headers')).toMatch(/Authorization/);
  });

  test('another origin gets no CORS headers (the browser blocks it)', async () => {
    for (const origin of ['https://evil.example', 'https://arb.example.evil.test', 'http://arb.example']) {
      const r = await call(w.api, 'OPTIONS', '/api/v1/auth/token/refresh', undefined, { headers: { Origin: origin, 'Access-Control-Request-Method': 'GET' } });
      expect(r.headers.get('access-control-allow-origin')).toBeNull();
      expect(r.headers.get('access-control-allow-methods')).toBeNull();
    }
  });
});

describe('auth modes', () => {
  test("'user' refuses a billing token with 403, accepts a full one", async () => {
    const billing = await billingTokenFor({ userId: 'usr_http', orgId: 'org_http', email: 'a@example.com' });
    expect((await call(w.api, 'GET', '/api/v1/auth/token/refresh', undefined, { token: billing })).status).toBe(403);
  });

  test('a malformed Authorization header is just "not signed in"', async () => {
    const r = await call(w.api, 'GET', '/api/v1/auth/token/refresh', undefined, { headers: { Authorization: 'Basic dXNlcjpwYXNz' } });
    expect(r.status).toBe(401);
    expect(r.json.error.message).toBe('Sign in to continue.');
  });
});

describe('GET /api/openapi.json', () => {
  type Doc = {
    openapi: string;
    paths: Record<string, Record<string, { summary: string; requestBody?: { content: Record<string, { schema: { properties: Record<string, unknown>; required: string[] } }> }; security?: unknown[]; responses: Record<string, unknown> }>>;
    components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
  };

  test('describes every route of the route table with its zod schemas', async () => {
    const res = await fetch(`${w.api.url}/api/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    // Its handler writes the answer itself (RAW): the headers every answer carries are on it all the same.
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    const doc = (await res.json()) as Doc;
    expect(doc.openapi).toBe('3.1.0');
    for (const { path: p, route } of apiRoutes) {
      const item = doc.paths[p.replace(/\[(?:\.\.\.)?(\w+)\]/g, '{$1}')];
      expect(item, p).toBeDefined();
      expect(Object.keys(item).sort()).toEqual(Object.keys(route.endpoints).map((m) => m.toLowerCase()).sort());
    }
    const email = doc.paths['/api/v1/auth/email'].post;
    expect(email.summary).toBe('E-mail a 6-digit sign-in code');
    const schema = email.requestBody!.content['application/json'].schema;
    expect(Object.keys(schema.properties).sort()).toEqual(['captcha_token', 'email']);
    expect(schema.required.sort()).toEqual(['captcha_token', 'email']);
    expect(email.responses).toHaveProperty('429');

    const refresh = doc.paths['/api/v1/auth/token/refresh'].get;
    expect(refresh.security).toEqual([{ bearerAuth: [] }]);
    expect(refresh.responses).toHaveProperty('401');
    expect(doc.components.schemas).toHaveProperty('Error');
  });

  test('path parameters are listed for dynamic routes', async () => {
    const { buildOpenApiDocument } = await import('@/server/http/openapi');
    const item = (await import('../fixtures/apiRoutes/v1/items/[id]')).default;
    const doc = buildOpenApiDocument([{ path: '/api/v1/items/[id]', route: item }], APP_URL) as unknown as {
      paths: Record<string, { get: { parameters: Array<{ name: string; in: string; required: boolean }> } }>;
    };
    const params = doc.paths['/api/v1/items/{id}'].get.parameters;
    expect(params).toContainEqual(expect.objectContaining({ name: 'id', in: 'path', required: true }));
    expect(params).toContainEqual(expect.objectContaining({ name: 'view', in: 'query', required: false }));
  });
});
