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
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z, type ZodType } from 'zod';
import { HttpError, unauthorized, forbidden } from './errors';
import { assertContentType, ClientClosedError, readBody } from './body';
import { definedValues, queryOf } from './query';
import { JSON_TYPE, RequestContext } from './requestContext';
import { requestIdOf } from './requestId';
import { corsHeaders, currentSite } from './responseHeaders';
import { verifyAuthToken, type AuthClaims } from '../auth/tokens';
import { authenticateApiKey, type ApiKeyCaller } from '../apiKeys/caller';
import { log, type Logger } from '../log';
import type { DeclaredStatus } from './statuses';
import { answerMismatch, checksAnswers } from './answerCheck';

export { clientIp } from './clientIp';
export { queryOf } from './query';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
/**
 * none: public · optional: user if a valid full token is sent · user: full token required · billing: billing or full
 * token · api_key: an organisation's `arb_` key (the public API), counted against the key's rate.
 */
export type AuthMode = 'none' | 'optional' | 'user' | 'billing' | 'api_key';

type Infer<T> = T extends ZodType ? z.output<T> : undefined;

export type Ctx<B, Q, P> = {
  req: IncomingMessage & { query?: Record<string, string | string[] | undefined> };
  res: ServerResponse;
  body: B;
  query: Q;
  params: P;
  /** Set when the request carries a valid token (always for auth 'user' and 'billing'). */
  auth: AuthClaims | null;
  /** Set for auth 'api_key': the key and its organisation. */
  apiKey: ApiKeyCaller | null;
  ip: string;
  requestId: string;
  log: Logger;
  /** Status of the success answer (default 200). */
  status: number;
  setHeader(name: string, value: string): void;
};

/**
 * What a handler may return for an endpoint whose answer is described by `RS`: the `data` as the schema accepts it
 * (z.input: what JSON.stringify of it makes is what the schema parses), that data already serialized (pageAnswer,
 * cachedAnswer, taggedAnswer over data of that shape), or RAW. Without a response schema, anything.
 */
export type HandlerAnswer<RS> = RS extends ZodType ? Answerable<z.input<RS>> | SerializedAnswer<Answerable<z.input<RS>>> | typeof RAW : unknown;

/** A list may be handed over read-only (a frozen cache entry): the answer only reads it. */
type Answerable<T> = T extends Array<infer U> ? readonly U[] : T;

export type EndpointDef<
  BS extends ZodType | undefined,
  QS extends ZodType | undefined,
  PS extends ZodType | undefined,
  RS extends ZodType | undefined = undefined,
> = {
  summary: string;
  tags?: string[];
  body?: BS;
  query?: QS;
  /** Dynamic path segments ([id] in the file name). */
  params?: PS;
  /**
   * Success answer's `data` schema (a page's items as an array when `paged`): the OpenAPI document's, the handler's
   * return type, and under NODE_ENV=test every answer is checked against it (server/http/answerCheck.ts).
   */
  response?: RS;
  /** The answer is a cursor page (the handler returns pageAnswer(…)): `has_more` beside `data`. */
  paged?: boolean;
  /**
   * Every status the endpoint may answer besides those all endpoints of its kind do (server/http/statuses.ts): 201,
   * 304 for taggedAnswer, 402, 404, 409, 502… The OpenAPI document lists them; under NODE_ENV=test an answer with a
   * status not documented fails the test that made it.
   */
  statuses?: readonly DeclaredStatus[];
  auth?: AuthMode;
  maxBodyBytes?: number;
  /**
   * Media types accepted besides JSON on a request with a body (lower-case, no parameters), e.g.
   * `['application/x-www-form-urlencoded']`. Every other request with a body must be `application/json` (415
   * otherwise). Only for callers that are not our browser code and cannot send JSON (mail clients' one-click
   * unsubscribe, a payment provider's webhook); such an endpoint has no `body` schema and reads `req` itself if it
   * needs the bytes (its handler returns RAW or data as usual).
   */
  contentTypes?: readonly string[];
  /**
   * Return the `data` of the answer. Return RAW (the symbol) when the handler has written the response itself
   * (streams, redirects, non-JSON documents).
   */
  // NoInfer: the response schema alone decides RS (a handler's `{ ok: true }` must not widen it to boolean).
  handler: (ctx: Ctx<Infer<BS>, Infer<QS>, Infer<PS>>) => Promise<HandlerAnswer<NoInfer<RS>>> | HandlerAnswer<NoInfer<RS>>;
};

