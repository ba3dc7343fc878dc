/**
 * The review summary e-mail's figures, computed from the stored reviews and nothing else: how many of each rating, the
 * average, the words and two-word phrases most reviews mention, and the latest negative reviews. No model, no
 * sampling — every number can be recounted from the reviews it names.
 */
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

// English function words and review boilerplate: they are in every review and say nothing about this app.
const STOPWORDS = new Set(
  (
    'a about above after again against all also am an and any app apps are aren as at be because been before being below ' +
    'between both but by can cannot could did didn do does doesn doing don down during each even ever every few for from ' +
    'further get gets got had has hasn have haven having he her here hers herself him himself his how however i if im in ' +
    'into is isn it its itself ive just let like lot lots make makes me more most much my myself need new no nor not now ' +
    'of off on once one only or other our ours ourselves out over own please really same she should so some such than ' +
    'that thats the their theirs them themselves then there these they thing things this those through to too under ' +
    'until up use used using very was wasn way we well were weren what when where which while who whom why will with ' +
    'won would wouldn yet you your yours yourself yourselves still always never since another many ok okay yes'
  ).split(' '),
);

const MAX_TERMS = 8;

function tokens(text: string): string[] {
  return (text.toLocaleLowerCase('en').replace(/[’']/g, '').match(/[\p{L}\p{N}]+/gu) ?? []).filter((t) => t.length >= 3 || /\d/.test(t));
}

/** Counts each word or phrase once per review: one angry review repeating "crash" ten times is still one review. */
function countTerms(reviews: StoredReview[]): TermCount[] {
  const words = new Map<string, number>();
  const phrases = new Map<string, number>();
  for (const r of reviews) {
    const t = tokens(`${r.title ?? ''} . ${r.body}`);
    const seenWords = new Set<string>();
    const seenPhrases = new Set<string>();
    for (let i = 0; i < t.length; i++) {
      const w = t[i];
      if (STOPWORDS.has(w) || /^\d+$/.test(w)) continue;
      seenWords.add(w);
      const next = t[i + 1];
      if (next && !STOPWORDS.has(next) && !/^\d+$/.test(next)) seenPhrases.add(`${w} ${next}`);
    }
    for (const w of seenWords) words.set(w, (words.get(w) ?? 0) + 1);
    for (const p of seenPhrases) phrases.set(p, (phrases.get(p) ?? 0) + 1);
  }
  const frequentPhrases = [...phrases].filter(([, n]) => n >= 2);
  // A word that only ever appears inside a listed phrase adds nothing next to it.
  const covered = new Map<string, number>();
  for (const [p, n] of frequentPhrases) for (const w of p.split(' ')) covered.set(w, Math.max(covered.get(w) ?? 0, n));
  const all: TermCount[] = [
    ...frequentPhrases.map(([term, n]) => ({ term, reviews: n })),
    ...[...words].filter(([w, n]) => n >= 2 && n > (covered.get(w) ?? 0)).map(([term, n]) => ({ term, reviews: n })),
  ];
  return all.sort((a, b) => b.reviews - a.reviews || b.term.split(' ').length - a.term.split(' ').length || a.term.localeCompare(b.term)).slice(0, MAX_TERMS);
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
