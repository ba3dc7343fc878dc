// The language-model client against a loopback OpenAI-compatible server that streams real SSE (tests/fakes/llm.ts),
// and the SSE reader fed byte by byte.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chat, retryDelayMs, streamChat } from '@/server/ai/llm/client';
import type { LlmConfig } from '@/server/ai/llm/config';
import { llmConfig } from '@/server/ai/llm/config';
import { LlmError } from '@/server/ai/llm/errors';
import { ChatStreamAssembler, sseMessages } from '@/server/ai/llm/sse';
import { parseEnv, setEnvForTests } from '@/server/env';
import { startFakeLlm, type FakeLlm } from '../fakes/llm';

let llm: FakeLlm;
let config: LlmConfig;

beforeAll(async () => {
  llm = await startFakeLlm();
  config = { baseUrl: llm.baseUrl, apiKey: 'sk-test', model: 'fake-model', firstTokenTimeoutMs: 2000, totalTimeoutMs: 10_000, maxRetries: 3, monthlyTokensPerOrg: 0 };
});
afterAll(() => llm.close());

const ask = { messages: [{ role: 'user' as const, content: 'Say hello' }] };

async function collect(options: Partial<LlmConfig> = {}, signal?: AbortSignal) {
  const texts: string[] = [];
  let done;
  for await (const e of streamChat(ask, { config: { ...config, ...options }, signal })) {
    if (e.type === 'text') texts.push(e.text);
    else done = e;
  }
  return { texts, done: done! };
}

async function failure(p: Promise<unknown>): Promise<LlmError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(LlmError);
  return err as LlmError;
}

function byteStream(text: string, sliceBytes: number): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let i = 0;
  return new ReadableStream({
    pull(c) {
      if (i >= bytes.length) return c.close();
      c.enqueue(bytes.slice(i, i + sliceBytes));
      i += sliceBytes;
    },
  });
}

describe('SSE reading', () => {
  it('reassembles events and multi-byte characters split at every byte, skipping comment lines', async () => {
    const text =
      ': OPENROUTER PROCESSING\n\n' +
      'data: {"choices":[{"index":0,"delta":{"content":"Grüße 👋"},"finish_reason":null}]}\n\n' +
      ': keep-alive\n\n' +
      'data: {"choices":[{"index":0,"delta":{"content":" aus Köln"},"finish_reason":"stop"}]}\r\n\r\n' +
      'data: [DONE]\n\n';
    const answer = new ChatStreamAssembler();
    for await (const m of sseMessages(byteStream(text, 1))) answer.accept(m);
    expect(answer.text).toBe('Grüße 👋 aus Köln');
    expect(answer.finishReason).toBe('stop');
    expect(answer.ended).toBe(true);
  });

  it('assembles tool calls from pieces keyed by index, names never doubled', () => {
    const a = new ChatStreamAssembler();
    const feed = (delta: unknown, finish: string | null = null) => a.accept({ data: JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] }) });
    feed({ role: 'assistant', content: null, tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'count_reviews', arguments: '' } }] });
    feed({ tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'average_rating', arguments: '{"app' } }] });
    feed({ tool_calls: [{ index: 0, function: { name: 'count_reviews', arguments: '{"rating"' } }] });
    feed({ tool_calls: [{ index: 0, function: { arguments: ':1}' } }] });
    feed({ tool_calls: [{ index: 1, function: { arguments: '":"x"}' } }] });
    feed({}, 'tool_calls');
    a.accept({ data: JSON.stringify({ choices: [], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } }) });
    expect(a.toolCalls).toEqual([
      { id: 'call_a', name: 'count_reviews', arguments: '{"rating":1}' },
      { id: 'call_b', name: 'average_rating', arguments: '{"app":"x"}' },
    ]);
    expect(a.usage).toEqual({ promptTokens: 10, completionTokens: 5, totalTokens: 15 });
  });
});

