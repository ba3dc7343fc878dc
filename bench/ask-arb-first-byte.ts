/**
 * Benchmark: how long Ask ARB keeps a streamed answer's first token from the person, beyond the model's own time.
 * Goal: ≤ 50 ms at p95.
 *
 *   npx tsx bench/ask-arb-first-byte.ts                  # 200 questions, PGlite in memory
 *   npx tsx bench/ask-arb-first-byte.ts --requests 500
 *
 * Each question is a signed-in `POST v1/public/ask-arb/chat` with `stream: true` through the real route files (the
 * tests' plain Node server: our router without Next) and a database with an app of 500 reviews, read as a browser
 * would (fetch, the SSE parsed by eventsource-parser). The model is the loopback OpenAI-compatible fake
 * (tests/fakes/llm.ts, in this process, so one clock), scripted to call `search_reviews` when it has no tool result
 * and else to answer citing two of the reviews found, streamed as real SSE in small slices. Since retrieval first
 * (server/askArb/firstReads.ts) the server's own search is in the first call, so the model answers at once: one
 * call, no tool round (the bench accepts either). Two figures, each at p50/p95:
 *
 *  - `first_token_after_model`: the first `event: token` byte at the client minus the moment the model wrote its
 *    first token (the streaming path: SSE parsing, the citation check, the output guard, our SSE write).
 *  - `own_time_to_first_token`: the client's whole wait for its first token minus the time the model spent (from
 *    each of its requests to the end of any tool round, and to its first token in the answer round) — everything ARB
 *    does itself: the session and scope, the allowance, the chat's row, the first reads' SQL, the requests.
 *
 * Printed with the reference (the model's own time to its first token in the answer round) and the ratio of each
 * p95 to the 50 ms goal (≤ 1 meets it). Everything runs on one machine's CPUs: the load average is printed first (the
 * figures mean little above ~4 on two cores).
 */
import { runBench } from './support/runBench';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { parseArgs } from 'node:util';
import path from 'node:path';
import { benchEnv, figure, openBenchDb, percentile } from './support/engineBench';

const GOAL_MS = 50;
const root = path.resolve(__dirname, '..');

async function main() {
  const { values } = parseArgs({ options: { requests: { type: 'string', default: '200' } } });
  const requests = Math.max(10, Number(values.requests) || 200);
  console.log(`ask_arb.load_average: ${os.loadavg()[0].toFixed(2)} load`);
  benchEnv({ WORKER: 'off', AUTH_SECRET: randomBytes(32).toString('hex'), ENCRYPTION_KEY: randomBytes(32).toString('hex') });

  const { startFakeLlm } = await import('../tests/fakes/llm');
  const llm = await startFakeLlm();
  Object.assign(process.env, { LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'fake-model', LLM_MAX_RETRIES: '0', LLM_MONTHLY_TOKENS_PER_ORG: '0' });
  const db = await openBenchDb('pglite');
  const { createParser } = await import('eventsource-parser');
  const { newOwner } = await import('../tests/helpers/orgs');
  const { appWith } = await import('../tests/helpers/seedReviews');
  const { startTestApi } = await import('../tests/helpers/api');
  const server = await startTestApi(path.join(root, 'pages/api'));

  try {
    const owner = await newOwner('bench');
    const seeds = Array.from({ length: 500 }, (_, i) => ({
      title: i % 5 === 0 ? 'Login trouble' : 'Review',
      body: i % 5 === 0 ? `The login fails after update ${i}.` : `Works fine, review ${i}.`,
      rating: 1 + (i % 5),
      hoursAgo: i,
    }));
    await appWith(owner, 'google_play_store', seeds);

    llm.respondWith((body) => {
      const tool = body.messages.find((m) => m.role === 'tool');
      if (!tool) return { toolCalls: [{ name: 'search_reviews', arguments: { query: 'login' } }] };
      const ids = [...tool.content!.matchAll(/"id":"([^"]+)"/g)].map((m) => m[1]);
      return { text: `Several people cannot log in since the update [review:${ids[0]}], the same in another review [review:${ids[1]}]. Most others are happy.` };
    });

    const afterModel: number[] = [];
    const own: number[] = [];
    const modelFirst: number[] = [];
    for (let i = 0; i < requests + 5; i++) {
      const answersBefore = llm.answerTimes().length;
      const started = performance.now();
      const res = await fetch(`${server.url}/api/v1/public/ask-arb/chat`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${owner.token}` },
        body: JSON.stringify({ messages: [{ role: 'user', content: 'What do people say about the login?' }], stream: true }),
      });
      if (res.status !== 200) throw new Error(`the chat answered ${res.status}: ${await res.text()}`);
      let firstToken = NaN;
      let done = false;
      const parser = createParser({
        onEvent: (m) => {
          if (m.event === 'token' && Number.isNaN(firstToken)) firstToken = performance.now();
          if (m.event === 'done') done = true;
          if (m.event === 'error') throw new Error(`error event: ${m.data}`);
        },
      });
      const decoder = new TextDecoder();
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) parser.feed(decoder.decode(chunk, { stream: true }));
      if (!done || Number.isNaN(firstToken)) throw new Error('the answer ended without a token and done');
      const rounds = llm.answerTimes().slice(answersBefore);
      const answerRound = rounds.at(-1);
      if (!answerRound || Number.isNaN(answerRound.firstToken)) throw new Error('the model did not answer');
      if (i < 5) continue; // warm-up: module loading, the first statements' plans
      const toolRounds = rounds.slice(0, -1).reduce((n, r) => n + (r.ended - r.received), 0);
      const modelTime = toolRounds + (answerRound.firstToken - answerRound.received);
      afterModel.push(firstToken - answerRound.firstToken);
      own.push(firstToken - started - modelTime);
      modelFirst.push(answerRound.firstToken - answerRound.received);
    }

    figure('ask_arb.requests', requests, 'questions');
    figure('ask_arb.first_token_after_model.p50', percentile(afterModel, 50), 'ms');
    figure('ask_arb.first_token_after_model.p95', percentile(afterModel, 95), 'ms');
    figure('ask_arb.own_time_to_first_token.p50', percentile(own, 50), 'ms');
    figure('ask_arb.own_time_to_first_token.p95', percentile(own, 95), 'ms');
    figure('reference.ask_arb.model_time_to_first_token.p95', percentile(modelFirst, 95), 'ms');
    figure('ask_arb.first_token_after_model.p95_vs_goal', percentile(afterModel, 95) / GOAL_MS, 'ratio');
    figure('ask_arb.own_time_to_first_token.p95_vs_goal', percentile(own, 95) / GOAL_MS, 'ratio');
  } finally {
    await server.close();
    await db.close();
    await llm.close();
  }
}

runBench(main);
