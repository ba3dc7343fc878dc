/**
 * The /dashboard overview of an organisation (GET v1/org/overview): one card per app and the "Needs attention" list,
 * and the setup checklist's state. Every figure is computed from stored data (none estimated); see ./README.md for
 * what each one counts.
 *
 * - The store rating and its change over 7 days: the store's own (server/storeRatings/data.ts latestStoreRatings).
 * - The review average: of the reviews with text ARB collected, over the last 7 and 30 days (UTC days, today
 *   included) against the same number of days before (./data.ts appFigures, from the daily counters of 0038).
 * - The top rising and critical terms of the last 7 days (server/insights/appTerms.ts appTermSignals): counting an
 *   app's terms costs CPU, so they are kept per app for a few minutes there; an app whose terms are not ready within
 *   TERMS_WAIT_MS is answered without them (`terms: null`, `terms_pending: true`) while they are counted, and the page
 *   asks again.
 */
import type { Membership } from '../org/membership';
import { appTermSignals, type AppTermSignals } from '../insights/appTerms';
import { termSearch } from '../insights/terms';
import { latestStoreRatings } from '../storeRatings/data';
import { platformName, type Platform } from '@/shared/platforms';
import { filtersToQuery } from '@/shared/reviewFilters';
import { appFigures, dayBefore, openAlerts, refusedCredentials, replyTimes, setupState, troubledDestinations, type AppFigureRow } from './data';

/** How long the answer waits for an app's terms that are not counted yet. */
export const TERMS_WAIT_MS = 150;
/** Terms per list on a card. */
export const CARD_TERMS = 3;

export type PeriodFigures = {
  /** The period's first and last UTC day, both included. */
  from: string;
  to: string;
  reviews: number;
  average: number | null;
  previous_reviews: number;
  previous_average: number | null;
  /** average − previous_average, null when either is missing. */
  change: number | null;
  /** 1–2★ reviews of the period and their share of its reviews (0–1, null without reviews). */
  low: number;
  low_share: number | null;
};

export type OverviewTerm = { term: string; reviews: number; previous_reviews: number; href: string };

export type OverviewApp = {
  key: string;
  title: string;
  store: string;
  icon_url: string | null;
  paused: boolean;
  store_rating: { rating: number | null; ratings_count: number | null; change_7d: number | null; as_of: string } | null;
  review_average: { last_7_days: PeriodFigures; last_30_days: PeriodFigures };
  unanswered_30d: number;
  unanswered_negative_30d: number;
  /** Median seconds from a review to its reply, over the newest replies of the last 30 days (`replies` of them). */
  reply_time: { median_seconds: number | null; replies: number };
  terms: { rising: OverviewTerm[]; critical: OverviewTerm[] } | null;
  links: { reviews: string; trends: string; unanswered: string };
};

export type AttentionItem = {
  kind: 'unanswered_negative' | 'alert' | 'destination' | 'credentials';
  /** What it is, in a line. */
  title: string;
  /** Why, or what to do. */
  detail: string;
  /** Where it is fixed. */
  href: string;
  /** The words of the link. */
  action: string;
  app_key: string | null;
};

export type Overview = {
  generated_at: string;
  setup: { apps: boolean; channel: boolean; team: boolean; complete: boolean };
  apps: OverviewApp[];
  attention: AttentionItem[];
  terms_pending: boolean;
};

const round2 = (n: number) => Math.round(n * 100) / 100;
const avg = (sum: number, n: number) => (n ? round2(sum / n) : null);
/** An inbox view's address (shared/reviewFilters.ts), its lists' commas kept readable. */
const inbox = (f: Record<string, string | number | readonly (string | number)[] | undefined>) => {
  const q = Object.entries(filtersToQuery(f))
    .map(([k, v]) => `${k}=${v.split(',').map(encodeURIComponent).join(',')}`)
    .join('&');
  return `/dashboard/reviews${q ? `?${q}` : ''}`;
};

