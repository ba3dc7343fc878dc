// Ask ARB's tools on a real database (PGlite and PostgreSQL): every figure checked against the seeded reviews, the
// full-text retrieval and its ranking, bad arguments answered as errors the model can read, and the scope: an app
// outside it is refused before any read, and another organisation's reviews are never returned.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ASK_TOOLS, ASK_TOOL_NAMES, orgScope, runAskTool, scopedReviews } from '@/server/askArb/tools';
import type { AskReview, AskScope } from '@/server/askArb/types';
import { startApiWorld, type ApiWorld } from '../helpers/apiWorld';
import { newOwner } from '../helpers/orgs';
import { appWith, type Seed } from '../helpers/seedReviews';

const at = (d: string) => new Date(`${d}T12:00:00Z`);
// March 2026: the 1st is a Sunday, so the weeks (Monday to Sunday) start on Feb 23, Mar 2 and Mar 9.
const MAIN: Seed[] = [
  { title: 'Cannot log in', body: 'Login fails every time', rating: 1, country: 'de', version: '2.3.1', at: at('2026-03-02'), textLanguage: 'de', sentiment: 'negative' },
  { body: 'Login works after the update, great', rating: 4, country: 'us', version: '2.3', at: at('2026-03-03'), sentiment: 'positive' },
  { body: 'Crashes on startup', rating: 1, country: 'us', version: '2.2', at: at('2026-03-03'), sentiment: 'negative' },
  { body: 'The app crashed when syncing my notes', rating: 2, country: 'de', version: '2.3', at: at('2026-03-05'), sentiment: 'negative' },
  { body: 'Love the dark mode', rating: 5, country: 'fr', version: '2.3', at: at('2026-03-09'), sentiment: 'positive' },
  { body: 'Dark mode is too dark for me', rating: 3, country: 'fr', version: '2.2', at: at('2026-03-10'), sentiment: 'neutral' },
  { body: 'Sync is slow and crashes', rating: 2, country: 'us', version: '2.3', at: at('2026-03-10'), sentiment: 'negative' },
  { title: 'Login login', body: 'Login broken again, login screen frozen', rating: 1, country: 'us', version: '2.3', at: at('2026-03-11'), sentiment: 'negative' },
  { body: 'Great app for my habits', rating: 5, country: 'gb', version: '2.4', at: at('2026-04-01'), sentiment: 'positive' },
];
const MARCH = { from: '2026-03-01', to: '2026-03-31' };

let w: ApiWorld;
let scope: AskScope;
let main: { appStore: 'apple_app_store'; appId: string };
let other: { appStore: 'google_play_store'; appId: string };
let foreignApp: { appStore: 'apple_app_store'; appId: string };
let foreignReviewIds: string[];
const split = (key: string) => key.split('__')[1];

beforeAll(async () => {
  w = await startApiWorld({});
  const owner = await newOwner();
  main = { appStore: 'apple_app_store', appId: split(await appWith(owner, 'apple_app_store', MAIN)) };
  other = { appStore: 'google_play_store', appId: split(await appWith(owner, 'google_play_store', [{ body: 'Login is fine here', rating: 5, at: at('2026-03-04') }])) };
  // Another organisation's app, with words the first one's questions look for.
  const stranger = await newOwner('stranger');
  const foreignKey = await appWith(stranger, 'apple_app_store', [
    { body: 'Login secret of another organisation', rating: 1, country: 'de', version: '2.3', at: at('2026-03-04') },
    { body: 'Crashes and login trouble elsewhere', rating: 1, country: 'us', version: '2.3', at: at('2026-03-06') },
  ]);
  foreignApp = { appStore: 'apple_app_store', appId: split(foreignKey) };
  const { getDb } = await import('@/server/db/client');
  foreignReviewIds = (await (await getDb()).selectFrom('reviews').select('id').where('app_key', '=', foreignKey).execute()).map((r) => String(r.id));
  scope = await orgScope(owner.orgId);
}, 60_000);
afterAll(() => w?.close());

type Result = Record<string, unknown> & { error?: string };
const run = async (name: string, args: Record<string, unknown>, s = scope) => {
  const r = await runAskTool(name, JSON.stringify(args), s);
  return { result: r.result as Result, reviews: r.reviews };
};
const bodies = (reviews: AskReview[]) => reviews.map((r) => r.body);

