// What one Ask ARB question may cost, through the real route and database (PGlite: HTTP behaviour, vitest.config.ts) and a loopback
// OpenAI-compatible model streaming real SSE: at most 8 tool calls run of one model answer and 16 of a question (the
// rest answered "not run: too many calls"), max_tokens on every request the model receives, the earlier turns cut to
// a token budget, and the visitors' daily token budget (ASK_ARB_VISITOR_DAILY_TOKENS): one atomic counter shared by
// every process, a clear 429 once it is spent.
import { describe, expect, test } from 'vitest';
import { chat } from '@/server/ai/llm/client';
import { ANSWER_MAX_TOKENS, HISTORY_TOKEN_BUDGET, MAX_TOOL_CALLS_PER_ANSWER, MAX_TOOL_CALLS_PER_QUESTION, NOT_RUN } from '@/server/askArb/chat';
import { VISITOR_BUDGET_SPENT, visitorTokenMeter, visitorTokensUsed } from '@/server/askArb/visitorBudget';
import type { AskChatResponse } from '@/shared/askArb';
import { call } from '../helpers/request';
import { newOwner } from '../helpers/orgs';
import { appWith } from '../helpers/seedReviews';
import type { ChatBody } from '../fakes/llm';
import { newIosApp, newIp } from './support/connectWorld';
import { askArbWorldHooks } from './support/askArbWorld';

const world = askArbWorldHooks();

const CHAT = '/api/v1/public/ask-arb/chat';
type Msg = { role: 'user' | 'assistant'; content: string };
type Sent = ChatBody & { max_tokens?: number; messages: Array<{ role: string; content: string | null; tool_call_id?: string }> };
const ask = (body: Record<string, unknown>, o: { token?: string; ip?: string } = {}) => call<AskChatResponse>(world.w.api, 'POST', CHAT, body, { ip: o.ip ?? newIp(), token: o.token });
const q = (content: string): Msg[] => [{ role: 'user', content }];
const sentSince = (before: number) => world.llm.chatBodies().slice(before) as Sent[];

async function orgWithReviews() {
  const owner = await newOwner('ceiling');
  await appWith(owner, 'google_play_store', [
    { title: 'Login broken', body: 'The login fails every time.', rating: 1, hoursAgo: 5 },
    { title: 'Great', body: 'Lovely app.', rating: 5, hoursAgo: 9 },
  ]);
  return owner;
}

describe('one question has a ceiling', () => {
  test('20 tool calls in one answer: 8 run, the rest "not run: too many calls"; 16 in the whole question', async () => {
    const owner = await orgWithReviews();
    const twenty = { toolCalls: Array.from({ length: 20 }, () => ({ name: 'count_reviews', arguments: {} })) };
    world.llm.reply(twenty, twenty, twenty, { text: 'There are 2 reviews.' });
    const before = world.llm.chatBodies().length;
    const r = await ask({ messages: q('How many reviews are there?') }, { token: owner.token });
    expect(r.status, r.text).toBe(200);
    expect(r.json.data.message).toMatchObject({ method: 'llm', content: 'There are 2 reviews.' });

    const sent = sentSince(before);
    expect(sent).toHaveLength(4);
    // Every call the model asked for has its tool message (servers refuse a conversation without them)…
    const toolMessages = (b: Sent) => b.messages.filter((m) => m.role === 'tool');
    // (the first is the read the server made before the first call: retrieval first, not one of the model's calls)
    expect(sent.map((b) => toolMessages(b).length)).toEqual([1, 21, 41, 61]);
    // …but only 8 of an answer ran, and 16 of the question: the rest were refused without a read.
    const ran = (b: Sent) => toolMessages(b).filter((m) => !m.content!.includes(NOT_RUN)).length;
    expect(sent.map(ran)).toEqual([1, 1 + MAX_TOOL_CALLS_PER_ANSWER, 1 + MAX_TOOL_CALLS_PER_QUESTION, 1 + MAX_TOOL_CALLS_PER_QUESTION]);
    expect(toolMessages(sent[1])[MAX_TOOL_CALLS_PER_ANSWER].content).not.toContain(NOT_RUN);
    expect(toolMessages(sent[1])[1 + MAX_TOOL_CALLS_PER_ANSWER].content).toBe(JSON.stringify({ error: NOT_RUN }));
    expect(JSON.parse(toolMessages(sent[1])[0].content!)).toMatchObject({ reviews: 2 });
  });

  test('every request the model receives carries max_tokens, the background calls’ too', async () => {
    const owner = await orgWithReviews();
    world.llm.reply({ toolCalls: [{ name: 'count_reviews', arguments: {} }] }, { text: 'There are 2 reviews.' });
    const before = world.llm.chatBodies().length;
    expect((await ask({ messages: q('How many reviews are there?') }, { token: owner.token })).status).toBe(200);
    // A call that names no limit (translation, sentiment, drafts) gets one about its prompt's size.
    await chat({ messages: [{ role: 'user', content: 'Translate: "Hallo"' }] });
    const sent = sentSince(before);
    expect(sent).toHaveLength(3);
    expect(sent.slice(0, 2).map((b) => b.max_tokens)).toEqual([ANSWER_MAX_TOKENS, ANSWER_MAX_TOKENS]);
    expect(sent[2].max_tokens).toBe(1024);
  });

  test('a long history is cut to the token budget, newest turns kept', async () => {
    const owner = await orgWithReviews();
    const long = (i: number) => `Turn ${i}: ${'word '.repeat(1598)}`; // 8,000 characters each (7 fit the 64 KiB body)
    const history: Msg[] = Array.from({ length: 7 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: long(i) }) as Msg);
    world.llm.reply({ toolCalls: [{ name: 'count_reviews', arguments: {} }] }, { text: 'There are 2 reviews.' });
    const before = world.llm.chatBodies().length;
    const r = await ask({ messages: [...history, ...q('And how many reviews are there?')] }, { token: owner.token });
    expect(r.status, r.text).toBe(200);
    const [first] = sentSince(before);
    const question = first.messages.map((m) => m.role).lastIndexOf('user');
    const earlier = first.messages.slice(1, question); // after the system message, before the question (the first reads follow it)
    const chars = earlier.reduce((n, m) => n + (m.content?.length ?? 0), 0);
    expect(chars).toBeGreaterThan(0);
    expect(chars).toBeLessThanOrEqual(HISTORY_TOKEN_BUDGET * 4);
    expect(earlier.at(-1)!.content).toMatch(/^Turn 6: /); // the newest earlier turn, the one a follow-up follows
    expect(first.messages[question]).toMatchObject({ role: 'user', content: 'And how many reviews are there?' });
  });
});

