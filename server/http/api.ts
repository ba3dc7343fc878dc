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
import { randomBytes } from 'node:crypto';
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
const JSON_TYPE = 'application/json; charset=utf-8';

export function sendJson(res: ServerResponse, status: number, payload: unknown, headers: Record<string, string> = {}) {
  if (res.headersSent) return;
  const body = JSON.stringify(payload);
  res.statusCode = status;
  res.setHeader('Content-Type', JSON_TYPE);
  res.setHeader('Cache-Control', 'no-store');
  for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
  res.end(body);
}

export function sendError(res: ServerResponse, err: HttpError) {
  sendJson(res, err.status, { error: { code: err.code, message: err.message } }, err.headers);
}

/** A success answer whose whole body (`{"data":…}`) is already serialized: see cachedAnswer. */
class SerializedAnswer {
  constructor(readonly body: Buffer) {}
}

const serialized = new WeakMap<object, SerializedAnswer>();

/**
 * The answer for `value` when it is a cache entry that many requests share: its JSON is made once and kept as long as
 * the value lives, instead of being made again on every request (JSON.stringify of a search page cost more than the
 * rest of the request). Only for DEEPLY frozen values (an object of primitives, an array of such): the kept JSON must
 * not go stale. A value that is not frozen is serialized each time, as usual.
 */
export function cachedAnswer(value: object): SerializedAnswer {
  let answer = serialized.get(value);
  if (!answer) {
    answer = new SerializedAnswer(Buffer.from(JSON.stringify({ data: value })));
    if (Object.isFrozen(value)) serialized.set(value, answer);
  }
  return answer;
}

/** JSON bodies only: a form post or plain text would otherwise reach the JSON parser and answer a confusing 400. */
function assertJsonContentType(req: IncomingMessage) {
  const type = req.headers['content-type'];
  if (!type || type === 'application/json') return;
  const media = type.split(';')[0].trim().toLowerCase();
  if (media === 'application/json' || /^application\/[\w.+-]+\+json$/.test(media)) return;
  throw new HttpError(415, 'unsupported_media_type', 'Send the request body as JSON (Content-Type: application/json).');
}

const BODY = Symbol('body');
type BodyReading = { chunks: Buffer[]; size: number; limit: number; resolve: (raw: string) => void; reject: (err: Error) => void };
type ReadingRequest = IncomingMessage & { [BODY]?: BodyReading };

/**
 * The request body as text, at most `limit` bytes (413 beyond, declared or streamed). Plain stream events rather than
 * `for await` (the async iterator cost more than all the rest of a cached search), and listeners made once for all
 * requests (they find the request's reading on `this`), not closures per request.
 */
function readBody(req: IncomingMessage, limit: number): Promise<string> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    return Promise.reject(new HttpError(413, 'payload_too_large', `Request body is larger than ${limit} bytes.`));
  }
  return new Promise((resolve, reject) => {
    (req as ReadingRequest)[BODY] = { chunks: [], size: 0, limit, resolve, reject };
    req.on('data', onBodyData);
    req.on('end', onBodyEnd);
    req.on('error', onBodyError);
    req.on('close', onBodyClose);
  });
}

/** The reading of `req` — once, then it is over: events after the end (or a failure) change nothing. */
function takeReading(req: ReadingRequest): BodyReading | undefined {
  const reading = req[BODY];
  req[BODY] = undefined;
  return reading;
}

function onBodyData(this: ReadingRequest, chunk: Buffer) {
  const reading = this[BODY];
  if (!reading) return;
  reading.size += chunk.length;
  if (reading.size <= reading.limit) return void reading.chunks.push(chunk);
  takeReading(this);
  // The rest is read and dropped (flowing, and this listener ignores it), as Node does with a body nobody reads: the
  // answer still goes out on the same connection.
  reading.reject(new HttpError(413, 'payload_too_large', `Request body is larger than ${reading.limit} bytes.`));
}

function onBodyEnd(this: ReadingRequest) {
  const reading = takeReading(this);
  if (!reading) return;
  const { chunks } = reading;
  reading.resolve(chunks.length === 1 ? chunks[0].toString('utf8') : Buffer.concat(chunks).toString('utf8'));
}

function onBodyError(this: ReadingRequest, err: Error) {
  takeReading(this)?.reject(err);
}

