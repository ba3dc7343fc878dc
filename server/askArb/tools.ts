/**
 * The tools Ask ARB's model may call, and the same tools for the answers computed without a model: counts, the average
 * rating, the 1–5 distribution, the trend by day or week, the figures by version and by country, reviews about a
 * topic (full-text, ranked) and the most frequent complaints (the terms of 1–2★ reviews). All read-only.
 *
 * `runAskTool(name, argsJson, scope)` never throws: arguments that are not JSON, fail the schema, name an app outside
 * the scope (refused before any read) or a tool that does not exist, and a failed read, all come back as
 * `{ result: { error } }` the model can read and correct. The arguments are the question's filters (`AskFilters`, as
 * parseQuestion gives them) plus the tool's own (`query`, `interval`, `limit`), so the computed answers pass the
 * parsed filters as they are.
 */
import { z } from 'zod';
import { createLoadingCache } from '../apps/cache';
import type { ToolDefinition } from '../ai/llm/client';
import { log } from '../log';
import { appKey, storeUrlOf } from '../monitor/apps';
import { countTerms, compareTerms, type TermCounts } from '../insights/terms';
import { dayOf, type StatsInterval } from '../stats/buckets';
import { composeSummary, SUMMARY_DEFAULT_DAYS } from '../insights/summaries';
import { periodsOf, type Periods } from '../insights/period';
import { shapeStats } from '../stats/appStats';
import type { StatsGroupRow } from '../stats/data';
import { askGroups, fewTextMatches, newestReviews, orgScopeApps, reviewsByIds, searchReviews, versionSpans, type AskGroup, type AskGroupRow, type AskQuery, type AskReviewRow, type AskVersionRow } from './data';
import { textQuery } from './question';
import type { AskReview, AskScope, AskStore, AskToolResult } from './types';

export { textQuery };

const DAY_MS = 86_400_000;
/** Reviews a search ranks: its newest matches (see searchReviews). */
export const SEARCH_CANDIDATES = 1000;
/** 1–2★ reviews read for the complaints: the newest (counting their terms costs ~20 µs of CPU a review). */
export const COMPLAINTS_MAX_REVIEWS = 400;
/** Reviews a search returns at most, and by default. */
const SEARCH_MAX = 20;
const SEARCH_DEFAULT = 8;
/** The longest trend: a year by day, three by week. */
const TREND_MAX_PERIODS = 366;
/** A review's text as the model reads it: enough to quote, not a whole essay. */
const BODY_CHARS_FOR_MODEL = 600;

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a date as YYYY-MM-DD').refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && dayOf(new Date(`${s}T00:00:00Z`)) === s, 'not a real date');

const filterFields = {
  apps: z
    .array(z.object({ appStore: z.enum(['apple_app_store', 'google_play_store']), appId: z.string().min(1).max(200) }).strict())
    .max(50)
    .optional()
    .describe('Only these apps (each must be one of the apps of this chat). Leave out for all of them.'),
  from: day.optional().describe('First day, YYYY-MM-DD (UTC), included.'),
  to: day.optional().describe('Last day, YYYY-MM-DD (UTC), included.'),
  version: z.string().trim().min(1).max(40).optional().describe('App version; "2.3" also matches 2.3.1 and so on.'),
  country: z.string().regex(/^[A-Za-z]{2}$/, 'an ISO 3166 two-letter country code').optional().describe('ISO 3166 two-letter country code, e.g. DE.'),
  ratings: z.array(z.number().int().min(1).max(5)).min(1).max(5).optional().describe('Star ratings to include, e.g. [1, 2].'),
  language: z.string().regex(/^[A-Za-z]{2,3}([-_][A-Za-z]{2,4})?$/, 'an ISO 639-1 language code').optional().describe('Language of the review text, ISO 639-1, e.g. de.'),
  sentiment: z.enum(['positive', 'neutral', 'negative', 'mixed']).optional(),
};
const query = z.string().trim().min(1).max(200);

