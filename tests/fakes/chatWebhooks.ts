/**
 * Loopback receivers for the chat platforms' incoming webhooks, on paths shaped like the real URLs, answering the
 * way each platform does (chat-platforms.md): Slack 200 "ok", Teams 202, Mattermost 200 "ok", Discord 200 + message
 * JSON with ?wait=true and its rate-limit headers, Webex 204, Google Chat 200 + the created message (its thread by
 * `thread.threadKey`; the URL's key and token checked: 400 API_KEY_INVALID, 403 PERMISSION_DENIED), Telegram's Bot API
 * 200 `{ ok: true, result }` (the body's chat_id checked: 400 "chat not found"; its HTML read as Telegram reads it,
 * tests/fakes/telegramHtml.ts: 400 "can't parse entities", "message is too long"). Each hook checks the payload against its platform's
 * documented limits (so a formatter that overflows gets the real 400), and can be scripted to answer 429 with
 * Retry-After (Discord: JSON retry_after; Telegram: parameters.retry_after; Google Chat: RESOURCE_EXHAUSTED), a 5xx, its permanent "gone" error, a redirect, slowly, or not at all until
 * released (so a test can kill a worker while requests are in flight).
 * `hook('webhook')` is a signed-webhook endpoint (a customer's own service, n8n…): it answers 204, and once told the
 * destination's secret (`hook.signingSecret = 'whsec_…'`) it checks every request's Standard Webhooks signature with
 * the `standardwebhooks` package — an implementation independent of ARB's signer — and answers 401 to a bad one.
 * `verifySignature(secret, request)` checks a recorded request the same way.
 *
 *   const chat = await startChatWebhooks();
 *   const hook = chat.hook('slack');              // hook.url → a /services/T…/B…/… URL on 127.0.0.1
 *   hook.script({ kind: 'rate_limit', retryAfter: 1 }, 3);   // the next 3 requests get 429
 *   await hook.waitForDelivered(5);
 */
import type http from 'node:http';
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { json, startFakeServer, type FakeServer, type RecordedRequest } from './http';
import { parseTelegramHtml } from './telegramHtml';

/** The chat platforms, and `webhook`: a signed webhook's endpoint. */
export type ChatPlatform = 'slack' | 'msteams' | 'mattermost' | 'discord' | 'webex' | 'googlechat' | 'telegram' | 'webhook';
/** The chat platforms only (tests that check each chat's own formats and errors). */
export const CHAT_PLATFORMS: readonly ChatPlatform[] = ['slack', 'msteams', 'mattermost', 'discord', 'webex', 'googlechat', 'telegram'];

/** Whether a recorded request carries a valid Standard Webhooks signature for `secret` (the reference library's check). */
export function verifySignature(secret: string, request: Pick<ChatRequest, 'raw' | 'headers'>): boolean {
  const h = (name: string) => String(request.headers[name] ?? '');
  try {
    new Webhook(secret).verify(request.raw, { 'webhook-id': h('webhook-id'), 'webhook-timestamp': h('webhook-timestamp'), 'webhook-signature': h('webhook-signature') });
    return true;
  } catch {
    return false;
  }
}

export type Answer =
  | { kind: 'ok' }
  | { kind: 'rate_limit'; retryAfter: number }
  | { kind: 'server_error'; status?: number }
  | { kind: 'gone' }
  | { kind: 'invalid_payload' }
  | { kind: 'locked'; retryAfter: number } // Webex 423
  | { kind: 'redirect'; location: string }
  /** Any answer in the platform's own words (Telegram's "bot was kicked", Google's API_KEY_INVALID…). */
  | { kind: 'custom'; status: number; body: object; headers?: Record<string, string> };

export type ChatRequest = {
  platform: ChatPlatform;
  hookId: string;
  body: unknown;
  raw: string;
  headers: http.IncomingHttpHeaders;
  query: URLSearchParams;
  receivedAt: number;
  status: number | null;
  /** pending: not answered yet · answered: the full answer was handed to the client · aborted: the client went away first. */
  outcome: 'pending' | 'answered' | 'aborted';
  /** It arrived while the hook was on hold and waited for release(). */
  held: boolean;
  /** Signed webhooks: whether the signature was valid for the hook's secret when it arrived (null: no secret set yet). */
  signatureValid: boolean | null;
};

