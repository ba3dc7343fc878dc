/**
 * Reading a request's JSON body for the API (server/http/api.ts): JSON only (415 otherwise, for every request that
 * carries a body), at most a limit (413, declared or streamed).
 */
import type { IncomingMessage } from 'node:http';
import { HttpError } from './errors';

/** Methods whose requests carry a body. DELETE counts only when it sends one (a body-less DELETE has nothing to type). */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

function sendsBody(req: IncomingMessage, method: string): boolean {
  if (BODY_METHODS.has(method)) return true;
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}

/** The media type of a Content-Type header, lower-cased and without parameters ('' when absent). */
function mediaTypeOf(type: string | undefined): string {
  return type ? type.split(';')[0].trim().toLowerCase() : '';
}

/** application/json and its structured-syntax relatives (application/vnd.api+json): neither is a CORS "simple" type. */
function isJsonType(media: string): boolean {
  return media === 'application/json' || /^application\/[\w.+-]+\+json$/.test(media);
}

/**
 * Every request that carries a body must say it is JSON (charset parameters allowed, UTF-8 only) — even when the
 * endpoint reads no body at all. A browser sends a cross-site POST without asking first (no CORS preflight) only when
 * its type is text/plain, a form or multipart, or when it has none; refusing those keeps other sites' pages from
 * driving the API with their visitors' cookies and addresses. `accepted` lists the extra media types an endpoint opts
 * into (e-mail one-click unsubscribe is a form POST; a future webhook from outside may be another type).
 */
export function assertContentType(req: IncomingMessage, method: string, accepted: readonly string[] = [], expectsBody = false): void {
  // An endpoint that reads a body (a DELETE with a confirmation, say) wants JSON whatever the method.
  if (!expectsBody && !sendsBody(req, method)) return;
  const type = req.headers['content-type'];
  if (type === 'application/json') return; // the common case, checked first
  const media = mediaTypeOf(type);
  if (isJsonType(media)) {
    const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(type ?? '')?.[1];
    if (!charset || /^utf-?8$/i.test(charset)) return;
    throw new HttpError(415, 'unsupported_media_type', `Send the request body as UTF-8 JSON (Content-Type: application/json; charset ${charset} is not supported).`);
  }
  if (media && accepted.includes(media)) return;
  const expected = ['application/json', ...accepted].join(' or ');
  throw new HttpError(
    415,
    'unsupported_media_type',
    type
      ? `Content-Type ${media} is not accepted here: send the request body as JSON (Content-Type: ${expected}).`
      : `Content-Type is missing: send the request body as JSON (Content-Type: ${expected}), even when it is empty ({}).`,
  );
}

/**
 * The client went away before its request body ended (closed the connection, or reset it). Nobody waits for an
 * answer, and nothing on our side failed: the API logs it at info, without a stack (server/http/api.ts).
 */
export class ClientClosedError extends Error {
  constructor(readonly reason: string) {
    super(`The client closed the request before its body ended (${reason}).`);
    this.name = 'ClientClosedError';
  }
}

/**
 * A refusal sent before the body was read (a bad signature header, a stale timestamp): `Connection: close` so Node
 * does not read and drop the unread body to keep the connection (a stranger's megabytes cost us nothing).
 */
export const UNREAD_BODY_HEADERS: Readonly<Record<string, string>> = Object.freeze({ Connection: 'close' });

const BODY = Symbol('body');
type BodyReading = { chunks: Buffer[]; size: number; limit: number; resolve: (raw: string) => void; reject: (err: Error) => void };
type ReadingRequest = IncomingMessage & { [BODY]?: BodyReading };

/**
 * The request body as text, at most `limit` bytes (413 beyond, declared or streamed). Plain stream events rather than
 * `for await` (the async iterator cost more than all the rest of a cached search), and listeners made once for all
 * requests (they find the request's reading on `this`), not closures per request.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<string> {
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

function onBodyError(this: ReadingRequest, err: NodeJS.ErrnoException) {
  // Node reports a client that reset or dropped the connection mid-body as 'aborted' / ECONNRESET.
  const gone = err.code === 'ECONNRESET' || err.code === 'ECONNABORTED' || err.message === 'aborted';
  takeReading(this)?.reject(gone ? new ClientClosedError(err.code ?? err.message) : err);
}

function onBodyClose(this: ReadingRequest) {
  takeReading(this)?.reject(new ClientClosedError('closed'));
}