const SCHEMAS = {
  count_reviews: z.object({ ...filterFields, query: query.optional().describe('Only reviews using these words.') }).strict(),
  average_rating: z.object({ ...filterFields, query: query.optional().describe('Only reviews using these words.') }).strict(),
  rating_distribution: z.object({ ...filterFields, query: query.optional() }).strict(),
  rating_trend: z.object({ ...filterFields, query: query.optional(), interval: z.enum(['day', 'week']).optional().describe('Default: day.') }).strict(),
  ratings_by_version: z.object({ ...filterFields, query: query.optional() }).strict(),
  ratings_by_country: z.object({ ...filterFields, query: query.optional() }).strict(),
  search_reviews: z
    .object({
      ...filterFields,
      query: query.optional().describe('Words the reviews should use, e.g. "login" or "dark mode". Leave out for the newest reviews of the filters.'),
      limit: z.number().int().min(1).max(SEARCH_MAX).optional().describe(`How many reviews (default ${SEARCH_DEFAULT}, at most ${SEARCH_MAX}).`),
    })
    .strict(),
  top_complaints: z.object({ ...filterFields, limit: z.number().int().min(1).max(20).optional().describe('How many terms (default 10).') }).strict(),
  compare_versions: z
    .object({
      ...filterFields,
      newer: z.string().trim().min(1).max(40).optional().describe('The version to compare (default: the newest version with reviews).'),
      older: z.string().trim().min(1).max(40).optional().describe('The version to compare it with (default: the one before it).'),
    })
    .strict(),
  summarize_period: z.object({ apps: filterFields.apps, from: filterFields.from, to: filterFields.to }).strict(),
} as const;

export type AskToolName = keyof typeof SCHEMAS;
export const ASK_TOOL_NAMES = Object.keys(SCHEMAS) as AskToolName[];

const DESCRIPTIONS: Record<AskToolName, string> = {
  count_reviews: 'Count the stored reviews matching the filters (and their average rating), with a few of the newest as examples.',
  average_rating: 'The average star rating (1–5) of the stored reviews matching the filters, and how many there are.',
  rating_distribution: 'How many reviews of each star rating (1–5) match the filters.',
  rating_trend: 'Reviews and average rating per day or per week over the filtered dates (default: the last 30 days).',
  ratings_by_version: 'Reviews and average rating per app version.',
  ratings_by_country: 'Reviews and average rating per country.',
  search_reviews: 'Find reviews about a topic (full-text, best matches first) or the newest reviews of the filters. The reviews returned may be cited by id.',
  top_complaints: 'The most frequent words and phrases of 1–2 star reviews matching the filters, each with how many reviews use it and example reviews.',
  compare_versions:
    'Compare two app versions: the newest version with reviews and the one before it (or the versions named), each with its reviews, average rating, share of 1–2 star reviews and the days its reviews are dated, and example reviews. For "since the last version" / "since the update".',
  summarize_period: `The summary of each app's reviews over the days (default the last ${SUMMARY_DEFAULT_DAYS}) against the same number of days before: reviews, average rating and its change, ratings 1–5, versions, rising, falling and most mentioned terms, and representative quotes (review ids). Only apps and dates apply.`,
};