describe('the tools as the model sees them', () => {
  test('one JSON-Schema function per tool, filters named as the parsed question names them', () => {
    expect(ASK_TOOLS.map((t) => t.function.name)).toEqual(ASK_TOOL_NAMES);
    for (const t of ASK_TOOLS) {
      expect(t.type).toBe('function');
      expect(t.function.description).toBeTruthy();
      expect(t.function.parameters).toMatchObject({ type: 'object', additionalProperties: false });
      // A summary is of an app's days (server/insights): only apps and dates narrow it.
      const fields = t.function.name === 'summarize_period' ? ['apps', 'from', 'to'] : ['apps', 'from', 'to', 'version', 'country', 'ratings', 'language', 'sentiment'];
      expect(Object.keys((t.function.parameters as { properties: object }).properties)).toEqual(expect.arrayContaining(fields));
    }
  });
  test('the scope is the organisation’s apps, titled', () => {
    expect(scope.apps.map((a) => a.appId).sort()).toEqual([main.appId, other.appId].sort());
    expect(scope.apps.every((a) => a.title.startsWith('App '))).toBe(true);
  });
});

describe('figures, checked against the seeded reviews', () => {
  test('count and average over every app of the scope (the per-app counters) and over filters', async () => {
    expect((await run('count_reviews', {})).result).toMatchObject({ reviews: 10, average_rating: 2.9 });
    const march = await run('count_reviews', { apps: [main], ...MARCH });
    expect(march.result).toMatchObject({ reviews: 8, average_rating: 2.38, filters: { from: '2026-03-01', to: '2026-03-31' } });
    // A few of the newest as examples, citable.
    expect(bodies(march.reviews)).toEqual(['Login broken again, login screen frozen', 'Sync is slow and crashes', 'Dark mode is too dark for me']);
    expect((await run('average_rating', { apps: [main], ...MARCH, ratings: [1, 2] })).result).toMatchObject({ reviews: 5, average_rating: 1.4 });
    expect((await run('count_reviews', { apps: [main], ...MARCH, ratings: [1], country: 'DE' })).result).toMatchObject({ reviews: 1 });
    expect((await run('count_reviews', { country: 'us', ...MARCH })).result).toMatchObject({ reviews: 5 }); // the Play app's review is in the US too
  });
  test('version (with its sub-versions), language (the text’s), sentiment, query', async () => {
    expect((await run('count_reviews', { ...MARCH, version: '2.3' })).result).toMatchObject({ reviews: 6 }); // 2.3 and 2.3.1
    expect((await run('count_reviews', { ...MARCH, apps: [main], version: '2.3.1' })).result).toMatchObject({ reviews: 1 });
    expect((await run('count_reviews', { language: 'de' })).result).toMatchObject({ reviews: 1 });
    expect((await run('count_reviews', { sentiment: 'negative' })).result).toMatchObject({ reviews: 5 });
    expect((await run('count_reviews', { query: 'login' })).result).toMatchObject({ reviews: 4 });
    expect((await run('average_rating', { query: 'crashes', apps: [main] })).result).toMatchObject({ reviews: 3, average_rating: 1.67 });
  });
  test('rating distribution: every star, empty ones as 0', async () => {
    const r = await run('rating_distribution', { apps: [main], ...MARCH });
    expect(r.result.distribution).toEqual([
      { rating: 1, reviews: 3 },
      { rating: 2, reviews: 2 },
      { rating: 3, reviews: 1 },
      { rating: 4, reviews: 1 },
      { rating: 5, reviews: 1 },
    ]);
    expect((await run('rating_distribution', { apps: [main], from: '2026-04-01' })).result.distribution).toEqual([1, 2, 3, 4, 0].map((_, i) => ({ rating: i + 1, reviews: i === 4 ? 1 : 0 })));
  });
  test('trend by week and by day, quiet periods included', async () => {
    const week = await run('rating_trend', { apps: [main], from: '2026-03-01', to: '2026-03-15', interval: 'week' });
    expect(week.result.series).toEqual([
      { start: '2026-02-23', reviews: 0, average_rating: null },
      { start: '2026-03-02', reviews: 4, average_rating: 2 },
      { start: '2026-03-09', reviews: 4, average_rating: 2.75 },
    ]);
    const days = await run('rating_trend', { apps: [main], from: '2026-03-02', to: '2026-03-04' });
    expect(days.result).toMatchObject({ interval: 'day', reviews: 3 });
    expect(days.result.series).toEqual([
      { start: '2026-03-02', reviews: 1, average_rating: 1 },
      { start: '2026-03-03', reviews: 2, average_rating: 2.5 },
      { start: '2026-03-04', reviews: 0, average_rating: null },
    ]);
    // Without dates: the last 30 days, ending today.
    const recent = await run('rating_trend', {});
    expect((recent.result.series as unknown[]).length).toBe(30);
  });
  test('by version and by country, most reviewed first', async () => {
    expect((await run('ratings_by_version', { apps: [main], ...MARCH })).result.by_version).toEqual([
      { version: '2.3', reviews: 5, average_rating: 2.8 },
      { version: '2.2', reviews: 2, average_rating: 2 },
      { version: '2.3.1', reviews: 1, average_rating: 1 },
    ]);
    expect((await run('ratings_by_country', { apps: [main], ...MARCH })).result.by_country).toEqual([
      { country: 'US', reviews: 4, average_rating: 2 },
      expect.objectContaining({ reviews: 2 }),
      expect.objectContaining({ reviews: 2 }),
    ]);
  });
});

