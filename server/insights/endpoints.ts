/**
 * GET v1/org/apps/{appKey}/terms: an app's words and topics for a period against the one before (the plan's trends
 * feature). POST v1/org/apps/{appKey}/reviews/summary and GET …/summary/{summaryId}: review summaries (the plan's
 * summaries feature). Everyone in the organisation may use them; another organisation's app is not found (404).
 */
import { z } from 'zod';
import { endpoint } from '../http/api';
import { membershipOf } from '../org/membership';
import { appKeyParam, parseAppKey } from '../orgApps/endpoints';
import { day } from '../stats/endpoints';
import { appTermsOf } from './appTerms';
import { INSIGHT_DEFAULT_DAYS, periodsOf } from './period';
import { getSummary, requestSummary, SUMMARY_DEFAULT_DAYS } from './summaries';

export const periodQuery = z.object({
  from: day('from').meta({ description: `First day (UTC), included; default: ${INSIGHT_DEFAULT_DAYS - 1} days before to.` }),
  to: day('to').meta({ description: 'Last day (UTC), included; default: today.' }),
});

const periodShape = {
  from: z.string(),
  to: z.string(),
  reviews: z.number().meta({ description: 'Reviews of the period whose words were counted.' }),
  capped: z.boolean().meta({ description: 'The period had more reviews than are read: the newest were counted.' }),
};

export const termShape = z.object({
  term: z.string().meta({ description: 'The form most of its reviews use (word forms are grouped: crash, crashes, crashing).' }),
  key: z.string().meta({ description: 'The stems of its words: the same for every form.' }),
  kind: z.enum(['word', 'phrase']),
  forms: z.array(z.string()).meta({ description: 'Every form counted as this term, most used first.' }),
  reviews: z.number().meta({ description: 'Reviews of the period that use it.' }),
  share: z.number().meta({ description: 'Their share of the period’s reviews, 0–1.' }),
  previous_reviews: z.number(),
  previous_share: z.number(),
  z: z.number().meta({ description: 'Log-odds z-score of the change (informative prior): its size on a common scale, above 0 more used now.' }),
  p_value: z.number().meta({ description: 'One-sided mid-p value of the change in its direction (conditional binomial test): rising or falling below 0.05.' }),
  low_reviews: z.number().meta({ description: 'Reviews of the period using it rated 1–2★.' }),
  low_share: z.number().meta({ description: 'Their share of the reviews using it, 0–1.' }),
  sentiment: z
    .object({ positive: z.number(), neutral: z.number(), negative: z.number(), mixed: z.number() })
    .meta({ description: 'Reviews of the period using it, by sentiment (reviews not yet classified are left out).' }),
  review_ids: z.array(z.string()).meta({ description: 'Up to five reviews using it (of the previous period for a falling term).' }),
  search: z.string().meta({ description: 'The inbox search (q) that lists its reviews: its forms joined by "or".' }),
});

export const termListsShape = {
  rising: z.array(termShape),
  falling: z.array(termShape),
  critical: z.array(termShape).meta({ description: 'Concentrated in 1–2★ reviews of the period, most 1–2★ reviews first.' }),
  top: z.array(termShape).meta({ description: 'The most used in the period.' }),
};

export const appTermsEndpoint = endpoint({
  statuses: [402, 404],
  summary: "An app's words and phrases rising and falling against the previous period, the critical ones (in 1–2★ reviews) and the most used",
  tags: ['apps'],
  auth: 'user',
  params: appKeyParam,
  query: periodQuery,
  response: z.object({
    app: z.object({ key: z.string(), title: z.string(), store: z.string() }),
    ...periodShape,
    previous: z.object(periodShape).meta({ description: 'The same number of days just before.' }),
    ...termListsShape,
  }),
  handler: async ({ auth, params, query }) => appTermsOf(await membershipOf(auth), params.appKey, periodsOf(query)),
});

