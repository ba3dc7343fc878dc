/**
 * The spike detector: is the last day of an app's reviews (app-wide, per country, per version) clearly worse than the
 * app's own recent past? Pure functions over daily counts — no database, no clock — so every rule is unit-tested on
 * synthetic series (tests/unit/spikeDetector.test.ts). README.md in this folder explains the statistics in plain words.
 *
 * Two signals, each needing statistical evidence AND a change big enough to matter:
 *  - low_share: the share of 1–2★ reviews in the window, against a binomial model with the usual share.
 *  - rating_drop: the window's average rating, against the usual average (normal approximation of the mean).
 * "Usual" is the worst of the last 28 days, the last 7 and the last 3, so a slow drift (which moves them all) is not a
 * spike.
 */
import { binomialUpperTail, normalUpperTail } from './stats';

/** One day of reviews: how many, how many rated 1–2★, and the sum and sum of squares of their ratings. */
export type DayCounts = { n: number; low: number; sum: number; sumSq: number };

export type ScopeKind = 'app' | 'country' | 'version' | 'topic';
/** What a series is about: the whole app (value ''), one country (two letters) or one app version; 'topic': a term (topics.ts). */
export type Scope = { kind: ScopeKind; value: string };
/** days[0] is the window being judged (the last 24 hours), days[i] the 24 hours i days before it. */
export type ScopeSeries = { scope: Scope; days: DayCounts[] };

export const SPIKE_SETTINGS = {
  /** The long baseline, in days before the window. */
  baselineDays: 28,
  /** The short baselines: what "usual" means for an app whose ratings are moving slowly. */
  recentDays: 7,
  lastDays: 3,
  /**
   * Chance of a false alarm accepted per app and check, shared among the app's scopes (Bonferroni). Small, because
   * real review streams are burstier than the binomial model assumes and a real surge is far past it anyway.
   */
  alpha: 0.0001,
  /** An open episode stays open while the window is still worse than usual at this (much looser) level. */
  ongoingAlpha: 0.05,
  /** No judgement without this many reviews in the long baseline: a tiny app has no "usual" yet. */
  minBaselineReviews: 30,
  /** A surge needs at least this many 1–2★ reviews in the window… */
  minLowReviews: 5,
  /** …and their share must rise by this much (absolute) and by this factor over the usual share. */
  minShareRise: 0.1,
  minShareRatio: 1.5,
  /** A drop in the average needs this many reviews in the window and a drop of at least this many stars. */
  minWindowReviews: 10,
  minRatingDrop: 0.5,
  /** Ratings spread at least this much (stars): an app rated 5★ by everyone would otherwise alert on one 4★. */
  minRatingSd: 0.5,
} as const;
export type SpikeSettings = { [K in keyof typeof SPIKE_SETTINGS]: number };

export type LowShareSignal = { metric: 'low_share'; reviews: number; low: number; share: number; usualShare: number; pValue: number };
export type RatingDropSignal = { metric: 'rating_drop'; reviews: number; average: number; usualAverage: number; pValue: number };
export type Signal = LowShareSignal | RatingDropSignal;

export type ScopeVerdict = {
  scope: Scope;
  /** The evidence for a new episode (empty: nothing alert-worthy). */
  signals: Signal[];
  /** Still worse than usual (looser test): keeps an open episode open. */
  ongoing: boolean;
  window: DayCounts;
};

const EMPTY: DayCounts = { n: 0, low: 0, sum: 0, sumSq: 0 };

export function addCounts(a: DayCounts, b: DayCounts): DayCounts {
  return { n: a.n + b.n, low: a.low + b.low, sum: a.sum + b.sum, sumSq: a.sumSq + b.sumSq };
}

function total(days: DayCounts[], from: number, to: number): DayCounts {
  let t = EMPTY;
  for (let i = from; i < to && i < days.length; i++) if (days[i]) t = addCounts(t, days[i]);
  return t;
}

/** The usual share of 1–2★, with one pseudo-review of each kind so an app that never had one does not make p = 0. */
const shareOf = (c: DayCounts) => (c.low + 1) / (c.n + 2);
const meanOf = (c: DayCounts) => c.sum / c.n;
const sdOf = (c: DayCounts, floor: number) => Math.max(floor, Math.sqrt(Math.max(0, c.sumSq / c.n - meanOf(c) ** 2)));

