/**
 * Review summaries of an app for a span of days, on request: POST makes one, GET reads it.
 *
 * Without a language model the summary is extractive and ready at once. With one, the summary is stored `pending`
 * with its extractive figures, and the model's part is written in the background of this process (`runSummary`); a
 * process that stops halfway leaves a claim that expires, and the periodic job `summaries-pending` finishes the
 * summary. When the model fails or answers out of form, the summary is completed as the extractive one, with a note
 * saying why: the caller always gets the checked figures and quotes.
 */
import { randomBytes } from 'node:crypto';
import { llmConfig } from '../ai/llm/config';
import { notFound } from '../http/errors';
import { enforceRateLimit } from '../http/rateLimit';
import { log } from '../log';
import type { Membership } from '../org/membership';
import { assertFeature } from '../plans/features';
import { dayOf } from '../stats/buckets';
import { shapeStats } from '../stats/appStats';
import { statsGroups } from '../stats/data';
import { ownApp, termsOfPeriod, type App } from './appTerms';
import { claimSummary, completeSummary, insertSummary, summaryOf, type PeriodReview, type SummaryRow } from './data';
import { EXTRACTIVE_LABEL, extractiveContent, extractiveText, figureLines, type ExtractiveContent, type PeriodFigures } from './extractive';
import { AI_LABEL, aiSummary, retrieveReviews, type AiPart } from './llmSummary';
import { periodsOf, type Period, type Periods } from './period';
import { compareTerms, type TermComparison } from './terms';

/** Days a summary covers when the request names none: the last week. */
export const SUMMARY_DEFAULT_DAYS = 7;
/** Summaries an organisation may ask for per hour (each reads up to two periods of reviews, and may call the model). */
export const SUMMARIES_PER_HOUR = 30;

async function figuresOf(app: App, p: Period): Promise<{ figures: PeriodFigures; versions: ExtractiveContent['versions'] }> {
  const rows = await statsGroups({ appKey: app.key, from: p.from, toExclusive: p.toExclusive, interval: 'week' });
  const s = shapeStats(rows, { from: p.from, to: p.to, interval: 'week' });
  const { reviews, average_rating, positive, neutral, negative, mixed, unclassified } = s.totals;
  return { figures: { reviews, average_rating, distribution: s.distribution, positive, neutral, negative, mixed, unclassified }, versions: s.by_version.slice(0, 5) };
}

type Built = { content: ExtractiveContent; rows: PeriodReview[]; comparison: TermComparison };

/** The extractive summary of `app` for `periods`, with the reviews and terms it was made from. */
async function buildExtractive(app: App, periods: Periods): Promise<Built> {
  const [now, before, terms, previousTerms] = await Promise.all([
    figuresOf(app, periods.current),
    figuresOf(app, periods.previous),
    termsOfPeriod(app, periods.current),
    termsOfPeriod(app, periods.previous),
  ]);
  const comparison = compareTerms(terms.counts, previousTerms.counts);
  const content = extractiveContent({
    app,
    from: dayOf(periods.current.from),
    to: dayOf(periods.current.to),
    previous: { from: dayOf(periods.previous.from), to: dayOf(periods.previous.to) },
    figures: now.figures,
    previous_figures: before.figures,
    versions: now.versions,
    previous_versions: before.versions,
    comparison,
    rows: terms.rows,
  });
  return { content, rows: terms.rows, comparison };
}

const newId = () => `sum_${randomBytes(12).toString('hex')}`;

export type SummaryContent = ExtractiveContent & Partial<AiPart>;

/** The AI summary as text: the model's overview and themes (with checked counts and cited ids), then the figures. */
function aiText(c: ExtractiveContent, ai: AiPart): string {
  const lines = [`${c.app.title}: ${AI_LABEL} of ${c.from} to ${c.to}, written by a language model from ${ai.read} of the period's reviews; figures counted from all of them.`];
  if (ai.overview) lines.push(ai.overview);
  for (const t of ai.themes) {
    lines.push(`${t.title} (${t.reviews} of ${ai.read} reviews read): ${t.summary}`);
    for (const q of t.quotes) lines.push(`- “${q.text}” (${q.rating}★, review ${q.review_id})`);
  }
  if (ai.changes) lines.push(`Since the previous period: ${ai.changes}`);
  lines.push('Figures:', ...figureLines(c));
  return lines.join('\n');
}

export type ComposedSummary = { method: 'extractive' | 'llm'; text: string; content: SummaryContent; citations: string[]; note: string | null };

/**
 * The summary of `app` for `periods`, finished: the model's themes over the extractive figures when `model` is true and
 * the period has reviews (`orgId`'s token budget pays; null: nobody's), else — or when the model fails or answers out
 * of form — the extractive summary, with a note saying why.
 */
