/**
 * The language-model client: `POST {LLM_BASE_URL}/chat/completions` with `stream: true` over fetch, so any
 * OpenAI-compatible server works (OpenAI, Ollama, vLLM, llama.cpp server, LM Studio, OpenRouter).
 *
 *  - 429 and 5xx answers (and a server that cannot be reached) are retried up to LLM_MAX_RETRIES times, after the
 *    server's Retry-After (`retry-after-ms` or `Retry-After`, seconds or a date) or an exponential backoff; never
 *    once the answer has begun, and never past the total timeout.
 *  - Two timeouts, both through one AbortController: the first token (LLM_FIRST_TOKEN_TIMEOUT_MS, per attempt: a
 *    loaded server that sends only keep-alive comments is not progress) and the whole answer (LLM_TIMEOUT_MS). The
 *    caller's own signal (a visitor who left) aborts too, and so does leaving the event loop early.
 *  - With an organisation, its monthly token budget (org_usage_months.llm_tokens) is checked before the call and
 *    charged after it with the usage the server reported (or, without one, an estimate of four characters a token),
 *    including for an answer that failed halfway: those tokens were spent. A `meter` (Ask ARB's visitors' daily
 *    budget) reserves the call's most before it (the prompt's estimate plus max_tokens: one atomic add decides) and
 *    gives back what was not used after it.
 *  - Every request carries `max_tokens`: the caller's, else about the prompt's size (1,024–8,192), which leaves a
 *    translation room for its texts and stops a model that would write on and on.
 */
import { log } from '../../log';
import { usageMonth } from '../../plans/data';
import { recordModelTokens } from '../../metrics/registry';
import { addLlmTokens, llmTokensUsed } from '../data';
import { llmConfig, type LlmConfig } from './config';
import { LlmError, notConfigured } from './errors';
import { ChatStreamAssembler, sseMessages, type LlmEvent } from './sse';

export type { LlmEvent, ToolCall, Usage } from './sse';

export type ChatMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }> }
  | { role: 'tool'; content: string; tool_call_id: string };

export type ToolDefinition = { type: 'function'; function: { name: string; description?: string; parameters: Record<string, unknown> } };

export type ChatRequest = {
  messages: ChatMessage[];
  tools?: ToolDefinition[];
  temperature?: number;
  maxTokens?: number;
};

/**
 * A token budget other than an organisation's month: `reserve` takes the call's most before it is sent (throwing
 * LlmError 'budget' when that would pass the budget), `settle` corrects it with what the call really used.
 */
export type TokenMeter = {
  reserve(tokens: number): Promise<void>;
  settle(reserved: number, used: number): Promise<void>;
};

export type ChatOptions = {
  /** The organisation whose monthly token budget pays for the call; none for the server's own work. */
  orgId?: string | null;
  /** Another budget the call counts against (Ask ARB's visitors), besides or instead of an organisation's. */
  meter?: TokenMeter;
  signal?: AbortSignal;
  /** Tests: another configuration than the environment's. */
  config?: LlmConfig;
  /** What the tokens were for, as the arb_model_tokens_total metric's label (a fixed word per caller). */
  feature?: 'ask_arb' | 'drafts' | 'translate' | 'sentiment' | 'summaries';
};

export type ChatAnswer = Extract<LlmEvent, { type: 'done' }>;

const RETRIED_STATUSES = new Set([408, 409, 429, 500, 502, 503, 504]);
const MAX_BACKOFF_MS = 8_000;

