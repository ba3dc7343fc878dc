// The spike detector on synthetic series: a real surge alerts, noise on a small app does not, a slow drift is not a
// spike, an episode alerts once and closes, and the tail probabilities it stands on are right.
import { describe, expect, test } from 'vitest';
import { decide, judgeScope, SPIKE_SETTINGS, type DayCounts, type ScopeSeries } from '@/server/alerts/detector';
import { binomialUpperTail, logGamma, normalUpperTail } from '@/server/alerts/stats';
import { seededRandom } from '../helpers/seededRandom';


/** A Poisson draw (Knuth): how many reviews arrive on a day. */
function poisson(random: () => number, mean: number): number {
  const l = Math.exp(-mean);
  let k = 0;
  let p = 1;
  do {
    k++;
    p *= random();
  } while (p > l);
  return k - 1;
}

/** One day of `n` reviews, each 1–2★ with probability `lowShare`: lows are 1★ or 2★, the rest 4★ or 5★. */
function day(random: () => number, n: number, lowShare: number): DayCounts {
  const c = { n: 0, low: 0, sum: 0, sumSq: 0 };
  for (let i = 0; i < n; i++) {
    const low = random() < lowShare;
    const rating = low ? (random() < 0.7 ? 1 : 2) : random() < 0.7 ? 5 : 4;
    c.n++;
    c.low += low ? 1 : 0;
    c.sum += rating;
    c.sumSq += rating * rating;
  }
  return c;
}

/** Days oldest first → the detector's order (the window first). */
const asSeries = (oldestFirst: DayCounts[]): ScopeSeries => ({ scope: { kind: 'app', value: '' }, days: [...oldestFirst].reverse() });

/** Runs the detector once per simulated day over `history` (oldest first), keeping episodes as the job does. */
function simulate(history: DayCounts[]) {
  const opened: number[] = [];
  const closed: number[] = [];
  let open = false;
  for (let t = 0; t < history.length; t++) {
    const d = decide([asSeries(history.slice(Math.max(0, t - 40), t + 1))], new Set(open ? ['app'] : []));
    if (d.close.includes('app')) {
      closed.push(t);
      open = false;
    }
    if (d.open.length) {
      opened.push(t);
      open = true;
    }
  }
  return { opened, closed };
}

describe('tail probabilities', () => {
  test('log-gamma and the binomial and normal tails match known values', () => {
    expect(logGamma(1)).toBeCloseTo(0, 12);
    expect(logGamma(11)).toBeCloseTo(Math.log(3_628_800), 10);
    // P(X ≥ 8 | n = 10, p = 0.5) = (45 + 10 + 1) / 1024
    expect(binomialUpperTail(8, 10, 0.5)).toBeCloseTo(56 / 1024, 12);
    expect(binomialUpperTail(0, 10, 0.3)).toBe(1);
    expect(binomialUpperTail(11, 10, 0.3)).toBe(0);
    expect(binomialUpperTail(5000, 10_000, 0.5)).toBeCloseTo(0.504, 3);
    expect(normalUpperTail(0)).toBeCloseTo(0.5, 6);
    expect(normalUpperTail(1.959964)).toBeCloseTo(0.025, 6);
    expect(normalUpperTail(-1.959964)).toBeCloseTo(0.975, 6);
  });
});

describe('judgeScope', () => {
  test('a real surge of 1–2★ reviews alerts, on both signals, with the numbers that show it', () => {
    const random = seededRandom(1);
    const history = Array.from({ length: 28 }, () => day(random, 20, 0.1));
    history.push(day(random, 40, 0.55));
    const v = judgeScope(asSeries(history), SPIKE_SETTINGS.alpha);
    expect(v.signals.map((s) => s.metric)).toEqual(['low_share', 'rating_drop']);
    const share = v.signals[0];
    expect(share.metric === 'low_share' && share.share).toBeGreaterThan(0.4);
    expect(share.metric === 'low_share' && share.usualShare).toBeLessThan(0.15);
    expect(share.pValue).toBeLessThan(1e-6);
    expect(v.ongoing).toBe(true);
  });

  test('a drop of the average rating without more 1–2★ reviews (5★ turning 3★) alerts as a rating drop only', () => {
    const threeStars = (n: number): DayCounts => ({ n, low: 0, sum: 3 * n, sumSq: 9 * n });
    const random = seededRandom(2);
    const history = Array.from({ length: 28 }, () => day(random, 30, 0.05));
    history.push(threeStars(30));
    expect(judgeScope(asSeries(history), SPIKE_SETTINGS.alpha).signals.map((s) => s.metric)).toEqual(['rating_drop']);
  });

  test('a small app: a day of only 1★ reviews is not enough evidence, and without a baseline nothing is judged', () => {
    const random = seededRandom(3);
    const small = Array.from({ length: 28 }, () => day(random, 2, 0.1));
    small.push({ n: 4, low: 4, sum: 4, sumSq: 4 });
    const v = judgeScope(asSeries(small), SPIKE_SETTINGS.alpha);
    expect(v.signals).toEqual([]);
    // A new app (no baseline) with a terrible first day: no "usual" to compare with, so no alert.
    expect(judgeScope(asSeries([{ n: 50, low: 50, sum: 50, sumSq: 50 }]), SPIKE_SETTINGS.alpha)).toMatchObject({ signals: [], ongoing: false });
  });
});

