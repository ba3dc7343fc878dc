/**
 * A stored weekly summary → the formatters' SummaryMessageInput. Quoted reviews link to the review in ARB's inbox (read
 * in full, replied to); the inbox link lists the app's reviews of the week. Built at send time from the stored row, so
 * a retry — or a recipient who opts in later in the week — gets the same summary.
 */
import type { AppInfo, SummaryMessageInput, SummaryQuote } from '../destinations/types';
import { filtersToQuery } from '@/shared/reviewFilters';
import { figureLines, versionNotes, type Quote } from './extractive';
import type { SummaryContent } from './summaries';
import type { MessageKind } from '../monitor/messages';

export type StoredWeeklySummary = { id: number; week_start: string; method: 'extractive' | 'llm'; content: unknown; note: string | null };

const DAY_MS = 86_400_000;

export function summaryMessageInput(s: StoredWeeklySummary, app: AppInfo, appUrl: string): SummaryMessageInput {
  const c = s.content as SummaryContent;
  const to = new Date(new Date(`${s.week_start}T00:00:00Z`).getTime() + 6 * DAY_MS).toISOString().slice(0, 10);
  const quote = (q: Quote): SummaryQuote => ({
    reviewId: q.review_id,
    rating: q.rating,
    text: q.text,
    why: q.why,
    link: `${appUrl}/dashboard/reviews?${new URLSearchParams({ review: q.review_id })}`,
  });
  const llm = s.method === 'llm';
  return {
    summaryId: String(s.id),
    app,
    from: s.week_start,
    to,
    method: s.method,
    read: llm ? (c.read ?? null) : null,
    overview: llm ? c.overview || null : null,
    changes: llm ? c.changes || null : null,
    themes: llm ? (c.themes ?? []).map((t) => ({ title: t.title, summary: t.summary, reviews: t.reviews, review_ids: t.review_ids, quotes: t.quotes.map(quote) })) : [],
    quotes: llm ? [] : (c.quotes ?? []).map(quote),
    // Per-version notes against the week before replace the one "By version" line.
    figureLines: [...figureLines(c).filter((l) => !l.startsWith('By version:')), ...versionNotes(c)],
    figures: {
      reviews: c.figures.reviews,
      previous_reviews: c.previous_figures.reviews,
      average_rating: c.figures.average_rating,
      previous_average_rating: c.previous_figures.average_rating,
      rating_change: c.rating_change,
      rising_terms: c.terms.rising.map((t) => t.term),
      falling_terms: c.terms.falling.map((t) => t.term),
      versions: c.versions,
    },
    note: s.note,
    inboxUrl: `${appUrl}/dashboard/reviews?${new URLSearchParams(filtersToQuery({ app: [`${app.store}__${app.appId}`], from: s.week_start, to }))}`,
  };
}

/** Weekly summaries as a message kind of the engine (registered by server/messageKinds.ts): built from the stored row. */
export const weeklySummaryMessageKind: MessageKind = {
  kind: 'summary',
  build: (d, app, appUrl) => ({
    type: 'summary',
    input: summaryMessageInput(
      { id: d.weekly_summary_id!, week_start: d.summary_week_start!, method: d.summary_method!, content: d.summary_content, note: d.summary_note },
      app,
      appUrl,
    ),
  }),
};