/** Judges one scope's window against its baselines. `alpha` is this scope's share of the app's false-alarm budget. */
export function judgeScope(series: ScopeSeries, alpha: number, s: SpikeSettings = SPIKE_SETTINGS): ScopeVerdict {
  const window = series.days[0] ?? EMPTY;
  const long = total(series.days, 1, 1 + s.baselineDays);
  // The shorter baselines only count with enough reviews; a lagging average would call a steady drift a spike.
  const recent = [total(series.days, 1, 1 + s.recentDays), total(series.days, 1, 1 + s.lastDays)].filter((c) => c.n >= s.minWindowReviews);
  const verdict: ScopeVerdict = { scope: series.scope, signals: [], ongoing: false, window };
  if (long.n < s.minBaselineReviews || window.n === 0) return verdict;

  // Share of 1–2★: is this many low reviews out of window.n plausible if each is low with the usual chance?
  const share = window.low / window.n;
  const longShare = shareOf(long);
  const usualShare = Math.max(longShare, ...recent.map(shareOf));
  const shareP = binomialUpperTail(window.low, window.n, usualShare);
  if (window.low >= s.minLowReviews && share >= usualShare + s.minShareRise && share >= usualShare * s.minShareRatio && shareP < alpha) {
    verdict.signals.push({ metric: 'low_share', reviews: window.n, low: window.low, share, usualShare, pValue: shareP });
  }

  // Average rating: how far below the usual average is this window's, in standard errors of a mean of window.n ratings?
  const average = meanOf(window);
  const longAverage = meanOf(long);
  const usualAverage = Math.min(longAverage, ...recent.map(meanOf));
  // The spread is the larger of the usual one and the window's: a window mixing 1★ and 5★ is noisier than the usual
  // mostly-5★ stream, and using only the usual spread would overstate the evidence.
  const standardError = Math.max(sdOf(long, s.minRatingSd), sdOf(window, 0)) / Math.sqrt(window.n);
  const dropP = normalUpperTail((usualAverage - average) / standardError);
  if (window.n >= s.minWindowReviews && usualAverage - average >= s.minRatingDrop && dropP < alpha) {
    verdict.signals.push({ metric: 'rating_drop', reviews: window.n, average, usualAverage, pValue: dropP });
  }

  // Ongoing: against the long baseline only, at a loose level and half the magnitude — an episode ends when the
  // window looks ordinary again, not as soon as it stops looking extraordinary.
  const stillLow = share >= longShare + s.minShareRise / 2 && binomialUpperTail(window.low, window.n, longShare) < s.ongoingAlpha;
  const stillDown = longAverage - average >= s.minRatingDrop / 2 && normalUpperTail((longAverage - average) / standardError) < s.ongoingAlpha;
  verdict.ongoing = verdict.signals.length > 0 || stillLow || stillDown;
  return verdict;
}

/** A scope as one string: the episode table's key. */
export function scopeKey(scope: Scope): string {
  return scope.kind === 'app' ? 'app' : `${scope.kind}:${scope.value}`;
}

/** Where the window's 1–2★ reviews concentrate: the countries and versions with the most of them. */
export type Concentration = { scope: Scope; low: number; reviews: number };

export type Opening = { verdict: ScopeVerdict; concentration: Concentration[] };
export type Decision = { open: Opening[]; close: string[] };

/**
 * What to do for one app given its series (one per scope, the app-wide one included) and its episodes: which
 * scopes open a new episode and which open episodes end.
 *  - The false-alarm budget is split among the scopes tested (Bonferroni), so 40 countries do not mean 40 chances.
 *  - While the whole app alerts (or has an episode open), its countries and versions do not open their own: the
 *    app-wide alert names where the 1–2★ reviews concentrate instead. A surge hidden in one country or one version
 *    alerts on its own when the app as a whole looks normal.
 *  - `quiet` scopes (an episode ended less than a day ago) do not open again yet, so a surge that wavers around the
 *    threshold is one alert, not one per check.
 */
export function decide(series: ScopeSeries[], openKeys: ReadonlySet<string>, quiet: ReadonlySet<string> = new Set(), s: SpikeSettings = SPIKE_SETTINGS): Decision {
  const tested = series.filter((x) => total(x.days, 1, 1 + s.baselineDays).n >= s.minBaselineReviews).length;
  const alpha = s.alpha / Math.max(1, tested);
  const verdicts = series.map((x) => judgeScope(x, alpha, s));
  const app = verdicts.find((v) => v.scope.kind === 'app');
  const appBusy = !!app && (app.signals.length > 0 || openKeys.has('app'));
  const open: Opening[] = [];
  for (const v of verdicts) {
    const key = scopeKey(v.scope);
    if (!v.signals.length || openKeys.has(key) || quiet.has(key)) continue;
    if (v.scope.kind !== 'app' && appBusy) continue;
    open.push({ verdict: v, concentration: v.scope.kind === 'app' ? concentrationOf(verdicts) : [] });
  }
  const byKey = new Map(verdicts.map((v) => [scopeKey(v.scope), v]));
  const close = [...openKeys].filter((key) => !byKey.get(key)?.ongoing);
  return { open, close };
}

function concentrationOf(verdicts: ScopeVerdict[]): Concentration[] {
  return verdicts
    .filter((v) => v.scope.kind !== 'app' && v.window.low > 0)
    .map((v) => ({ scope: v.scope, low: v.window.low, reviews: v.window.n }))
    .sort((a, b) => b.low - a.low || a.scope.value.localeCompare(b.scope.value))
    .slice(0, 3);
}
