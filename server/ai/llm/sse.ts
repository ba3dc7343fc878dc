/**
 * Reading an OpenAI-compatible `chat/completions` stream: Server-Sent Events framed by eventsource-parser (events split
 * across network chunks, comment lines such as OpenRouter's keep-alive `: OPENROUTER PROCESSING`, multi-line data),
 * then each `data:` payload assembled into text, tool calls and usage.
 *
 * The chunk shapes: `choices[0].delta.content` carries text; `choices[0].delta.tool_calls[]` carries tool calls in
 * pieces, keyed by `index` — the first piece has `id` and `function.name`, later ones append to `function.arguments`;
 * `finish_reason` is set on the last choice chunk; with `stream_options.include_usage` a final chunk has empty (or
 * null) `choices` and `usage`. `data: [DONE]` ends the stream. An error after the answer began arrives as a data
 * payload with an `error` object (OpenAI, SGLang, OpenRouter), as vLLM's `{"object":"error","message":…}`, or as an
 * `event: error`.
 */
import type { EventSourceMessage } from 'eventsource-parser';
import { LlmError } from './errors';

export type ToolCall = { id: string; name: string; arguments: string };
export type Usage = { promptTokens: number; completionTokens: number; totalTokens: number };

export type LlmEvent =
  | { type: 'text'; text: string }
  | { type: 'done'; text: string; toolCalls: ToolCall[]; finishReason: string | null; usage: Usage | null };

export { sseMessages } from '@/shared/sseMessages';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function streamErrorMessage(payload: Json): string | null {
  if (isObject(payload.error)) return String(payload.error.message ?? payload.error.type ?? 'unknown error');
  if (typeof payload.error === 'string') return payload.error;
  if (payload.object === 'error') return String(payload.message ?? 'unknown error');
  return null;
}

/** Assembles one answer from its chunks; `accept` takes each SSE message and returns the text it added, if any. */
export class ChatStreamAssembler {
  text = '';
  finishReason: string | null = null;
  usage: Usage | null = null;
  ended = false;
  private calls = new Map<number, ToolCall>();

  accept(message: EventSourceMessage): string | null {
    if (message.event === 'error') throw new LlmError(`The model's server reported an error mid-answer: ${message.data.slice(0, 500)}`, 'stream');
    const data = message.data.trim();
    if (data === '[DONE]') {
      this.ended = true;
      return null;
    }
    if (!data) return null;
    let payload: unknown;
    try {
      payload = JSON.parse(data);
    } catch {
      throw new LlmError(`The model's server sent a chunk that is not JSON: ${data.slice(0, 200)}`, 'stream');
    }
    if (!isObject(payload)) return null;
    const error = streamErrorMessage(payload);
    if (error) throw new LlmError(`The model's server reported an error mid-answer: ${error}`, 'stream');
    if (isObject(payload.usage)) {
      const u = payload.usage;
      const promptTokens = Number(u.prompt_tokens ?? 0);
      const completionTokens = Number(u.completion_tokens ?? 0);
      this.usage = { promptTokens, completionTokens, totalTokens: Number(u.total_tokens ?? promptTokens + completionTokens) };
    }
    const choice = Array.isArray(payload.choices) ? payload.choices.find((c: Json) => isObject(c) && (c.index ?? 0) === 0) : undefined;
    if (!isObject(choice)) return null;
    if (typeof choice.finish_reason === 'string') this.finishReason = choice.finish_reason;
    const delta = isObject(choice.delta) ? choice.delta : {};
    if (Array.isArray(delta.tool_calls)) for (const piece of delta.tool_calls) this.addToolCallPiece(piece);
    if (typeof delta.content === 'string' && delta.content) {
      this.text += delta.content;
      return delta.content;
    }
    return null;
  }

  private addToolCallPiece(piece: unknown) {
    if (!isObject(piece)) return;
    const index = typeof piece.index === 'number' ? piece.index : this.calls.size;
    const fn = isObject(piece.function) ? piece.function : {};
    const call = this.calls.get(index) ?? { id: '', name: '', arguments: '' };
    if (typeof piece.id === 'string' && piece.id) call.id = piece.id;
    // The name comes whole in the call's first piece (some servers repeat it in every piece: never append it).
    if (typeof fn.name === 'string' && fn.name && !call.name) call.name = fn.name;
    if (typeof fn.arguments === 'string') call.arguments += fn.arguments;
    this.calls.set(index, call);
  }

  /** Whether the model said it was finished (a finish reason, or [DONE]); a stream cut short has neither. */
  get complete(): boolean {
    return this.ended || this.finishReason !== null;
  }

  get toolCalls(): ToolCall[] {
    return [...this.calls.entries()].sort(([a], [b]) => a - b).map(([, c]) => c);
  }
}
