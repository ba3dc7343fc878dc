/**
 * An app's words and topics: the terms and two-word phrases of its reviews in a period, which rose and which fell
 * against the same number of days before, and the most used, each with the inbox search that lists its reviews.
 */
import { notFound } from '../http/errors';
import type { Membership } from '../org/membership';
import { assertFeature } from '../plans/features';
import { dayOf } from '../stats/buckets';
import { orgAppName } from '../stats/data';
import { periodReviews, type PeriodReview } from './data';
import type { Period, Periods } from './period';
import { clauses } from './tokens';
import { compareTerms, countTerms, termSearch, type TermChange, type TermComparison, type TermCounts } from './terms';

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
  const counts = countTerms(kept.map((r) => ({ id: r.id, text: reviewText(r), language: r.language })), appNameWords(app));
  return { period, rows: kept, counts, capped };
}

export type TermItem = TermChange & { search: string };
const withSearch = (list: TermChange[]): TermItem[] => list.map((t) => ({ ...t, search: termSearch(t.term) }));

export const comparisonJson = (c: TermComparison) => ({ rising: withSearch(c.rising), falling: withSearch(c.falling), top: withSearch(c.top) });

const periodJson = (p: PeriodTerms) => ({ from: dayOf(p.period.from), to: dayOf(p.period.to), reviews: p.counts.reviews, capped: p.capped });

/** The organisation's app `appKey` or a 404. */
export async function ownApp(m: Membership, appKey: string): Promise<App> {
  const app = await orgAppName(m.orgId, appKey);
  if (!app) throw notFound('This app is not in your organisation. Add it on the Apps page first.');
  return app;
}

/** The words and topics of the organisation's app for `periods` (the plan's trends feature, else 402). */
export async function appTermsOf(m: Membership, appKey: string, periods: Periods) {
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