const figuresShape = z.object({
  reviews: z.number(),
  average_rating: z.number().nullable(),
  distribution: z.array(z.object({ rating: z.number(), reviews: z.number() })),
  positive: z.number(),
  neutral: z.number(),
  negative: z.number(),
  mixed: z.number().optional().meta({ description: 'Missing in summaries stored before it was counted.' }),
  unclassified: z.number().optional().meta({ description: 'Reviews without a sentiment yet; with the four classes they add up to `reviews`.' }),
});
const summaryTerm = z.object({ term: z.string(), reviews: z.number(), previous_reviews: z.number(), share: z.number(), previous_share: z.number(), search: z.string() });
const quoteShape = z.object({
  review_id: z.string(),
  rating: z.number(),
  text: z.string().meta({ description: "The review's own words (title and text), shortened past 280 characters." }),
  version: z.string().nullable(),
  why: z.string().meta({ description: 'Why this review was picked.' }),
});

const summaryShape = z.object({
  id: z.string(),
  app_key: z.string(),
  status: z.enum(['pending', 'ready', 'failed']).meta({ description: 'pending while a language model writes it; ask again in a few seconds.' }),
  method: z.enum(['extractive', 'llm']),
  label: z.string().meta({ description: '"extractive summary" (counts, terms and quotes from the reviews, no model) or "AI summary".' }),
  from: z.string(),
  to: z.string(),
  text: z.string().meta({ description: 'The summary as plain text (empty while pending).' }),
  citations: z.array(z.string()).meta({ description: 'The review ids it quotes or cites, each checked to be a review of the period.' }),
  note: z.string().nullable().meta({ description: 'Why the summary is extractive, or what was left out of the model’s answer.' }),
  created_at: z.string(),
  completed_at: z.string().nullable(),
  content: z.object({
    previous: z.object({ from: z.string(), to: z.string() }),
    figures: figuresShape,
    previous_figures: figuresShape,
    rating_change: z.number().nullable(),
    versions: z.array(z.object({ version: z.string().nullable(), reviews: z.number(), average_rating: z.number().nullable() })),
    terms: z.object({ rising: z.array(summaryTerm), falling: z.array(summaryTerm), top: z.array(summaryTerm) }),
    quotes: z.array(quoteShape),
    overview: z.string().nullable(),
    changes: z.string().nullable(),
    themes: z
      .array(z.object({ title: z.string(), summary: z.string(), reviews: z.number().meta({ description: 'Reviews read that it cites (checked).' }), review_ids: z.array(z.string()), quotes: z.array(quoteShape) }))
      .meta({ description: 'AI summary only: themes, each with the reviews it cites.' }),
    read: z.number().nullable().meta({ description: 'AI summary only: how many of the period’s reviews the model read.' }),
  }),
});

export const requestSummaryEndpoint = endpoint({
  statuses: [201, 402, 404, 409, 502, 503],
  summary: "Summarise an app's reviews for a span of days (extractive without a language model; pending while the model writes)",
  tags: ['apps'],
  auth: 'user',
  params: appKeyParam,
  body: z.object({
    from: day('from').meta({ description: `First day (UTC), included; default: ${SUMMARY_DEFAULT_DAYS - 1} days before to.` }),
    to: day('to').meta({ description: 'Last day (UTC), included; default: today.' }),
  }),
  response: summaryShape,
  handler: async (ctx) => {
    const summary = await requestSummary(await membershipOf(ctx.auth), ctx.params.appKey, ctx.body);
    ctx.status = 201;
    return summary;
  },
});

const summaryParams = z.object({ appKey: z.string(), summaryId: z.string() }).transform((p, ctx) => {
  const appKey = parseAppKey(p.appKey);
  if (appKey === null) ctx.addIssue({ code: 'custom', message: 'appKey: must be {app_store}__{app_id}, e.g. apple_app_store__284882215.' });
  if (!/^sum_[0-9a-f]{24}$/.test(p.summaryId)) ctx.addIssue({ code: 'custom', message: 'summaryId: not a summary id (sum_…).' });
  return appKey === null ? z.NEVER : { appKey, summaryId: p.summaryId };
});

export const getSummaryEndpoint = endpoint({
  statuses: [404],
  summary: 'A review summary: its figures, terms, quotes and (AI summary) themes, each citation a review id',
  tags: ['apps'],
  auth: 'user',
  params: summaryParams,
  response: summaryShape,
  handler: async ({ auth, params }) => getSummary(await membershipOf(auth), params.appKey, params.summaryId),
});
