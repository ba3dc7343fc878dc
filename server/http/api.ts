/**
 * Thin API routes (STYLE.md #6, #7). A route file is:
 *
 *   export const config = { api: { bodyParser: false } };
 *   export default apiRoute({ POST: emailSignIn });
 *
 * and each endpoint reads the same way: validate (zod) → authorize → call a service → respond `{ data }`.
 * Bodies are read here (not by Next) so that size limits answer 413 and bad JSON answers 400 in our one error shape.
 * Handlers only use node's IncomingMessage/ServerResponse, so tests can serve them without Next (tests/helpers/api.ts).
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import ipaddr from 'ipaddr.js';
import { z, type ZodType } from 'zod';
import { HttpError, unauthorized, forbidden } from './errors';
import { API_CONTENT_SECURITY_POLICY, securityHeaders } from './securityHeaders.mjs';
import { verifyAuthToken, type AuthClaims } from '../auth/tokens';
import { env } from '../env';
import { log, type Logger } from '../log';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
/** none: public · optional: user if a valid full token is sent · user: full token required · billing: billing or full token. */
export type AuthMode = 'none' | 'optional' | 'user' | 'billing';

type Infer<T> = T extends ZodType ? z.output<T> : undefined;

export type Ctx<B, Q, P> = {
  req: IncomingMessage & { query?: Record<string, string | string[] | undefined> };
  res: ServerResponse;
  body: B;
  query: Q;
  params: P;
  /** Set when the request carries a valid token (always for auth 'user' and 'billing'). */
  auth: AuthClaims | null;
  ip: string;
  requestId: string;
  log: Logger;
  /** Status of the success answer (default 200). */
  status: number;
  setHeader(name: string, value: string): void;
};

export type EndpointDef<BS extends ZodType | undefined, QS extends ZodType | undefined, PS extends ZodType | undefined> = {
  summary: string;
  tags?: string[];
  body?: BS;
  query?: QS;
  /** Dynamic path segments ([id] in the file name). */
  params?: PS;
  /** Success answer's `data` schema, for the OpenAPI document only. */
  response?: ZodType;
  auth?: AuthMode;
  maxBodyBytes?: number;
  /**
   * Return the `data` of the answer. Return RAW (the symbol) when the handler has written the response itself
   * (streams, redirects, non-JSON documents).
   */
  handler: (ctx: Ctx<Infer<BS>, Infer<QS>, Infer<PS>>) => Promise<unknown> | unknown;
};

export const RAW = Symbol('raw-response');

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Endpoint = EndpointDef<any, any, any>;

export function endpoint<
  BS extends ZodType | undefined = undefined,
  QS extends ZodType | undefined = undefined,
  PS extends ZodType | undefined = undefined,
>(def: EndpointDef<BS, QS, PS>): EndpointDef<BS, QS, PS> {
  return def;
}

const DEFAULT_MAX_BODY = 64 * 1024;

export function sendJson(res: ServerResponse, status: number, payload: unknown, headers: Record<string, string> = {}) {
  if (res.headersSent) return;
  const body = JSON.stringify(payload);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
  res.end(body);
}

export function sendError(res: ServerResponse, err: HttpError) {
  sendJson(res, err.status, { error: { code: err.code, message: err.message } }, err.headers);
}

/** JSON bodies only: a form post or plain text would otherwise reach the JSON parser and answer a confusing 400. */
function assertJsonContentType(req: IncomingMessage) {
  const type = req.headers['content-type'];
  if (!type) return;
  const media = type.split(';')[0].trim().toLowerCase();
  if (media === 'application/json' || /^application\/[\w.+-]+\+json$/.test(media)) return;
  throw new HttpError(415, 'unsupported_media_type', 'Send the request body as JSON (Content-Type: application/json).');
}