describe('streamChat against an OpenAI-compatible server', () => {
  it('streams the text in pieces, sends model, key and include_usage, and reports the usage of the last chunk', async () => {
    llm.reply({ text: 'Hello there, how can I help?' });
    const before = llm.requests.length;
    const { texts, done } = await collect();
    expect(texts.length).toBeGreaterThan(3);
    expect(texts.join('')).toBe('Hello there, how can I help?');
    expect(done).toMatchObject({ text: 'Hello there, how can I help?', finishReason: 'stop', toolCalls: [] });
    expect(done.usage!.totalTokens).toBe(done.usage!.promptTokens + done.usage!.completionTokens);
    const req = llm.requests[before];
    expect(req.headers.authorization).toBe('Bearer sk-test');
    expect(JSON.parse(req.body)).toMatchObject({ model: 'fake-model', stream: true, stream_options: { include_usage: true }, messages: ask.messages });
  });

  it('assembles streamed tool calls', async () => {
    llm.reply({ toolCalls: [{ name: 'count_reviews', arguments: { app: 'com.example', rating: [1, 2] } }, { name: 'top_terms', arguments: '{"limit":5}' }] });
    const done = await chat({ ...ask, tools: [{ type: 'function', function: { name: 'count_reviews', parameters: { type: 'object' } } }] }, { config });
    expect(done.finishReason).toBe('tool_calls');
    expect(done.toolCalls.map((c) => [c.name, JSON.parse(c.arguments)])).toEqual([
      ['count_reviews', { app: 'com.example', rating: [1, 2] }],
      ['top_terms', { limit: 5 }],
    ]);
    expect(done.toolCalls[0].id).toMatch(/^call_/);
    expect(JSON.parse(llm.requests.at(-1)!.body).tools).toHaveLength(1);
  });

  it('waits through keep-alive comments for a slow first token', async () => {
    llm.reply({ text: 'Late but fine', firstTokenDelayMs: 400 });
    const { done } = await collect({ firstTokenTimeoutMs: 1500 });
    expect(done.text).toBe('Late but fine');
  });

  it('gives up when the first token is later than the first-token timeout, comments notwithstanding', async () => {
    llm.reply({ text: 'Too late', firstTokenDelayMs: 1500 });
    const started = Date.now();
    const err = await failure(collect({ firstTokenTimeoutMs: 300 }));
    expect(err.code).toBe('timeout');
    expect(err.message).toMatch(/no token within 300 ms/);
    expect(Date.now() - started).toBeLessThan(1400);
  });

  it('gives up on a server that never answers at the total timeout', async () => {
    llm.reply({ hang: true });
    const err = await failure(collect({ firstTokenTimeoutMs: 5000, totalTimeoutMs: 300 }));
    expect(err.code).toBe('timeout');
    expect(err.message).toMatch(/within 300 ms/);
  });

  it('retries a 429 after the Retry-After the server asked for, then streams', async () => {
    llm.reply({ status: 429, retryAfter: '1' }, { text: 'After the wait' });
    const before = llm.chatBodies().length;
    const started = Date.now();
    const { done } = await collect();
    expect(done.text).toBe('After the wait');
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(llm.chatBodies().length - before).toBe(2);
  });

  it('retries 5xx answers with retry-after-ms, and stops after LLM_MAX_RETRIES with the last error', async () => {
    llm.reply({ status: 503, retryAfterMs: 20 }, { status: 502, retryAfterMs: 20 }, { text: 'Third time lucky' });
    expect((await collect()).done.text).toBe('Third time lucky');

    llm.reply({ status: 500, retryAfterMs: 10 }, { status: 500, retryAfterMs: 10 }, { status: 500, retryAfterMs: 10 });
    const err = await failure(collect({ maxRetries: 2 }));
    expect(err).toMatchObject({ code: 'http', status: 500 });
    expect(err.message).toMatch(/answered 500: The server had an error/);
  });

  it('does not retry a 4xx other than 429, and does not wait past the total timeout', async () => {
    llm.reply({ status: 401 });
    const before = llm.chatBodies().length;
    expect(await failure(collect())).toMatchObject({ code: 'http', status: 401 });
    expect(llm.chatBodies().length - before).toBe(1);

    llm.reply({ status: 429, retryAfter: '30' });
    const started = Date.now();
    const err = await failure(collect({ totalTimeoutMs: 2000 }));
    expect(err.message).toMatch(/longer than the time left/);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it.each(['openai', 'vllm', 'event'] as const)('fails on a mid-stream error (%s shape) after the text that came before it', async (shape) => {
    llm.reply({ text: 'Partial answer', midStreamError: shape });
    const texts: string[] = [];
    const err = await failure(
      (async () => {
        for await (const e of streamChat(ask, { config })) if (e.type === 'text') texts.push(e.text);
      })(),
    );
    expect(err.code).toBe('stream');
    expect(err.message).toMatch(/error mid-answer/);
    expect(texts.join('')).toBe('Partial answer');
  });

  it('fails on a stream cut short (no finish reason, no [DONE])', async () => {
    llm.reply({ text: 'Cut', cutOff: true });
    expect((await failure(collect())).message).toMatch(/cut off/);
  });

  it("stops on the caller's signal", async () => {
    llm.reply({ text: 'Never read', firstTokenDelayMs: 2000 });
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 100);
    expect((await failure(collect({}, ac.signal))).code).toBe('aborted');
  });
});

describe('configuration', () => {
  it('is off without LLM_BASE_URL, and a base URL without LLM_MODEL is refused at start', async () => {
    const restore = setEnvForTests({ LLM_BASE_URL: undefined, LLM_MODEL: undefined });
    try {
      expect(llmConfig()).toBeNull();
      expect((await failure(chat(ask))).code).toBe('not_configured');
    } finally {
      restore();
    }
    expect(() => parseEnv({ LLM_BASE_URL: 'http://127.0.0.1:11434/v1' })).toThrow(/LLM_MODEL/);
  });

  it("honours Retry-After in seconds, as a date, and OpenAI's retry-after-ms", () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryDelayMs(new Headers({ 'retry-after': '3' }), 0, now)).toBe(3000);
    expect(retryDelayMs(new Headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' }), 0, now)).toBe(5000);
    expect(retryDelayMs(new Headers({ 'retry-after-ms': '250', 'retry-after': '1' }), 0, now)).toBe(250);
    const backoff = retryDelayMs(new Headers(), 2, now);
    expect(backoff).toBeGreaterThanOrEqual(1600);
    expect(backoff).toBeLessThanOrEqual(2400);
  });
});
