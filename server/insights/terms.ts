/**
 * Words and phrases rising, falling and critical between two periods of an app's reviews, pure.
 *
 * What is counted: for each term (its word forms grouped by stem, tokens.ts), the number of reviews that use it (once
 * per review: one angry review repeating "crash" ten times is one review), how many of those are rated 1–2★, and
 * their sentiment. The term's label is the form most of its reviews use ("crashes" for crash/crashes/crashing).
 *
 * Rising and falling: a small-count test, so that "crashes" going from 2 to 12 reviews in a week of a small app is
 * seen. If the term were as common per review in both periods, then of the y = y₁ + y₀ reviews using it, each would
 * fall in the current period with chance π = n₁ / (n₁ + n₀) (y₁ of n₁ reviews now, y₀ of n₀ before): y₁ ~
 * Binomial(y, π) (the exact conditional test of two Poisson rates). The one-sided mid-p value
 *
 *   mid-p = P(Y > y₁) + ½·P(Y = y₁)
 *
 * is the chance of a rise at least this large by chance (the mid-p halves the weight of the observed count, which keeps
 * the exact test from being needlessly conservative on small counts). A term is rising when mid-p < `alpha` (0.05),
 * at least `minReviews` (3) reviews use it now and its share of reviews grew at least 1.5× (with half a review added
 * before, so 0 → 3 is a ratio of 6, not infinite). Falling is the same the other way round. 2 → 12 reviews over two
 * periods of 20 reviews each is mid-p ≈ 0.004: rising; 3 → 0 is 0.06: not. The test is per term (not corrected for the many terms tested):
 * the lists are a ranking to read, each with its counts. `z` (the log-odds ratio with an informative prior, Monroe,
 * Colaresi & Quinn 2008) is kept as the size of the change on a common scale.
 *
 * Critical: terms concentrated in 1–2★ reviews of the current period. Of the term's y₁ reviews, L are 1–2★; against the
 * period's share q of 1–2★ reviews (one pseudo-review of each kind added), L ~ Binomial(y₁, q) by chance. Critical when
 * L ≥ `minReviews`, at least 60 % of the term's reviews are 1–2★ and the mid-p of L is below `alpha`; most 1–2★
 * reviews first.
 */
import { binomialUpperTail } from '../alerts/stats';
import { reviewTerms } from './tokens';

export type TermKind = 'word' | 'phrase';
export type SentimentCounts = { positive: number; neutral: number; negative: number; mixed: number };

/** Terms of a set of reviews, keyed by stems: how many reviews use each, and a few of those reviews (newest first as given). */
export type TermCounts = {
  reviews: number;
  /** Reviews rated 1–2★. */
  lowReviews: number;
  counts: Map<string, number>;
  examples: Map<string, string[]>;
  /** Per term: the reviews using each surface form. */
  forms: Map<string, Map<string, number>>;
  /** Per term: its 1–2★ reviews. */
  low: Map<string, number>;
  /** Per term: its reviews by sentiment class (reviews without one are not counted). */
  sentiment: Map<string, SentimentCounts>;
  /** Per term: every review using it, when asked for (`allIds`). */
  ids?: Map<string, string[]>;
};

export type TermReview = { id: string; text: string; language?: string | null; rating?: number | null; sentiment?: string | null };

const EXAMPLES_PER_TERM = 5;
const SENTIMENTS = new Set(['positive', 'neutral', 'negative', 'mixed']);

/**
 * Counts the terms of `reviews` (each once per review). `extraStop`: words to leave out (the app's name). `allIds`:
 * keep every review id per term (for a small set: the spike check's window).
 */
export function countTerms(reviews: TermReview[], extraStop?: ReadonlySet<string>, options: { allIds?: boolean } = {}): TermCounts {
  const c: TermCounts = { reviews: reviews.length, lowReviews: 0, counts: new Map(), examples: new Map(), forms: new Map(), low: new Map(), sentiment: new Map() };
  if (options.allIds) c.ids = new Map();
  for (const r of reviews) {
    const isLow = r.rating != null && r.rating <= 2;
    if (isLow) c.lowReviews++;
    const sentiment = r.sentiment && SENTIMENTS.has(r.sentiment) ? (r.sentiment as keyof SentimentCounts) : null;
    for (const [key, form] of reviewTerms(r.text, r.language, extraStop).forms) {
      c.counts.set(key, (c.counts.get(key) ?? 0) + 1);
      const ex = c.examples.get(key);
      if (!ex) c.examples.set(key, [r.id]);
      else if (ex.length < EXAMPLES_PER_TERM) ex.push(r.id);
      let forms = c.forms.get(key);
      if (!forms) c.forms.set(key, (forms = new Map()));
      forms.set(form, (forms.get(form) ?? 0) + 1);
      if (isLow) c.low.set(key, (c.low.get(key) ?? 0) + 1);
      if (sentiment) {
        let s = c.sentiment.get(key);
        if (!s) c.sentiment.set(key, (s = { positive: 0, neutral: 0, negative: 0, mixed: 0 }));
        s[sentiment]++;
      }
      if (c.ids) {
        const ids = c.ids.get(key);
        if (ids) ids.push(r.id);
        else c.ids.set(key, [r.id]);
      }
    }
  }
  return c;
}

