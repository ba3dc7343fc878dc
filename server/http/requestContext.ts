import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthClaims } from '../auth/tokens';
import type { ApiKeyCaller } from '../apiKeys/caller';
import type { Logger } from '../log';
import type { HttpError } from './errors';
import { clientIp } from './clientIp';
import { lastWins, type Site } from './responseHeaders';
import { RequestLog } from './requestLog';

export const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * One request's context. The headers every answer carries (security, X-Request-Id, CORS) and those a handler sets go
 * out in ONE res.writeHead with the body, not header by header. A handler that takes `res` writes its answer itself:
 * it gets `res` with all of them already set on it, as before.
 */
export class RequestContext {
  body: unknown = undefined;
  query: unknown = undefined;
  params: unknown = undefined;
  auth: AuthClaims | null = null;
  /** The API key's organisation, for endpoints with auth 'api_key'. */
  apiKey: ApiKeyCaller | null = null;
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
