/**
 * A loopback OpenAI-compatible chat server: `POST /v1/chat/completions` with `stream: true` answers real Server-Sent
 * Events in the shapes OpenAI-compatible servers send (`chat.completion.chunk` objects, `choices[0].delta.content`,
 * tool calls in pieces keyed by `index`, a usage-only last chunk when `stream_options.include_usage` is asked,
 * `data: [DONE]`), written in small byte slices so events — and multi-byte characters — are split across network
 * chunks, with keep-alive comment lines where a real server sends them.
 *
 *   const llm = await startFakeLlm();            // env LLM_BASE_URL = llm.baseUrl, LLM_MODEL = 'fake-model'
 *   llm.reply({ status: 429, retryAfter: '1' }, { text: 'Hello' });   // the next two answers, in order
 *   llm.respondWith((body) => ({ text: '…' }));   // every answer after the scripted ones
 */
import type http from 'node:http';
import { json, startFakeServer, type FakeServer, type RecordedRequest } from './http';

export type FakeToolCall = { name: string; arguments: string | Record<string, unknown> };

export type LlmReply = {
  /** Answer with this status and an OpenAI-style error body instead of a stream (429, 500, 401…). */
  status?: number;
  /** `Retry-After` (seconds or an HTTP date) with a status. */
  retryAfter?: string;
  /** `retry-after-ms`, as OpenAI sends it, with a status. */
  retryAfterMs?: number;
  text?: string;
  toolCalls?: FakeToolCall[];
  /** Milliseconds between the role chunk and the first token; keep-alive comments are sent meanwhile. */
  firstTokenDelayMs?: number;
  /** Milliseconds between tokens (default none): an answer a browser visibly sees grow. */
  tokenDelayMs?: number;
  /** Bytes per write (default 37: every event, some 200 bytes, arrives in pieces). */
  sliceBytes?: number;
  /** After the text, fail mid-stream in one of the shapes servers use, then close. */
  midStreamError?: 'openai' | 'vllm' | 'event';
  /** End the stream after the text with neither a finish reason nor [DONE] (a connection cut short). */
  cutOff?: boolean;
  /** Never answer (headers included): a server that hangs. */
  hang?: boolean;
};

export type ChatBody = {
  model: string;
  messages: Array<{ role: string; content: string | null }>;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  tools?: unknown[];
};

export type AnswerTimes = { received: number; firstToken: number; ended: number };