async function readBody(req: IncomingMessage, limit: number): Promise<string> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    throw new HttpError(413, 'payload_too_large', `Request body is larger than ${limit} bytes.`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new HttpError(413, 'payload_too_large', `Request body is larger than ${limit} bytes.`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** "email: Invalid email address" — the first issue, naming the field. */
export function describeZodError(error: z.ZodError, where: string): string {
  const issue = error.issues[0];
  if (!issue) return `Invalid ${where}.`;
  const field = issue.path.length ? issue.path.map(String).join('.') : where;
  return `${field}: ${issue.message}`;
}

/**
 * The path of the first string (value or key) holding a NUL character, or null. PostgreSQL text cannot store U+0000,
 * so such input would otherwise fail deep in a query with a 500; nothing in this API needs it.
 */
function findNul(value: unknown, path: string[] = [], depth = 0): string[] | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (!value || typeof value !== 'object' || depth > 64) return null;
  for (const [k, v] of Object.entries(value)) {
    if (k.includes('\u0000')) return [...path, k];
    const found = findNul(v, [...path, k], depth + 1);
    if (found) return found;
  }
  return null;
}

function parseWith<T extends ZodType | undefined>(schema: T, value: unknown, where: string): Infer<T> {
  if (!schema) return undefined as Infer<T>;
  const nul = findNul(value);
  if (nul) throw new HttpError(400, 'invalid_request', `${nul.length ? nul.join('.') : where}: text cannot contain NUL (\\u0000) characters.`);
  const result = schema.safeParse(value);
  if (!result.success) throw new HttpError(400, 'invalid_request', describeZodError(result.error, where));
  return result.data as Infer<T>;
}

function definedValues(q: Record<string, string | string[] | undefined>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(q)) if (v !== undefined) out[k] = v;
  return out;
}

function bearer(req: IncomingMessage): string | null {
  const h = req.headers.authorization;
  if (!h) return null;
  const m = /^Bearer\s+(.+)$/i.exec(h);
  return m ? m[1].trim() : null;
}

async function authorize(mode: AuthMode, req: IncomingMessage): Promise<AuthClaims | null> {
  const token = bearer(req);
  if (mode === 'none') return null;
  const claims = token ? await verifyAuthToken(token) : null;
  if (mode === 'optional') return claims && claims.scope === 'full' ? claims : null;
  if (!claims) throw unauthorized(token ? 'Your session has expired. Sign in again.' : 'Sign in to continue.');
  if (mode === 'user' && claims.scope !== 'full') throw forbidden('This token is limited to billing and cannot be used here.');
  return claims;
}

/**
 * The caller's address, normalised (IPv4-mapped IPv6 → IPv4). Behind a trusted proxy (TRUST_PROXY) it is the last
 * X-Forwarded-For entry: the one our proxy appended, which a client cannot forge.
 */
export function clientIp(req: IncomingMessage): string {
  let raw = req.socket?.remoteAddress ?? '';
  if (env().TRUST_PROXY) {
    const header = req.headers['x-forwarded-for'];
    const forwarded = (Array.isArray(header) ? header.join(',') : header ?? '').split(',').map((s) => s.trim()).filter(Boolean);
    const last = forwarded[forwarded.length - 1];
    if (last && ipaddr.isValid(last)) raw = last;
  }
  return ipaddr.isValid(raw) ? ipaddr.process(raw).toString() : 'unknown';
}

const CORS_ALLOWED_HEADERS = 'Authorization, Content-Type, X-Request-Id';

/**
 * CORS for the site's own origin only (APP_URL): another origin gets no Access-Control-* headers, so browsers keep
 * its scripts from reading our answers. Same-origin calls need none of this.
 */
function applyCors(req: IncomingMessage, res: ServerResponse, allow: string): void {
  const origin = req.headers.origin;
  if (!origin) return;
  res.setHeader('Vary', 'Origin');
  if (origin !== new URL(env().APP_URL).origin) return;
  res.setHeader('Access-Control-Allow-Origin', origin);
  res.setHeader('Access-Control-Allow-Credentials', 'true');
  res.setHeader('Access-Control-Expose-Headers', 'X-Request-Id, Retry-After');
  if (req.method === 'OPTIONS' && req.headers['access-control-request-method']) {
    res.setHeader('Access-Control-Allow-Methods', allow);
    res.setHeader('Access-Control-Allow-Headers', CORS_ALLOWED_HEADERS);
    res.setHeader('Access-Control-Max-Age', '600');
  }
}