/** A term's surface forms, most used first (ties: the shorter, then alphabetical). */
export function formsOf(counts: TermCounts, key: string): string[] {
  const forms = counts.forms.get(key);
  if (!forms) return [key];
  return [...forms].sort((a, b) => b[1] - a[1] || a[0].length - b[0].length || (a[0] < b[0] ? -1 : 1)).map(([f]) => f);
}

/** P(X ≥ k) − ½·P(X = k) for X ~ Binomial(n, p): the one-sided mid-p value of seeing k or more. */
export function binomialMidP(k: number, n: number, p: number): number {
  if (n <= 0) return 1;
  return (binomialUpperTail(k, n, p) + binomialUpperTail(k + 1, n, p)) / 2;
}

/**
 * The one-sided mid-p value of a rise from y0 of n0 reviews to y1 of n1 (the conditional binomial test of two rates,
 * see the top of the file); 1 when either period has no reviews.
 */
export function risingMidP(y1: number, n1: number, y0: number, n0: number): number {
  if (n1 <= 0 || n0 <= 0 || y1 + y0 === 0) return 1;
  return binomialMidP(y1, y1 + y0, n1 / (n1 + n0));
}

/** How many times more of the reviews use it now than before, with half a review added to each side. */
export const shareRatio = (y1: number, n1: number, y0: number, n0: number): number => (n1 && n0 ? (y1 + 0.5) / n1 / ((y0 + 0.5) / n0) : 1);

/** The log-odds ratio z-score of a term used by y1 of n1 reviews now and y0 of n0 before (informative prior). */
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

/** How many reviews' worth the log-odds prior weighs. */
export const PRIOR_REVIEWS = 10;

export type TermChange = {
  /** The form most of its reviews use. */
  term: string;
  /** Its stems: the same for every form. */
  key: string;
  kind: TermKind;
  /** Every form counted as this term, most used first. */
  forms: string[];
  /** Reviews of the current period using it, and their share of the period's reviews (0–1). */
  reviews: number;
  share: number;
  previous_reviews: number;
  previous_share: number;
  /** The log-odds z-score: above 0 more used now, below 0 less. */
  z: number;
  /** The mid-p value of the change in its direction (rising: of the rise; falling: of the fall). */
  p_value: number;
  /** Of the reviews using it now: those rated 1–2★, and their share (0–1). */
  low_reviews: number;
  low_share: number;
  /** The reviews using it now by sentiment class. */
  sentiment: SentimentCounts;
  /** Up to five reviews of the period that use it (of the previous period for a falling term). */
  review_ids: string[];
};

export type TermComparison = {
  /** Used by a larger share of reviews now, most significant first. */
  rising: TermChange[];
  /** Used by a smaller share now, most significant first. */
  falling: TermChange[];
  /** Concentrated in 1–2★ reviews of the current period, most 1–2★ reviews first. */
  critical: TermChange[];
  /** The most used in the current period, whatever before. */
  top: TermChange[];
};

export type CompareOptions = { minReviews?: number; alpha?: number; minRatio?: number; limit?: number };

/** The thresholds of the lists (top of the file). */
export const TERM_SETTINGS = { minReviews: 3, alpha: 0.05, minRatio: 1.5, criticalLowShare: 0.6 } as const;

const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;
const kindOf = (key: string): TermKind => (key.includes(' ') ? 'phrase' : 'word');
const NO_SENTIMENT: SentimentCounts = { positive: 0, neutral: 0, negative: 0, mixed: 0 };

/**
 * Leaves out a word that adds nothing beside a listed phrase holding it: "battery" used by no more reviews than
 * "battery drain" is that phrase again.
 */
function withoutCoveredWords(list: TermChange[], count: (t: TermChange) => number): TermChange[] {
  const covered = new Map<string, number>();
  for (const t of list) if (t.kind === 'phrase') for (const w of t.key.split(' ')) covered.set(w, Math.max(covered.get(w) ?? 0, count(t)));
  return list.filter((t) => t.kind === 'phrase' || count(t) > (covered.get(t.key) ?? 0));
}