describe('reviews about a topic', () => {
  test('ranked: the review using the words most comes first; every match, and only matches', async () => {
    const r = await run('search_reviews', { query: 'login' });
    expect(r.reviews.map((x) => x.body)).toHaveLength(4);
    expect(r.reviews[0].body).toBe('Login broken again, login screen frozen');
    expect(r.result).toMatchObject({ matching_reviews: 4, match: 'all_words', order: 'best match first' });
    expect(new Set(bodies(r.reviews))).toEqual(new Set(['Login broken again, login screen frozen', 'Login fails every time', 'Login works after the update, great', 'Login is fine here']));
    // What the model reads is the same reviews, by id.
    expect((r.result.reviews as Array<{ id: string }>).map((x) => x.id)).toEqual(r.reviews.map((x) => x.id));
  });
  test('a citation carries the review as the answer shows it', async () => {
    const r = await run('search_reviews', { query: 'fails', apps: [main] });
    expect(r.reviews[0]).toMatchObject({
      app_store: 'apple_app_store',
      app_id: main.appId,
      rating: 1,
      title: 'Cannot log in',
      body: 'Login fails every time',
      date: '2026-03-02T12:00:00.000Z',
      country: 'DE',
      version: '2.3.1',
      language: 'de',
      permalink: `https://apps.apple.com/app/id${main.appId}`,
    });
    expect(r.reviews[0].id).toMatch(/^\d+$/);
  });
  test('word forms: "crashes" finds crash, crashed, crashes', async () => {
    const r = await run('search_reviews', { query: 'crashes', apps: [main] });
    expect(new Set(bodies(r.reviews))).toEqual(new Set(['Crashes on startup', 'The app crashed when syncing my notes', 'Sync is slow and crashes']));
  });
  test('every word first; one of them when no review has them all', async () => {
    expect(bodies((await run('search_reviews', { query: 'dark mode' })).reviews).sort()).toEqual(['Dark mode is too dark for me', 'Love the dark mode']);
    const either = await run('search_reviews', { query: 'frozen startup' });
    expect(either.result.match).toBe('any_word');
    expect(bodies(either.reviews).sort()).toEqual(['Crashes on startup', 'Login broken again, login screen frozen']);
  });
  test('with filters, and without words the newest of the filters', async () => {
    expect(bodies((await run('search_reviews', { query: 'login', ratings: [1], country: 'de' })).reviews)).toEqual(['Login fails every time']);
    const newest = await run('search_reviews', { apps: [main], limit: 2 });
    expect(newest.result.order).toBe('newest first');
    expect(bodies(newest.reviews)).toEqual(['Great app for my habits', 'Login broken again, login screen frozen']);
  });
  test('nothing found: an empty list, not an error', async () => {
    const r = await run('search_reviews', { query: 'teleportation' });
    expect(r.result).toMatchObject({ matching_reviews: 0, reviews: [] });
    expect(r.reviews).toEqual([]);
  });
});

describe('a text query read either way', () => {
  test('from the GIN index alone (rare words) or with the other indexes: the same figures and reviews', async () => {
    const { askGroups, searchReviews } = await import('@/server/askArb/data');
    const { textQuery } = await import('@/server/askArb/question');
    const appKeys = scope.apps.map((a) => `${a.appStore}__${a.appId}`);
    for (const words of ['login', 'crashes', 'dark mode']) {
      const q = { appKeys, from: new Date('2026-03-01T00:00:00Z'), toExclusive: new Date('2026-04-01T00:00:00Z'), tsquery: textQuery(words)!.all };
      const sorted = (rows: Array<{ key: string | null }>) => [...rows].sort((a, b) => String(a.key).localeCompare(String(b.key)));
      expect(sorted(await askGroups({ ...q, rare: true }, 'country')), words).toEqual(sorted(await askGroups({ ...q, rare: false }, 'country')));
      const rare = await searchReviews({ ...q, rare: true }, 20, 1000);
      const common = await searchReviews({ ...q, rare: false }, 20, 1000);
      expect(rare.rows.map((r) => r.id), words).toEqual(common.rows.map((r) => r.id));
      expect(sorted(rare.groups)).toEqual(sorted(common.groups));
      expect(rare.rows.length).toBeGreaterThan(0);
    }
  });
});

