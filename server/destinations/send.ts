/**
 * The one way a webhook POST leaves ARB. It never throws: every outcome — 2xx, 4xx, 5xx, redirect, timeout, refused
 * address, network error — comes back as a SendResult for the delivery worker to classify (cal.com's sendPayload
 * style). Redirects are never followed, the whole exchange is bounded by a timeout, and the response body is capped.
 */
import { request, type Dispatcher } from 'undici';
import { Deadline } from '../deadline';
import { env } from '../env';
import { BlockedAddressError, createGuardedAgent, type Resolver } from './ssrf';
import { USER_AGENT } from '../userAgent';

const DEFAULT_TIMEOUT_MS = 10_000;
/** Webhook answers are "ok" or a small JSON error; anything beyond this is not worth reading. */
const MAX_RESPONSE_BYTES = 64 * 1024;

export type SendFailure = 'network' | 'timeout' | 'blocked_address' | 'redirect';

export type SendResult = {
  ok: boolean;
  /** HTTP status, 0 when no answer came. */
  status: number;
  /** Seconds to wait, from Retry-After (seconds or HTTP date), when the answer carried one. */
  retryAfter: number | null;
  headers: Record<string, string>;
  /** Response body, truncated at the cap. */
  body: string;
  failure?: SendFailure;
  /** What went wrong, in words, when !ok. Never contains the URL. */
  error?: string;
};

export type WebhookSender = {
  postJson(url: string, payload: unknown, headers?: Record<string, string>): Promise<SendResult>;
  close(): Promise<void>;
};

export function parseRetryAfter(value: string | undefined, now = Date.now()): number | null {
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds;
  const at = Date.parse(value);
  return Number.isFinite(at) ? Math.max(0, (at - now) / 1000) : null;
}

/**
 * A payload's JSON, serialised once per payload object: a payload formatted once for several destinations
 * (server/monitor/messages.ts) is sent as the same bytes to each, and a signed webhook's signature covers exactly these
 * bytes. Payloads are never changed after formatting.
 */
const serialized = new WeakMap<object, string>();
export function jsonBody(payload: unknown): string {
  if (typeof payload !== 'object' || payload === null) return JSON.stringify(payload);
  let json = serialized.get(payload);
  if (json === undefined) {
    json = JSON.stringify(payload);
    serialized.set(payload, json);
  }
  return json;
}

function flatHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

/** The answer, up to the cap. Plain 'data' events: an async iterator per message costs more than the read itself. */
function readCapped(body: Dispatcher.ResponseData['body']): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => resolve(Buffer.concat(chunks).toString('utf8'));
    body.on('data', (chunk: Buffer) => {
      const room = MAX_RESPONSE_BYTES - size;
      if (chunk.length >= room) {
        chunks.push(chunk.subarray(0, room));
        size = MAX_RESPONSE_BYTES;
        body.destroy(); // stop reading; the connection is dropped rather than drained
        done();
        return;
      }
      chunks.push(chunk);
      size += chunk.length;
    });
    body.on('end', done);
    body.on('error', reject);
  });
}

function describe(err: unknown): { failure: SendFailure; error: string } {
  const e = err as Error & { code?: string; cause?: unknown };
  const inner = (e.cause as (Error & { code?: string }) | undefined) ?? e;
  if (inner instanceof BlockedAddressError || e instanceof BlockedAddressError) return { failure: 'blocked_address', error: inner.message };
  const code = inner.code ?? e.code;
  if (e.name === 'TimeoutError' || e.name === 'AbortError' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') {
    return { failure: 'timeout', error: 'The webhook did not answer within 10 seconds.' };
  }
  return { failure: 'network', error: `The webhook could not be reached (${code ?? inner.message}).` };
}

export function createWebhookSender(opts: { allowPrivate: boolean; resolve?: Resolver; timeoutMs?: number }): WebhookSender {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const agent = createGuardedAgent({ allowPrivate: opts.allowPrivate, resolve: opts.resolve, requestTimeoutMs: timeoutMs });
  return {
    async postJson(url, payload, headers = {}) {
      const deadline = new Deadline(timeoutMs);
      try {
        const res = await request(url, {
          method: 'POST',
          dispatcher: agent,
          headers: { 'content-type': 'application/json; charset=utf-8', 'user-agent': USER_AGENT, ...headers },
          body: jsonBody(payload),
          signal: deadline,
        });
        const body = await readCapped(res.body);
        const h = flatHeaders(res.headers);
        const status = res.statusCode;
        const result: SendResult = { ok: status >= 200 && status < 300, status, retryAfter: parseRetryAfter(h['retry-after']), headers: h, body };
        if (status >= 300 && status < 400) {
          return { ...result, ok: false, failure: 'redirect', error: `The webhook answered with a redirect (${status}); ARB does not follow redirects.` };
        }
        if (!result.ok) result.error = `The webhook answered ${status}${body ? `: ${body.slice(0, 200)}` : ''}`;
        return result;
      } catch (err) {
        return { ok: false, status: 0, retryAfter: null, headers: {}, body: '', ...describe(err) };
      } finally {
        deadline.clear();
      }
    },
    close: () => agent.close(),
  };
}

const g = globalThis as unknown as { __arbWebhookSender?: { allowPrivate: boolean; sender: WebhookSender } };

/** The process's sender, configured from env (one connection pool per process). */
export function defaultWebhookSender(): WebhookSender {
  const allowPrivate = env().ALLOW_PRIVATE_WEBHOOKS;
  if (!g.__arbWebhookSender || g.__arbWebhookSender.allowPrivate !== allowPrivate) {
    g.__arbWebhookSender = { allowPrivate, sender: createWebhookSender({ allowPrivate }) };
  }
  return g.__arbWebhookSender.sender;
}