/** The terms rising, falling and critical from `previous` to `current`, and the current period's most used. */
export function compareTerms(current: TermCounts, previous: TermCounts, options: CompareOptions = {}): TermComparison {
  const minReviews = options.minReviews ?? TERM_SETTINGS.minReviews;
  const alpha = options.alpha ?? TERM_SETTINGS.alpha;
  const minRatio = options.minRatio ?? TERM_SETTINGS.minRatio;
  const limit = options.limit ?? 15;
  const n1 = current.reviews;
  const n0 = previous.reviews;
  const q = (current.lowReviews + 1) / (n1 + 2);
  const change = (key: string, falling: boolean): TermChange => {
    const y1 = current.counts.get(key) ?? 0;
    const y0 = previous.counts.get(key) ?? 0;
    const z = logOddsZ(y1, n1, y0, n0);
    const low = current.low.get(key) ?? 0;
    return {
      term: formsOf(y1 ? current : previous, key)[0],
      key,
      kind: kindOf(key),
      forms: [...new Set([...(current.forms.has(key) ? formsOf(current, key) : []), ...(previous.forms.has(key) ? formsOf(previous, key) : [])])],
      reviews: y1,
      share: n1 ? round(y1 / n1, 4) : 0,
      previous_reviews: y0,
      previous_share: n0 ? round(y0 / n0, 4) : 0,
      z: round(z, 2),
      p_value: round(falling ? risingMidP(y0, n0, y1, n1) : risingMidP(y1, n1, y0, n0), 6),
      low_reviews: low,
      low_share: y1 ? round(low / y1, 4) : 0,
      sentiment: { ...(current.sentiment.get(key) ?? NO_SENTIMENT) },
      review_ids: (falling ? previous.examples.get(key) : current.examples.get(key)) ?? current.examples.get(key) ?? [],
    };
  };
  const byTerm = (a: TermChange, b: TermChange) => (a.term < b.term ? -1 : a.term > b.term ? 1 : 0);

  const rising: TermChange[] = [];
  const top: TermChange[] = [];
  const critical: TermChange[] = [];
  for (const [key, y1] of current.counts) {
    if (y1 < minReviews) continue;
    const c = change(key, false);
    top.push(c);
    const y0 = c.previous_reviews;
    if (n0 > 0 && c.p_value < alpha && shareRatio(y1, n1, y0, n0) >= minRatio) rising.push(c);
    const low = c.low_reviews;
    if (low >= minReviews && low / y1 >= TERM_SETTINGS.criticalLowShare && binomialMidP(low, y1, q) < alpha) critical.push(c);
  }
  const falling: TermChange[] = [];
  for (const [key, y0] of previous.counts) {
    if (y0 < minReviews || n1 === 0) continue;
    const c = change(key, true);
    if (c.p_value < alpha && shareRatio(y0, n0, c.reviews, n1) >= minRatio) falling.push(c);
  }
  rising.sort((a, b) => a.p_value - b.p_value || b.reviews - a.reviews || byTerm(a, b));
  falling.sort((a, b) => a.p_value - b.p_value || b.previous_reviews - a.previous_reviews || byTerm(a, b));
  critical.sort((a, b) => b.low_reviews - a.low_reviews || b.low_share - a.low_share || byTerm(a, b));
  top.sort((a, b) => b.reviews - a.reviews || (b.kind === 'phrase' ? 1 : 0) - (a.kind === 'phrase' ? 1 : 0) || byTerm(a, b));
  return {
    rising: withoutCoveredWords(rising, (t) => t.reviews).slice(0, limit),
    falling: withoutCoveredWords(falling, (t) => t.previous_reviews).slice(0, limit),
    critical: withoutCoveredWords(critical, (t) => t.low_reviews).slice(0, limit),
    top: withoutCoveredWords(top, (t) => t.reviews).slice(0, limit),
  };
}

const quoted = (form: string): string => (form.includes(' ') ? `"${form}"` : form);
/** The most forms an inbox search names (the most used ones). */
const SEARCH_FORMS = 4;

/**
 * The inbox search that finds a term's reviews: the word, or the phrase in quotes; several forms joined by `or`
 * (websearch syntax: `crashes or crash or crashing`). A phrase with stop words inside is searched as written.
 */
export const termSearch = (term: string, forms: string[] = [term]): string => {
  const list = [...new Set([term, ...forms])].slice(0, SEARCH_FORMS);
  return list.map(quoted).join(' or ');
};
