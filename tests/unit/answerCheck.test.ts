/**
 * Under NODE_ENV=test (every vitest project), an answer that is not what its endpoint's response schema says becomes a
 * 500 naming the endpoint and the issues, and is kept for the API projects' afterEach (tests/helpers/answerCheckSetup.ts)
 * to fail the test that made the call. Outside tests the answer goes out as the handler made it, unchecked.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { apiRoute, cachedAnswer, endpoint, pageAnswer, taggedAnswer } from '@/server/http/api';
import { takeAnswerMismatches } from '@/server/http/answerCheck';
import { setEnvForTests } from '@/server/env';

const count = z.object({ n: z.number().int(), label: z.string().nullable() });
let wrong: unknown = { n: 'three', label: null };

const routes: Record<string, ReturnType<typeof apiRoute>> = {
  '/right': apiRoute({ GET: endpoint({ summary: 'A right answer', response: count, handler: () => ({ n: 3, label: null }) }) }),
  // The cast is the point: a handler the types did not catch (an `as`, a database row typed loosely).
  '/wrong': apiRoute({ GET: endpoint({ summary: 'A wrong answer', response: count, handler: async () => wrong as z.input<typeof count> }) }),
  '/extra': apiRoute({ GET: endpoint({ summary: 'An extra field', response: count, handler: () => ({ n: 1, label: 'x', secret: 'y' }) as z.input<typeof count> }) }),
  '/page': apiRoute({ GET: endpoint({ summary: 'A page', response: z.array(count), paged: true, handler: () => taggedAnswer(pageAnswer([{ n: 1, label: null }, { n: 2.5, label: null }], false), 'private, no-cache') }) }),
  '/cached': apiRoute({ GET: endpoint({ summary: 'A cached answer', response: count, handler: () => cachedAnswer(Object.freeze({ n: 4, label: 'four' })) }) }),
  '/unchecked': apiRoute({ GET: endpoint({ summary: 'No response schema', handler: () => ({ anything: true }) }) }),
};

let server: http.Server;
let base: string;
beforeAll(async () => {
  server = http.createServer((req, res) => void routes[(req.url ?? '').split('?')[0]]?.(req, res));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
afterEach(() => {
  takeAnswerMismatches();
  wrong = { n: 'three', label: null };
});

const get = async (path: string) => {
  const res = await fetch(base + path);
  return { status: res.status, json: (await res.json()) as { data?: unknown; error?: { code: string; message: string } } };
};

describe('answers are checked against their response schema under NODE_ENV=test', () => {
  it('an answer that matches goes out as it is, plain, paged or cached', async () => {
    expect(await get('/right')).toEqual({ status: 200, json: { data: { n: 3, label: null } } });
    expect(await get('/cached')).toEqual({ status: 200, json: { data: { n: 4, label: 'four' } } });
    expect(await get('/unchecked')).toEqual({ status: 200, json: { data: { anything: true } } });
    expect(takeAnswerMismatches()).toEqual([]);
  });

  it('a wrong field type is a 500 naming the endpoint and the field, and is kept for the test to fail on', async () => {
    const { status, json } = await get('/wrong');
    expect(status).toBe(500);
    expect(json.error?.code).toBe('answer_mismatch');
    expect(json.error?.message).toMatch(/^GET \/wrong \(A wrong answer\): the answer does not match its response schema — data\.n: /);
    expect(takeAnswerMismatches()).toEqual([json.error?.message]);
  });

  it('a field the schema does not list is a mismatch too (the document would not mention it)', async () => {
    const { status, json } = await get('/extra');
    expect(status).toBe(500);
    expect(json.error?.message).toContain('data.secret: not in the response schema');
  });

  it("a page's items are checked, and so is its envelope", async () => {
    const { status, json } = await get('/page');
    expect(status).toBe(500);
    expect(json.error?.message).toContain('data.1.n: ');
  });

  it('a missing field is named', async () => {
    wrong = { n: 3 };
    const { json } = await get('/wrong');
    expect(json.error?.message).toContain('data.label: ');
  });

  it('outside tests the answer is not checked (no parse cost in production)', async () => {
    const restore = setEnvForTests({ NODE_ENV: 'production' });
    try {
      expect(await get('/wrong')).toEqual({ status: 200, json: { data: { n: 'three', label: null } } });
    } finally {
      restore();
    }
    expect(takeAnswerMismatches()).toEqual([]);
  });
});
