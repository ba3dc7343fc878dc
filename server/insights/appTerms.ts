/**
 * An app's words and topics: the terms and two-word phrases of its reviews in a period, which rose and which fell
 * against the same number of days before, the Critical ones (concentrated in 1–2★ reviews) and the most used, each
 * with the inbox search that lists its reviews and the sentiment of the reviews using it.
 *
 * For the /dashboard overview (server/overview), per app, no membership or plan check (the caller checked them):
 *
 *   appTermSignals(appKeys: string[], options?: { days?: number; now?: Date; limit?: number })
 *     : Promise<Map<string, AppTermSignals>>
 *   AppTermSignals = { from: string; to: string; reviews: number; rising: TermItem[]; falling: TermItem[]; critical: TermItem[] }
 *
 * `days` (default 7) ending today (UTC), against the same number of days before; `limit` terms per list (default 3).
 * Each app reads at most OVERVIEW_MAX_REVIEWS reviews per period and the result is kept in this process for
 * SIGNALS_CACHE_MS, so 20 apps cost one read each per few minutes, not per request. Apps unknown or without
 * reviews get empty lists.
 */
import { notFound } from '../http/errors';
import type { Membership } from '../org/membership';
import { assertFeature } from '../plans/features';
import { dayOf } from '../stats/buckets';
import { orgAppName } from '../stats/data';
import { appTitleOf, periodReviews, type PeriodReview } from './data';
import { periodsOf, type Period, type Periods } from './period';
import { clauses } from './tokens';
import { compareTerms, countTerms, termSearch, type TermChange, type TermComparison, type TermCounts, type TermReview } from './terms';

/**
 * The most reviews read per period: the newest. Counting terms costs ~20 µs of CPU a review, so a busy app's month
 * stays well under a second; past this the shares are those of the newest reviews, and the answer says so.
 */
export const TERMS_MAX_REVIEWS = 20_000;

export type App = { key: string; title: string; store: string };

export const reviewText = (r: Pick<PeriodReview, 'title' | 'body'>) => (r.title ? `${r.title}. ${r.body}` : r.body);

/** The words of the app's own name: in every period, they say nothing. */
export const appNameWords = (app: App): Set<string> => new Set(clauses(app.title).flat());

export type PeriodTerms = { period: Period; rows: PeriodReview[]; counts: TermCounts; capped: boolean };

/** The period's newest reviews (up to TERMS_MAX_REVIEWS) and their terms. */
export async function termsOfPeriod(app: App, period: Period): Promise<PeriodTerms> {
  const rows = await periodReviews({ appKey: app.key, from: period.from, toExclusive: period.toExclusive, limit: TERMS_MAX_REVIEWS + 1 });
  const capped = rows.length > TERMS_MAX_REVIEWS;
  const kept = capped ? rows.slice(0, TERMS_MAX_REVIEWS) : rows;
  const counts = countTerms(kept.map(termReview), appNameWords(app));
  return { period, rows: kept, counts, capped };
}

/** A stored review as the term counter reads it. */
export const termReview = (r: PeriodReview): TermReview => ({ id: r.id, text: reviewText(r), language: r.language, rating: r.rating, sentiment: r.sentiment });

export type TermItem = TermChange & { search: string };
const withSearch = (list: TermChange[]): TermItem[] => list.map((t) => ({ ...t, search: termSearch(t.term, t.forms) }));

export const comparisonJson = (c: TermComparison) => ({
  rising: withSearch(c.rising),
  falling: withSearch(c.falling),
  critical: withSearch(c.critical),
  top: withSearch(c.top),
});

const periodJson = (p: PeriodTerms) => ({ from: dayOf(p.period.from), to: dayOf(p.period.to), reviews: p.counts.reviews, capped: p.capped });

/** The organisation's app `appKey` or a 404. */
export async function ownApp(m: Pick<Membership, 'orgId'>, appKey: string): Promise<App> {
  const app = await orgAppName(m.orgId, appKey);
  if (!app) throw notFound('This app is not in your organisation. Add it on the Apps page first.');
  return app;
}

/** The words and topics of the organisation's app for `periods` (the plan's trends feature, else 402). */
export async function appTermsOf(m: Pick<Membership, 'orgId'>, appKey: string, periods: Periods) {
  const app = await ownApp(m, appKey);
  await assertFeature(m.orgId, 'trends');
  const [current, previous] = await Promise.all([termsOfPeriod(app, periods.current), termsOfPeriod(app, periods.previous)]);
  return {
    app,
    ...periodJson(current),
    previous: periodJson(previous),
    ...comparisonJson(compareTerms(current.counts, previous.counts)),
  };
}

/** The most reviews read per period for the overview's signals (the newest). */
export const OVERVIEW_MAX_REVIEWS = 3_000;
/** How long an app's signals are reused in this process before they are counted again. */
export const SIGNALS_CACHE_MS = 5 * 60_000;

export type AppTermSignals = { from: string; to: string; reviews: number; rising: TermItem[]; falling: TermItem[]; critical: TermItem[] };

const signalsCache = new Map<string, { at: number; value: AppTermSignals }>();

/**
 * The rising, falling and critical terms of each app in `appKeys` over the last `days` days (default 7, today
 * included) against the days before: for the /dashboard overview (the top of this file says the contract). No plan
 * or membership check: the caller has made them.
 */
export async function appTermSignals(appKeys: string[], options: { days?: number; now?: Date; limit?: number } = {}): Promise<Map<string, AppTermSignals>> {
  const now = options.now ?? new Date();
  const periods = periodsOf({}, now, options.days ?? 7);
  const limit = options.limit ?? 3;
  const out = new Map<string, AppTermSignals>();
  await Promise.all(
    [...new Set(appKeys)].map(async (appKey) => {
      const cacheKey = `${appKey}|${dayOf(periods.current.from)}|${periods.current.days}|${limit}`;
      const hit = signalsCache.get(cacheKey);
      if (hit && now.getTime() - hit.at < SIGNALS_CACHE_MS && now.getTime() >= hit.at) {
        out.set(appKey, hit.value);
        return;
      }
      const read = (p: Period) => periodReviews({ appKey, from: p.from, toExclusive: p.toExclusive, limit: OVERVIEW_MAX_REVIEWS });
      const [current, previous] = await Promise.all([read(periods.current), read(periods.previous)]);
      const title = await appTitleOf(appKey);
      const stop = appNameWords({ key: appKey, title, store: '' });
      const c = compareTerms(countTerms(current.map(termReview), stop), countTerms(previous.map(termReview), stop), { limit });
      const json = comparisonJson(c);
      const value: AppTermSignals = { from: dayOf(periods.current.from), to: dayOf(periods.current.to), reviews: current.length, rising: json.rising, falling: json.falling, critical: json.critical };
      if (signalsCache.size > 1000) signalsCache.clear();
      signalsCache.set(cacheKey, { at: now.getTime(), value });
      out.set(appKey, value);
    }),
  );
  return out;
}
