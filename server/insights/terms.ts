/**
 * Words and phrases rising and falling between two periods of an app's reviews, pure.
 *
 * What is counted: for each term, the number of reviews that use it (once per review: one angry review repeating
 * "crash" ten times is one review). What is compared: the share of the period's reviews using the term, as a log-odds
 * ratio with an informative prior (Monroe, Colaresi & Quinn, "Fightin' Words", 2008, in its beta-binomial form):
 *
 *   p   = (y₁ + y₀) / (n₁ + n₀)                      the term's share over both periods: the prior's centre
 *   a   = α·p,  b = α·(1 − p)                        a prior worth α reviews
 *   δ   = ln((y₁ + a) / (n₁ − y₁ + b)) − ln((y₀ + a) / (n₀ − y₀ + b))
 *   var = 1/(y₁ + a) + 1/(n₁ − y₁ + b) + 1/(y₀ + a) + 1/(n₀ − y₀ + b)
 *   z   = δ / √var
 *
 * y₁ of n₁ reviews now, y₀ of n₀ before. The prior pulls rare terms towards "no change", so a word seen 3 times
 * against 0 is not news (z ≈ 1.3) while 10 of 100 against 0 of 100 is (z ≈ 2.2); a period without reviews gives
 * δ = 0 for every term. A term is rising when z ≥ `minZ` (1.96: two-sided 5 % for that one term; many terms are
 * tested, so the lists are a ranking to read, each with its counts, not a test) and at least `minReviews` reviews of
 * the current period use it; falling, the same the other way round with the previous period's reviews.
 */
import { reviewTerms } from './tokens';

export type TermKind = 'word' | 'phrase';

/** Terms of a set of reviews: how many reviews use each, and a few of those reviews (newest first as given). */
export type TermCounts = {
  reviews: number;
  counts: Map<string, number>;
  examples: Map<string, string[]>;
};

export type TermReview = { id: string; text: string; language?: string | null };

const EXAMPLES_PER_TERM = 5;

/** Counts the terms of `reviews` (each once per review). `extraStop`: words to leave out (the app's name). */
export function countTerms(reviews: TermReview[], extraStop?: ReadonlySet<string>): TermCounts {
  const counts = new Map<string, number>();
  const examples = new Map<string, string[]>();
  for (const r of reviews) {
    const { words, phrases } = reviewTerms(r.text, r.language, extraStop);
    for (const t of [...words, ...phrases]) {
      counts.set(t, (counts.get(t) ?? 0) + 1);
      const ex = examples.get(t);
      if (!ex) examples.set(t, [r.id]);
      else if (ex.length < EXAMPLES_PER_TERM) ex.push(r.id);
    }
  }
  return { reviews: reviews.length, counts, examples };
}

/** The log-odds ratio z-score of a term used by y1 of n1 reviews now and y0 of n0 before (see the top of the file). */
export function logOddsZ(y1: number, n1: number, y0: number, n0: number, priorReviews = PRIOR_REVIEWS): number {
  const total = n1 + n0;
  if (total === 0 || n1 === 0 || n0 === 0) return 0;
  const p = Math.min(Math.max((y1 + y0) / total, 1e-9), 1 - 1e-9);
  const a = priorReviews * p;
  const b = priorReviews * (1 - p);
  const delta = Math.log((y1 + a) / (n1 - y1 + b)) - Math.log((y0 + a) / (n0 - y0 + b));
  const variance = 1 / (y1 + a) + 1 / (n1 - y1 + b) + 1 / (y0 + a) + 1 / (n0 - y0 + b);
  return delta / Math.sqrt(variance);
}

/** How many reviews' worth the prior weighs. */
export const PRIOR_REVIEWS = 10;

export type TermChange = {
  term: string;
  kind: TermKind;
  /** Reviews of the current period using it, and their share of the period's reviews (0–1). */
  reviews: number;
  share: number;
  previous_reviews: number;
  previous_share: number;
  /** The log-odds z-score: above 0 more used now, below 0 less. */
  z: number;
  /** Up to five reviews of the period that use it (of the previous period for a falling term). */
  review_ids: string[];
};

export type TermComparison = {
  /** Used by a larger share of reviews now, most significant first. */
  rising: TermChange[];
  /** Used by a smaller share now, most significant first. */
  falling: TermChange[];
  /** The most used in the current period, whatever before. */
  top: TermChange[];
};

export type CompareOptions = { minReviews?: number; minZ?: number; limit?: number };

const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;
const kindOf = (term: string): TermKind => (term.includes(' ') ? 'phrase' : 'word');

/**
 * Leaves out a word that adds nothing beside a listed phrase holding it: "battery" used by no more reviews than
 * "battery drain" is that phrase again.
 */
function withoutCoveredWords(list: TermChange[], count: (t: TermChange) => number): TermChange[] {
  const covered = new Map<string, number>();
  for (const t of list) if (t.kind === 'phrase') for (const w of t.term.split(' ')) covered.set(w, Math.max(covered.get(w) ?? 0, count(t)));
  return list.filter((t) => t.kind === 'phrase' || count(t) > (covered.get(t.term) ?? 0));
}

/** The terms rising and falling from `previous` to `current`, and the current period's most used. */
export function compareTerms(current: TermCounts, previous: TermCounts, options: CompareOptions = {}): TermComparison {
  const minReviews = options.minReviews ?? 3;
  const minZ = options.minZ ?? 1.96;
  const limit = options.limit ?? 15;
  const n1 = current.reviews;
  const n0 = previous.reviews;
  const change = (term: string): TermChange => {
    const y1 = current.counts.get(term) ?? 0;
    const y0 = previous.counts.get(term) ?? 0;
    const z = logOddsZ(y1, n1, y0, n0);
    return {
      term,
      kind: kindOf(term),
      reviews: y1,
      share: n1 ? round(y1 / n1, 4) : 0,
      previous_reviews: y0,
      previous_share: n0 ? round(y0 / n0, 4) : 0,
      z: round(z, 2),
      review_ids: (z < 0 ? previous.examples.get(term) : current.examples.get(term)) ?? current.examples.get(term) ?? [],
    };
  };
  const byTerm = (a: TermChange, b: TermChange) => (a.term < b.term ? -1 : a.term > b.term ? 1 : 0);

  const rising: TermChange[] = [];
  const top: TermChange[] = [];
  for (const [term, y1] of current.counts) {
    if (y1 < minReviews) continue;
    const c = change(term);
    top.push(c);
    if (c.z >= minZ) rising.push(c);
  }
  const falling: TermChange[] = [];
  for (const [term, y0] of previous.counts) {
    if (y0 < minReviews) continue;
    const c = change(term);
    if (c.z <= -minZ) falling.push(c);
  }
  rising.sort((a, b) => b.z - a.z || b.reviews - a.reviews || byTerm(a, b));
  falling.sort((a, b) => a.z - b.z || b.previous_reviews - a.previous_reviews || byTerm(a, b));
  top.sort((a, b) => b.reviews - a.reviews || (b.kind === 'phrase' ? 1 : 0) - (a.kind === 'phrase' ? 1 : 0) || byTerm(a, b));
  return {
    rising: withoutCoveredWords(rising, (t) => t.reviews).slice(0, limit),
    falling: withoutCoveredWords(falling, (t) => t.previous_reviews).slice(0, limit),
    top: withoutCoveredWords(top, (t) => t.reviews).slice(0, limit),
  };
}

/** The inbox search that finds a term's reviews: the word, or the phrase in quotes. */
export const termSearch = (term: string): string => (term.includes(' ') ? `"${term}"` : term);