// Built once per environment (env() is replaced in tests), not per request: this is the API's hot path.
let cachedSecurity: { appUrl: string; headers: Array<[string, string]> } | null = null;
function applySecurityHeaders(res: ServerResponse): void {
  const appUrl = env().APP_URL;
  if (cachedSecurity?.appUrl !== appUrl) {
    cachedSecurity = { appUrl, headers: securityHeaders({ csp: API_CONTENT_SECURITY_POLICY, https: appUrl.startsWith('https://') }) };
  }
  for (const [name, value] of cachedSecurity.headers) res.setHeader(name, value);
}

export type RouteHandler = ((req: IncomingMessage, res: ServerResponse) => Promise<void>) & {
  endpoints: Partial<Record<Method, Endpoint>>;
};

/** Map methods to endpoints; anything else answers 405 with Allow. */
export function apiRoute(methods: Partial<Record<Method, Endpoint>>): RouteHandler {
  const allow = [...Object.keys(methods), 'OPTIONS'].join(', ');
  const handler = async (req: IncomingMessage & { query?: Record<string, string | string[] | undefined> }, res: ServerResponse) => {
    const started = performance.now();
    const requestId = (typeof req.headers['x-request-id'] === 'string' && /^[\w-]{1,64}$/.test(req.headers['x-request-id'])
      ? req.headers['x-request-id']
      : randomUUID());
    res.setHeader('X-Request-Id', requestId);
    const url = new URL(req.url ?? '/', 'http://localhost');
    // The request logger and the client address are made only when something asks for them (hot path).
    let rlogMade: Logger | null = null;
    const rlog = () => (rlogMade ??= log.child({ requestId, method: req.method, path: url.pathname }));
    const method = (req.method ?? 'GET').toUpperCase() as Method;
    try {
      applySecurityHeaders(res);
      applyCors(req, res, allow);
      if (method === ('OPTIONS' as Method)) {
        res.statusCode = 204;
        res.setHeader('Allow', allow);
        res.end();
        return;
      }
      const ep = methods[method];
      if (!ep) throw new HttpError(405, 'method_not_allowed', `Method ${method} is not allowed here. Use ${allow}.`, { Allow: allow });

      // Next puts dynamic segments and the query string together in req.query; tests' router does the same. Values
      // stay as Next gives them: a string, or an array for a catch-all segment ([...slug]).
      const merged = { ...Object.fromEntries(url.searchParams), ...definedValues(req.query ?? {}) };
      const params = parseWith(ep.params, merged, 'path');
      const query = parseWith(ep.query, Object.fromEntries(url.searchParams), 'query');
      let body: unknown = undefined;
      if (ep.body) {
        assertJsonContentType(req);
        const raw = await readBody(req, ep.maxBodyBytes ?? DEFAULT_MAX_BODY);
        let json: unknown;
        try {
          json = raw.trim() === '' ? undefined : JSON.parse(raw);
        } catch {
          throw new HttpError(400, 'invalid_json', 'Request body is not valid JSON.');
        }
        if (json === undefined) throw new HttpError(400, 'invalid_request', 'Request body is missing: send a JSON object.');
        body = parseWith(ep.body, json, 'body');
      }
      const mode = ep.auth ?? 'none';
      const auth = mode === 'none' ? null : await authorize(mode, req);
      let ip: string | null = null;
      const ctx: Ctx<unknown, unknown, unknown> = {
        req, res, body, query, params, auth, requestId, status: 200,
        get ip() {
          return (ip ??= clientIp(req));
        },
        get log() {
          return rlog();
        },
        setHeader: (n, v) => res.setHeader(n, v),
      };
      const data = await ep.handler(ctx as never);
      if (data !== RAW) sendJson(res, ctx.status, { data: data ?? null });
    } catch (err) {
      if (err instanceof HttpError) {
        if (err.status >= 500) rlog().error('request failed', { status: err.status, code: err.code, message: err.message });
        sendError(res, err);
      } else {
        rlog().error('unhandled error', { err });
        if (!res.headersSent) sendError(res, new HttpError(500, 'internal_error', `Something went wrong on our side (request ${requestId}). Try again.`));
        else res.end();
      }
    } finally {
      if (log.enabled('debug')) rlog().debug('request', { status: res.statusCode, ms: Math.round(performance.now() - started) });
    }
  };
  return Object.assign(handler, { endpoints: methods });
}
