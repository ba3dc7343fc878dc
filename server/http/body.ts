/**
 * Reading a request's JSON body for the API (server/http/api.ts): JSON only (415 otherwise), at most a limit (413,
 * declared or streamed).
 */
import type { IncomingMessage } from 'node:http';
import { HttpError } from './errors';

/** JSON bodies only: a form post or plain text would otherwise reach the JSON parser and answer a confusing 400. */
export function assertJsonContentType(req: IncomingMessage) {
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

function onBodyError(this: ReadingRequest, err: Error) {
  takeReading(this)?.reject(err);
}

function onBodyClose(this: ReadingRequest) {
  takeReading(this)?.reject(new Error('The request closed before its body ended.'));
}
