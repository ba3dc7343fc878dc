// The MCP server (server/mcp) through the real route on a real database (PGlite and PostgreSQL), called by the
// official SDK's client over Streamable HTTP and, through `scripts/mcp-stdio.ts` started as a process, over stdio:
// the six tools, each answering the key's organisation's data only (another organisation's key sees none of it, and
// its review is an error), the same figures as the dashboard's endpoints, bad arguments as tool errors, and the public
// API's refusals at the HTTP level: 401 without a valid key, 402 for a plan without the API, 429 past the key's rate.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type Stripe from 'stripe';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { applySubscription } from '@/server/billing/sync';
import { getDb } from '@/server/db/client';
import { startFakeLlm, type ChatBody, type FakeLlm } from '../fakes/llm';
import { startApiWorld, type ApiWorld } from '../helpers/apiWorld';
import { call } from '../helpers/request';
import { newOwner, type SignedInUser } from '../helpers/orgs';
import { appWith, type Seed } from '../helpers/seedReviews';
import { newApiKey } from './support/apiKeys';

const w = {} as ApiWorld;
const ENV = { TRUST_PROXY: '1', PUBLIC_API_RATE_PER_MINUTE: '1000' };
let llm: FakeLlm;
beforeAll(async () => {
  Object.assign(w, await startApiWorld(ENV));
  llm = await startFakeLlm();
}, 60_000);
afterAll(async () => {
  await w.close();
  await llm.close();
});

const TOOLS = ['get_review', 'list_apps', 'rating_stats', 'search_reviews', 'summarize_reviews', 'top_terms'];
const DAY_HOURS = 24;

const keyFor = async (owner: SignedInUser): Promise<string> => (await newApiKey(w.api, { token: owner.token }, 'assistant')).key;

const mcpUrl = () => new URL('/api/mcp', w.api.url);

async function connect(key: string | null): Promise<Client> {
  const client = new Client({ name: 'arb-test', version: '1.0.0' });
  const headers: Record<string, string> = key ? { Authorization: `Bearer ${key}` } : {};
  await client.connect(new StreamableHTTPClientTransport(mcpUrl(), { requestInit: { headers } }));
  return client;
}

type ToolAnswer = { isError?: boolean; content: Array<{ type: string; text?: string }> };
const textOf = (r: ToolAnswer) => r.content.map((c) => c.text ?? '').join('\n');

/** A tool's data: the JSON of its answer, which must not be an error. */
async function tool<T = Record<string, unknown>>(client: Client, name: string, args: Record<string, unknown> = {}): Promise<T> {
  const r = (await client.callTool({ name, arguments: args })) as ToolAnswer;
  expect(r.isError ?? false, textOf(r)).toBe(false);
  return JSON.parse(textOf(r)) as T;
}

/** A tool's error text: the answer must be an error. */
async function toolError(client: Client, name: string, args: Record<string, unknown>): Promise<string> {
  const r = (await client.callTool({ name, arguments: args })) as ToolAnswer;
  expect(r.isError, textOf(r)).toBe(true);
  return textOf(r);
}

/** A raw POST of an MCP initialize request, to read the HTTP answer itself. */
function initializeRaw(key: string | null) {
  const body = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
  const headers: Record<string, string> = { Accept: 'application/json, text/event-stream' };
  if (key) headers.Authorization = `Bearer ${key}`;
  return call(w.api, 'POST', '/api/mcp', body, { headers });
}

type Review = { id: string; app_key: string; content_body: string; content_rating: number };

// Org A's app: this month, 5 one-star reviews about crashes among 20; the month before, 30 five-star ones without.
const now = (i: number): Seed => (i < 5 ? { body: 'The app crashes every time I open it', rating: 1, hoursAgo: DAY_HOURS * (1 + i) } : { body: 'Love the calm design', rating: 5, hoursAgo: DAY_HOURS * (1 + (i % 25)) });
const before = (i: number): Seed => ({ body: 'Love the calm design', rating: 5, hoursAgo: DAY_HOURS * (32 + (i % 20)) });

const a = {} as { owner: SignedInUser; key: string; app: string; ids: string[] };
const b = {} as { owner: SignedInUser; key: string; app: string; ids: string[] };
const reviewIds = async (app: string) => (await (await getDb()).selectFrom('reviews').select('id').where('app_key', '=', app).execute()).map((r) => String(r.id));