function onBodyClose(this: ReadingRequest) {
  takeReading(this)?.reject(new Error('The request closed before its body ended.'));
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
 * so such input would otherwise fail deep in a query with a 500; nothing in this API needs it. The path is built only
 * when one is found (this runs on every request).
 */
function findNul(value: unknown, depth = 0): string[] | null {
  if (typeof value === 'string') return value.includes('\u0000') ? [] : null;
  if (!value || typeof value !== 'object' || depth > 64) return null;
  for (const k of Object.keys(value)) {
    if (k.includes('\u0000')) return [k];
    const found = findNul((value as Record<string, unknown>)[k], depth + 1);
    if (found) {
      found.unshift(k);
      return found;
    }
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

/**
 * The query string of a request URL as `Object.fromEntries(new URL(url, base).searchParams)` gives it (the last value
 * of a repeated name wins), without building URL objects for the usual query that has nothing to decode.
 */
export function queryOf(url: string): Record<string, string> {
  const q = url.indexOf('?');
  if (q === -1) return {};
  const search = url.slice(q + 1);
  // Escapes and '+' need decoding, and a '#' ends the query for the URL parser: those take the standard path.
  if (/[%+#]/.test(search)) return Object.fromEntries(new URL(url, 'http://localhost').searchParams);
  const out: Record<string, string> = {};
  for (const pair of search.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const name = eq === -1 ? pair : pair.slice(0, eq);
    // Assigning "__proto__" would set the prototype instead of a field.
    if (name === '__proto__') return Object.fromEntries(new URL(url, 'http://localhost').searchParams);
    out[name] = eq === -1 ? '' : pair.slice(eq + 1);
  }
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
 * What every answer carries for the current APP_URL, built once per environment (env() is replaced in tests), not per
 * request: this is the API's hot path. Headers are flat [name, value, name, value…] lists for res.writeHead.
 */
type Site = { appUrl: string; origin: string; security: string[] };
let site: Site | null = null;
function currentSite(): Site {
  const appUrl = env().APP_URL;
  if (site?.appUrl !== appUrl) {
    const security = securityHeaders({ csp: API_CONTENT_SECURITY_POLICY, https: appUrl.startsWith('https://') }).flat();
    site = { appUrl, origin: new URL(appUrl).origin, security };
  }
  return site;
}

/**
 * CORS for the site's own origin only (APP_URL): another origin gets no Access-Control-* headers, so browsers keep
 * its scripts from reading our answers. Same-origin calls (no Origin header) need none of this: null.
 */
function corsHeaders(req: IncomingMessage, origin: string, allow: string): string[] | null {
  const from = req.headers.origin;
  if (!from) return null;
  if (from !== origin) return ['Vary', 'Origin'];
  const headers = [
    'Vary', 'Origin',
    'Access-Control-Allow-Origin', from,
    'Access-Control-Allow-Credentials', 'true',
    'Access-Control-Expose-Headers', 'X-Request-Id, Retry-After',
  ];
  if (req.method === 'OPTIONS' && req.headers['access-control-request-method']) {
    headers.push('Access-Control-Allow-Methods', allow, 'Access-Control-Allow-Headers', CORS_ALLOWED_HEADERS, 'Access-Control-Max-Age', '600');
  }
  return headers;
}

/** In a flat header list, the last value of a name wins (as with setHeader): earlier entries of that name go. */
function lastWins(headers: string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (let i = headers.length - 2; i >= 0; i -= 2) {
    const key = headers[i].toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(headers[i + 1], headers[i]);
  }
  return out.reverse();
}

/**
 * Correlation ids for the logs and the X-Request-Id header, shaped like a UUID (8-4-4-4-12 hex digits): 80 random
 * bits per process, then a counter that starts at a random value. Unique within a process and, by the random part,
 * across processes; they tie a log line to an answer and are not secrets. (randomUUID per request cost more, and Next
 * wraps crypto.randomUUID with bookkeeping of its own.) Made on first use, not while Next's build imports this file.
 */
let idPrefix = '';
let idCounter = 0;
function newRequestId(): string {
  if (!idPrefix) {
    const random = randomBytes(16);
    const hex = random.toString('hex', 0, 10);
    idPrefix = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-`;
    idCounter = random.readUIntBE(10, 5); // 40 bits: room for 2^47 - 2^40 requests before the 12 digits overflow
  }
  return idPrefix + (idCounter++).toString(16).padStart(12, '0');
}

const REQUEST_ID = /^[\w-]{1,64}$/;

/**
 * The request's logger, made only when something logs (the hot path logs nothing): handlers destructure `log` from
 * their context on every request.
 */
class RequestLog implements Logger {
  private made: Logger | null = null;
  constructor(
    private readonly requestId: string,
    private readonly req: IncomingMessage,
  ) {}
  private get logger(): Logger {
    if (!this.made) {
      const path = new URL(this.req.url ?? '/', 'http://localhost').pathname;
      this.made = log.child({ requestId: this.requestId, method: this.req.method, path });
    }
    return this.made;
  }
  debug(msg: string, fields?: Record<string, unknown>) {
    if (log.enabled('debug')) this.logger.debug(msg, fields);
  }
  info(msg: string, fields?: Record<string, unknown>) {
    if (log.enabled('info')) this.logger.info(msg, fields);
  }
  warn(msg: string, fields?: Record<string, unknown>) {
    this.logger.warn(msg, fields);
  }
  error(msg: string, fields?: Record<string, unknown>) {
    this.logger.error(msg, fields);
  }
  child(fields: Record<string, unknown>): Logger {
    return this.logger.child(fields);
  }
  enabled(level: 'debug' | 'info' | 'warn' | 'error'): boolean {
    return log.enabled(level);
  }
}

/**
 * One request's context. The headers every answer carries (security, X-Request-Id, CORS) and those a handler sets go
 * out in ONE res.writeHead with the body, not header by header. A handler that takes `res` writes its answer itself:
 * it gets `res` with all of them already set on it, as before.
 */
class RequestContext {
  body: unknown = undefined;
  query: unknown = undefined;
  params: unknown = undefined;
  auth: AuthClaims | null = null;
  status = 200;
  /** Set once the handler has `res`: from then on headers go straight onto it. */
  private exposed = false;
  /** Headers the handler set through setHeader, flat. */
  private extra: string[] | null = null;
  private ipValue: string | null = null;
  private logValue: RequestLog | null = null;

  constructor(
    readonly req: IncomingMessage & { query?: Record<string, string | string[] | undefined> },
    private readonly response: ServerResponse,
    readonly requestId: string,
    private readonly site: Site,
    private readonly cors: string[] | null,
  ) {}

  get res(): ServerResponse {
    if (!this.exposed) {
      const headers = this.baseHeaders();
      for (let i = 0; i < headers.length; i += 2) this.response.setHeader(headers[i], headers[i + 1]);
      this.exposed = true;
    }
    return this.response;
  }

  get ip(): string {
    return (this.ipValue ??= clientIp(this.req));
  }

  get log(): Logger {
    return (this.logValue ??= new RequestLog(this.requestId, this.req));
  }

  /** A function (handlers destructure it), made only for the handlers that ask for it. */
  get setHeader(): (name: string, value: string) => void {
    return (name, value) => {
      if (this.exposed) this.response.setHeader(name, value);
      else (this.extra ??= []).push(name, value);
    };
  }

  get headersSent(): boolean {
    return this.response.headersSent;
  }

  get statusCode(): number {
    return this.response.statusCode;
  }

  /** After a handler's own writes failed half-way: end what was sent. */
  end(): void {
    this.response.end();
  }

  private baseHeaders(): string[] {
    const headers = [...this.site.security, 'X-Request-Id', this.requestId];
    if (this.cors) headers.push(...this.cors);
    if (this.extra) headers.push(...this.extra);
    return this.extra ? lastWins(headers) : headers;
  }

  /** The answer: JSON `body` (already serialized) with `status`; `headers` win over the handler's. */
  send(status: number, body: string | Buffer, headers?: Record<string, string>): void {
    const res = this.response;
    if (res.headersSent) return;
    if (this.exposed) {
      res.statusCode = status;
      res.setHeader('Content-Type', JSON_TYPE);
      res.setHeader('Cache-Control', 'no-store');
      if (headers) for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
      res.end(body);
      return;
    }
    const list = this.baseHeaders();
    list.push('Content-Type', JSON_TYPE, 'Cache-Control', 'no-store');
    if (headers) for (const [k, v] of Object.entries(headers)) list.push(k, v);
    list.push('Content-Length', String(typeof body === 'string' ? Buffer.byteLength(body) : body.length));
    res.writeHead(status, this.extra || headers ? lastWins(list) : list);
    res.end(body);
  }

  sendError(err: HttpError): void {
    this.send(err.status, JSON.stringify({ error: { code: err.code, message: err.message } }), err.headers);
  }

  /** OPTIONS: no body. */
  sendEmpty(status: number, allow: string): void {
    const res = this.response;
    if (this.exposed) {
      res.statusCode = status;
      res.setHeader('Allow', allow);
      res.end();
      return;
    }
    const list = this.baseHeaders();
    list.push('Allow', allow);
    res.writeHead(status, list);
    res.end();
  }
}

/** Returns a promise while the answer is still being made, nothing when it was answered at once (a cached answer). */
export type RouteHandler = ((req: IncomingMessage, res: ServerResponse) => Promise<void> | undefined) & {
  endpoints: Partial<Record<Method, Endpoint>>;
};

/** Map methods to endpoints; anything else answers 405 with Allow. */
export function apiRoute(methods: Partial<Record<Method, Endpoint>>): RouteHandler {
  const allow = [...Object.keys(methods), 'OPTIONS'].join(', ');

  /** Sends what the handler returned; an error after the handler's own writes only ends the answer. */
  const answer = (c: RequestContext, data: unknown): void => {
    if (data === RAW) return;
    if (data instanceof SerializedAnswer) c.send(c.status, data.body);
    else c.send(c.status, JSON.stringify({ data: data ?? null }));
  };

  const fail = (c: RequestContext, err: unknown): void => {
    if (err instanceof HttpError) {
      if (err.status >= 500) c.log.error('request failed', { status: err.status, code: err.code, message: err.message });
      c.sendError(err);
    } else {
      c.log.error('unhandled error', { err });
      if (c.headersSent) c.end();
      else c.sendError(new HttpError(500, 'internal_error', `Something went wrong on our side (request ${c.requestId}). Try again.`));
    }
  };

  /** The part after the body is read: validate, authorize, call the handler, answer. */
  const run = (c: RequestContext, ep: Endpoint): Promise<void> | void => {
    const mode = ep.auth ?? 'none';
    if (mode !== 'none') {
      return authorize(mode, c.req).then((auth) => {
        c.auth = auth;
        return callHandler(c, ep);
      });
    }
    return callHandler(c, ep);
  };

  const callHandler = (c: RequestContext, ep: Endpoint): Promise<void> | void => {
    const out = ep.handler(c as never);
    if (out instanceof Promise) return out.then((data) => answer(c, data));
    answer(c, out);
  };

  const handler = (req: IncomingMessage & { query?: Record<string, string | string[] | undefined> }, res: ServerResponse): Promise<void> | undefined => {
    const started = log.enabled('debug') ? performance.now() : 0;
    const incomingId = req.headers['x-request-id'];
    const requestId = typeof incomingId === 'string' && REQUEST_ID.test(incomingId) ? incomingId : newRequestId();
    const s = currentSite();
    const c = new RequestContext(req, res, requestId, s, corsHeaders(req, s.origin, allow));
    let pending: Promise<void> | void;
    try {
      pending = dispatch(c, req);
    } catch (err) {
      fail(c, err);
      pending = undefined;
    }
    if (!pending) {
      if (started) done(c, started);
      return undefined;
    }
    return pending.then(
      () => (started ? done(c, started) : undefined),
      (err: unknown) => {
        fail(c, err);
        if (started) done(c, started);
      },
    );
  };

  /** Everything up to the handler; throws HttpError for bad requests. Returns a promise only when it has to wait. */
  const dispatch = (c: RequestContext, req: IncomingMessage & { query?: Record<string, string | string[] | undefined> }): Promise<void> | void => {
    const method = (req.method ?? 'GET').toUpperCase() as Method;
    if (method === ('OPTIONS' as Method)) return c.sendEmpty(204, allow);
    const ep = methods[method];
    if (!ep) throw new HttpError(405, 'method_not_allowed', `Method ${method} is not allowed here. Use ${allow}.`, { Allow: allow });

    const url = req.url ?? '/';
    if (ep.params || ep.query) {
      const search = queryOf(url);
      // Next puts dynamic segments and the query string together in req.query; our router and the tests' do the same.
      // Values stay as Next gives them: a string, or an array for a catch-all segment ([...slug]).
      if (ep.params) c.params = parseWith(ep.params, { ...search, ...definedValues(req.query ?? {}) }, 'path');
      if (ep.query) c.query = parseWith(ep.query, search, 'query');
    }
    if (!ep.body) return run(c, ep);
    assertJsonContentType(req);
    return readBody(req, ep.maxBodyBytes ?? DEFAULT_MAX_BODY).then((raw) => {
      let json: unknown;
      try {
        json = raw.trim() === '' ? undefined : JSON.parse(raw);
      } catch {
        throw new HttpError(400, 'invalid_json', 'Request body is not valid JSON.');
      }
      if (json === undefined) throw new HttpError(400, 'invalid_request', 'Request body is missing: send a JSON object.');
      c.body = parseWith(ep.body, json, 'body');
      return run(c, ep);
    });
  };

  const done = (c: RequestContext, started: number) => {
    c.log.debug('request', { status: c.statusCode, ms: Math.round(performance.now() - started) });
  };

  return Object.assign(handler, { endpoints: methods });
}
