// Ask ARB's retrieval and figures at a million reviews, on PostgreSQL: 1,000,000 reviews over the 20 apps of one
// organisation (bench/support/millionReviews.ts, as the inbox bench loads them). Measured: the time of everything the
// server reads for one question — the question parsed (server/askArb/question.ts) and the tool calls a chat makes for
// it, one after the other, through `runAskTool` as the chat calls it (the tools of one question share their reads; the
// cache is emptied before each question) — p95 over the rotated questions below, after a warm-up. Goal: ≤ 150 ms. The reference of the same run: a bare `select 1` round trip on the same pool (p95), with
// the ratio to it, and the ratio to the goal. The plans of the heaviest statements (EXPLAIN ANALYZE) go to the log
// (tmp/bench-logs/ask-arb-retrieval.log). Not part of `npm test`; `npm run bench` runs it (loading takes most of the
// run: ~3–5 minutes on the 2-core machine). ASK_BENCH_REVIEWS=200000 for a quick look.
import { runBench } from './support/runBench';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { benchEnv, figure, logPlan, openBenchDb, percentile } from './support/engineBench';
import { benchAppKey, seedMillionReviews } from './support/millionReviews';

const APPS = 20;
const REVIEWS = Number(process.env.ASK_BENCH_REVIEWS ?? 1_000_000);
const ROUNDS = 20;
const WARMUP_ROUNDS = 2;
const GOAL_MS = 150;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arb-bench-ask-'));
benchEnv({ DATA_DIR: dataDir, NODE_ENV: 'test' });

const ORG_ID = 'org_benchaskarbABCDEFGHIJKLMNOP';
const USER_ID = 'usr_benchaskarb';

type Call = { tool: string; args: (parsed: { filters: Record<string, unknown>; topic?: string }) => Record<string, unknown> };
type Question = { text: string; app?: number; calls: Call[] };

const withTopic = (p: { filters: Record<string, unknown>; topic?: string }) => ({ ...p.filters, ...(p.topic ? { query: p.topic } : {}) });

/** Questions a chat gets, each with the tool calls answering it (what the computed answer makes; a model makes about as many). */
const QUESTIONS: Question[] = [
  {
    text: 'What do people say about login in the last 30 days?',
    calls: [
      { tool: 'search_reviews', args: withTopic },
      { tool: 'count_reviews', args: withTopic },
      { tool: 'rating_distribution', args: withTopic },
    ],
  },
  {
    text: 'How many 1-star reviews did we get last week?',
    calls: [
      { tool: 'count_reviews', args: (p) => p.filters },
      { tool: 'rating_trend', args: (p) => p.filters },
    ],
  },
  {
    text: 'What is the average rating of version 1.12 in Germany?',
    calls: [
      { tool: 'average_rating', args: (p) => p.filters },
    ],
  },
  {
    text: 'Show me reviews about dark mode',
    app: 3,
    calls: [
      { tool: 'search_reviews', args: withTopic },
      { tool: 'count_reviews', args: withTopic },
    ],
  },
  {
    text: 'What do people complain about most this month?',
    calls: [
      { tool: 'top_complaints', args: (p) => p.filters },
      { tool: 'rating_distribution', args: (p) => p.filters },
    ],
  },
  {
    text: 'Which reviews mention "rare1234" since 1 October, by country?',
    calls: [
      { tool: 'search_reviews', args: withTopic },
      { tool: 'ratings_by_country', args: withTopic },
    ],
  },
];