beforeAll(async () => {
  a.owner = await newOwner('mcpa');
  a.app = await appWith(a.owner, 'apple_app_store', [...Array.from({ length: 20 }, (_, i) => now(i)), ...Array.from({ length: 30 }, (_, i) => before(i))]);
  a.key = await keyFor(a.owner);
  a.ids = await reviewIds(a.app);
  b.owner = await newOwner('mcpb');
  b.app = await appWith(b.owner, 'google_play_store', [{ body: 'Payments fail at checkout', rating: 2, hoursAgo: 30 }]);
  b.key = await keyFor(b.owner);
  b.ids = await reviewIds(b.app);
}, 60_000);

describe('over Streamable HTTP with the SDK client', () => {
  test('lists the six tools, each with its input schema', async () => {
    const client = await connect(a.key);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(TOOLS);
    const search = tools.find((t) => t.name === 'search_reviews')!;
    expect(Object.keys(search.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(['app', 'text', 'rating', 'country', 'from', 'to', 'limit', 'starting_after']));
    expect(tools.every((t) => t.annotations?.readOnlyHint === true)).toBe(true);
    await client.close();
  });

  test("list_apps, search_reviews and get_review answer the key's organisation's data only", async () => {
    const ca = await connect(a.key);
    const cb = await connect(b.key);
    expect((await tool<{ apps: Array<{ id: string }> }>(ca, 'list_apps')).apps.map((x) => x.id)).toEqual([a.app]);
    expect((await tool<{ apps: Array<{ id: string }> }>(cb, 'list_apps')).apps.map((x) => x.id)).toEqual([b.app]);

    const crashes = await tool<{ reviews: Review[]; has_more: boolean }>(ca, 'search_reviews', { text: 'crashes', limit: 100 });
    expect(crashes.reviews).toHaveLength(5);
    expect(crashes.reviews.every((r) => r.app_key === a.app && r.content_rating === 1)).toBe(true);
    expect((await tool<{ reviews: Review[] }>(ca, 'search_reviews', { app: a.app, rating: [1, 2], limit: 100 })).reviews).toHaveLength(5);

    // Pages of two, newest first, until has_more is false: every review once.
    const seen: string[] = [];
    let after: string | null = null;
    do {
      const page: { reviews: Review[]; next_starting_after: string | null } = await tool(ca, 'search_reviews', { text: 'crashes', limit: 2, ...(after ? { starting_after: after } : {}) });
      seen.push(...page.reviews.map((r) => r.id));
      after = page.next_starting_after;
    } while (after);
    expect(seen.sort()).toEqual(crashes.reviews.map((r) => r.id).sort());

    // The other organisation sees none of the first one's reviews, searched or listed.
    expect((await tool<{ reviews: Review[] }>(cb, 'search_reviews', { text: 'crashes' })).reviews).toEqual([]);
    const all = await tool<{ reviews: Review[] }>(cb, 'search_reviews', { limit: 100 });
    expect(all.reviews.map((r) => r.id)).toEqual(b.ids);
    expect(await toolError(cb, 'search_reviews', { app: a.app })).toContain('not an app of this API key');

    const one = await tool<Review>(ca, 'get_review', { review_id: crashes.reviews[0].id });
    expect(one).toMatchObject({ id: crashes.reviews[0].id, app_key: a.app, content_body: 'The app crashes every time I open it' });
    expect(await toolError(cb, 'get_review', { review_id: a.ids[0] })).toContain('not a review of this API key');
    await ca.close();
    await cb.close();
  });

  test('rating_stats and top_terms give the figures of the dashboard endpoints', async () => {
    const client = await connect(a.key);
    const stats = await tool<{ totals: { reviews: number }; distribution: Array<{ rating: number; reviews: number }> }>(client, 'rating_stats', { app: a.app, interval: 'week' });
    const dashboardStats = await call(w.api, 'GET', `/api/v1/org/apps/${a.app}/stats?interval=week`, undefined, { token: a.owner.token });
    expect(stats).toEqual(dashboardStats.json.data);
    expect(stats.totals.reviews).toBe(50);
    expect(stats.distribution.find((d) => d.rating === 1)?.reviews).toBe(5);

    type Terms = { rising: Array<{ term: string }>; critical: Array<{ term: string }>; falling: unknown[] };
    const terms = await tool<Terms>(client, 'top_terms', { app: a.app });
    const dashboardTerms = await call(w.api, 'GET', `/api/v1/org/apps/${a.app}/terms`, undefined, { token: a.owner.token });
    expect(terms).toEqual(dashboardTerms.json.data);
    expect(terms.rising.map((t) => t.term).join(' ')).toContain('crash');
    expect(terms.critical.map((t) => t.term).join(' ')).toContain('crash');

    const foreign = await connect(b.key);
    expect(await toolError(foreign, 'rating_stats', { app: a.app })).toContain('not in your organisation');
    expect(await toolError(foreign, 'top_terms', { app: a.app })).toContain('not in your organisation');
    await foreign.close();
    await client.close();
  });

  test('summarize_reviews: the extractive summary (no language model here), each citation a review of the app', async () => {
    const client = await connect(a.key);
    type Summary = { id: string; status: string; method: string; label: string; text: string; citations: string[] };
    const s = await tool<Summary>(client, 'summarize_reviews', { app: a.app });
    expect(s).toMatchObject({ status: 'ready', method: 'extractive', label: 'extractive summary' });
    expect(s.text).toContain('crashes');
    expect(s.citations.length).toBeGreaterThan(0);
    expect(s.citations.every((id) => a.ids.includes(id))).toBe(true);
    expect(await tool<Summary>(client, 'summarize_reviews', { app: a.app, summary_id: s.id })).toEqual(s);
    const foreign = await connect(b.key);
    expect(await toolError(foreign, 'summarize_reviews', { app: a.app, summary_id: s.id })).toContain('not in your organisation');
    await foreign.close();
    await client.close();
  });

  test('summarize_reviews with a language model: waits for the AI summary, its citations checked reviews of the app', async () => {
    w.setEnv({ ...ENV, LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'fake-model', LLM_MAX_RETRIES: '0', LLM_SENTIMENT_REVIEWS_PER_MINUTE: '0' });
    try {
      // The model cites the crash reviews it was given, and one id it invented.
      llm.respondWith((body: ChatBody) => {
        const user = body.messages.find((m) => m.role === 'user')!.content!;
        const given = JSON.parse(user.slice(user.indexOf('[', user.indexOf('Reviews (')))) as Array<{ id: string; text: string }>;
        const crashes = given.filter((g) => g.text.includes('crashes')).map((g) => g.id);
        const theme = { title: 'Crashes on open', summary: 'The app crashes at start.', review_ids: [...crashes, '99999999'] };
        return { text: JSON.stringify({ overview: 'Crashes are new this month.', themes: [theme], changes: 'Crashes appeared.' }) };
      });
      const client = await connect(a.key);
      const s = await tool<{ status: string; method: string; label: string; text: string; citations: string[] }>(client, 'summarize_reviews', { app: a.app });
      expect(s).toMatchObject({ status: 'ready', method: 'llm', label: 'AI summary' });
      expect(s.text).toContain('Crashes on open (5 of');
      expect(s.citations).toHaveLength(5);
      expect(s.citations.every((id) => a.ids.includes(id))).toBe(true);
      await client.close();
    } finally {
      w.setEnv();
    }
  });

  test('a bad argument is a tool error saying what to change, never a failure', async () => {
    const client = await connect(a.key);
    expect(await toolError(client, 'search_reviews', { rating: [7] })).toMatch(/rating/);
    expect(await toolError(client, 'search_reviews', { from: 'last tuesday' })).toContain('from must be a day (2026-05-01)');
    expect(await toolError(client, 'search_reviews', { from: '2026-05-02', to: '2026-05-01' })).toContain('from must not be after to');
    expect(await toolError(client, 'search_reviews', { starting_after: b.ids[0] })).toContain('starting_after');
    expect(await toolError(client, 'get_review', { review_id: 'abc' })).toContain('review_id must be a review id');
    expect(await toolError(client, 'rating_stats', { app: 'itunes__1' })).toContain('app must be an app id');
    expect(await toolError(client, 'rating_stats', { app: a.app, from: '2020-01-01', to: '2026-01-01' })).toContain('at most 366 days');
    expect(await toolError(client, 'top_terms', { app: a.app, from: '2026-02-30' })).toContain('not a day of the calendar');
    expect(await toolError(client, 'summarize_reviews', { app: a.app, summary_id: 'sum_nope' })).toContain('summary_id must be');
    await client.close();
  });
});

describe("the public API's refusals", () => {
  test('no key or a wrong key: 401 as the API answers it, and the SDK client cannot connect', async () => {
    const none = await initializeRaw(null);
    expect(none.status).toBe(401);
    expect(none.json.error).toMatchObject({ code: 'unauthorized', message: expect.stringContaining('Authorization: Bearer arb_') });
    const wrong = await initializeRaw(`arb_${'x'.repeat(40)}`);
    expect(wrong.status).toBe(401);
    await expect(connect(null)).rejects.toMatchObject({ code: 401 });
  });

  test('a plan without the API: 402 naming the plan that has it', async () => {
    const owner = await newOwner('mcpplan');
    const key = await keyFor(owner);
    w.setEnv({ ...ENV, STRIPE_SECRET_KEY: 'sk_test_mcp', STRIPE_PRICE_STARTUP: 'price_startup', STRIPE_PRICE_BUSINESS: 'price_business' });
    try {
      await applySubscription(owner.orgId, subscription('price_startup'));
      const refused = await initializeRaw(key);
      expect(refused.status).toBe(402);
      expect(refused.json.error).toMatchObject({ code: 'plan_limit', message: expect.stringContaining('Upgrade to Business') });
      await expect(connect(key)).rejects.toBeInstanceOf(StreamableHTTPError);
      await applySubscription(owner.orgId, subscription('price_business'));
      const client = await connect(key);
      expect((await tool<{ apps: unknown[] }>(client, 'list_apps')).apps).toEqual([]);
      await client.close();
    } finally {
      w.setEnv();
    }
  });

  test("past the key's rate: 429 with Retry-After, to the SDK client as well", async () => {
    const key = await keyFor(await newOwner('mcprate'));
    w.setEnv({ ...ENV, PUBLIC_API_RATE_PER_MINUTE: '3' });
    try {
      // initialize and notifications/initialized are two calls, tools/list the third: the fourth is refused.
      const client = await connect(key);
      expect((await client.listTools()).tools).toHaveLength(TOOLS.length);
      await expect(client.callTool({ name: 'list_apps', arguments: {} })).rejects.toMatchObject({ code: 429 });
      const raw = await initializeRaw(key);
      expect(raw.status).toBe(429);
      expect(Number(raw.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(raw.headers.get('x-ratelimit-remaining')).toBe('0');
      await client.close();
    } finally {
      w.setEnv();
    }
  });
});

describe('the stdio bridge (npm run mcp)', () => {
  const bridge = (key: string) =>
    new StdioClientTransport({
      command: 'npx',
      args: ['tsx', 'scripts/mcp-stdio.ts'],
      cwd: path.resolve(__dirname, '../..'),
      env: { ...(process.env as Record<string, string>), ARB_URL: w.api.url, ARB_API_KEY: key },
      stderr: 'pipe',
    });

  test('the same tools and answers as over HTTP', async () => {
    const client = new Client({ name: 'arb-stdio-test', version: '1.0.0' });
    await client.connect(bridge(a.key));
    try {
      expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(TOOLS);
      expect((await tool<{ apps: Array<{ id: string }> }>(client, 'list_apps')).apps.map((x) => x.id)).toEqual([a.app]);
      expect((await tool<{ reviews: Review[] }>(client, 'search_reviews', { text: 'crashes' })).reviews).toHaveLength(5);
    } finally {
      await client.close();
    }
  }, 60_000);

  test("a refused key: the client gets ARB's 401 as the answer, not a hang", async () => {
    const client = new Client({ name: 'arb-stdio-test', version: '1.0.0' });
    await expect(client.connect(bridge(`arb_${'y'.repeat(40)}`))).rejects.toThrow(/ARB answered 401: This API key is not valid/);
    await client.close();
  }, 60_000);
});

/** An active subscription to the plan with this price, as the payment provider describes it (the fields applied). */
function subscription(price: string): Stripe.Subscription {
  return {
    id: 'sub_mcp',
    status: 'active',
    customer: 'cus_mcp',
    items: { data: [{ price: { id: price }, current_period_end: Math.floor(Date.now() / 1000) + 30 * 86_400 }] },
    cancel_at_period_end: false,
  } as unknown as Stripe.Subscription;
}