/** The tools as the LLM client takes them; their parameters are the zod schemas above, as JSON Schema. */
export const ASK_TOOLS: ToolDefinition[] = ASK_TOOL_NAMES.map((name) => {
  const { $schema: _drop, ...parameters } = z.toJSONSchema(SCHEMAS[name], { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return { type: 'function', function: { name, description: DESCRIPTIONS[name], parameters } };
});

type Filters = z.infer<typeof SCHEMAS.count_reviews>;

const refusal = (error: string): AskToolResult => ({ result: { error }, reviews: [] });

/** The filters as a read over the scope's apps, or an error naming what was wrong. */
function toQuery(f: Filters, scope: AskScope): { q: AskQuery; apps: AskScope['apps'] } | { error: string } {
  const inScope = new Map(scope.apps.map((a) => [appKey({ store: a.appStore, appId: a.appId }), a]));
  let apps = scope.apps;
  if (f.apps?.length) {
    const outside = f.apps.filter((a) => !inScope.has(appKey({ store: a.appStore, appId: a.appId })));
    if (outside.length) {
      const allowed = scope.apps.map((a) => `${a.title} (${a.appStore} ${a.appId})`).join(', ') || 'none';
      return { error: `Not allowed: ${outside.map((a) => `${a.appStore} ${a.appId}`).join(', ')} is not one of the apps this chat may read (${allowed}).` };
    }
    apps = f.apps.map((a) => inScope.get(appKey({ store: a.appStore, appId: a.appId }))!);
  }
  if (!apps.length) return { error: 'No app to read: this chat has no apps.' };
  if (f.from && f.to && f.from > f.to) return { error: '"from" must be on or before "to".' };
  const q: AskQuery = {
    appKeys: apps.map((a) => appKey({ store: a.appStore, appId: a.appId })),
    from: f.from ? new Date(`${f.from}T00:00:00Z`) : undefined,
    toExclusive: f.to ? new Date(Date.parse(`${f.to}T00:00:00Z`) + DAY_MS) : undefined,
    ratings: f.ratings ? [...new Set(f.ratings)].sort() : undefined,
    country: f.country?.toLowerCase(),
    version: f.version,
    language: f.language?.toLowerCase().split(/[-_]/)[0],
    sentiment: f.sentiment,
  };
  if (f.query) {
    const tsq = textQuery(f.query, q.language);
    if (!tsq) return { error: `"${f.query}" has no word to search for: name a word the reviews would use.` };
    q.tsquery = tsq.all;
  }
  return { q, apps };
}

/** The applied filters, for the model to read back (and quote in its answer). */
function filtersJson(f: Filters, apps: AskScope['apps']) {
  return {
    apps: apps.map((a) => ({ title: a.title, app_store: a.appStore, app_id: a.appId })),
    from: f.from ?? null,
    to: f.to ?? null,
    ...(f.version ? { version: f.version } : {}),
    ...(f.country ? { country: f.country.toUpperCase() } : {}),
    ...(f.ratings ? { ratings: f.ratings } : {}),
    ...(f.language ? { language: f.language.toLowerCase() } : {}),
    ...(f.sentiment ? { sentiment: f.sentiment } : {}),
    ...(f.query ? { query: f.query } : {}),
  };
}

export function askReview(r: AskReviewRow): AskReview {
  const store = r.store as AskStore;
  return {
    id: r.id,
    app_store: store,
    app_id: r.app_id,
    author: r.author_name || null,
    rating: r.rating,
    title: r.title,
    body: r.body,
    date: new Date(r.updated_at).toISOString(),
    country: r.country ? r.country.toUpperCase() : null,
    version: r.app_version,
    language: r.language,
    permalink: r.permalink ?? storeUrlOf({ store, app_id: r.app_id, store_url: r.store_url }),
  };
}

/** A review as the model reads it: data to count and quote, its text cut to BODY_CHARS_FOR_MODEL. */
const forModel = (r: AskReview) => ({
  id: r.id,
  rating: r.rating,
  date: r.date.slice(0, 10),
  title: r.title,
  text: [...r.body].length > BODY_CHARS_FOR_MODEL ? `${[...r.body].slice(0, BODY_CHARS_FOR_MODEL).join('')}…` : r.body,
  country: r.country,
  version: r.version,
  language: r.language,
  app_store: r.app_store,
  app_id: r.app_id,
});

const average = (sum: number, n: number) => (n ? Math.round((sum / n) * 100) / 100 : null);
const total = (rows: AskGroupRow[]) => {
  const reviews = rows.reduce((n, r) => n + r.reviews, 0);
  return { reviews, average_rating: average(rows.reduce((n, r) => n + r.rating_sum, 0), reviews) };
};

/** Grouped rows in server/stats' shape, so its shaping (the 1–5 scale, the series without gaps, "N other versions") is reused. */
function asStatsRows(rows: AskGroupRow[], dim: StatsGroupRow['dim']): StatsGroupRow[] {
  return rows.map((r) => ({
    dim,
    period: dim === 'period' ? r.key : null,
    rating: dim === 'rating' ? Number(r.key) : null,
    version: dim === 'version' ? r.key : null,
    country: dim === 'country' ? r.key : null,
    reviews: r.reviews,
    rating_sum: r.rating_sum,
    positive: 0,
    neutral: 0,
    negative: 0,
    mixed: 0,
    unclassified: 0,
  }));
}

const today = () => {
  const n = new Date();
  return new Date(Date.UTC(n.getUTCFullYear(), n.getUTCMonth(), n.getUTCDate()));
};

/**
 * The reads of one filter, kept for a few seconds: the tools a chat calls for one question read the same filter
 * (a count, its distribution and the matching reviews), so the statements run once per question, not once per tool.
 * The key is the whole read, the scope's app keys included; a review stored meanwhile shows up after READ_CACHE_MS.
 */
const READ_CACHE_MS = 30_000;
const queryKey = (q: AskQuery) => JSON.stringify([q.appKeys, q.from, q.toExclusive, q.ratings, q.country, q.version, q.language, q.sentiment, q.tsquery, q.rare]);
const groupsCache = createLoadingCache<AskGroupRow[], { q: AskQuery; group: AskGroup }>({ ttlMs: READ_CACHE_MS, max: 500, load: ({ q, group }) => askGroups(q, group) });
type Matches = { groups: AskGroupRow[]; rows: AskReviewRow[] };
const matchesCache = createLoadingCache<Matches, AskQuery & { tsquery: string }>({ ttlMs: READ_CACHE_MS, max: 200, load: (q) => searchReviews(q, SEARCH_MAX, SEARCH_CANDIDATES) });

/** Empties the reads kept for a question (the bench measures every question from the database). */
export function clearAskReadCache(): void {
  groupsCache.clear();
  matchesCache.clear();
  rarityCache.clear();
}

/** A text query with at most this many matches in the whole table is read from the GIN index alone (AskQuery.rare). */
const RARE_TEXT_MATCHES = 2000;
const rarityCache = createLoadingCache<{ rare: boolean }, string>({ ttlMs: READ_CACHE_MS, max: 500, load: async (tsq) => ({ rare: await fewTextMatches(tsq, RARE_TEXT_MATCHES) }) });

/** `q` with its text query's rarity known. */
async function withRarity<Q extends AskQuery>(q: Q): Promise<Q> {
  return q.tsquery ? { ...q, rare: (await rarityCache.load(q.tsquery, q.tsquery)).rare } : q;
}

const matches = async (q: AskQuery & { tsquery: string }) => {
  const read = await withRarity(q);
  return matchesCache.load(queryKey(read), read);
};
const groups = async (q: AskQuery, group: AskGroup) => {
  const read = await withRarity(q);
  return groupsCache.load(`${group}:${queryKey(read)}`, { q: read, group });
};

/** Count and rating sum of the filter per star (a count is their sum); a text filter's come with its best matches. */
const byRating = async (q: AskQuery): Promise<AskGroupRow[]> => (q.tsquery ? (await matches({ ...q, tsquery: q.tsquery })).groups : groups(q, 'rating'));

/** The rows a count sums: with no filter but the apps, the per-app counters (no review is read); else per star. */
async function totals(q: AskQuery): Promise<AskGroupRow[]> {
  const onlyApps = !q.from && !q.toExclusive && !q.ratings?.length && !q.country && !q.version && !q.language && !q.sentiment && !q.tsquery;
  return onlyApps ? groups(q, 'none') : byRating(q);
}

/**
 * Best matches of the words (every word; one of them when no review uses them all) with how many reviews match, or
 * the newest of the filters.
 */
async function findReviews(f: Filters, q: AskQuery, limit: number): Promise<{ rows: AskReviewRow[]; matched: number | null; match: 'all_words' | 'any_word' | null }> {
  if (!f.query) return { rows: await newestReviews(q, limit), matched: null, match: null };
  const tsq = textQuery(f.query, q.language)!;
  let found = await matches({ ...q, tsquery: tsq.all });
  let match: 'all_words' | 'any_word' = 'all_words';
  if (!found.rows.length && tsq.words.length > 1) {
    found = await matches({ ...q, tsquery: tsq.any });
    match = 'any_word';
  }
  return { rows: found.rows.slice(0, limit), matched: total(found.groups).reviews, match };
}

type Run = (f: Filters & Record<string, unknown>, q: AskQuery, applied: ReturnType<typeof filtersJson>) => Promise<AskToolResult>;

const groupedTool =
  (group: AskGroup, shape: (rows: AskGroupRow[], f: Filters & Record<string, unknown>) => Record<string, unknown>): Run =>
  async (f, q, applied) => {
    const rows = group === 'rating' ? await byRating(q) : await groups(q, group);
    return { result: { filters: applied, ...shape(rows, f) }, reviews: [] };
  };

const countTool: Run = async (f, q, applied) => {
  const [rows, examples] = await Promise.all([totals(q), findReviews(f, q, 3)]);
  const reviews = examples.rows.map(askReview);
  return { result: { filters: applied, ...total(rows), examples: reviews.map(forModel) }, reviews };
};

/** Version strings in release order: numerically part by part ("1.10" after "1.9"), then as text. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split(/[^0-9]+/).filter(Boolean).map(Number);
  const pb = b.split(/[^0-9]+/).filter(Boolean).map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? -1) - (pb[i] ?? -1);
    if (d) return d;
  }
  return a.localeCompare(b);
}

const versionJson = (v: AskVersionRow) => ({
  version: v.version,
  reviews: v.reviews,
  average_rating: average(v.rating_sum, v.reviews),
  low_rated_reviews: v.low,
  low_rated_share: v.reviews ? Math.round((v.low / v.reviews) * 100) / 100 : null,
  first_review_day: dayOf(v.first),
  last_review_day: dayOf(v.last),
});

/** Stored versions are compared whole ("5.2.0" with "5.1.3"); a named version is found as written, else by its number. */
const findVersion = (rows: AskVersionRow[], name: string) => rows.find((r) => r.version === name) ?? rows.find((r) => compareVersions(r.version, name) === 0 || r.version.startsWith(`${name}.`));

/** Apps one version question compares at most (versions are each app's own: 5.2.0 of one app is not another's). */
const VERSION_MAX_APPS = 5;

const compareVersionsRun: Run = async (f, q, applied) => {
  const all = await versionSpans({ ...q, version: undefined });
  const comparisons = [];
  const reviews: AskReview[] = [];
  for (const app of applied.apps.slice(0, VERSION_MAX_APPS)) {
    const key = appKey({ store: app.app_store, appId: app.app_id });
    const rows = all.filter((r) => r.app_key === key).sort((a, b) => compareVersions(b.version, a.version));
    if (!rows.length) continue;
    const newer = f.newer ? findVersion(rows, f.newer as string) : rows[0];
    if (!newer) continue;
    const older = f.older ? findVersion(rows, f.older as string) : rows.find((r) => compareVersions(r.version, newer.version) < 0);
    const one = { ...q, appKeys: [key] };
    const [nowExamples, beforeExamples] = await Promise.all([newestReviews({ ...one, version: newer.version }, 3), older ? newestReviews({ ...one, version: older.version }, 2) : Promise.resolve([])]);
    const examples = [...nowExamples, ...beforeExamples].map(askReview);
    reviews.push(...examples);
    const a = versionJson(newer);
    const b = older ? versionJson(older) : null;
    comparisons.push({
      app: app.title,
      newer: a,
      older: b,
      ...(b && a.average_rating !== null && b.average_rating !== null ? { average_rating_change: Math.round((a.average_rating - b.average_rating) * 100) / 100 } : {}),
      ...(older ? {} : { note: `${newer.version} is the only version with reviews.` }),
      versions_with_reviews: rows.length,
    });
  }
  if (!comparisons.length) return refusal(f.newer ? `No review names version ${String(f.newer)}.` : 'No review of these filters names its app version.');
  return {
    result: {
      filters: applied,
      comparisons,
      ...(applied.apps.length > VERSION_MAX_APPS ? { note: `the first ${VERSION_MAX_APPS} of ${applied.apps.length} apps: name an app for its own` } : {}),
      examples: reviews.map(forModel),
    },
    reviews,
  };
};

/** Apps one summary question covers at most (each reads two periods of reviews); the result says when there were more. */
export const SUMMARY_MAX_APPS = 3;

/** The insights' summary (server/insights/summaries.ts, extractive: no model) of each app, its quotes citable. */
const summarizeRun: Run = async (f, q, applied) => {
  let periods: Periods;
  try {
    periods = periodsOf({ from: f.from ? new Date(`${f.from}T00:00:00Z`) : undefined, to: f.to ? new Date(`${f.to}T00:00:00Z`) : undefined }, new Date(), SUMMARY_DEFAULT_DAYS);
  } catch (err) {
    return refusal((err as Error).message);
  }
  const apps = applied.apps.slice(0, SUMMARY_MAX_APPS);
  const summaries = await Promise.all(apps.map((a) => composeSummary({ key: appKey({ store: a.app_store, appId: a.app_id }), title: a.title, store: a.app_store }, periods, { orgId: null, model: false })));
  const ids = [...new Set(summaries.flatMap((s) => s.content.quotes.map((x) => x.review_id)))];
  const reviews = (await reviewsByIds(q.appKeys, ids)).map(askReview);
  return {
    result: {
      filters: { ...applied, from: dayOf(periods.current.from), to: dayOf(periods.current.to) },
      ...(applied.apps.length > apps.length ? { note: `summaries of the first ${apps.length} of ${applied.apps.length} apps: name an app for its own` } : {}),
      summaries: summaries.map((s) => {
        const c = s.content;
        return { app: c.app.title, from: c.from, to: c.to, previous: c.previous, figures: c.figures, previous_figures: c.previous_figures, rating_change: c.rating_change, versions: c.versions, previous_versions: c.previous_versions, terms: c.terms, quotes: c.quotes };
      }),
    },
    reviews,
  };
};

const RUNS: Record<AskToolName, Run> = {
  compare_versions: compareVersionsRun,
  summarize_period: summarizeRun,
  count_reviews: countTool,
  average_rating: countTool,
  rating_distribution: groupedTool('rating', (rows) => {
    const { distribution } = shapeStats(asStatsRows(rows, 'rating'), { from: today(), to: today(), interval: 'day' });
    return { ...total(rows), distribution };
  }),
  ratings_by_version: groupedTool('version', (rows) => ({ ...total(rows), by_version: shapeStats(asStatsRows(rows, 'version'), { from: today(), to: today(), interval: 'day' }).by_version })),
  ratings_by_country: groupedTool('country', (rows) => ({
    ...total(rows),
    by_country: shapeStats(asStatsRows(rows, 'country'), { from: today(), to: today(), interval: 'day' }).by_country.map((c) => ({ ...c, country: c.country?.toUpperCase() ?? null })),
  })),
  rating_trend: async (f, q, applied) => {
    const interval = (f.interval as StatsInterval | undefined) ?? 'day';
    const to = q.toExclusive ? new Date(q.toExclusive.getTime() - DAY_MS) : today();
    const from = q.from ?? new Date(to.getTime() - (interval === 'day' ? 29 : 12 * 7 - 1) * DAY_MS);
    const periods = Math.ceil((to.getTime() - from.getTime() + DAY_MS) / DAY_MS / (interval === 'day' ? 1 : 7));
    if (periods > TREND_MAX_PERIODS) return refusal(`A trend has at most ${TREND_MAX_PERIODS} ${interval}s: choose a shorter span or interval "week".`);
    const rows = await groups({ ...q, from, toExclusive: new Date(to.getTime() + DAY_MS) }, interval);
    const { series } = shapeStats(asStatsRows(rows, 'period'), { from, to, interval });
    return {
      result: {
        filters: { ...applied, from: dayOf(from), to: dayOf(to) },
        interval,
        ...total(rows),
        series: series.map((p) => ({ start: p.start, reviews: p.reviews, average_rating: p.average_rating })),
      },
      reviews: [],
    };
  },
  search_reviews: async (f, q, applied) => {
    const limit = (f.limit as number | undefined) ?? SEARCH_DEFAULT;
    const found = await findReviews(f, q, limit);
    const reviews = found.rows.map(askReview);
    return {
      result: {
        filters: applied,
        ...(f.query ? { matching_reviews: found.matched, match: found.match } : {}),
        order: f.query ? 'best match first' : 'newest first',
        reviews: reviews.map(forModel),
      },
      reviews,
    };
  },
  top_complaints: async (f, q, applied) => {
    const limit = (f.limit as number | undefined) ?? 10;
    const low = (q.ratings?.length ? q.ratings : [1, 2]).filter((r) => r <= 2);
    if (!low.length) return refusal('Complaints are read from 1–2 star reviews: leave out "ratings" or include 1 or 2.');
    // A sample across the apps: each app gives at most twice its share, so a busy app cannot cost apps × the limit.
    const perApp = Math.max(50, Math.ceil((2 * COMPLAINTS_MAX_REVIEWS) / q.appKeys.length));
    const rows = await newestReviews({ ...q, ratings: low }, COMPLAINTS_MAX_REVIEWS, undefined, perApp);
    const counts = countTerms(rows.map((r) => ({ id: r.id, text: r.title ? `${r.title}. ${r.body}` : r.body, language: r.language })));
    const none: TermCounts = countTerms([]);
    const top = compareTerms(counts, none, { minReviews: 2, limit }).top;
    const byId = new Map(rows.map((r) => [r.id, r]));
    const cited = new Map<string, AskReview>();
    const terms = top.map((t) => {
      const ids = t.review_ids.slice(0, 2);
      for (const id of ids) if (byId.has(id)) cited.set(id, askReview(byId.get(id)!));
      return { term: t.term, reviews: t.reviews, share_of_low_rated: t.share, example_review_ids: ids };
    });
    const reviews = [...cited.values()];
    return {
      result: {
        filters: { ...applied, ratings: low },
        low_rated_reviews_read: rows.length,
        ...(rows.length >= COMPLAINTS_MAX_REVIEWS ? { note: `a sample was read: the newest ${COMPLAINTS_MAX_REVIEWS} 1–2 star reviews, at most ${perApp} from each app` } : {}),
        terms,
        examples: reviews.map(forModel),
      },
      reviews,
    };
  },
};

const issuesText = (e: z.ZodError) => e.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message)).join('; ');

