/**
 * Under NODE_ENV=test, every JSON success answer of an endpoint with a `response` schema is read back from its bytes and
 * checked against that schema: the schema is what the OpenAPI document (and so lib/api/schema.d.ts, the browser's
 * types) says the answer is, and nothing else ties the two together. A field the schema does not list counts as a
 * mismatch too (zod would drop it silently, and the document would not mention it).
 *
 * A mismatch turns the answer into a 500 naming the endpoint and the issues, and is kept in `answerMismatches` until
 * the test's afterEach hook (tests/helpers/answerCheckSetup.ts) takes it and fails the test that made the call — a
 * test that expected some other failure, or did not look at the status, fails as clearly.
 *
 * Outside tests nothing here runs (apiRoute asks `checksAnswers()` first): no parse cost in production.
 */
import type { ZodType } from 'zod';
import { z } from 'zod';
import { env } from '../env';

export const checksAnswers = (): boolean => env().NODE_ENV === 'test';

const g = globalThis as unknown as { __arbAnswerMismatches?: string[] };

/** The mismatches found since the last call, emptied (tests' afterEach). */
export function takeAnswerMismatches(): string[] {
  const found = g.__arbAnswerMismatches ?? [];
  g.__arbAnswerMismatches = [];
  return found;
}

function remember(problem: string): void {
  (g.__arbAnswerMismatches ??= []).push(problem);
}

const pathText = (path: readonly PropertyKey[]) => (path.length ? path.map(String).join('.') : '(root)');

/** The keys of the answer the parsed value no longer has: fields the schema does not describe. */
function undocumentedFields(sent: unknown, parsed: unknown, path: string[] = [], found: string[] = []): string[] {
  if (Array.isArray(sent) && Array.isArray(parsed)) {
    sent.forEach((v, i) => undocumentedFields(v, parsed[i], [...path, String(i)], found));
  } else if (sent && parsed && typeof sent === 'object' && typeof parsed === 'object') {
    for (const [k, v] of Object.entries(sent)) {
      if (!(k in parsed)) found.push(pathText([...path, k]));
      else undocumentedFields(v, (parsed as Record<string, unknown>)[k], [...path, k], found);
    }
  }
  return found;
}

/**
 * What keeps `value` (JSON as it is sent) from being what `schema` describes, each as "path: problem"; a field the
 * schema does not list is one. Empty when it is. Also for other JSON the server sends (tests of the webhook payload).
 */
export function schemaMismatches(schema: ZodType, value: unknown): string[] {
  const result = schema.safeParse(value);
  return result.success
    ? undocumentedFields(value, result.data).map((p) => `${p}: not in the response schema`)
    : result.error.issues.map((i) => `${pathText(i.path)}: ${i.message}`);
}

/** The whole body's schema: `{ data }`, or a cursor page's `{ data, has_more, next_cursor? }`. */
const bodySchemas = new WeakMap<ZodType, { plain: ZodType; paged: ZodType }>();
function bodySchema(response: ZodType, paged: boolean): ZodType {
  let s = bodySchemas.get(response);
  if (!s) {
    s = {
      plain: z.object({ data: response }),
      paged: z.object({ data: response, has_more: z.boolean(), next_cursor: z.string().nullable().optional(), total: z.number().int().optional(), total_is_estimate: z.boolean().optional() }),
    };
    bodySchemas.set(response, s);
  }
  return paged ? s.paged : s.plain;
}

/**
 * Null when `body` (the answer's JSON) is what `response` describes; else the problem, in words naming the endpoint,
 * which is also remembered for the test's afterEach.
 */
export function answerMismatch(where: string, response: ZodType, paged: boolean, body: string): string | null {
  const issues = schemaMismatches(bodySchema(response, paged), JSON.parse(body));
  if (!issues.length) return null;
  const problem = `${where}: the answer does not match its response schema — ${issues.slice(0, 10).join('; ')}${issues.length > 10 ? ` (and ${issues.length - 10} more)` : ''}`;
  remember(problem);
  return problem;
}
