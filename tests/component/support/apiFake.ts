/**
 * A loopback HTTP server for component tests of the browser's API calls: the real axios client (XHR in jsdom) talks
 * to it across origins, so it answers CORS the way the real deployment's same-origin API never needs to.
 * Built on tests/fakes/http.ts; `route()` adds a handler for one method and path.
 */
import type http from 'node:http';
import { json, startFakeServer, type FakeHandler, type FakeServer, type RecordedRequest } from '@/tests/fakes/http';
import { api } from '@/lib/api/client';

const ORIGIN = 'http://localhost:3000';

const cors: FakeHandler = (req, res) => {
  res.setHeader('Access-Control-Allow-Origin', (req.headers.origin as string | undefined) ?? ORIGIN);
  res.setHeader('Access-Control-Allow-Credentials', 'true');
  res.setHeader('Access-Control-Allow-Headers', 'content-type, authorization');
  res.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
  res.setHeader('Access-Control-Expose-Headers', 'x-chat-id');
  if (req.method === 'OPTIONS') {
    res.writeHead(204);
    res.end();
    return true;
  }
  return false;
};

export type Responder = (req: RecordedRequest, res: http.ServerResponse) => void | Promise<void>;

export function route(method: string, path: string, respond: Responder): FakeHandler {
  return async (req, res) => {
    if (req.method !== method || req.path !== path) return false;
    await respond(req, res);
    return true;
  };
}

export const ok = (data: unknown): Responder => (_req, res) => json(res, 200, { data });
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