describe('over time', () => {
  test('noise on a small app never alerts in two simulated years', () => {
    const random = seededRandom(4);
    const history = Array.from({ length: 730 }, () => day(random, poisson(random, 1.5), 0.2));
    expect(simulate(history).opened).toEqual([]);
  });

  test('noise on a busy app (Poisson volume, 15 % low) never alerts in two simulated years', () => {
    const random = seededRandom(5);
    const history = Array.from({ length: 730 }, () => day(random, poisson(random, 60), 0.15));
    expect(simulate(history).opened).toEqual([]);
  });

  test('a slow drift from 5 % to 45 % of 1–2★ over two months is not a spike', () => {
    const random = seededRandom(6);
    const history = Array.from({ length: 90 }, (_, t) => day(random, 200, t < 30 ? 0.05 : Math.min(0.45, 0.05 + ((t - 30) * 0.4) / 60)));
    expect(simulate(history).opened).toEqual([]);
  });

  test('the same change in one day is', () => {
    const random = seededRandom(6);
    const history = Array.from({ length: 60 }, (_, t) => day(random, 200, t < 50 ? 0.05 : 0.45));
    expect(simulate(history).opened).toEqual([50]);
  });

  test('an episode alerts once, stays open while the surge lasts and closes when it is over', () => {
    const random = seededRandom(7);
    const history = Array.from({ length: 50 }, (_, t) => day(random, 30, t >= 35 && t < 38 ? 0.6 : 0.1));
    const { opened, closed } = simulate(history);
    expect(opened).toEqual([35]);
    expect(closed).toEqual([38]);
  });

  test('a scope that just closed does not open again at once (quiet), and opens once the quiet day is over', () => {
    const random = seededRandom(8);
    const history = Array.from({ length: 29 }, (_, t) => day(random, 30, t === 28 ? 0.6 : 0.1));
    expect(decide([asSeries(history)], new Set(), new Set(['app'])).open).toEqual([]);
    expect(decide([asSeries(history)], new Set()).open).toHaveLength(1);
  });
});

describe('decide across scopes', () => {
  const random = seededRandom(9);
  const normal = (n: number, share: number) => Array.from({ length: 28 }, () => day(random, n, share));
  const scope = (kind: 'app' | 'country' | 'version', value: string, oldestFirst: DayCounts[]): ScopeSeries => ({ scope: { kind, value }, days: [...oldestFirst].reverse() });

  test('an app-wide surge is one alert naming where the 1–2★ reviews concentrate, not one per country', () => {
    const us = [...normal(20, 0.1), day(random, 40, 0.7)];
    const gb = [...normal(10, 0.1), day(random, 10, 0.6)];
    const de = [...normal(10, 0.1), day(random, 10, 0.1)];
    const app = us.map((d, i) => [d, gb[i], de[i]].reduce((a, b) => ({ n: a.n + b.n, low: a.low + b.low, sum: a.sum + b.sum, sumSq: a.sumSq + b.sumSq })));
    const d = decide([scope('app', '', app), scope('country', 'us', us), scope('country', 'gb', gb), scope('country', 'de', de)], new Set());
    expect(d.open.map((o) => o.verdict.scope.kind)).toEqual(['app']);
    expect(d.open[0].concentration[0]).toMatchObject({ scope: { kind: 'country', value: 'us' } });
  });

  test('a surge hidden in one country alerts for that country when the app as a whole looks normal', () => {
    const us = [...normal(200, 0.1), day(random, 200, 0.1)];
    const br = [...normal(10, 0.1), day(random, 20, 0.8)];
    const app = us.map((d, i) => ({ n: d.n + br[i].n, low: d.low + br[i].low, sum: d.sum + br[i].sum, sumSq: d.sumSq + br[i].sumSq }));
    const d = decide([scope('app', '', app), scope('country', 'us', us), scope('country', 'br', br)], new Set());
    expect(d.open.map((o) => `${o.verdict.scope.kind}:${o.verdict.scope.value}`)).toEqual(['country:br']);
  });

  test('an open episode whose scope has no reviews any more closes', () => {
    expect(decide([], new Set(['version:3.1.0']))).toEqual({ open: [], close: ['version:3.1.0'] });
  });
});
