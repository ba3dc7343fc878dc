/**
 * The one HTTP helper the store adapters share: a timeout on top of the caller's abort signal, a cap on the response
 * size, and HTTP statuses turned into SourceError with the permanent/transient split the engine acts on
 * (permanent → pause the source and tell its owner; transient → poll again later).
 */
import type { IncomingHttpHeaders } from 'node:http';
import { Agent, interceptors, request, type Dispatcher } from 'undici';
import { Deadline } from '../deadline';
import { SourceError } from './types';
import { USER_AGENT } from '../userAgent';

const DEFAULT_TIMEOUT_MS = 20_000;
/** Review pages are tens of kilobytes; anything near this is not a review page. */
const MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

export type SourceRequest = {
  method?: 'GET' | 'POST' | 'DELETE';
  headers?: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Names the service in error messages ("App Store Connect answered 401: …"). */
  service: string;
  /** Statuses that mean "wrong app id or credentials" for this service, on top of 401 and 403. */
  permanentStatuses?: number[];
};

export type SourceResponse = { status: number; headers: IncomingHttpHeaders; text: string };

/**
 * undici's request() rather than fetch(): a poll is one small GET, and fetch's WHATWG layers (Request, Response,
 * Headers, web streams) cost more of this process's CPU than the rest of the request (bench/poll-cpu.ts). Answers are
 * not asked for compressed (a review page is tens of kilobytes); redirects are followed only where `follow` says so.
 */
const direct = new Agent();
const following = direct.compose(interceptors.redirect({ maxRedirections: 20 }));

function isAbort(err: unknown): boolean {
  return err instanceof Error && (err.name === 'AbortError' || err.name === 'TimeoutError');
}

/** The body, as text; past the cap, the connection is dropped rather than read to the end. */
function readCapped(body: Dispatcher.ResponseData['body'], service: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    body.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_RESPONSE_BYTES) {
        body.destroy();
        reject(new SourceError(`${service} sent a response larger than ${MAX_RESPONSE_BYTES} bytes`, false));
        return;
      }
      chunks.push(chunk);
    });
    body.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    body.on('error', reject);
  });
}

/** Sends the request and returns the body of a 2xx answer; every other outcome is a SourceError (or the caller's abort). */
export async function sourceFetch(url: string, req: SourceRequest): Promise<SourceResponse> {
  const deadline = new Deadline(req.timeoutMs ?? DEFAULT_TIMEOUT_MS, req.signal);
  const method = req.method ?? 'GET';
  // A request carrying a credential (Bearer token, signed assertion in a POST body) never follows a redirect: the
  // store APIs do not redirect, and a redirect is the one way the credential could reach another host.
  const follow = !(method !== 'GET' || req.headers?.Authorization);
  let res: Dispatcher.ResponseData;
  let text: string;
  try {
    res = await request(url, {
      method,
      headers: { 'user-agent': USER_AGENT, accept: 'application/json', ...req.headers },
      body: req.body,
      dispatcher: follow ? following : direct,
      signal: deadline,
    });
    text = await readCapped(res.body, req.service);
  } catch (err) {
    // The caller's own abort (shutdown) is not a source failure: let it through untouched.
    if (req.signal?.aborted) throw req.signal.reason ?? err;
    if (err instanceof SourceError) throw err;
    if (isAbort(err) || deadline.timedOut) throw new SourceError(`${req.service} did not answer in time`, false);
    throw new SourceError(`${req.service} could not be reached: ${(err as Error).message}`, false);
  } finally {
    deadline.clear();
  }
  const status = res.statusCode;
  if (status >= 200 && status < 300) return { status, headers: res.headers, text };
  if (status >= 300 && status < 400) throw new SourceError(`${req.service} answered with a redirect (${status}), which is not followed for this request`, false, status);
  const permanent = status === 401 || status === 403 || (req.permanentStatuses ?? []).includes(status);
  throw new SourceError(`${req.service} answered ${status}${describeErrorBody(text)}`, permanent, status, res.headers);
}

/** Pulls a human message out of the usual JSON error bodies (JSON:API `errors`, Google `error`), else nothing. */
function describeErrorBody(text: string): string {
  try {
    const body = JSON.parse(text) as {
      errors?: Array<{ title?: string; detail?: string }>;
      error?: string | { message?: string; status?: string };
      error_description?: string;
    };
    const first = body.errors?.[0];
    if (first) return `: ${[first.title, first.detail].filter(Boolean).join(' — ')}`;
    if (typeof body.error === 'object' && body.error?.message) return `: ${body.error.message}`;
    if (typeof body.error === 'string') return `: ${[body.error, body.error_description].filter(Boolean).join(' — ')}`;
  } catch {
    /* not JSON: the status says enough */
  }
  return '';
}

export function parseJson<T>(text: string, service: string): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new SourceError(`${service} sent a response that is not JSON`, false);
  }
}

/** Newest first by last modification, first occurrence of each storeReviewId kept. */
export function newestFirstUnique<T extends { storeReviewId: string; updatedAt: Date }>(reviews: T[]): T[] {
  const seen = new Set<string>();
  const out: T[] = [];
  for (const r of reviews) {
    if (seen.has(r.storeReviewId)) continue;
    seen.add(r.storeReviewId);
    out.push(r);
  }
  return out.sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime());
}

/** True when the review is at or before the watermark, i.e. paging can stop after this page. */
export function isPastWatermark(updatedAt: Date, since: Date | null | undefined): boolean {
  return since != null && updatedAt.getTime() <= since.getTime();
}