function periodFigures(now: Date, days: number, cur: { reviews: number; sum: number; low: number }, prev: { reviews: number; sum: number }): PeriodFigures {
  const average = avg(cur.sum, cur.reviews);
  const previous = avg(prev.sum, prev.reviews);
  return {
    from: dayBefore(now, days - 1),
    to: dayBefore(now, 0),
    reviews: cur.reviews,
    average,
    previous_reviews: prev.reviews,
    previous_average: previous,
    change: average !== null && previous !== null ? round2(average - previous) : null,
    low: cur.low,
    low_share: cur.reviews ? round2(cur.low / cur.reviews) : null,
  };
}

function termsOf(appKey: string, s: AppTermSignals | undefined, from: string): OverviewApp['terms'] {
  if (!s) return null;
  const item = (t: AppTermSignals['rising'][number]): OverviewTerm => ({
    term: t.term,
    reviews: t.reviews,
    previous_reviews: t.previous_reviews,
    href: inbox({ app: [appKey], q: t.search, from }),
  });
  return { rising: s.rising.slice(0, CARD_TERMS).map(item), critical: s.critical.slice(0, CARD_TERMS).map(item) };
}

/** Apps whose terms are being counted now (by whichever request asked first): later requests wait on the same work. */
const counting = new Map<string, Promise<AppTermSignals | undefined>>();

/** One app's terms: from appTermSignals' cache, or counted once however many requests ask at the same time. */
function termsOfApp(key: string, now: Date): Promise<AppTermSignals | undefined> {
  const id = `${key}|${dayBefore(now, 0)}`;
  let p = counting.get(id);
  if (!p) {
    p = appTermSignals([key], { now, limit: CARD_TERMS })
      .then((m) => m.get(key))
      // A failure costs the card its terms, not the overview.
      .catch(() => undefined)
      .finally(() => counting.delete(id));
    counting.set(id, p);
  }
  return p;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Each app's terms, or none for the apps not ready within TERMS_WAIT_MS. Counting is CPU work that holds the event
 * loop while it runs, so the apps are counted one after another with a turn of the loop between them: the answer
 * goes out at the deadline (after at most the app being counted then), and the rest go on in the background, into
 * appTermSignals' cache, for the page's next request.
 */
async function termsWithin(appKeys: string[], now: Date): Promise<Map<string, AppTermSignals>> {
  const out = new Map<string, AppTermSignals>();
  let late = false;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, TERMS_WAIT_MS)));
  const inTurn = (async () => {
    for (const key of appKeys) {
      const s = await termsOfApp(key, now);
      if (!late && s) out.set(key, s);
      await nextTurn();
    }
  })();
  await Promise.race([inTurn, deadline]);
  late = true;
  clearTimeout(timer);
  return new Map(out);
}

const SCOPE_WORDS: Record<string, (v: string) => string> = {
  app: () => '',
  country: (v) => ` in ${v.toUpperCase()}`,
  version: (v) => ` on version ${v}`,
  topic: (v) => ` about “${v}”`,
};

/** The storefronts each App Store app is watched in, so its store rating is the one the Apps table shows. */
const watchedStorefronts = (rows: AppFigureRow[]) => new Map(rows.filter((r) => r.store === 'apple_app_store').map((r) => [r.app_key, r.countries]));