export async function composeSummary(app: App, periods: Periods, options: { orgId: string | null; model: boolean }): Promise<ComposedSummary> {
  const built = await buildExtractive(app, periods);
  const extractive = { method: 'extractive' as const, text: extractiveText(built.content), content: built.content as SummaryContent, citations: built.content.quotes.map((q) => q.review_id) };
  if (built.content.figures.reviews === 0) return { ...extractive, note: options.model ? 'No reviews in these days: nothing for a language model to read.' : 'No reviews in these days.' };
  if (!options.model) return { ...extractive, note: llmConfig() ? null : 'AI answers aren’t enabled on this server, so this summary is made of the reviews’ own figures and sentences.' };
  try {
    const retrieved = retrieveReviews(built.rows, built.comparison, built.content.quotes);
    const ai = await aiSummary(built.content, retrieved, options.orgId);
    const citations = [...new Set(ai.themes.flatMap((t) => t.review_ids))];
    const note = ai.dropped_citations ? `${ai.dropped_citations} citation${ai.dropped_citations === 1 ? '' : 's'} the model gave did not match a review it was shown, and were left out.` : null;
    return { method: 'llm', text: aiText(built.content, ai), content: { ...built.content, ...ai }, citations, note };
  } catch (err) {
    log.warn('AI summary failed: the extractive summary stands', { appKey: app.key, err });
    return { ...extractive, note: `The language model could not write this summary (${(err as Error).message}), so it is the ${EXTRACTIVE_LABEL}.` };
  }
}

/** Writes the model's part of pending summary `id`, or completes it as extractive when the model cannot. */
export async function runSummary(id: string): Promise<void> {
  const row = await claimSummary(id);
  if (!row) return;
  const app = (row.content as ExtractiveContent).app;
  const periods = periodsOf({ from: new Date(`${row.from_day}T00:00:00Z`), to: new Date(`${row.to_day}T00:00:00Z`) });
  const composed = await composeSummary(app, periods, { orgId: row.org_id, model: true });
  await completeSummary(id, { ...composed, status: 'ready' });
}

/** Starts the model's part in this process; a failure is logged (the periodic job retries an unfinished one). */
function startSummary(id: string): void {
  void runSummary(id).catch((err) => log.error('summary could not be completed', { summaryId: id, err }));
}

/**
 * Makes a summary of the organisation's app for the days asked (the plan's summaries feature, else 402). `userId` is
 * who asked: null for an API key's caller (the MCP server), which is no member.
 */
export async function requestSummary(m: Pick<Membership, 'orgId'> & { userId: string | null }, appKey: string, days: { from?: Date; to?: Date }) {
  const app = await ownApp(m, appKey);
  await assertFeature(m.orgId, 'summaries');
  const periods = periodsOf(days, new Date(), SUMMARY_DEFAULT_DAYS);
  await enforceRateLimit({ name: 'review-summaries', limit: SUMMARIES_PER_HOUR, windowSeconds: 3600 }, m.orgId, `At most ${SUMMARIES_PER_HOUR} summaries an hour per organisation: try again later.`);
  const built = await buildExtractive(app, periods);
  const withModel = !!llmConfig() && built.content.figures.reviews > 0;
  const id = newId();
  await insertSummary({
    id,
    org_id: m.orgId,
    app_key: app.key,
    from_day: built.content.from,
    to_day: built.content.to,
    method: withModel ? 'llm' : 'extractive',
    status: withModel ? 'pending' : 'ready',
    text: withModel ? '' : extractiveText(built.content),
    content: built.content,
    citations: withModel ? [] : built.content.quotes.map((q) => q.review_id),
    note: withModel ? null : llmConfig() ? 'No reviews in these days.' : 'AI answers aren’t enabled on this server, so this summary is made of the reviews’ own figures and sentences.',
    requested_by: m.userId,
  });
  if (withModel) startSummary(id);
  return summaryJson((await summaryOf(m.orgId, app.key, id))!);
}

export function summaryJson(row: SummaryRow) {
  const c = row.content as SummaryContent;
  return {
    id: row.id,
    app_key: row.app_key,
    status: row.status,
    method: row.method,
    label: row.status === 'pending' ? 'summary in progress' : row.method === 'llm' ? AI_LABEL : EXTRACTIVE_LABEL,
    from: row.from_day,
    to: row.to_day,
    text: row.text,
    citations: row.citations,
    note: row.note,
    created_at: new Date(row.created_at).toISOString(),
    completed_at: row.completed_at ? new Date(row.completed_at).toISOString() : null,
    content: {
      previous: c.previous,
      figures: c.figures,
      previous_figures: c.previous_figures,
      rating_change: c.rating_change ?? null,
      versions: c.versions ?? [],
      terms: c.terms,
      quotes: c.quotes ?? [],
      overview: c.overview ?? null,
      changes: c.changes ?? null,
      themes: c.themes ?? [],
      read: c.read ?? null,
    },
  };
}

/** Summary `id` of the organisation's app (404 for another organisation's, or an unknown id). */
export async function getSummary(m: Pick<Membership, 'orgId'>, appKey: string, id: string) {
  const app = await ownApp(m, appKey);
  const row = await summaryOf(m.orgId, app.key, id);
  if (!row) throw notFound('No such summary for this app.');
  return summaryJson(row);
}
