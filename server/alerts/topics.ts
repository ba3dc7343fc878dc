/**
 * Topic alerts: a term (a word with its forms, or a phrase: server/insights/terms.ts) that suddenly fills an app's
 * 1–2★ reviews — "“crashes” in 10 reviews in the last 24 h, 5× its usual rate". Pure, like detector.ts: the check
 * (check.ts) counts the terms of the window (the last 24 hours) and of the 28 days before, and this decides.
 *
 * The statistic is a small-count test of the term's rate per day (the exact conditional test of two Poisson rates,
 * mid-p, as the terms' rising test but with time as the exposure): of the y₁ + y₀ reviews using the term in the window
 * (1 day) and the baseline (28 days), each would be in the window with chance 1/29 if the term came at its usual rate.
 * Ten "crashes on open" reviews today on an app where it was said twice in four weeks: mid-p ≈ 10⁻¹³. Each topic
 * needs that evidence AND a change that matters (TOPIC_SETTINGS: 5 reviews, mostly 1–2★, 3× the usual rate), and the
 * false-alarm budget of the spike detector (1 in 10,000 per app and check) is shared among the terms tested
 * (Bonferroni). Only terms whose reviews are mostly 1–2★ count: an incident, not a launch day's praise.
 *
 * One alert per term episode: the same episodes as spikes (spike_episodes, scope kind 'topic', value the term's key),
 * open while the term stays above its usual rate (a loose test), quiet for a day after. Terms that share most of their
 * window reviews are one topic ("crashes", "crashes on open", "open"): the one with the strongest evidence speaks,
 * named by a phrase holding it when that phrase is in most of its reviews ("crashes on open" rather than "open").
 */
import { binomialMidP, formsOf, type TermCounts } from '../insights/terms';
import { SPIKE_SETTINGS } from './detector';

export const TOPIC_SETTINGS = {
  /** The baseline, in days before the window (the spike detector's). */
  baselineDays: SPIKE_SETTINGS.baselineDays,
  /** No topic without this many reviews in the baseline: a usual rate needs a past. */
  minBaselineReviews: 20,
  /** A topic needs this many reviews using it in the window… */
  minReviews: 5,
  /** …most of them 1–2★… */
  minLowShare: 0.5,
  /** …and a rate per day at least this many times the usual one. */
  minRatio: 3,
  /** The app's false-alarm budget per check, shared among the terms tested. */
  alpha: SPIKE_SETTINGS.alpha,
  /** An open topic stays open while the term is above usual at this loose level, in at least `ongoingReviews`. */
  ongoingAlpha: 0.05,
  ongoingReviews: 3,
  /** A term sharing this much of its window reviews with a stronger one is that topic again. */
  overlap: 0.6,
} as const;

export type TopicSignal = {
  metric: 'topic';
  /** The form most of its window reviews use, and its key (its stems: the episode's scope value). */
  term: string;
  key: string;
  /** Every form counted, most used first (the inbox link searches them). */
  forms: string[];
  /** Window reviews using it, and how many of them are 1–2★. */
  reviews: number;
  low: number;
  /** Reviews using it in the baseline (its whole span, scaled when only a sample was read) and per day. */
  baselineReviews: number;
  usualPerDay: number;
  /** The window's count over the usual per day; null when the baseline never used it. */
  ratio: number | null;
  baselineDays: number;
  pValue: number;
};

export type TopicInput = {
  window: TermCounts;
  /** The baseline's terms: all its reviews, or the newest of them. */
  baseline: TermCounts;
  /** Reviews in the whole baseline (≥ baseline.reviews when only a sample was read). */
  baselineTotal: number;
  /** Keys of the app's open topic episodes, and of those that ended less than a day ago. */
  open: ReadonlySet<string>;
  quiet: ReadonlySet<string>;
};

export type TopicOpening = { signal: TopicSignal; reviewIds: string[] };
export type TopicDecision = { open: TopicOpening[]; close: string[]; /** Topics found this check, episodes open or not. */ found: TopicOpening[] };

/** A phrase names the topic of its word when it holds this share of the word's reviews. */
const PHRASE_SHARE = 0.8;
const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;

