/**
 * Ask ARB's calls: `POST v1/public/ask-arb/chat` streamed, and `GET v1/public/ask-arb/chat/{id}` to restore a chat.
 *
 * The streamed answer is a raw `fetch` with `stream: true` (axios in the browser cannot hand over a response body
 * while it arrives): credentials included like every call, a bearer when signed in, and the body read as Server-Sent
 * Events (`shared/sseMessages.ts`, eventsource-parser) — `meta`, `token`, `citation`, `done`, `error` as
 * `shared/askArb.ts` describes. Aborting the signal (the Stop button) ends the request and the read at once.
 * A refusal before the stream (400, 402 plan allowance, 429 daily allowance…) throws `ApiError` with the server's
 * words, as the HTTP client's calls do.
 */
import type { AskChatHistory, AskChatRequest, AskCitation, AskMessage, AskStreamEvent } from '@/shared/askArb';
import { sseMessages } from '@/shared/sseMessages';
import { apiBase } from './base';
import { api, ApiError, call, withBearer } from './client';

export type { AskChatHistory, AskChatRequest, AskCitation, AskMessage, AskStreamEvent };

const CHAT_PATH = 'v1/public/ask-arb/chat';
const UNREACHABLE = 'Could not reach ARB. Check your connection and try again.';

type ErrorBody = { error?: { code?: string; message?: string } };

async function refusal(res: Response): Promise<ApiError> {
  const body = (await res.json().catch(() => ({}))) as ErrorBody;
  const message = body.error?.message ?? `ARB answered ${res.status}. Please try again in a moment.`;
  return new ApiError(message, res.status, body.error?.code ?? 'http_error');
}

const EVENTS = new Set<AskStreamEvent['event']>(['meta', 'token', 'citation', 'done', 'error']);

/** One SSE message as an Ask ARB event; null for anything else (a future event type, a comment-only keep-alive). */
export function askEvent(message: { event?: string; data: string }): AskStreamEvent | null {
  const type = message.event as AskStreamEvent['event'] | undefined;
  if (!type || !EVENTS.has(type)) return null;
  try {
    return { event: type, data: JSON.parse(message.data) } as AskStreamEvent;
  } catch {
    return null;
  }
}

export type AskStreamOptions = {
  /** The signed-in user's access token (the organisation's apps and allowance); none for a visitor. */
  token?: string | null;
  signal?: AbortSignal;
  /** Each event as it arrives, in order. */
  onEvent: (event: AskStreamEvent) => void;
};

/**
 * Asks and streams the answer. Resolves when the stream ends (after `done` or `error`, both passed to `onEvent`);
 * rejects with `ApiError` when the server refuses the question, or with the abort error when `signal` aborts.
 */
export async function streamAskArb(request: Omit<AskChatRequest, 'stream'>, options: AskStreamOptions): Promise<void> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'text/event-stream' };
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  let res: Response;
  try {
    // The HTTP client's base (NEXT_PUBLIC_API_BASE), so both calls of the chat go to the same API.
    res = await fetch(`${api.defaults.baseURL ?? apiBase()}${CHAT_PATH}`, {
      method: 'POST',
      headers,
      credentials: 'include',
      body: JSON.stringify({ ...request, stream: true }),
      signal: options.signal,
    });
  } catch (err) {
    if (options.signal?.aborted) throw err;
    throw new ApiError(UNREACHABLE, 0, 'network_error');
  }
  if (!res.ok) throw await refusal(res);
  if (!res.body || !(res.headers.get('Content-Type') ?? '').includes('text/event-stream')) {
    // A server that answered without streaming still answered: `{ data: { chat_id, message } }`.
    const body = (await res.json().catch(() => null)) as { data?: { chat_id: string; message: AskMessage } } | null;
    if (!body?.data) throw new ApiError('ARB sent an answer this page cannot read. Please reload and try again.', res.status, 'bad_answer');
    options.onEvent({ event: 'meta', data: { chat_id: body.data.chat_id } });
    options.onEvent({ event: 'done', data: { message: body.data.message } });
    return;
  }
  try {
    for await (const message of sseMessages(res.body)) {
      const event = askEvent(message);
      if (event) options.onEvent(event);
    }
  } catch (err) {
    if (options.signal?.aborted) throw err;
    // The connection broke mid-answer: what arrived stays, and the chat says what happened.
    options.onEvent({ event: 'error', data: { code: 'network_error', message: 'The connection to ARB was lost before the answer was complete. Please try again.' } });
  }
}

/** A chat with its messages (a visitor's by its id; an organisation's with a member's token). */
export function getAskArbChat(id: string, token?: string | null): Promise<AskChatHistory> {
  return call(api.get(`${CHAT_PATH}/${encodeURIComponent(id)}`, withBearer(token)));
}