export const RAW = Symbol('raw-response');

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Endpoint = EndpointDef<any, any, any, any>;

export function endpoint<
  BS extends ZodType | undefined = undefined,
  QS extends ZodType | undefined = undefined,
  PS extends ZodType | undefined = undefined,
  RS extends ZodType | undefined = undefined,
>(def: EndpointDef<BS, QS, PS, RS>): EndpointDef<BS, QS, PS, RS> {
  return def;
}

const DEFAULT_MAX_BODY = 64 * 1024;

/**
 * JSON.parse turns a number too large for a double (`1e999999`) into Infinity, which no field means and which
 * JSON.stringify would write back as null: such a body is refused as invalid JSON, the same whatever the endpoint.
 */
function finiteNumbers(_key: string, value: unknown): unknown {
  if (typeof value === 'number' && !Number.isFinite(value)) throw new SyntaxError('number out of range');
  return value;
}

export function sendJson(res: ServerResponse, status: number, payload: unknown, headers: Record<string, string> = {}) {
  if (res.headersSent) return;
  const body = JSON.stringify(payload);
  res.statusCode = status;
  res.setHeader('Content-Type', JSON_TYPE);
  res.setHeader('Cache-Control', 'no-store');
  for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
  res.end(body);
}

/**
 * An error answered outside any endpoint (no route for the path, a failure before a handler ran), with everything an
 * endpoint's error carries: the error shape, X-Request-Id, security headers and the site's CORS.
 */
export function sendApiError(req: IncomingMessage, res: ServerResponse, err: HttpError): void {
  const s = currentSite();
  new RequestContext(req, res, requestIdOf(req), s, corsHeaders(req, s.origin, 'OPTIONS')).sendError(err);
}

/**
 * A success answer whose whole body (`{"data":…}`) is already serialized: see cachedAnswer. `T` is the type of its
 * `data` (types only), so a handler's serialized answer is checked against its endpoint's response schema like a plain
 * one.
 */
class SerializedAnswer<T = unknown> {
  /** Set by taggedAnswer: the answer's validator, and how long a client may reuse it. */
  etag?: string;
  cacheControl?: string;
  declare readonly dataType?: T;
  constructor(readonly body: Buffer) {}
}

/**
 * `answer` with an ETag (a hash of its bytes) and `cacheControl`: a request whose If-None-Match names that ETag gets
 * 304 with no body. For answers of one caller that change when the data does (`private, no-cache`: the client asks
 * every time, and an unchanged answer costs no body).
 */
export function taggedAnswer<T>(answer: SerializedAnswer<T>, cacheControl: string): SerializedAnswer<T> {
  answer.etag = `"${createHash('sha256').update(answer.body).digest('base64url').slice(0, 27)}"`;
  answer.cacheControl = cacheControl;
  return answer;
}

/** If-None-Match names `etag` (a list, a weak form, or `*`). */
function matchesEtag(header: string | string[] | undefined, etag: string): boolean {
  if (!header) return false;
  const value = Array.isArray(header) ? header.join(',') : header;
  return value.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || tag === etag || tag === `W/${etag}`;
  });
}

/**
 * A cursor page, the shape of every list that pages: `{ "data": items, "has_more": … }`. A list whose cursor is not
 * its last item's id (the review inbox: a time and an id) also says `next_cursor`.
 */
export function pageAnswer<T>(items: readonly T[], hasMore: boolean, nextCursor?: string | null, count?: { total: number; total_is_estimate: boolean }): SerializedAnswer<T[]> {
  const page = nextCursor === undefined ? { data: items, has_more: hasMore } : { data: items, has_more: hasMore, next_cursor: nextCursor, ...count };
  return new SerializedAnswer(Buffer.from(JSON.stringify(page)));
}

