/**
 * The periodic spike check (jobs.ts): for every app that a destination wants alerts for (or that has an episode
 * open), count its reviews per day, country and version, let the detector decide, close the episodes that are over
 * and open the new ones — each new episode queueing one alert delivery per opted-in destination in the same
 * transaction, so the delivery outbox sends it exactly as it sends reviews (server/monitor/README.md).
 *
 * Topics (topics.ts) in the same check: the terms of the window's reviews against the 28 days before. A topic found
 * while the whole app's spike opens is told in that spike's alert (and opens its own episode without a message, so
 * it does not alert again); otherwise its episode queues its own alert, like a spike's.
 */
import { getDb } from '../db/client';
import { log } from '../log';
import { readFilters } from '../monitor/filters';
import { wake } from '../monitor/wake';
import { appNameWords, termReview } from '../insights/appTerms';
import { appTitleOf, periodReviews } from '../insights/data';
import { countTerms } from '../insights/terms';
import { decide, scopeKey, SPIKE_SETTINGS, type Scope, type ScopeSeries } from './detector';
import type { AlertDetails, CitedReview } from './details';
import {
  alertDestinationsOf,
  appsToCheck,
  closeEpisodes,
  dailyCounts,
  insertEpisode,
  openEpisodesOf,
  queueAlertDeliveries,
  recentlyClosedOf,
  topicReviews,
  windowLowReviews,
  type EpisodeRow,
} from './data';
import { seriesOf } from './series';
import { decideTopics, TOPIC_SETTINGS, type TopicDecision, type TopicOpening } from './topics';

const DAY_MS = 86_400_000;
/** How many of the window's 1–2★ reviews an alert quotes. */
export const CITED_REVIEWS = 3;
/** After an episode ends, its scope stays quiet this long: a surge wavering around the threshold is one alert. */
export const QUIET_MS = DAY_MS;
/** The most reviews read for a topic check: the window's, and the baseline's newest (a sample of a busy app's month). */
export const TOPIC_WINDOW_MAX_REVIEWS = 2_000;
export const TOPIC_BASELINE_MAX_REVIEWS = 5_000;

/** `opened`: episodes that queued an alert; `topics`: topic episodes opened (told in a spike's alert, or their own). */
export type SpikeCheckResult = { apps: number; opened: number; closed: number; queued: number; topics: number };

/** Checks every app that needs it, now. Safe to run concurrently: the database's unique indexes decide. */
export async function checkSpikes(now = new Date()): Promise<SpikeCheckResult> {
  const db = await getDb();
  const result: SpikeCheckResult = { apps: 0, opened: 0, closed: 0, queued: 0, topics: 0 };
  for (const appKey of await appsToCheck(db)) {
    try {
      const r = await checkApp(appKey, now);
      result.apps++;
      result.opened += r.opened;
      result.closed += r.closed;
      result.queued += r.queued;
      result.topics += r.topics;
    } catch (err) {
      log.error('spike check failed for an app', { appKey, err });
    }
  }
  if (result.queued) wake('deliver');
  if (result.opened || result.closed || result.topics) log.info('spike check', { ...result });
  return result;
}

async function checkApp(appKey: string, now: Date) {
  const db = await getDb();
  const days = 1 + SPIKE_SETTINGS.baselineDays;
  const series = seriesOf(await dailyCounts(db, appKey, now, days), days);
  const key = (e: EpisodeRow) => scopeKey({ kind: e.scope_kind, value: e.scope_value });
  const episodes = await openEpisodesOf(db, appKey);
  const recent = await recentlyClosedOf(db, appKey, new Date(now.getTime() - QUIET_MS));
  const open = new Map(episodes.filter((e) => e.scope_kind !== 'topic').map((e) => [key(e), e.id]));
  const quiet = new Set(recent.filter((e) => e.scope_kind !== 'topic').map(key));
  const openTopics = new Map(episodes.filter((e) => e.scope_kind === 'topic').map((e) => [e.scope_value, e.id]));
  const quietTopics = new Set(recent.filter((e) => e.scope_kind === 'topic').map((e) => e.scope_value));

  const decision = decide(series, new Set(open.keys()), quiet);
  const topics = await topicsOf(appKey, series, now, openTopics, quietTopics);
  const closing = [...decision.close.map((k) => open.get(k)!), ...topics.close.map((k) => openTopics.get(k)!)].filter((id) => id !== undefined);
  await closeEpisodes(db, closing, now);

  let opened = 0;
  let queued = 0;
  let topicsOpened = 0;
  const count = (q: number | null, told: boolean) => {
    if (q === null) return;
    if (told) opened++;
    queued += q;
  };
  // Topics found while the whole app's spike opens are told in its alert.
  const appSpike = decision.open.find((o) => o.verdict.scope.kind === 'app');
  for (const { verdict, concentration } of decision.open) {
    // A drop of the average without more 1–2★ reviews (5★ turning 3★) is shown by the window's 3★ reviews.
    const maxRating = verdict.signals.some((s) => s.metric === 'low_share') ? 2 : 3;
    const { since, cited } = await windowLowReviews(db, appKey, verdict.scope, { from: new Date(now.getTime() - DAY_MS), to: now, maxRating }, CITED_REVIEWS);
    const told = verdict.scope.kind === 'app' ? topics.found.map((t) => t.signal) : [];
    count(await openEpisode(appKey, verdict.scope, since, { scope: verdict.scope, signals: [...verdict.signals, ...told], concentration, cited }, now, true), true);
  }
  for (const topic of topics.open) {
    const scope: Scope = { kind: 'topic', value: topic.signal.key };
    const { since, cited } = await topicCitations(topic);
    const q = await openEpisode(appKey, scope, since, { scope, signals: [topic.signal], concentration: [], cited }, now, !appSpike);
    if (q !== null) topicsOpened++;
    count(q, !appSpike);
  }
  return { opened, closed: closing.length, queued, topics: topicsOpened };
}

