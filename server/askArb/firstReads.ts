/**
 * Retrieval first: the tool calls a question read by parseQuestion implies — the ones the computed answers make
 * (computed.ts), plus the matching reviews when a figure is about a topic — run by the server before the model is
 * asked, and handed to its first call. A model (or a server) without tool calling still answers from the reads,
 * grounded and cited; a tool-calling model starts writing one round earlier, and keeps the tools for what the reads
 * do not cover. A question read as `other` implies no read: the model chooses.
 */
import type { ParsedQuestion } from './types';

export type FirstRead = { name: string; args: Record<string, unknown> };

/** The reads `parsed` implies, with the question's filters (and its topic as `query`), in the order they are given. */
export function firstReads(parsed: ParsedQuestion): FirstRead[] {
  const f = parsed.filters;
  const topic = parsed.topic ? { query: parsed.topic } : {};
  const read = (name: string, extra: Record<string, unknown> = {}, filters: Record<string, unknown> = f): FirstRead => ({ name, args: { ...filters, ...extra } });
  const quotes = parsed.topic ? [read('search_reviews', { ...topic, limit: 8 })] : [];
  const breakdown = parsed.breakdown;
  if ((breakdown === 'version' || breakdown === 'country') && !['reviews_about', 'top_complaints', 'version_change', 'summary'].includes(parsed.intent)) {
    return [read(breakdown === 'version' ? 'ratings_by_version' : 'ratings_by_country', topic), ...quotes];
  }
  switch (parsed.intent) {
    case 'count':
      return [read('count_reviews', topic), ...quotes];
    case 'average':
      return [read('average_rating', topic), ...quotes];
    case 'distribution':
      return [read('rating_distribution', topic), ...quotes];
    case 'trend': {
      const span = f.from && f.to ? (Date.parse(f.to) - Date.parse(f.from)) / 86_400_000 : 30;
      return [read('rating_trend', { interval: span > 62 ? 'week' : 'day', ...topic }), ...quotes];
    }
    case 'reviews_about':
      return [read('search_reviews', { ...topic, limit: 8 })];
    case 'top_complaints':
      return [read('top_complaints', { limit: 8 })];
    case 'version_change':
      return [read('compare_versions')];
    case 'summary':
      return [read('summarize_period', {}, { apps: f.apps, from: f.from, to: f.to })];
    default:
      return [];
  }
}