async function main() {
  const bench = await openBenchDb('postgres');
  try {
    const { sql } = await import('kysely');
    const started = performance.now();
    await bench.db.connection().execute(async (conn) => {
      await sql.raw(`set maintenance_work_mem = '256MB'`).execute(conn);
      await seedMillionReviews(conn, { orgId: ORG_ID, userId: USER_ID, apps: APPS, reviews: REVIEWS });
    });
    console.error(`postgres: ${REVIEWS} reviews inserted, indexed and analyzed in ${((performance.now() - started) / 1000).toFixed(1)} s`);

    const { parseQuestion } = await import('../server/askArb/question');
    const { clearAskReadCache, orgScope, runAskTool } = await import('../server/askArb/tools');
    const scope = await orgScope(ORG_ID);
    if (scope.apps.length !== APPS) throw new Error(`expected ${APPS} apps in the scope, got ${scope.apps.length}`);

    /** One question: parsed, then its tool calls one after the other; checks every call answered without an error. */
    async function ask(q: Question): Promise<number> {
      // Every question from the database: the reads one question's tools share are kept only for that question here.
      clearAskReadCache();
      const t0 = performance.now();
      const app = q.app === undefined ? undefined : scope.apps.find((a) => a.appId === benchAppKey(q.app!).split('__')[1]);
      const questionScope = app ? { orgId: null, apps: [app] } : scope;
      const parsed = parseQuestion(q.text, { scope: questionScope, now: new Date() });
      for (const call of q.calls) {
        const r = await runAskTool(call.tool, JSON.stringify(call.args(parsed as never)), questionScope);
        const error = (r.result as { error?: string }).error;
        if (error) throw new Error(`${q.text} → ${call.tool}: ${error}`);
      }
      return performance.now() - t0;
    }

    const perQuestion = new Map<string, number[]>(QUESTIONS.map((q) => [q.text, []]));
    const all: number[] = [];
    for (let round = 0; round < WARMUP_ROUNDS + ROUNDS; round++) {
      for (const q of QUESTIONS) {
        const ms = await ask(q);
        if (round >= WARMUP_ROUNDS) {
          all.push(ms);
          perQuestion.get(q.text)!.push(ms);
        }
      }
    }
    const select1: number[] = [];
    for (let i = 0; i < 200; i++) {
      const t0 = performance.now();
      await sql`select 1`.execute(bench.db);
      if (i >= 20) select1.push(performance.now() - t0);
    }

    const p95 = percentile(all, 95);
    const reference = percentile(select1, 95);
    figure('ask_arb_retrieval_question_p95_postgres', p95, 'ms');
    figure('ask_arb_retrieval_goal', GOAL_MS, 'ms');
    figure('ask_arb_retrieval_vs_goal_postgres', p95 / GOAL_MS, 'x');
    figure('ask_arb_retrieval_reference_select1_p95_postgres', reference, 'ms');
    figure('ask_arb_retrieval_vs_select1_postgres', p95 / reference, 'x');
    for (const [text, times] of perQuestion) console.error(`p95 ${percentile(times, 95).toFixed(1)} ms, median ${percentile(times, 50).toFixed(1)} ms: ${text}`);
    if (p95 > GOAL_MS) console.error(`postgres: a question's retrieval and figures p95 ${p95.toFixed(1)} ms is over its goal of ${GOAL_MS} ms`);

    // The plans behind the figure, for the log.
    const { askGroups, askGroupsQuery, searchReviews, newestReviews } = await import('../server/askArb/data');
    const { textQuery } = await import('../server/askArb/tools');
    const keys = scope.apps.map((a) => `${a.appStore}__${a.appId}`);
    const day = 86_400_000;
    const last30 = { from: new Date(Date.now() - 30 * day), toExclusive: new Date(Date.now() + day) };
    const login = textQuery('login')!.all;
    const timed = async (label: string, run: () => Promise<unknown>) => {
      const t0 = performance.now();
      await run();
      console.error(`\n--- ${label}: ${(performance.now() - t0).toFixed(1)} ms`);
    };
    await timed('search "login", 20 apps, last 30 days', () => searchReviews({ appKeys: keys, ...last30, tsquery: login }, 8, 1000));
    await timed('count "login", 20 apps, last 30 days', () => askGroups({ appKeys: keys, ...last30, tsquery: login }, 'none'));
    await timed('1–2★ newest 1000, 20 apps, last 30 days', () => newestReviews({ appKeys: keys, ...last30, ratings: [1, 2] }, 1000));
    const plans: Array<[string, import('kysely').RawBuilder<unknown>]> = [
      [
        'search candidates "login"',
        sql`select r.id from reviews r where r.app_key = any(${keys}::text[]) and r.updated_at >= ${last30.from} and r.search_vector @@ to_tsquery('simple', ${login}) order by r.updated_at desc, r.id desc limit 1000`,
      ],
      ['count "login"', sql`select count(*) from reviews r where r.app_key = any(${keys}::text[]) and r.updated_at >= ${last30.from} and r.search_vector @@ to_tsquery('simple', ${login})`],
      ['"rare1234" by country since 1 October', askGroupsQuery({ appKeys: keys, from: new Date('2026-10-01T00:00:00Z'), tsquery: textQuery('rare1234')!.all }, 'country')],
      ['1–2★ this month by rating', askGroupsQuery({ appKeys: keys, from: new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), 1)), ratings: [1, 2] }, 'rating')],
    ];
    for (const [label, statement] of plans) {
      await logPlan(bench.db, label, statement);
    }
  } finally {
    await bench.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

runBench(main);