/** Which terms open a topic episode now, and which open topic episodes end. */
export function decideTopics(input: TopicInput, s: typeof TOPIC_SETTINGS = TOPIC_SETTINGS): TopicDecision {
  const { window, baseline } = input;
  const n1 = window.reviews;
  const n0 = baseline.reviews;
  const scale = n0 ? input.baselineTotal / n0 : 1;
  const idsOf = (key: string) => window.ids?.get(key) ?? window.examples.get(key) ?? [];
  // The rate test: y₁ in one day against y₀ (scaled to the whole baseline) in `baselineDays`.
  const rateP = (y1: number, y0: number) => binomialMidP(y1, y1 + Math.round(y0 * scale), 1 / (1 + s.baselineDays));
  const ongoing = new Set<string>();
  for (const key of input.open) {
    const y1 = window.counts.get(key) ?? 0;
    if (y1 >= s.ongoingReviews && rateP(y1, baseline.counts.get(key) ?? 0) < s.ongoingAlpha) ongoing.add(key);
  }
  const close = [...input.open].filter((k) => !ongoing.has(k));
  if (n1 === 0 || input.baselineTotal < s.minBaselineReviews || n0 === 0) return { open: [], close, found: [] };

  const candidates: Array<{ key: string; y1: number; low: number; y0: number; p: number }> = [];
  for (const [key, y1] of window.counts) {
    const low = window.low.get(key) ?? 0;
    if (y1 < s.minReviews || low / y1 < s.minLowShare) continue;
    const y0 = baseline.counts.get(key) ?? 0;
    candidates.push({ key, y1, low, y0, p: rateP(y1, y0) });
  }
  const alpha = s.alpha / Math.max(1, candidates.length);
  const strong = candidates
    .filter((c) => {
      const usualPerDay = (c.y0 * scale) / s.baselineDays;
      return c.p < alpha && (usualPerDay === 0 || c.y1 / usualPerDay >= s.minRatio);
    })
    .sort((a, b) => a.p - b.p || b.y1 - a.y1 || a.key.length - b.key.length || (a.key < b.key ? -1 : 1));

  // Topics already open keep their reviews: a term sharing them is the same incident.
  const claimed: Array<Set<string>> = [...ongoing].map((k) => new Set(idsOf(k)));
  const found: TopicOpening[] = [];
  const open: TopicOpening[] = [];
  const shared = (ids: string[], set: ReadonlySet<string>) => ids.filter((id) => set.has(id)).length;
  for (const leader of strong) {
    const leaderIds = idsOf(leader.key);
    if (claimed.some((set) => shared(leaderIds, set) >= s.overlap * leaderIds.length)) continue;
    // Named by a phrase holding the leading word when that phrase is most of its reviews: "crashes on open", not "open".
    const words = leader.key.split(' ');
    const leaderSet = new Set(leaderIds);
    const phrase = strong
      .filter((p) => p.key !== leader.key && p.key.includes(' ') && words.every((w) => p.key.split(' ').includes(w)))
      .filter((p) => p.y1 >= PHRASE_SHARE * leader.y1 && shared(idsOf(p.key), leaderSet) >= PHRASE_SHARE * leader.y1)
      .sort((a, b) => b.y1 - a.y1 || b.key.length - a.key.length || (a.key < b.key ? -1 : 1))[0];
    const c = phrase ?? leader;
    const ids = idsOf(c.key);
    claimed.push(new Set([...leaderIds, ...ids]));
    const baselineReviews = Math.round(c.y0 * scale);
    const usualPerDay = (c.y0 * scale) / s.baselineDays;
    const signal: TopicSignal = {
      metric: 'topic',
      term: formsOf(window, c.key)[0],
      key: c.key,
      forms: formsOf(window, c.key),
      reviews: c.y1,
      low: c.low,
      baselineReviews,
      usualPerDay: round(usualPerDay, 3),
      ratio: usualPerDay > 0 ? round(c.y1 / usualPerDay, 1) : null,
      baselineDays: s.baselineDays,
      pValue: c.p,
    };
    const opening = { signal, reviewIds: ids };
    found.push(opening);
    if (!input.open.has(c.key) && !input.quiet.has(c.key)) open.push(opening);
  }
  return { open, close, found };
}