export type ChatHook = {
  platform: ChatPlatform;
  id: string;
  url: string;
  requests: ChatRequest[];
  /** Signed webhooks: the destination's secret; once set, requests with a bad signature are answered 401. */
  signingSecret: string | null;
  /** Google Chat: each thread key's thread (`spaces/…/threads/…`), as the space threads ARB's messages. */
  threads: Map<string, string>;
  /** Answered with a 2xx — what a real platform would have posted. */
  delivered(): ChatRequest[];
  /** How many requests were answered with a 2xx so far, without going through them (for polling a count often). */
  deliveredCount(): number;
  /** Queue `times` scripted answers, used before the default. */
  script(answer: Answer, times?: number): void;
  /** The answer once the script is used up (initially ok). */
  setDefault(answer: Answer): void;
  /** Delay every answer by this many ms. */
  delayMs: number;
  /** Stop answering (requests wait) until release(). */
  hold(): void;
  /** Answer the next `n` requests, then hold every one after them until release(). */
  holdAfter(n: number): void;
  release(): void;
  /** Waits for `n` answered requests; fails when none has arrived for `timeoutMs` (15 s). */
  waitForDelivered(n: number, timeoutMs?: number): Promise<ChatRequest[]>;
  waitForRequests(n: number, filter?: (r: ChatRequest) => boolean, timeoutMs?: number): Promise<ChatRequest[]>;
};

export type ChatWebhooks = {
  url: string;
  server: FakeServer;
  hook(platform: ChatPlatform): ChatHook;
  /** A URL on this server that answers with a redirect to `location`. */
  redirectUrl(platform: ChatPlatform, location: string): string;
  all(): ChatRequest[];
  close(): Promise<void>;
};

