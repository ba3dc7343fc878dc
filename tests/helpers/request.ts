/**
 * Calls to the test API server (tests/helpers/api.ts) that return status, headers and the parsed JSON together.
 *
 *   const r = await call(api, 'POST', '/api/v1/auth/email', { email, captcha_token: '' }, { ip: '203.0.113.7' });
 *   expect(r.status).toBe(200); expect(r.json.data).toEqual({ sent: true });
 */
import type { TestApi } from './api';

/**
 * The API's answer shape: `data` (and `has_more` on a cursor page), or `error`. Typed with both members for convenient
 * assertions; a real answer carries one of them.
 */
export type ApiBody<D> = { data: D; has_more?: boolean; error: { code: string; message: string } };

export type ApiAnswer<D> = {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed body; an empty object when the body is not JSON. */
  json: ApiBody<D>;
};

export type CallOptions = {
  /** Sent as X-Forwarded-For: with TRUST_PROXY=1 each test can be its own client for per-IP limits. */
  ip?: string;
  token?: string;
  headers?: Record<string, string>;
  /** A body sent as is (invalid JSON, other content types). */
  rawBody?: string;
};

export async function call<D = Record<string, unknown>>(
  api: TestApi,
  method: string,
  path: string,
  body?: unknown,
  options: CallOptions = {},
): Promise<ApiAnswer<D>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.ip) headers['X-Forwarded-For'] = options.ip;
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  let payload: string | undefined = options.rawBody;
  if (payload === undefined && body !== undefined) {
    payload = JSON.stringify(body);
    headers['Content-Type'] ??= 'application/json';
  }
  const res = await fetch(`${api.url}${path}`, { method, headers, body: payload });
  const text = await res.text();
  let json = {} as ApiBody<D>;
  try {
    if (text) json = JSON.parse(text) as ApiBody<D>;
  } catch {
    /* not JSON: keep {} */
  }
  return { status: res.status, headers: res.headers, text, json };
}
