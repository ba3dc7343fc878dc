/**
 * An app's sentiment counts in words, for its stats page: the four classes and, when there are any, the reviews not
 * classified yet (stored before enrichment), so that the parts add up to the review count shown beside them.
 */
export type SentimentTotals = { reviews: number; positive: number; neutral: number; mixed: number; negative: number; unclassified: number };

export const SENTIMENT_COLUMNS = [
  ['positive', 'Positive'],
  ['neutral', 'Neutral'],
  ['mixed', 'Mixed'],
  ['negative', 'Negative'],
] as const;

/** "40 positive · 5 neutral · 3 mixed · 12 negative · 2 not yet classified", or "—" without reviews. */
export function sentimentText(t: SentimentTotals): string {
  if (!t.reviews) return '—';
  const parts = SENTIMENT_COLUMNS.map(([key, label]) => `${t[key].toLocaleString()} ${label.toLowerCase()}`);
  if (t.unclassified) parts.push(`${t.unclassified.toLocaleString()} not yet classified`);
  return parts.join(' · ');
}
