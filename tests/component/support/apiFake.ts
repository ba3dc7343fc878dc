/**
 * A loopback HTTP server for component tests of the browser's API calls: the real axios client (XHR in jsdom) talks
 * to it across origins, so it answers CORS the way the real deployment's same-origin API never needs to.
 * Built on tests/fakes/http.ts; `route()` adds a handler for one method and path of the API's document, typed by it
 * (lib/api/schema.d.ts, `npm run api-types`): `route('GET', '/api/v1/org/reviews/42/draft-reply', ok({ … }))` checks
 * the fixture against that endpoint's `data`, so an answer the server renames fails to compile here, not in the browser.
 * `outsideRoute()` is for what the document does not describe (the search service); a handler written out
 * (`(req, res) => json(…)`) is the escape hatch for a raw or streamed answer.
 */
import type http from 'node:http';
import { json, startFakeServer, type FakeHandler, type FakeServer, type RecordedRequest } from '@/tests/fakes/http';
import { api } from '@/lib/api/client';
import type { ApiData, ApiPath } from '@/lib/api/openapi';
import type { paths } from '@/lib/api/schema';

const ORIGIN = 'http://localhost:3000';

const cors: FakeHandler = (req, res) => {
  res.setHeader('Access-Control-Allow-Origin', (req.headers.origin as string | undefined) ?? ORIGIN);
  res.setHeader('Access-Control-Allow-Credentials', 'true');
  res.setHeader('Access-Control-Allow-Headers', 'content-type, authorization');
  res.setHeader('Access-Control-Allow-Methods', 'GET, POST, PATCH, PUT, DELETE, OPTIONS');
  res.setHeader('Access-Control-Expose-Headers', 'x-chat-id');
  if (req.method === 'OPTIONS') {
    res.writeHead(204);
    res.end();
    return true;
  }
  return false;
};

declare const answers: unique symbol;
/**
 * Answers a request; one made by ok() carries the type of the `data` it sends, for route() to check. One written out
 * (a raw or streamed answer, fail()) carries none and is not checked.
 */
export type Responder<D = never> = ((req: RecordedRequest, res: http.ServerResponse) => void | Promise<void>) & { readonly [answers]?: D };

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
/** A documented path as a request's path: each `{id}` any text. */
type Concrete<P extends string> = P extends `${infer A}{${string}}${infer B}` ? `${A}${string}${Concrete<B>}` : P;
/** The documented paths with an operation for the method. */
type PathsWith<M extends Method> = { [P in ApiPath]: Lowercase<M> extends keyof paths[P] ? (paths[P][Lowercase<M>] extends { responses: unknown } ? P : never) : never }[ApiPath];
/** The documented path(s) a request's path is (its own when written as documented, else those its `{id}`s match). */
type PathOf<S extends string, M extends Method> = S extends PathsWith<M> ? S : { [P in PathsWith<M>]: S extends Concrete<P> ? P : never }[PathsWith<M>];
/** The `data` of the documented 200 answer. */
type Answer<S extends string, M extends Method> = PathOf<S, M> extends infer P ? (P extends ApiPath ? (Lowercase<M> extends keyof paths[P] ? ApiData<P, Lowercase<M>> : never) : never) : never;

/** A handler for one method and documented path; a fixture sent with ok() must be that endpoint's `data`. */
export function route<M extends Method, S extends Concrete<PathsWith<M>>>(method: M, path: S, respond: NoInfer<Responder<Answer<S, M>>>): FakeHandler {
  return outsideRoute(method, path, respond);
}

/** A handler for a path the API's document does not describe. */
export function outsideRoute(method: Method, path: string, respond: Responder<unknown>): FakeHandler {
  return async (req, res) => {
    if (req.method !== method || req.path !== path) return false;
    await respond(req, res);
    return true;
  };
}

/** `as const` without its readonly: the fixture's literals (a state, a method) kept, its arrays as the document's. */
type Fixture<T> = T extends (...args: never[]) => unknown ? T : { -readonly [K in keyof T]: Fixture<T[K]> };

export const ok = <const D>(data: D): Responder<Fixture<D>> => (_req, res) => json(res, 200, { data });
export const fail = (status: number, code: string, message: string): Responder => (_req, res) => json(res, status, { error: { code, message } });

export type ApiFake = FakeServer & { apiBase: string; restore(): void };

/** Starts the fake and points the shared axios client at it; restore() puts the base URL back. */
export async function startApiFake(handlers: FakeHandler[]): Promise<ApiFake> {
  const server = await startFakeServer([cors, ...handlers]);
  const before = api.defaults.baseURL;
  const apiBase = `${server.url}/api/`;
  api.defaults.baseURL = apiBase;
  return {
    ...server,
    apiBase,
    restore() {
      api.defaults.baseURL = before;
    },
  };
}

/** Only the API's own requests (not CORS preflights). */
export const notPreflight = (r: RecordedRequest) => r.method !== 'OPTIONS';
