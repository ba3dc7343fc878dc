/**
 * Ask ARB chat. The plain call goes through the shared client; streaming uses a raw fetch (axios cannot hand the
 * browser a response body as it arrives). A bearer token is sent when the visitor is signed in.
 */
import { ApiError, api, apiBase, call, HTTP_TIMEOUT_MS, withBearer } from './client';
import type { ChatReply, ChatRequest, ChatTranscript } from './types';

/** POST v1/public/ask-arb/chat — the whole reply at once. */
export function sendChat(request: ChatRequest, authToken?: string | null): Promise<ChatReply> {
  return call(api.post('v1/public/ask-arb/chat', request, withBearer(authToken)));
}

/** GET v1/public/ask-arb/chat/{id} — a saved conversation. */
export function getChat(id: string): Promise<ChatTranscript> {
  return call(api.get(`v1/public/ask-arb/chat/${encodeURIComponent(id)}`));
}

export type StreamOptions = {
  authToken?: string | null;
  signal?: AbortSignal;
  /** Called with each piece of text as it arrives. */
  onText: (chunk: string) => void;
};

/**
 * POST v1/public/ask-arb/chat with `stream: true`: the answer arrives as plain text. The conversation id comes back in
 * the `X-Chat-Id` header so a follow-up question can continue the same chat.
 */
export async function streamChat(request: ChatRequest, options: StreamOptions): Promise<{ chatId: string | null; text: string }> {
  const timeout = AbortSignal.timeout(HTTP_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  let res: Response;
  try {
    res = await fetch(`${apiBase()}v1/public/ask-arb/chat`, {
      method: 'POST',
      credentials: 'include',
      headers: { 'Content-Type': 'application/json', ...(options.authToken ? { Authorization: `Bearer ${options.authToken}` } : {}) },
      body: JSON.stringify({ ...request, stream: true }),
      signal,
    });
  } catch (err) {
    if (options.signal?.aborted) throw err;
    throw new ApiError('Could not reach ARB. Check your connection and try again.', 0, 'network_error');
  }
  if (!res.ok || !res.body) {
    const body = (await res.json().catch(() => null)) as { error?: { code?: string; message?: string } } | null;
    throw new ApiError(body?.error?.message ?? `Ask ARB failed (${res.status}).`, res.status, body?.error?.code ?? 'http_error');
  }
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const chunk = decoder.decode(value, { stream: true });
    if (chunk) {
      text += chunk;
      options.onText(chunk);
    }
  }
  const tail = decoder.decode();
  if (tail) {
    text += tail;
    options.onText(tail);
  }
  return { chatId: res.headers.get('x-chat-id'), text };
}