describe("visitors' daily token budget", () => {
  test('visitors share one budget a day; once spent, a clear 429 before the model or the network’s count is touched', async () => {
    const app = newIosApp(world.w);
    world.w.feed.publish(app.appId, 'us', { title: 'Crash', content: 'It crashes on launch.', rating: 1 });
    const body = { messages: q('How many reviews are there?'), app_id: app.appId, app_store: 'apple_app_store' };
    world.llm.respondWith((b) => (b.messages.some((m) => m.role === 'tool') ? { text: 'There is 1 review.' } : { toolCalls: [{ name: 'count_reviews', arguments: {} }] }));

    const usedBefore = await visitorTokensUsed();
    const first = await ask(body);
    expect(first.status, first.text).toBe(200);
    const used = await visitorTokensUsed();
    // Charged what the model reported, the reservations (prompt + max_tokens per call) given back.
    expect(used).toBeGreaterThan(usedBefore);
    expect(used - usedBefore).toBeLessThan(2 * ANSWER_MAX_TOKENS + 20_000);

    // The day's budget is spent: refused before the question is counted or the model asked.
    world.w.setEnv({ ASK_ARB_VISITOR_DAILY_TOKENS: String(used) });
    const ip = newIp();
    const calls = world.llm.chatBodies().length;
    const spent = await ask(body, { ip });
    expect(spent.status).toBe(429);
    expect(spent.json.error.message).toBe(VISITOR_BUDGET_SPENT);
    expect(spent.json.error.message).not.toMatch(/ASK_ARB|TOKENS/);
    expect(Number(spent.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(spent.headers.get('retry-after'))).toBeLessThanOrEqual(86_400);
    expect(world.llm.chatBodies().length).toBe(calls);

    // Some budget left, but less than one call may use: the model is still not asked.
    world.w.setEnv({ ASK_ARB_VISITOR_DAILY_TOKENS: String(used + 100) });
    const short = await ask(body, { ip });
    expect(short.status).toBe(429);
    expect(short.json.error).toEqual({ code: 'llm_budget', message: VISITOR_BUDGET_SPENT });
    expect(world.llm.chatBodies().length).toBe(calls);
    expect(await visitorTokensUsed()).toBe(used); // a refused reservation is taken back

    // Signed-in questions are their organisation's: the visitors' budget does not stop them, nor count them.
    const owner = await orgWithReviews();
    expect((await ask({ messages: q('How many reviews are there?') }, { token: owner.token })).status).toBe(200);
    expect(await visitorTokensUsed()).toBe(used);
  });

  test('racing reservations cannot pass the budget together (one atomic add decides)', async () => {
    const used = await visitorTokensUsed();
    world.w.setEnv({ ASK_ARB_VISITOR_DAILY_TOKENS: String(used + 2_500) });
    const meter = visitorTokenMeter()!;
    const results = await Promise.allSettled(Array.from({ length: 6 }, () => meter.reserve(1_000)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(2);
    expect(results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason.message)).toEqual(Array(4).fill(VISITOR_BUDGET_SPENT));
    expect(await visitorTokensUsed()).toBe(used + 2_000);
    await meter.settle(1_000, 0);
    await meter.settle(1_000, 0);
    expect(await visitorTokensUsed()).toBe(used);
  });
});