const alnum = (n: number, alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789') =>
  Array.from(randomBytes(n), (b) => alphabet[b % alphabet.length]).join('');
const digits = (n: number) => alnum(n, '0123456789');
const upperAlnum = (n: number) => alnum(n, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789');

function pathFor(platform: ChatPlatform): { path: string; query: string; id: string } {
  switch (platform) {
    case 'slack': {
      const id = alnum(24, 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789');
      return { path: `/services/T${upperAlnum(8)}/B${upperAlnum(10)}/${id}`, query: '', id };
    }
    case 'msteams': {
      const id = alnum(32, '0123456789abcdef');
      const sig = alnum(43, 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_');
      return {
        path: `/workflows/${id}/triggers/manual/paths/invoke`,
        query: `?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=${sig}`,
        id,
      };
    }
    case 'mattermost': {
      const id = alnum(26);
      return { path: `/hooks/${id}`, query: '', id };
    }
    case 'discord': {
      const id = digits(19);
      const token = alnum(68, 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_');
      return { path: `/api/webhooks/${id}/${token}`, query: '', id };
    }
    case 'webex': {
      const id = alnum(80, 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789');
      return { path: `/v1/webhooks/incoming/${id}`, query: '', id };
    }
    case 'googlechat': {
      const id = `AAAA${alnum(7, 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789')}`;
      const key = `AIzaSy${alnum(33, 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_')}`;
      const token = alnum(43, 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_');
      return { path: `/v1/spaces/${id}/messages`, query: `?key=${key}&token=${token}`, id };
    }
    case 'telegram': {
      const id = `-100${digits(10)}`;
      const token = `AAE${alnum(32, 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_')}`;
      return { path: `/bot${digits(10)}:${token}/sendMessage`, query: `?chat_id=${id}`, id };
    }
    case 'webhook': {
      const id = alnum(20);
      return { path: `/arb/reviews/${id}`, query: '?source=arb', id };
    }
  }
}

/** Google's error envelope. */
const googleError = (status: number, code: string, message: string, reason?: string): Reply => ({
  status,
  body: { error: { code: status, message, status: code, ...(reason ? { details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason, domain: 'googleapis.com', metadata: { service: 'chat.googleapis.com' } }] } : {}) } },
});
/** The Bot API's error envelope. */
const telegramError = (status: number, description: string, parameters?: Record<string, unknown>): Reply => ({
  status,
  body: { ok: false, error_code: status, description, ...(parameters ? { parameters } : {}) },
});

/** What the platform checks before the payload: Google Chat's key and token, Telegram's chat (null = fine). */
function requestProblem(hook: HookState, query: URLSearchParams, body: unknown): Reply | null {
  if (hook.platform === 'googlechat') {
    if (query.get('key') !== hook.expectedQuery.get('key')) return googleError(400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.', 'API_KEY_INVALID');
    if (query.get('token') !== hook.expectedQuery.get('token')) {
      return googleError(403, 'PERMISSION_DENIED', 'The API is called without a valid token. Instructions on how to use incoming webhooks can be found at https://developers.google.com/chat/how-tos/webhooks');
    }
    const option = query.get('messageReplyOption');
    if (option !== null && !['MESSAGE_REPLY_OPTION_UNSPECIFIED', 'REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD', 'REPLY_MESSAGE_OR_FAIL'].includes(option)) {
      return googleError(400, 'INVALID_ARGUMENT', `Invalid value at 'message_reply_option' (${option})`);
    }
  }
  if (hook.platform === 'telegram') {
    const chat = (body as Record<string, unknown> | null)?.chat_id;
    if (chat === undefined || chat === null || chat === '') return telegramError(400, 'Bad Request: chat_id is empty');
    if (String(chat) !== hook.id) return telegramError(400, 'Bad Request: chat not found');
  }
  return null;
}

// ── what each platform says ───────────────────────────────────────────────────────────────────────────────────────

type Reply = { status: number; headers?: Record<string, string>; body?: string | object };

function text(status: number, body: string, headers: Record<string, string> = {}): Reply {
  return { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', ...headers }, body };
}

function strLen(v: unknown): number {
  return typeof v === 'string' ? [...v].length : 0;
}

/** More than `max` code points (as the platforms count)? A string has at most as many code points as UTF-16 units,
 * so only a long one needs counting. */
function tooLong(v: unknown, max: number): boolean {
  return typeof v === 'string' && v.length > max && strLen(v) > max;
}

/** The platform's own limits: a payload over them gets the platform's 400 (null = acceptable). */
function payloadProblem(platform: ChatPlatform, body: unknown): string | null {
  if (!body || typeof body !== 'object') return 'not a JSON object';
  const b = body as Record<string, unknown>;
  switch (platform) {
    case 'slack': {
      const blocks = Array.isArray(b.blocks) ? (b.blocks as Array<Record<string, unknown>>) : [];
      if (!b.text && !blocks.length) return 'no_text';
      if (blocks.length > 50) return 'invalid_blocks';
      for (const block of blocks) {
        const t = block.text as Record<string, unknown> | undefined;
        if (block.type === 'header' && tooLong(t?.text, 150)) return 'invalid_blocks';
        if (block.type === 'section' && t && tooLong(t.text, 3000)) return 'invalid_blocks';
        const fields = Array.isArray(block.fields) ? (block.fields as Array<Record<string, unknown>>) : [];
        if (fields.length > 10 || fields.some((f) => tooLong(f.text, 2000))) return 'invalid_blocks';
      }
      return null;
    }
    case 'discord': {
      if (tooLong(b.content, 2000)) return 'content';
      const embeds = Array.isArray(b.embeds) ? (b.embeds as Array<Record<string, unknown>>) : [];
      if (!b.content && !embeds.length) return 'Cannot send an empty message';
      if (embeds.length > 10) return 'embeds';
      let total = 0;
      for (const e of embeds) {
        const fields = Array.isArray(e.fields) ? (e.fields as Array<Record<string, unknown>>) : [];
        const author = (e.author as Record<string, unknown> | undefined)?.name;
        const footer = (e.footer as Record<string, unknown> | undefined)?.text;
        if (strLen(e.title) > 256 || strLen(e.description) > 4096 || fields.length > 25 || strLen(author) > 256 || strLen(footer) > 2048) return 'embeds';
        if (fields.some((f) => strLen(f.name) > 256 || strLen(f.value) > 1024)) return 'embeds';
        total += strLen(e.title) + strLen(e.description) + strLen(author) + strLen(footer) + fields.reduce((n, f) => n + strLen(f.name) + strLen(f.value), 0);
      }
      if (total > 6000) return 'embeds';
      return null;
    }
    case 'msteams': {
      const att = Array.isArray(b.attachments) ? (b.attachments as Array<Record<string, unknown>>) : [];
      if (b.type !== 'message' || att[0]?.contentType !== 'application/vnd.microsoft.card.adaptive') return 'InvalidRequestContent';
      if (Buffer.byteLength(JSON.stringify(b)) > 28 * 1024) return 'MessageSizeExceeded';
      return null;
    }
    case 'mattermost':
      if (!b.text && !Array.isArray(b.attachments)) return 'web.incoming_webhook.text.app_error';
      if (tooLong(b.text, 16383)) return 'web.incoming_webhook.text.app_error';
      return null;
    case 'webex': {
      const m = typeof b.markdown === 'string' ? b.markdown : typeof b.text === 'string' ? b.text : '';
      if (!m) return 'markdown or text required';
      if (Buffer.byteLength(m) > 7439) return 'message too long';
      return null;
    }
    case 'googlechat': {
      if (Buffer.byteLength(JSON.stringify(b)) > 32_000) return 'Message is too large (over 32,000 bytes)';
      const cards = Array.isArray(b.cardsV2) ? (b.cardsV2 as Array<Record<string, unknown>>) : [];
      if (!b.text && !cards.length) return 'Message cannot be empty. Discarded message has no text and no cards';
      if (tooLong(b.text, 4096)) return 'Message text is too long';
      for (const c of cards) {
        const card = c.card as Record<string, unknown> | undefined;
        const sections = Array.isArray(card?.sections) ? (card!.sections as Array<Record<string, unknown>>) : [];
        if (!card || !sections.length) return 'Invalid card: a card needs at least one section';
        if (sections.some((x) => !Array.isArray(x.widgets) || !(x.widgets as unknown[]).length)) return 'Invalid card: a section needs at least one widget';
      }
      const thread = b.thread as Record<string, unknown> | undefined;
      if (thread && tooLong(thread.threadKey, 4000)) return 'Invalid thread key';
      return null;
    }
    case 'telegram': {
      if (typeof b.text !== 'string' || !b.text) return 'Bad Request: message text is empty';
      if (b.parse_mode !== undefined && b.parse_mode !== 'HTML' && b.parse_mode !== 'MarkdownV2' && b.parse_mode !== 'Markdown') return 'Bad Request: unsupported parse_mode';
      const read = b.parse_mode === 'HTML' ? parseTelegramHtml(b.text) : { ok: true as const, text: b.text };
      if (!read.ok) return read.error;
      if (read.text.length > 4096) return 'Bad Request: message is too long';
      if (!read.text.trim()) return 'Bad Request: message text is empty';
      return null;
    }
    case 'webhook':
      // The Standard Webhooks envelope.
      return typeof b.type === 'string' && b.data && typeof b.data === 'object' ? null : 'not an event envelope { type, data }';
  }
}

function successReply(hook: HookState, body: unknown, query: URLSearchParams, remaining: number): Reply {
  const platform = hook.platform;
  switch (platform) {
    case 'googlechat': {
      const b = body as Record<string, unknown>;
      const key = (b.thread as Record<string, unknown> | undefined)?.threadKey;
      // A thread key names the app's thread; without messageReplyOption Google starts a new thread for every message.
      const reply = query.get('messageReplyOption')?.startsWith('REPLY_MESSAGE') === true;
      let thread = typeof key === 'string' && reply ? hook.threads.get(key) : undefined;
      if (!thread) {
        thread = `spaces/${hook.id}/threads/${alnum(11)}`;
        if (typeof key === 'string' && reply) hook.threads.set(key, thread);
      }
      const id = `${alnum(11)}.${alnum(11)}`;
      return {
        status: 200,
        body: {
          name: `spaces/${hook.id}/messages/${id}`,
          sender: { name: `users/${digits(21)}`, displayName: 'ARB reviews', type: 'BOT' },
          createTime: new Date().toISOString(),
          ...(b.text ? { text: b.text } : {}),
          ...(b.cardsV2 ? { cardsV2: b.cardsV2 } : {}),
          ...(b.fallbackText ? { fallbackText: b.fallbackText } : {}),
          thread: { name: thread, ...(typeof key === 'string' ? { threadKey: key } : {}) },
          space: { name: `spaces/${hook.id}`, type: 'ROOM', spaceType: 'SPACE' },
        },
      };
    }
    case 'telegram': {
      const b = body as Record<string, unknown>;
      const read = parseTelegramHtml(String(b.text));
      return {
        status: 200,
        body: {
          ok: true,
          result: {
            message_id: ++hook.telegramMessageId,
            from: { id: 7000000001, is_bot: true, first_name: 'ARB reviews', username: 'arb_reviews_bot' },
            chat: { id: Number(hook.id), title: 'App reviews', type: 'supergroup' },
            date: Math.floor(Date.now() / 1000),
            text: read.ok ? read.text : String(b.text),
            ...(b.message_thread_id ? { message_thread_id: b.message_thread_id, is_topic_message: true } : {}),
          },
        },
      };
    }
    case 'slack':
      return text(200, 'ok');
    case 'msteams':
      return { status: 202 };
    case 'mattermost':
      return text(200, 'ok');
    case 'webex':
    case 'webhook':
      return { status: 204 };
    case 'discord': {
      const headers = { 'X-RateLimit-Limit': '5', 'X-RateLimit-Remaining': String(remaining), 'X-RateLimit-Reset-After': '0.05', 'X-RateLimit-Bucket': 'fakebucket' };
      if (query.get('wait') !== 'true') return { status: 204, headers };
      const b = body as Record<string, unknown>;
      return { status: 200, headers, body: { id: digits(19), type: 0, content: b.content ?? '', embeds: b.embeds ?? [], channel_id: digits(19), webhook_id: digits(19) } };
    }
  }
}

function answerReply(platform: ChatPlatform, a: Exclude<Answer, { kind: 'ok' }>): Reply {
  switch (a.kind) {
    case 'custom':
      return { status: a.status, body: a.body, headers: a.headers };
    case 'rate_limit':
      // Google sends no Retry-After; Telegram puts the wait (whole seconds) in the body.
      if (platform === 'googlechat') return googleError(429, 'RESOURCE_EXHAUSTED', "Resource has been exhausted (e.g. check quota).");
      if (platform === 'telegram') {
        const wait = Math.max(1, Math.ceil(a.retryAfter));
        return telegramError(429, `Too Many Requests: retry after ${wait}`, { retry_after: wait });
      }
      if (platform === 'discord') {
        return {
          status: 429,
          headers: { 'Retry-After': String(Math.ceil(a.retryAfter)), 'X-RateLimit-Limit': '5', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset-After': String(a.retryAfter), 'X-RateLimit-Scope': 'user' },
          body: { message: 'You are being rate limited.', retry_after: a.retryAfter, global: false },
        };
      }
      if (platform === 'slack') return text(429, 'rate_limited', { 'Retry-After': String(a.retryAfter) });
      return { status: 429, headers: { 'Retry-After': String(a.retryAfter) }, body: { message: 'Too many requests' } };
    case 'locked':
      return { status: 423, headers: { 'Retry-After': String(a.retryAfter) }, body: { message: 'Locked' } };
    case 'server_error':
      if (platform === 'googlechat') return googleError(a.status ?? 500, a.status === 503 ? 'UNAVAILABLE' : 'INTERNAL', 'Internal error encountered.');
      if (platform === 'telegram') return telegramError(a.status ?? 500, 'Internal Server Error');
      return platform === 'slack' ? text(a.status ?? 500, 'rollup_error') : { status: a.status ?? 500, body: { message: 'Internal Server Error' } };
    case 'invalid_payload':
      return invalid(platform, 'invalid_payload');
    case 'redirect':
      return { status: 302, headers: { Location: a.location } };
    case 'gone':
      switch (platform) {
        case 'slack':
          return text(404, 'no_service');
        case 'msteams':
          return { status: 404, body: { error: { code: 'WorkflowNotFound', message: 'The workflow could not be found.' } } };
        case 'mattermost':
          return { status: 400, body: { id: 'web.incoming_webhook.invalid.app_error', message: 'Invalid webhook.', status_code: 400 } };
        case 'discord':
          return { status: 404, body: { message: 'Unknown Webhook', code: 10015 } };
        case 'webex':
          return { status: 404, body: { message: 'The requested resource could not be found.', errors: [{ description: 'The requested resource could not be found.' }] } };
        case 'googlechat':
          return googleError(403, 'PERMISSION_DENIED', 'The API is called without a valid token. Instructions on how to use incoming webhooks can be found at https://developers.google.com/chat/how-tos/webhooks');
        case 'telegram':
          return telegramError(403, 'Forbidden: bot was blocked by the user');
        case 'webhook':
          return { status: 410, body: { message: 'This endpoint was removed.' } };
      }
  }
}

function invalid(platform: ChatPlatform, why: string): Reply {
  switch (platform) {
    case 'slack':
      return text(400, why === 'no_text' ? 'no_text' : why === 'invalid_payload' ? 'invalid_payload' : 'invalid_blocks');
    case 'discord':
      return { status: 400, body: { message: 'Invalid Form Body', code: 50035, errors: { [why]: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be shorter.' }] } } } };
    case 'msteams':
      return { status: 400, body: { error: { code: why, message: 'The request content is not valid.' } } };
    case 'mattermost':
      return { status: 400, body: { id: why.startsWith('web.') ? why : 'web.incoming_webhook.parse.app_error', message: 'Unable to parse incoming data.', status_code: 400 } };
    case 'googlechat':
      return googleError(400, 'INVALID_ARGUMENT', why === 'invalid_payload' ? 'Invalid JSON payload received.' : why);
    case 'telegram':
      return telegramError(400, why.startsWith('Bad Request') ? why : `Bad Request: ${why}`);
    case 'webex':
    case 'webhook':
      return { status: 400, body: { message: why } };
  }
}

// ── the server ────────────────────────────────────────────────────────────────────────────────────────────────────

type HookState = ChatHook & {
  pathname: string;
  queue: Answer[];
  fallback: Answer;
  held: boolean;
  /** Requests still to answer before holding (holdAfter), or null. */
  answerBeforeHold: number | null;
  releaseWaiters: Array<() => void>;
  waiters: Array<() => void>;
  discordRemaining: number;
  /** The query the hook's URL was given (Google Chat: key and token). */
  expectedQuery: URLSearchParams;
  telegramMessageId: number;
  /** Requests answered with a 2xx so far: waitForDelivered checks this instead of filtering every request on every
   * event (quadratic over a 10,000-message test). A test may empty `requests`, so the filter still has the last word. */
  answered2xx: number;
};

function send(res: http.ServerResponse, reply: Reply) {
  if (reply.body !== undefined && typeof reply.body === 'object') {
    json(res, reply.status, reply.body, reply.headers ?? {});
    return;
  }
  res.writeHead(reply.status, reply.headers ?? {});
  res.end(reply.body ?? '');
}

export async function startChatWebhooks(): Promise<ChatWebhooks> {
  const hooks = new Map<string, HookState>();
  const redirects = new Map<string, string>();
  const all: ChatRequest[] = [];

  const handler = async (req: RecordedRequest, res: http.ServerResponse): Promise<boolean> => {
    const target = redirects.get(req.path);
    if (target) {
      res.writeHead(302, { Location: target });
      res.end();
      return true;
    }
    const hook = hooks.get(req.path);
    if (!hook || req.method !== 'POST') return false;
    let body: unknown = null;
    try {
      body = JSON.parse(req.body);
    } catch {
      body = null;
    }
    const rec: ChatRequest = {
      platform: hook.platform,
      hookId: hook.id,
      body,
      raw: req.body,
      headers: req.headers,
      query: req.query,
      receivedAt: Date.now(),
      status: null,
      outcome: 'pending',
      held: false,
      signatureValid: hook.platform === 'webhook' && hook.signingSecret ? verifySignature(hook.signingSecret, { raw: req.body, headers: req.headers }) : null,
    };
    hook.requests.push(rec);
    all.push(rec);
    const settle = (outcome: 'answered' | 'aborted') => {
      if (rec.outcome !== 'pending') return;
      rec.outcome = outcome;
      if (outcome === 'answered' && rec.status !== null && rec.status >= 200 && rec.status < 300) hook.answered2xx++;
    };
    res.on('close', () => {
      settle(res.writableFinished ? 'answered' : 'aborted');
      hook.waiters.splice(0).forEach((w) => w());
    });
    hook.waiters.splice(0).forEach((w) => w());

    if (hook.answerBeforeHold !== null) {
      if (hook.answerBeforeHold === 0) hook.held = true;
      else hook.answerBeforeHold--;
    }
    if (hook.held) {
      rec.held = true;
      hook.waiters.splice(0).forEach((w) => w());
      while (hook.held) await new Promise<void>((r) => hook.releaseWaiters.push(r));
    }
    if (hook.delayMs > 0) await new Promise((r) => setTimeout(r, hook.delayMs));
    if (rec.outcome === 'aborted' || res.destroyed) return true;

    const answer = hook.queue.shift() ?? hook.fallback;
    let reply: Reply;
    if (rec.signatureValid === false) {
      // What a receiver that checks signatures does with a forged or altered request.
      reply = { status: 401, body: { message: 'invalid signature' } };
    } else if (answer.kind === 'ok') {
      const refused = requestProblem(hook, req.query, body);
      const problem = refused ? null : payloadProblem(hook.platform, body);
      if (refused) reply = refused;
      else if (problem) reply = invalid(hook.platform, problem);
      else {
        hook.discordRemaining = hook.discordRemaining <= 0 ? 4 : hook.discordRemaining - 1;
        reply = successReply(hook, body, req.query, hook.discordRemaining);
      }
    } else {
      reply = answerReply(hook.platform, answer);
    }
    rec.status = reply.status;
    res.on('finish', () => {
      settle('answered');
      hook.waiters.splice(0).forEach((w) => w());
    });
    send(res, reply);
    return true;
  };

  const server = await startFakeServer([handler]);

  /**
   * Waits until `check` passes. It gives up when no request has reached the hook for `timeoutMs`, not at a fixed time
   * from the start: a delivery engine that keeps delivering on a slow, busy machine is not a failure, one that stops is.
   */
  async function waitOn(hook: HookState, check: () => ChatRequest[] | null, what: () => string, timeoutMs: number): Promise<ChatRequest[]> {
    let deadline = Date.now() + timeoutMs;
    let seen = hook.requests.length;
    for (;;) {
      const done = check();
      if (done) return done;
      if (hook.requests.length !== seen) {
        seen = hook.requests.length;
        deadline = Date.now() + timeoutMs;
      }
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`chat fake (${hook.platform}): ${what()}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, Math.min(left, 250));
        hook.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  return {
    url: server.url,
    server,
    hook(platform) {
      const { path, query, id } = pathFor(platform);
      const state: HookState = {
        platform,
        id,
        pathname: path,
        url: `${server.url}${path}${query}`,
        requests: [],
        signingSecret: null,
        queue: [],
        fallback: { kind: 'ok' },
        held: false,
        answerBeforeHold: null,
        releaseWaiters: [],
        waiters: [],
        discordRemaining: 5,
        expectedQuery: new URLSearchParams(query),
        threads: new Map(),
        telegramMessageId: 0,
        delayMs: 0,
        answered2xx: 0,
        delivered() {
          return state.requests.filter((r) => r.outcome === 'answered' && r.status !== null && r.status >= 200 && r.status < 300);
        },
        deliveredCount: () => state.answered2xx,
        script(answer, times = 1) {
          for (let i = 0; i < times; i++) state.queue.push(answer);
        },
        setDefault(answer) {
          state.fallback = answer;
        },
        hold() {
          state.held = true;
        },
        holdAfter(n) {
          state.answerBeforeHold = n;
        },
        release() {
          state.held = false;
          state.answerBeforeHold = null;
          state.releaseWaiters.splice(0).forEach((r) => r());
        },
        waitForDelivered(n, timeoutMs = 15_000) {
          const check = () => {
            if (state.answered2xx < n) return null;
            const delivered = state.delivered();
            return delivered.length >= n ? delivered : null;
          };
          return waitOn(state, check, () => `expected ${n} delivered, got ${state.delivered().length}`, timeoutMs);
        },
        waitForRequests(n, filter = () => true, timeoutMs = 15_000) {
          return waitOn(
            state,
            () => {
              const m = state.requests.filter(filter);
              return m.length >= n ? m : null;
            },
            () => `expected ${n} requests, got ${state.requests.filter(filter).length}`,
            timeoutMs,
          );
        },
      };
      hooks.set(path, state);
      return state;
    },
    redirectUrl(platform, location) {
      const { path, query } = pathFor(platform);
      redirects.set(path, location);
      return `${server.url}${path}${query}`;
    },
    all: () => [...all],
    close: () => server.close(),
  };
}