/** Runs tool `name` with the model's JSON arguments over the apps of `scope` (see the top of the file). */
export async function runAskTool(name: string, argsJson: string, scope: AskScope): Promise<AskToolResult> {
  if (!(name in SCHEMAS)) return refusal(`There is no tool "${name}". Tools: ${ASK_TOOL_NAMES.join(', ')}.`);
  const tool = name as AskToolName;
  let args: unknown;
  try {
    args = argsJson.trim() ? JSON.parse(argsJson) : {};
  } catch {
    return refusal('The arguments are not valid JSON.');
  }
  const parsed = SCHEMAS[tool].safeParse(args);
  if (!parsed.success) return refusal(`Invalid arguments: ${issuesText(parsed.error)}.`);
  const f = parsed.data as Filters & Record<string, unknown>;
  const read = toQuery(f, scope);
  if ('error' in read) return refusal(read.error);
  try {
    return await RUNS[tool](f, read.q, filtersJson(f, read.apps));
  } catch (err) {
    log.error('ask arb tool failed', { tool, err });
    return refusal('The reviews could not be read just now. Try again in a moment.');
  }
}

/** Reviews of the scope by id (e.g. a stored answer's citations); ids outside the scope are left out. */
export async function scopedReviews(scope: AskScope, ids: string[]): Promise<AskReview[]> {
  const keys = scope.apps.map((a) => appKey({ store: a.appStore, appId: a.appId }));
  return (await reviewsByIds(keys, ids)).map(askReview);
}

/** A signed-in user's scope: every app of the organisation. */
export async function orgScope(orgId: string): Promise<AskScope> {
  const apps = await orgScopeApps(orgId);
  return { orgId, apps: apps.map((a) => ({ appStore: a.store as AskStore, appId: a.app_id, title: a.title })) };
}