export async function overviewOf(m: Membership, now = new Date()): Promise<Overview> {
  const [rows, setup, alerts, destinations, refused] = await Promise.all([
    appFigures(m.orgId, now),
    setupState(m.orgId),
    openAlerts(m.orgId),
    troubledDestinations(m.orgId),
    refusedCredentials(m.orgId),
  ]);
  const keys = rows.map((r) => r.app_key);
  const [ratings, replies, terms] = await Promise.all([latestStoreRatings(undefined, keys, { countries: watchedStorefronts(rows) }), replyTimes(keys, now), termsWithin(keys, now)]);
  const replyOf = new Map(replies.map((r) => [r.app_key, r]));
  const d7 = dayBefore(now, 6);
  const d30 = dayBefore(now, 29);

  const apps = rows.map((r: AppFigureRow): OverviewApp => {
    const rating = ratings.get(r.app_key);
    const reply = replyOf.get(r.app_key);
    return {
      key: r.app_key,
      title: r.title,
      store: r.store,
      icon_url: r.icon_url,
      paused: r.plan_paused,
      store_rating: rating ? { rating: rating.rating, ratings_count: rating.ratings_count, change_7d: rating.change_7d, as_of: rating.as_of } : null,
      review_average: {
        last_7_days: periodFigures(now, 7, { reviews: r.reviews_7d, sum: r.rating_sum_7d, low: r.low_7d }, { reviews: r.reviews_prev_7d, sum: r.rating_sum_prev_7d }),
        last_30_days: periodFigures(now, 30, { reviews: r.reviews_30d, sum: r.rating_sum_30d, low: r.low_30d }, { reviews: r.reviews_prev_30d, sum: r.rating_sum_prev_30d }),
      },
      unanswered_30d: r.unanswered_30d,
      unanswered_negative_30d: r.unanswered_low_30d,
      reply_time: { median_seconds: reply?.median_seconds == null ? null : Math.round(reply.median_seconds), replies: reply?.replies ?? 0 },
      terms: termsOf(r.app_key, terms.get(r.app_key), d7),
      links: {
        reviews: inbox({ app: [r.app_key] }),
        trends: `/dashboard/apps/${encodeURIComponent(r.app_key)}`,
        unanswered: inbox({ app: [r.app_key], replied: 'false', from: d30 }),
      },
    };
  });

  const attention: AttentionItem[] = [];
  for (const r of rows) {
    if (r.unanswered_low_30d === 0) continue;
    const n = r.unanswered_low_30d;
    attention.push({
      kind: 'unanswered_negative',
      title: `${n.toLocaleString('en')} unanswered 1–2★ ${n === 1 ? 'review' : 'reviews'} of ${r.title}`,
      detail: 'From the last 30 days. A reply can turn a low rating around.',
      href: inbox({ app: [r.app_key], rating: [1, 2], replied: 'false', from: d30 }),
      action: 'Reply',
      app_key: r.app_key,
    });
  }
  for (const a of alerts) {
    const since = new Date(a.since).toISOString().slice(0, 10);
    attention.push({
      kind: 'alert',
      title: `Spike alert: ${a.title}${(SCOPE_WORDS[a.scope_kind] ?? (() => ''))(a.scope_value)}`,
      detail: a.scope_kind === 'topic' ? `More reviews about it than usual since ${since}.` : `More 1–2★ reviews or a lower average than usual since ${since}.`,
      href:
        a.scope_kind === 'topic'
          ? inbox({ app: [a.app_key], q: termSearch(a.scope_value), from: since })
          : inbox({ app: [a.app_key], rating: [1, 2], from: since, ...(a.scope_kind === 'country' ? { country: [a.scope_value] } : {}) }),
      action: 'See the reviews',
      app_key: a.app_key,
    });
  }
  for (const d of destinations) {
    const name = `${platformName(d.platform as Platform) ?? d.platform} · ${d.label ?? d.target_hint}`;
    const state = d.status === 'paused' ? 'Paused' : d.status === 'disabled' ? 'Stopped' : `Failing (${d.consecutive_failures} ${d.consecutive_failures === 1 ? 'attempt' : 'attempts'} in a row)`;
    attention.push({
      kind: 'destination',
      title: `${state}: ${name}`,
      detail: d.status === 'active' ? (d.last_error ?? 'Its last messages were not delivered.') : (d.status_reason ?? (d.status === 'paused' ? 'No reviews are posted there while it is paused.' : 'No reviews are posted there.')),
      href: '/dashboard/destinations',
      action: d.status === 'paused' ? 'Resume' : 'Fix',
      app_key: null,
    });
  }
  for (const c of refused) {
    attention.push({
      kind: 'credentials',
      title: `The store refused the credentials of ${c.title}`,
      detail: c.reason ?? 'Reviews from the official API and replies stop until new credentials are saved.',
      href: '/dashboard/apps',
      action: 'Update the credentials',
      app_key: c.app_key,
    });
  }

  const flags = { apps: setup.apps > 0, channel: setup.channels > 0, team: setup.members > 1 || setup.invitations > 0 };
  return {
    generated_at: now.toISOString(),
    setup: { ...flags, complete: flags.apps && flags.channel && flags.team },
    apps,
    attention,
    terms_pending: apps.some((a) => a.terms === null),
  };
}