const serialized = new WeakMap<object, SerializedAnswer>();

/**
 * The answer for `value` when it is a cache entry that many requests share: its JSON is made once and kept as long as
 * the value lives, instead of being made again on every request (JSON.stringify of a search page cost more than the
 * rest of the request). Only for DEEPLY frozen values (an object of primitives, an array of such): the kept JSON must
 * not go stale. A value that is not frozen is serialized each time, as usual.
 */
export function cachedAnswer<T extends object>(value: T): SerializedAnswer<T> {
  let answer = serialized.get(value) as SerializedAnswer<T> | undefined;
  if (!answer) {
    answer = new SerializedAnswer(Buffer.from(JSON.stringify({ data: value })));
    if (Object.isFrozen(value)) serialized.set(value, answer);
  }
  return answer;
}

/** "email: Invalid email address" — the first issue, naming the field. */
export function describeZodError(error: z.ZodError, where: string): string {
  const issue = error.issues[0];
  if (!issue) return `Invalid ${where}.`;
  const field = issue.path.length ? issue.path.map(String).join('.') : where;
  return `${field}: ${issue.message}`;
}

/** Text PostgreSQL cannot store: a NUL character (text), or an unpaired UTF-16 surrogate (jsonb refuses its escape). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const unstorable = (text: string) => text.includes('\u0000') || LONE_SURROGATE.test(text);

/**
 * The path of the first string (value or key) PostgreSQL cannot store (see unstorable), or null. Such input would
 * otherwise fail deep in a query with a 500; nothing in this API needs it. The path is built only when one is found
 * (this runs on every request).
 */
function findUnstorable(value: unknown, depth = 0): string[] | null {
  if (typeof value === 'string') return unstorable(value) ? [] : null;
  if (!value || typeof value !== 'object' || depth > 64) return null;
  for (const k of Object.keys(value)) {
    if (unstorable(k)) return [k];
    const found = findUnstorable((value as Record<string, unknown>)[k], depth + 1);
    if (found) {
      found.unshift(k);
      return found;
    }
  }
  return null;
}

