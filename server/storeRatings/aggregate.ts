/**
 * How the storefronts' snapshots of an app become one store rating, and the days a history: pure, no database
 * (tests/unit/storeRatingsAggregate.test.ts holds it to these rules).
 * - One rating from several storefronts (App Store: each watched country has its own rating and count) is the
 *   average weighted by each storefront's ratings count, the count their sum. A storefront with a rating but no count
 *   weighs nothing, unless no storefront has a count (then the plain mean). Google Play has one worldwide figure,
 *   stored under one country, so its "aggregate" is that figure.
 * - A day of the history is the day's snapshots combined so. A day without any snapshot is a gap: no point, no
 *   interpolation. `new_ratings` is the growth of the count since the day before, over the storefronts present on
 *   both days; null when the day before has no snapshot (the growth would span several days) or no storefront is on
 *   both days. The stores may also lower a count (removed ratings): the growth is then negative, as reported.
 */

export type StorefrontFigure = { country: string; rating: number | null; ratings_count: number | null };
export type SnapshotRow = StorefrontFigure & { day: string };
export type Combined = { rating: number | null; ratings_count: number | null };
export type SeriesPoint = { date: string; rating: number | null; ratings_count: number | null; new_ratings: number | null };

/** The storefronts' figures as one: rating weighted by count, counts summed. */
export function combineStorefronts(rows: readonly StorefrontFigure[]): Combined {
  let weighted = 0;
  let count = 0;
  let counted = 0;
  let plainSum = 0;
  let plainN = 0;
  for (const r of rows) {
    if (r.ratings_count != null) {
      count += r.ratings_count;
      counted++;
    }
    if (r.rating == null) continue;
    plainSum += r.rating;
    plainN++;
    if (r.ratings_count != null && r.ratings_count > 0) weighted += r.rating * r.ratings_count;
  }
  const countWithRating = rows.reduce((n, r) => n + (r.rating != null && r.ratings_count != null && r.ratings_count > 0 ? r.ratings_count : 0), 0);
  const rating = countWithRating > 0 ? weighted / countWithRating : plainN > 0 && counted === 0 ? plainSum / plainN : null;
  return { rating: rating == null ? null : round(rating, 4), ratings_count: counted > 0 ? count : null };
}

/** 'YYYY-MM-DD' plus `days` (negative: before). */
export function addDays(day: string, days: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** Rows grouped by day, days in ascending order. */
export function byDay(rows: readonly SnapshotRow[]): Map<string, StorefrontFigure[]> {
  const days = new Map<string, StorefrontFigure[]>();
  for (const r of [...rows].sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0))) {
    const list = days.get(r.day) ?? [];
    list.push({ country: r.country, rating: r.rating, ratings_count: r.ratings_count });
    days.set(r.day, list);
  }
  return days;
}

/**
 * The history: one point per day that has snapshots, ascending. `before` holds the snapshots of the day before the
 * first one asked for (so the first day's `new_ratings` can be known), when there are any.
 */
export function seriesOf(rows: readonly SnapshotRow[], before: readonly SnapshotRow[] = []): SeriesPoint[] {
  const days = byDay([...before, ...rows]);
  const firstAsked = rows.reduce<string | null>((m, r) => (m == null || r.day < m ? r.day : m), null);
  const out: SeriesPoint[] = [];
  for (const [day, figures] of days) {
    if (firstAsked == null || day < firstAsked) continue;
    const previous = days.get(addDays(day, -1));
    out.push({ date: day, ...combineStorefronts(figures), new_ratings: previous ? growth(previous, figures) : null });
  }
  return out;
}

/** The count's growth from `then` to `now` over the storefronts with a count on both; null when none has. */
export function growth(then: readonly StorefrontFigure[], now: readonly StorefrontFigure[]): number | null {
  const old = new Map(then.filter((r) => r.ratings_count != null).map((r) => [r.country, r.ratings_count!]));
  let sum = 0;
  let any = false;
  for (const r of now) {
    const o = old.get(r.country);
    if (r.ratings_count == null || o == null) continue;
    sum += r.ratings_count - o;
    any = true;
  }
  return any ? sum : null;
}

/**
 * The rating's change between two sets of storefront figures, over the storefronts rated in both (a storefront added
 * or lost in between does not count as a change of the rating); null when none is.
 */
export function ratingChange(then: readonly StorefrontFigure[], now: readonly StorefrontFigure[]): number | null {
  const rated = (r: StorefrontFigure) => r.rating != null;
  const thenBy = new Set(then.filter(rated).map((r) => r.country));
  const nowBy = new Set(now.filter(rated).map((r) => r.country));
  const a = combineStorefronts(then.filter((r) => rated(r) && nowBy.has(r.country)));
  const b = combineStorefronts(now.filter((r) => rated(r) && thenBy.has(r.country)));
  if (a.rating == null || b.rating == null) return null;
  return round(b.rating - a.rating, 4);
}

function round(n: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}