/** How long to wait before the next attempt: what the server asked for, else an exponential backoff with jitter. */
export function retryDelayMs(headers: Headers, attempt: number, now = Date.now()): number {
  const ms = Number(headers.get('retry-after-ms'));
  if (headers.get('retry-after-ms') && Number.isFinite(ms) && ms >= 0) return ms;
  const after = headers.get('retry-after');
  if (after) {
    const seconds = Number(after);
    if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
    const date = Date.parse(after);
    if (Number.isFinite(date)) return Math.max(0, date - now);
  }
  return Math.min(MAX_BACKOFF_MS, 500 * 2 ** attempt) * (0.8 + Math.random() * 0.4);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

async function errorText(res: Response): Promise<string> {
  const body = (await res.text().catch(() => '')).slice(0, 2000);
  try {
    const parsed = JSON.parse(body) as { error?: { message?: string } | string; message?: string };
    const message = typeof parsed.error === 'string' ? parsed.error : (parsed.error?.message ?? parsed.message);
    if (message) return String(message).slice(0, 500);
  } catch {
    // not JSON: the text itself
  }
  return body.slice(0, 300) || res.statusText;
}

/** Tokens a text is counted as when the server reports no usage: four characters a token. */
export const estimateTokens = (chars: number) => Math.ceil(chars / 4);

/** max_tokens for a caller that names none: about the prompt's size, within these bounds. */
export const DEFAULT_MAX_TOKENS = { min: 1024, max: 8192 } as const;

function maxTokensFor(request: ChatRequest): number {
  if (request.maxTokens !== undefined) return request.maxTokens;
  const prompt = estimateTokens(request.messages.reduce((n, m) => n + (m.content?.length ?? 0), 0));
  return Math.min(DEFAULT_MAX_TOKENS.max, Math.max(DEFAULT_MAX_TOKENS.min, prompt));
}

async function assertWithinBudget(orgId: string, month: string, config: LlmConfig): Promise<void> {
  if (!config.monthlyTokensPerOrg) return;
  const used = await llmTokensUsed(orgId, month);
  if (used >= config.monthlyTokensPerOrg) {
    throw new LlmError(
      `This organisation has used its ${config.monthlyTokensPerOrg.toLocaleString('en-US')} language-model tokens for this month; ` +
        'the allowance starts again on the 1st (UTC).',
      'budget',
      429,
    );
  }
}

/** Streams one answer: `text` events as the model writes, then one `done` with the whole text, tool calls and usage. */
export async function* streamChat(request: ChatRequest, options: ChatOptions = {}): AsyncGenerator<LlmEvent> {
  const config = options.config ?? llmConfig();
  if (!config) throw notConfigured();
  const orgId = options.orgId ?? null;
  const month = usageMonth(new Date());
  if (orgId) await assertWithinBudget(orgId, month, config);

  const started = Date.now();
  const controller = new AbortController();
  let stoppedBy: 'first_token' | 'total' | 'caller' | null = null;
  const stop = (why: NonNullable<typeof stoppedBy>) => {
    stoppedBy ??= why;
    controller.abort();
  };
  const onCallerAbort = () => stop('caller');
  if (options.signal?.aborted) stop('caller');
  options.signal?.addEventListener('abort', onCallerAbort, { once: true });
  const totalTimer = setTimeout(() => stop('total'), config.totalTimeoutMs);
  let firstTokenTimer: NodeJS.Timeout | undefined;
  const armFirstToken = () => {
    clearTimeout(firstTokenTimer);
    firstTokenTimer = setTimeout(() => stop('first_token'), config.firstTokenTimeoutMs);
  };

  const body = JSON.stringify({
    model: config.model,
    messages: request.messages,
    ...(request.tools?.length ? { tools: request.tools } : {}),
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    max_tokens: maxTokensFor(request),
    stream: true,
    stream_options: { include_usage: true },
  });
  // The meter's reservation: the whole prompt and the longest answer allowed; settled in `finally`.
  const reserved = options.meter ? estimateTokens(body.length) + maxTokensFor(request) : 0;
  if (options.meter) {
    try {
      await options.meter.reserve(reserved);
    } catch (err) {
      clearTimeout(totalTimer);
      options.signal?.removeEventListener('abort', onCallerAbort);
      throw err;
    }
  }
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'text/event-stream' };
  if (config.apiKey) headers.Authorization = `Bearer ${config.apiKey}`;

  const answer = new ChatStreamAssembler();
  let answered = false;
  try {
    let res: Response | null = null;
    for (let attempt = 0; !res; attempt++) {
      armFirstToken();
      let failure: string;
      let delayMs: number;
      try {
        const r = await fetch(`${config.baseUrl}/chat/completions`, { method: 'POST', headers, body, signal: controller.signal });
        if (r.ok && r.body) {
          res = r;
          break;
        }
        failure = await errorText(r);
        if (!RETRIED_STATUSES.has(r.status) || attempt >= config.maxRetries) {
          throw new LlmError(`The model's server answered ${r.status}: ${failure}`, 'http', r.status);
        }
        delayMs = retryDelayMs(r.headers, attempt);
        failure = `${r.status} ${failure}`;
      } catch (err) {
        if (err instanceof LlmError || stoppedBy) throw err;
        if (attempt >= config.maxRetries) throw new LlmError(`The model's server could not be reached: ${(err as Error).message}`, 'http');
        failure = (err as Error).message;
        delayMs = retryDelayMs(new Headers(), attempt);
      }
      if (Date.now() + delayMs >= started + config.totalTimeoutMs) {
        throw new LlmError(`The model's server refused (${failure}) and asked to wait longer than the time left for the answer.`, 'http');
      }
      log.warn('llm request refused, retrying', { attempt: attempt + 1, delayMs: Math.round(delayMs), failure: failure.slice(0, 200) });
      clearTimeout(firstTokenTimer);
      await sleep(delayMs, controller.signal);
      if (stoppedBy) throw new LlmError('aborted', 'aborted');
    }
    answered = true;
    for await (const message of sseMessages(res.body!)) {
      const text = answer.accept(message);
      if (text || answer.toolCalls.length || answer.complete) clearTimeout(firstTokenTimer);
      if (text) yield { type: 'text', text };
      if (answer.ended) break;
    }
    if (!answer.complete) throw new LlmError("The model's answer was cut off: the stream ended before it said it was finished.", 'stream');
    clearTimeout(firstTokenTimer);
    yield { type: 'done', text: answer.text, toolCalls: answer.toolCalls, finishReason: answer.finishReason, usage: answer.usage };
  } catch (err) {
    if (stoppedBy === 'first_token') throw new LlmError(`The model sent no token within ${config.firstTokenTimeoutMs} ms.`, 'timeout');
    if (stoppedBy === 'total') throw new LlmError(`The model did not finish its answer within ${config.totalTimeoutMs} ms.`, 'timeout');
    if (stoppedBy === 'caller') throw new LlmError('The caller stopped waiting for the answer.', 'aborted');
    throw err;
  } finally {
    clearTimeout(firstTokenTimer);
    clearTimeout(totalTimer);
    options.signal?.removeEventListener('abort', onCallerAbort);
    controller.abort(); // a consumer that stopped reading early closes the connection here
    const tokens = answered ? (answer.usage?.totalTokens ?? estimateTokens(body.length + answer.text.length + JSON.stringify(answer.toolCalls).length)) : 0;
    if (answered) recordModelTokens(options.feature ?? 'other', tokens);
    if (orgId && answered) {
      await addLlmTokens(orgId, month, tokens).catch((err) => log.error('llm token usage not recorded', { tokens, err }));
    }
    if (options.meter) await options.meter.settle(reserved, tokens).catch((err) => log.error('llm token usage not settled', { tokens, err }));
  }
}

/** The whole answer at once (for background work that does not stream to anyone). */
export async function chat(request: ChatRequest, options: ChatOptions = {}): Promise<ChatAnswer> {
  for await (const event of streamChat(request, options)) if (event.type === 'done') return event;
  throw new LlmError('The model gave no answer.', 'stream');
}