async function topicCitations(topic: TopicOpening): Promise<{ since: Date | null; cited: CitedReview[] }> {
  return topicReviews(await getDb(), topic.reviewIds, CITED_REVIEWS);
}

/**
 * The app's topics now (topics.ts): the terms of the last 24 hours' reviews against the 28 days before. Reads the
 * baseline's texts only when the window has a candidate (enough 1–2★ reviews) or a topic is open.
 */
async function topicsOf(appKey: string, series: ScopeSeries[], now: Date, open: Map<string, number>, quiet: Set<string>): Promise<TopicDecision> {
  const none: TopicDecision = { open: [], close: [...open.keys()], found: [] };
  const app = series.find((s) => s.scope.kind === 'app');
  const windowCounts = app?.days[0];
  const baselineTotal = (app?.days.slice(1, 1 + TOPIC_SETTINGS.baselineDays) ?? []).reduce((n, d) => n + d.n, 0);
  if (!windowCounts || (windowCounts.low < TOPIC_SETTINGS.minReviews * TOPIC_SETTINGS.minLowShare && !open.size)) return none;
  const stop = appNameWords({ key: appKey, title: await appTitleOf(appKey), store: '' });
  const windowFrom = new Date(now.getTime() - DAY_MS);
  // The window is (now − 24 h, now], as the daily counts (data.ts dailyCounts) have it.
  const after = (t: Date) => new Date(t.getTime() + 1);
  const windowRows = await periodReviews({ appKey, from: after(windowFrom), toExclusive: after(now), limit: TOPIC_WINDOW_MAX_REVIEWS });
  const window = countTerms(windowRows.map(termReview), stop, { allIds: true });
  const baselineRows = await periodReviews({
    appKey,
    from: after(new Date(windowFrom.getTime() - TOPIC_SETTINGS.baselineDays * DAY_MS)),
    toExclusive: after(windowFrom),
    limit: TOPIC_BASELINE_MAX_REVIEWS,
  });
  const baseline = countTerms(baselineRows.map(termReview), stop);
  return decideTopics({ window, baseline, baselineTotal: Math.max(baselineTotal, baseline.reviews), open: new Set(open.keys()), quiet });
}

/**
 * Opens the episode and, when `deliver`, queues its alerts in one transaction; null when another check opened it
 * first. A topic told in the same check's spike alert opens without deliveries (it is not told twice).
 */
async function openEpisode(appKey: string, scope: Scope, since: Date | null, details: AlertDetails, now: Date, deliver: boolean): Promise<number | null> {
  const db = await getDb();
  return db.transaction().execute(async (trx) => {
    const episodeId = await insertEpisode(trx, appKey, scope, since ?? new Date(now.getTime() - DAY_MS), details, now);
    if (episodeId === null) return null;
    if (!deliver) return 0;
    // A destination filtered to some countries hears about those countries' spikes, and about the app's, versions' and topics'.
    const wanted = (await alertDestinationsOf(trx, appKey)).filter((d) => {
      const countries = readFilters(d.filters).countries ?? [];
      return scope.kind !== 'country' || countries.length === 0 || countries.includes(scope.value);
    });
    const queued = await queueAlertDeliveries(
      trx,
      episodeId,
      appKey,
      wanted.map((d) => d.id),
    );
    log.info('spike episode opened', { appKey, episodeId, scope: scopeKey(scope), signals: details.signals.map((s) => s.metric), destinations: queued });
    return queued;
  });
}
