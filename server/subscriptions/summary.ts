/**
 * The review summary e-mail's figures, computed from the stored reviews and nothing else: how many of each rating, the
 * average, the words and two-word phrases most reviews mention, and the latest negative reviews. No model, no
 * sampling — every number can be recounted from the reviews it names.
 */
import { compareTerms, countTerms as countReviewTerms, type TermCounts } from '../insights/terms';
import type { StoredReview } from './reviews';

export type TermCount = { term: string; reviews: number };

export type ReviewSummary = {
  total: number;
  /** Oldest and newest review date among those counted. */
  from: Date | null;
  to: Date | null;
  /** Two decimals; null without reviews. */
  average: number | null;
  /** Reviews per star rating, 5 to 1. */
  counts: Record<1 | 2 | 3 | 4 | 5, number>;
  /** Words and phrases found in at least two reviews, most reviews first. */
  terms: TermCount[];
  /** Up to three reviews of 1 or 2 stars, newest first. */
  latestNegative: StoredReview[];
};

const MAX_TERMS = 8;
const NO_REVIEWS: TermCounts = countReviewTerms([]);

/**
 * The most used terms (server/insights: stop words of each review's language, each term once per review, a word
 * no more used than a listed phrase holding it left out), in at least two reviews.
 */
function countTerms(reviews: StoredReview[]): TermCount[] {
  const counts = countReviewTerms(reviews.map((r) => ({ id: String(r.id), text: `${r.title ?? ''} . ${r.body}`, language: r.language })));
  return compareTerms(counts, NO_REVIEWS, { minReviews: 2, limit: MAX_TERMS }).top.map((t) => ({ term: t.term, reviews: t.reviews }));
}

export function summarizeReviews(reviews: StoredReview[]): ReviewSummary {
  const counts: ReviewSummary['counts'] = { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 };
  let sum = 0;
  let from: Date | null = null;
  let to: Date | null = null;
  for (const r of reviews) {
    const stars = Math.min(5, Math.max(1, Math.round(r.rating))) as 1 | 2 | 3 | 4 | 5;
    counts[stars] += 1;
    sum += stars;
    if (!from || r.updated_at < from) from = r.updated_at;
    if (!to || r.updated_at > to) to = r.updated_at;
  }
  const latestNegative = reviews
    .filter((r) => r.rating <= 2)
    .sort((a, b) => b.updated_at.getTime() - a.updated_at.getTime())
    .slice(0, 3);
  return {
    total: reviews.length,
    from,
    to,
    average: reviews.length ? Math.round((sum / reviews.length) * 100) / 100 : null,
    counts,
    terms: countTerms(reviews),
    latestNegative,
  };
}