export type FakeLlm = FakeServer & {
  /** What to put in LLM_BASE_URL. */
  baseUrl: string;
  reply(...replies: LlmReply[]): void;
  respondWith(fn: (body: ChatBody) => LlmReply): void;
  /** The chat requests received, parsed. */
  chatBodies(): ChatBody[];
  /** Streams the client closed before the fake had finished writing them (a caller that stopped the answer). */
  abandoned(): number;
  /**
   * When each streamed answer was asked for, wrote its first content token (NaN without one) and ended, in
   * performance.now() milliseconds, in the order the answers began: the model's own share of a caller's wait.
   */
  answerTimes(): AnswerTimes[];
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Splits text into word-sized pieces (each keeps its trailing space), as a model streams tokens. */
function tokens(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

/** Splits a JSON string into fragments of a few characters, as models stream tool-call arguments. */
function fragments(s: string, size = 5): string[] {
  const out: string[] = [];
  for (let i = 0; i < s.length; i += size) out.push(s.slice(i, i + size));
  return out.length ? out : [''];
}

async function writeSliced(res: http.ServerResponse, text: string, sliceBytes: number) {
  const bytes = Buffer.from(text, 'utf8');
  for (let i = 0; i < bytes.length; i += sliceBytes) {
    if (res.destroyed) return;
    res.write(bytes.subarray(i, i + sliceBytes));
    // A turn of the event loop between writes (no Nagle: setNoDelay), so they leave as separate TCP segments and the
    // client reads them as separate chunks.
    await new Promise((r) => setImmediate(r));
  }
}

async function stream(res: http.ServerResponse, body: ChatBody, r: LlmReply, id: string, onFirstToken: () => void = () => {}) {
  res.socket?.setNoDelay(true);
  res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache', Connection: 'keep-alive' });
  const slice = r.sliceBytes ?? 37;
  const created = Math.floor(Date.now() / 1000);
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
    `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: body.model, system_fingerprint: null, choices, ...extra })}\n\n`;
  const choice = (delta: Record<string, unknown>, finish: string | null = null) => ({ index: 0, delta, logprobs: null, finish_reason: finish });

  await writeSliced(res, chunk([choice({ role: 'assistant', content: '' })]), slice);
  if (r.firstTokenDelayMs) {
    const until = Date.now() + r.firstTokenDelayMs;
    while (Date.now() < until && !res.destroyed) {
      await writeSliced(res, ': OPENROUTER PROCESSING\n\n', slice);
      await sleep(Math.min(50, Math.max(0, until - Date.now())));
    }
  }
  const pieces = tokens(r.text ?? '');
  for (const [i, piece] of pieces.entries()) {
    if (i === 0) onFirstToken();
    await writeSliced(res, chunk([choice({ content: piece })]), slice);
    // A comment in the middle of an answer, as keep-alives arrive whenever the server likes.
    if (i === 0) await writeSliced(res, ': keep-alive\n\n', slice);
    if (r.tokenDelayMs) await sleep(r.tokenDelayMs);
  }
  if (r.midStreamError === 'openai') {
    await writeSliced(res, `data: ${JSON.stringify({ error: { message: 'The server had an error while processing your request.', type: 'server_error', code: null } })}\n\n`, slice);
    return res.end();
  }
  if (r.midStreamError === 'vllm') {
    await writeSliced(res, `data: ${JSON.stringify({ object: 'error', message: 'CUDA out of memory.', type: 'InternalServerError', code: 500 })}\n\n`, slice);
    return res.end();
  }
  if (r.midStreamError === 'event') {
    await writeSliced(res, `event: error\ndata: ${JSON.stringify({ message: 'upstream provider failed' })}\n\n`, slice);
    return res.end();
  }
  if (r.cutOff) return res.end();
  let completion = pieces.length;
  for (const [index, call] of (r.toolCalls ?? []).entries()) {
    const args = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
    const callId = `call_${id.slice(-6)}${index}`;
    await writeSliced(res, chunk([choice({ tool_calls: [{ index, id: callId, type: 'function', function: { name: call.name, arguments: '' } }] })]), slice);
    for (const part of fragments(args)) {
      await writeSliced(res, chunk([choice({ tool_calls: [{ index, function: { arguments: part } }] })]), slice);
      completion++;
    }
  }
  await writeSliced(res, chunk([choice({}, r.toolCalls?.length ? 'tool_calls' : 'stop')]), slice);
  if (body.stream_options?.include_usage) {
    const prompt = Math.ceil(JSON.stringify(body.messages).length / 4);
    await writeSliced(res, chunk([], { usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion } }), slice);
  }
  await writeSliced(res, 'data: [DONE]\n\n', slice);
  res.end();
}

export async function startFakeLlm(): Promise<FakeLlm> {
  const queue: LlmReply[] = [];
  let responder: (body: ChatBody) => LlmReply = () => ({ text: 'OK' });
  let count = 0;
  let abandoned = 0;
  const times: AnswerTimes[] = [];
  const hanging = new Set<http.ServerResponse>();
  const server = await startFakeServer([
    async (req: RecordedRequest, res) => {
      if (req.method !== 'POST' || req.path !== '/v1/chat/completions') return false;
      let body: ChatBody;
      try {
        body = JSON.parse(req.body) as ChatBody;
      } catch {
        json(res, 400, { error: { message: 'We could not parse the JSON body of your request.', type: 'invalid_request_error' } });
        return true;
      }
      if (!body.model || !Array.isArray(body.messages)) {
        json(res, 400, { error: { message: "'model' and 'messages' are required properties", type: 'invalid_request_error' } });
        return true;
      }
      const r = queue.shift() ?? responder(body);
      if (r.hang) {
        hanging.add(res);
        res.on('close', () => hanging.delete(res));
        return true;
      }
      if (r.status) {
        const headers: Record<string, string> = {};
        if (r.retryAfter !== undefined) headers['Retry-After'] = r.retryAfter;
        if (r.retryAfterMs !== undefined) headers['retry-after-ms'] = String(r.retryAfterMs);
        json(res, r.status, { error: { message: r.status === 429 ? 'Rate limit reached for requests' : 'The server had an error', type: r.status === 429 ? 'requests' : 'server_error' } }, headers);
        return true;
      }
      res.on('close', () => {
        if (!res.writableEnded) abandoned++;
      });
      const t: AnswerTimes = { received: performance.now(), firstToken: NaN, ended: NaN };
      times.push(t);
      await stream(res, body, r, `chatcmpl-fake${++count}`, () => {
        t.firstToken = performance.now();
      });
      t.ended = performance.now();
      return true;
    },
  ]);
  return {
    ...server,
    baseUrl: `${server.url}/v1`,
    reply: (...replies) => void queue.push(...replies),
    respondWith: (fn) => {
      responder = fn;
    },
    chatBodies: () => server.requests.filter((r) => r.path === '/v1/chat/completions').map((r) => JSON.parse(r.body) as ChatBody),
    abandoned: () => abandoned,
    answerTimes: () => times.map((t) => ({ ...t })),
    close: async () => {
      for (const res of hanging) res.destroy();
      await server.close();
    },
  };
}