function parseWith<T extends ZodType | undefined>(schema: T, value: unknown, where: string): Infer<T> {
  if (!schema) return undefined as Infer<T>;
  const bad = findUnstorable(value);
  if (bad) throw new HttpError(400, 'invalid_request', `${bad.length ? bad.join('.') : where}: text cannot contain NUL (\\u0000) characters or unpaired surrogates (\\uD800–\\uDFFF alone).`);
  const result = schema.safeParse(value);
  if (!result.success) throw new HttpError(400, 'invalid_request', describeZodError(result.error, where));
  return result.data as Infer<T>;
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

/** Returns a promise while the answer is still being made, nothing when it was answered at once (a cached answer). */
export type RouteHandler = ((req: IncomingMessage, res: ServerResponse) => Promise<void> | undefined) & {
  endpoints: Partial<Record<Method, Endpoint>>;
};

/** One line of the route table (server/http/routes.ts): a URL path as Next names it, and its handler. */
export type ApiRouteEntry = { path: string; route: RouteHandler };

/** Map methods to endpoints; anything else answers 405 with Allow. */
export function apiRoute(methods: Partial<Record<Method, Endpoint>>): RouteHandler {
  const allow = [...Object.keys(methods), 'OPTIONS'].join(', ');

  /** Sends what the handler returned; an error after the handler's own writes only ends the answer. */
  const answer = (c: RequestContext, ep: Endpoint, data: unknown): void => {
    if (data === RAW) return;
    if (ep.response && checksAnswers() && !checkedAnswer(c, ep, data)) return;
    if (data instanceof SerializedAnswer && data.etag) {
      const headers = { ETag: data.etag, 'Cache-Control': data.cacheControl ?? 'private, no-cache' };
      if (c.status === 200 && matchesEtag(c.req.headers['if-none-match'], data.etag)) c.send(304, '', headers);
      else c.send(c.status, data.body, headers);
    } else if (data instanceof SerializedAnswer) c.send(c.status, data.body);
    else c.send(c.status, JSON.stringify({ data: data ?? null }));
  };

  /**
   * Tests only: false (and a 500 sent, naming the endpoint and the issues) when the answer is not what the endpoint's
   * response schema says.
   */
  const checkedAnswer = (c: RequestContext, ep: Endpoint, data: unknown): boolean => {
    const body = data instanceof SerializedAnswer ? data.body.toString('utf8') : JSON.stringify({ data: data ?? null });
    const where = `${c.req.method ?? 'GET'} ${(c.req.url ?? '/').split('?')[0]} (${ep.summary})`;
    const problem = answerMismatch(where, ep.response!, !!ep.paged, body);
    if (!problem) return true;
    c.log.error('answer does not match its response schema', { problem });
    c.sendError(new HttpError(500, 'answer_mismatch', problem));
    return false;
  };

  const fail = (c: RequestContext, err: unknown): void => {
    if (err instanceof ClientClosedError) {
      // A client that left mid-body is not our failure: one info line, no stack, and no answer (nobody reads it); the
      // connection, if something of it is left, is closed.
      c.log.info('request abandoned by the client', { reason: err.reason });
      c.req.destroy();
      return;
    }
    if (err instanceof HttpError) {
      if (err.status >= 500) c.log.error('request failed', { status: err.status, code: err.code, message: err.message });
      c.sendError(err);
    } else {
      c.log.error('unhandled error', { err });
      if (c.headersSent) c.end();
      else c.sendError(new HttpError(500, 'internal_error', `Something went wrong on our side (request ${c.requestId}). Try again.`));
    }
  };

  const callHandler = (c: RequestContext, ep: Endpoint): Promise<void> | void => {
    const out = ep.handler(c as never);
    if (out instanceof Promise) return out.then((data) => answer(c, ep, data));
    answer(c, ep, out);
  };

  const handler = (req: IncomingMessage & { query?: Record<string, string | string[] | undefined> }, res: ServerResponse): Promise<void> | undefined => {
    const started = log.enabled('debug') ? performance.now() : 0;
    const requestId = requestIdOf(req);
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
    assertContentType(req, method, ep.contentTypes, !!ep.body);
    // Who is calling is settled before the body is read: a caller without a valid token learns nothing about the
    // endpoint's fields (401/403 whatever the body), and an unauthenticated body is never buffered.
    const mode = ep.auth ?? 'none';
    if (mode === 'none') return withBody(c, req, ep);
    if (mode === 'api_key') {
      // A key known in memory is settled without a promise (the public API's warm path awaits nothing).
      const caller = authenticateApiKey(bearer(req), c);
      if (caller instanceof Promise) {
        return caller.then((k) => {
          c.apiKey = k;
          return withBody(c, req, ep);
        });
      }
      c.apiKey = caller;
      return withBody(c, req, ep);
    }
    return authorize(mode, c.req).then((auth) => {
      c.auth = auth;
      return withBody(c, req, ep);
    });
  };

  /** Read and validate the body (when the endpoint has one), then call the handler. */
  const withBody = (c: RequestContext, req: IncomingMessage, ep: Endpoint): Promise<void> | void => {
    if (!ep.body) return callHandler(c, ep);
    return readBody(req, ep.maxBodyBytes ?? DEFAULT_MAX_BODY).then((raw) => {
      let json: unknown;
      try {
        json = raw.trim() === '' ? undefined : JSON.parse(raw, finiteNumbers);
      } catch {
        throw new HttpError(400, 'invalid_json', 'Request body is not valid JSON.');
      }
      if (json === undefined) throw new HttpError(400, 'invalid_request', 'Request body is missing: send a JSON object.');
      c.body = parseWith(ep.body!, json, 'body');
      return callHandler(c, ep);
    });
  };

  const done = (c: RequestContext, started: number) => {
    c.log.debug('request', { status: c.statusCode, ms: Math.round(performance.now() - started) });
  };

  return Object.assign(handler, { endpoints: methods });
}
