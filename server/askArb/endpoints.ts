/**
 * Ask ARB over HTTP:
 *   POST v1/public/ask-arb/chat      { messages, app_id?, app_store?, chat_id?, stream? }, optional bearer
 *                                    → { chat_id, message }, or with `stream: true` text/event-stream:
 *                                      meta { chat_id } · token { text }… · citation AskCitation · done { message } · error { code, message }
 *   GET  v1/public/ask-arb/chat/{id} → { id, messages }
 * Refusals before the answer begins (bad input, 401 for an expired token, 402/429 allowances, 404 chat or app) are the
 * API's usual JSON errors, streamed or not. Once a stream has begun, a failure is its `error` event.
 */
import { z } from 'zod';
import { endpoint, RAW } from '../http/api';
import { HttpError } from '../http/errors';
import { appStoreSchema } from '../apps/params';
import { normalizeAppId, APP_ID_HINT } from '@/shared/appIds';
import { LlmError } from '../ai/llm/errors';
import { answerQuestion, chatHistory, prepareQuestion } from './conversation';
import { openEventStream } from './eventStream';

const MAX_QUESTION_CHARS = 2000;

const message = z.object({
  role: z.enum(['user', 'assistant'], { error: "must be 'user' or 'assistant'" }),
  content: z.string({ error: 'must be text' }).trim().min(1, 'must not be empty').max(8000, 'is too long (at most 8,000 characters)'),
});

const chatBody = z
  .object({
    messages: z.array(message, { error: 'must be a list of { role, content }' }).min(1, 'must hold the question').max(50, 'at most 50 messages'),
    app_id: z.string({ error: 'must be text' }).max(200, 'is too long').optional(),
    app_store: appStoreSchema.optional(),
    chat_id: z.string({ error: 'must be text' }).max(100, 'is not a chat id').optional(),
    stream: z.boolean({ error: 'must be true or false' }).optional(),
  })
  .superRefine((b, ctx) => {
    const last = b.messages[b.messages.length - 1];
    if (!last) return; // "must hold the question" says it
    if (last.role !== 'user') ctx.addIssue({ code: 'custom', path: ['messages'], message: "the last message must be the user's question" });
    else if (last.content.length > MAX_QUESTION_CHARS) ctx.addIssue({ code: 'custom', path: ['messages'], message: `the question is too long (at most ${MAX_QUESTION_CHARS.toLocaleString('en-US')} characters)` });
    if (!!b.app_id !== !!b.app_store) ctx.addIssue({ code: 'custom', path: [b.app_id ? 'app_store' : 'app_id'], message: 'app_id and app_store go together' });
    else if (b.app_id && b.app_store && normalizeAppId(b.app_store, b.app_id) === null) ctx.addIssue({ code: 'custom', path: ['app_id'], message: APP_ID_HINT[b.app_store] });
  });

const reviewShape = z.object({
  id: z.string(),
  app_store: appStoreSchema,
  app_id: z.string(),
  author: z.string().nullable(),
  rating: z.number(),
  title: z.string().nullable(),
  body: z.string(),
  date: z.string(),
  country: z.string().nullable(),
  version: z.string().nullable(),
  language: z.string().nullable(),
  permalink: z.string().nullable(),
});
const citationShape = reviewShape.extend({ n: z.number().int().meta({ description: 'The answer cites this review as [n].' }) });
const messageShape = z.object({
  id: z.string(),
  role: z.enum(['user', 'assistant']),
  content: z.string().meta({ description: 'The text; an answer cites reviews as [n], n being a citation’s number.' }),
  citations: z.array(citationShape),
  method: z.enum(['llm', 'computed', 'none']).meta({ description: 'llm: the language model with tools; computed: figures without a model; none: no answer (I don’t know, or not supported).' }),
  created_at: z.string(),
});

/** What a failure after the stream began says, in the shape of the API's errors. */
function streamError(err: unknown, requestId: string): { code: string; message: string } {
  if (err instanceof HttpError) return { code: err.code, message: err.message };
  if (err instanceof LlmError) {
    if (err.code === 'budget') return { code: 'llm_budget', message: err.message };
    return { code: 'llm_failed', message: `The language model did not answer: ${err.message} Try again in a moment.` };
  }
  return { code: 'internal_error', message: `Something went wrong on our side (request ${requestId}). Try again.` };
}

/** The same failure for a JSON answer. */
function httpError(err: unknown): unknown {
  if (!(err instanceof LlmError)) return err;
  if (err.code === 'budget') return new HttpError(429, 'llm_budget', err.message);
  return new HttpError(502, 'llm_failed', `The language model did not answer: ${err.message} Try again in a moment.`);
}

export const askArbChat = endpoint({
  statuses: [402, 404, 409, 502, 503],
  summary: 'Ask ARB a question about app reviews (a visitor: one app; signed in: the organisation’s apps); streamed as Server-Sent Events with stream: true',
  tags: ['ask-arb'],
  auth: 'optional',
  body: chatBody,
  response: z.object({ chat_id: z.string(), message: messageShape }),
  handler: async (ctx) => {
    const { body, auth, ip, res, requestId } = ctx;
    const app = body.app_id && body.app_store ? { appStore: body.app_store, appId: normalizeAppId(body.app_store, body.app_id)! } : undefined;
    const prepared = await prepareQuestion({ messages: body.messages, app, chatId: body.chat_id }, { auth, ip });
    // A caller who leaves (closes the connection) stops the model's answer: no tokens are spent on nobody.
    const stop = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) stop.abort();
    });

    if (!body.stream) {
      try {
        // The stored message is the answer: nothing to collect on the way.
        const message = await answerQuestion(prepared, { text: () => {}, citation: () => {} }, stop.signal);
        return { chat_id: prepared.chat.id, message };
      } catch (err) {
        throw httpError(err);
      }
    }

    const events = openEventStream(res);
    events.send('meta', { chat_id: prepared.chat.id });
    try {
      const message = await answerQuestion(prepared, { text: (t) => events.send('token', { text: t }), citation: (c) => events.send('citation', { ...c, review_id: c.id }) }, stop.signal);
      events.send('done', { message });
    } catch (err) {
      // A visitor's chat id is what reads the chat: it is not written to the log.
      if (stop.signal.aborted) ctx.log.info('ask-arb: the caller left before the answer ended');
      else {
        if (!(err instanceof HttpError) && !(err instanceof LlmError && err.code === 'budget')) ctx.log.error('ask-arb answer failed', { err });
        events.send('error', streamError(err, requestId));
      }
    }
    events.end();
    return RAW;
  },
});

export const askArbChatHistory = endpoint({
  statuses: [404],
  summary: 'An Ask ARB chat: its questions and answers with their citations (a visitor’s chat by its id; an organisation’s chat only for its members)',
  tags: ['ask-arb'],
  auth: 'optional',
  params: z.object({ id: z.string().min(1).max(100, 'is not a chat id') }),
  response: z.object({ id: z.string(), messages: z.array(messageShape) }),
  handler: ({ params, auth }) => chatHistory(params.id, auth),
});