describe('most frequent complaints', () => {
  test('the terms of 1–2★ reviews, each with its count and cited examples', async () => {
    const r = await run('top_complaints', { apps: [main], ...MARCH });
    expect(r.result).toMatchObject({ low_rated_reviews_read: 5, filters: { ratings: [1, 2] } });
    const terms = r.result.terms as Array<{ term: string; reviews: number; example_review_ids: string[] }>;
    expect(terms.find((t) => t.term === 'login')).toMatchObject({ reviews: 2 });
    // "crashes" with its word forms ("crashed" too: server/insights/terms.ts groups them).
    expect(terms.find((t) => t.term === 'crashes')).toMatchObject({ reviews: 3 });
    // Every example id is a returned (citable) review, and a 1–2★ one.
    const ids = new Set(r.reviews.map((x) => x.id));
    for (const t of terms) for (const id of t.example_review_ids) expect(ids.has(id)).toBe(true);
    expect(r.reviews.every((x) => x.rating <= 2)).toBe(true);
  });
  test('asked for 5★ complaints: said why not', async () => {
    expect((await run('top_complaints', { ratings: [5] })).result.error).toMatch(/1–2 star/);
  });
});

describe('scope', () => {
  test('an app outside the scope is refused, never read', async () => {
    for (const name of ASK_TOOL_NAMES) {
      const r = await run(name, { apps: [foreignApp], ...(name === 'search_reviews' ? { query: 'login' } : {}) });
      expect(r.result.error, name).toMatch(/not one of the apps this chat may read/);
      expect(r.reviews).toEqual([]);
    }
    // Also when named beside an app of the scope.
    expect((await run('count_reviews', { apps: [main, foreignApp] })).result.error).toMatch(/not one of the apps/);
  });
  test('another organisation’s reviews are never counted or returned', async () => {
    expect((await run('search_reviews', { query: 'secret' })).reviews).toEqual([]);
    expect((await run('search_reviews', { query: 'elsewhere' })).reviews).toEqual([]);
    const all = [
      ...(await run('search_reviews', { query: 'login', limit: 20 })).reviews,
      ...(await run('top_complaints', {})).reviews,
      ...(await run('count_reviews', { query: 'login' })).reviews,
    ];
    expect(all.some((r) => foreignReviewIds.includes(r.id))).toBe(false);
    expect((await run('count_reviews', { query: 'login', ...MARCH })).result).toMatchObject({ reviews: 4 });
    expect(await scopedReviews(scope, foreignReviewIds)).toEqual([]);
  });
  test('a visitor’s scope is the one app', async () => {
    const visitor: AskScope = { orgId: null, apps: [{ ...other, title: 'Notes' }] };
    expect((await run('count_reviews', {}, visitor)).result).toMatchObject({ reviews: 1 });
    expect((await run('count_reviews', { apps: [main] }, visitor)).result.error).toMatch(/not one of the apps/);
    expect((await run('count_reviews', {}, { orgId: null, apps: [] })).result.error).toMatch(/no apps/);
  });
});

describe('bad arguments: an error the model can read, never a throw', () => {
  test.each([
    ['count_reviews', '{not json', /not valid JSON/],
    ['count_reviews', JSON.stringify({ ratings: [7] }), /ratings/],
    ['count_reviews', JSON.stringify({ from: '2026-02-30' }), /from: not a real date/],
    ['count_reviews', JSON.stringify({ from: 'last week' }), /YYYY-MM-DD/],
    ['count_reviews', JSON.stringify({ from: '2026-03-10', to: '2026-03-01' }), /on or before/],
    ['count_reviews', JSON.stringify({ country: 'Germany' }), /country/],
    ['count_reviews', JSON.stringify({ drop_table: true }), /drop_table/],
    ['count_reviews', JSON.stringify({ query: '!!!' }), /no word to search for/],
    ['rating_trend', JSON.stringify({ from: '2020-01-01', to: '2026-01-01' }), /at most 366/],
    ['search_reviews', JSON.stringify({ query: 'x', limit: 500 }), /limit/],
    ['delete_reviews', '{}', /no tool "delete_reviews"/],
  ])('%s %s', async (name, args, message) => {
    const r = await runAskTool(name, args, scope);
    expect((r.result as Result).error).toMatch(message);
    expect(r.reviews).toEqual([]);
  });
  test('an empty argument string is no filters', async () => {
    expect(((await runAskTool('count_reviews', '', scope)).result as Result).reviews).toBe(10);
  });
  test('a query with tsquery syntax is words, not syntax', async () => {
    const r = await run('search_reviews', { query: "login:* & !crash | ('" });
    expect(r.result.error).toBeUndefined();
    expect(r.reviews.length).toBeGreaterThan(0);
  });
});
