/**
 * The periodic spike check (jobs.ts): for every app that a destination wants alerts for (or that has an episode
 * open), count its reviews per day, country and version, let the detector decide, close the episodes that are over
 * and open the new ones — each new episode queueing one alert delivery per opted-in destination in the same
 * transaction, so the delivery outbox sends it exactly as it sends reviews (server/monitor/README.md).
 */
import { getDb } from '../db/client';
import { log } from '../log';
import { readFilters } from '../monitor/filters';
import { wake } from '../monitor/wake';
import { decide, scopeKey, SPIKE_SETTINGS, type Opening } from './detector';
import type { AlertDetails } from './details';
import { alertDestinationsOf, appsToCheck, closeEpisodes, dailyCounts, insertEpisode, openEpisodesOf, queueAlertDeliveries, recentlyClosedOf, windowLowReviews } from './data';
import { seriesOf } from './series';

const DAY_MS = 86_400_000;
/** How many of the window's 1–2★ reviews an alert quotes. */
export const CITED_REVIEWS = 3;
/** After an episode ends, its scope stays quiet this long: a surge wavering around the threshold is one alert. */
export const QUIET_MS = DAY_MS;

export type SpikeCheckResult = { apps: number; opened: number; closed: number; queued: number };

/** Checks every app that needs it, now. Safe to run concurrently: the database's unique indexes decide. */
export async function checkSpikes(now = new Date()): Promise<SpikeCheckResult> {
  const db = await getDb();
  const result: SpikeCheckResult = { apps: 0, opened: 0, closed: 0, queued: 0 };
  for (const appKey of await appsToCheck(db)) {
    try {
      const r = await checkApp(appKey, now);
      result.apps++;
      result.opened += r.opened;
      result.closed += r.closed;
      result.queued += r.queued;
    } catch (err) {
      log.error('spike check failed for an app', { appKey, err });
    }
  }
  if (result.queued) wake('deliver');
  if (result.opened || result.closed) log.info('spike check', { ...result });
  return result;
}

async function checkApp(appKey: string, now: Date) {
  const db = await getDb();
  const days = 1 + SPIKE_SETTINGS.baselineDays;
  const series = seriesOf(await dailyCounts(db, appKey, now, days), days);
  const open = new Map((await openEpisodesOf(db, appKey)).map((e) => [scopeKey({ kind: e.scope_kind, value: e.scope_value }), e.id]));
  const quiet = new Set((await recentlyClosedOf(db, appKey, new Date(now.getTime() - QUIET_MS))).map((e) => scopeKey({ kind: e.scope_kind, value: e.scope_value })));
  const decision = decide(series, new Set(open.keys()), quiet);
  const closing = decision.close.map((key) => open.get(key)!).filter((id) => id !== undefined);
  await closeEpisodes(db, closing, now);
  let opened = 0;
  let queued = 0;
  for (const opening of decision.open) {
    const q = await openEpisode(appKey, opening, now);
    if (q === null) continue;
    opened++;
    queued += q;
  }
  return { opened, closed: closing.length, queued };
}

/** Opens the episode and queues its alerts in one transaction; null when another check opened it first. */
async function openEpisode(appKey: string, { verdict, concentration }: Opening, now: Date): Promise<number | null> {
  const db = await getDb();
  // A drop of the average without more 1–2★ reviews (5★ turning 3★) is shown by the window's 3★ reviews.
  const maxRating = verdict.signals.some((s) => s.metric === 'low_share') ? 2 : 3;
  const { since, cited } = await windowLowReviews(db, appKey, verdict.scope, { from: new Date(now.getTime() - DAY_MS), to: now, maxRating }, CITED_REVIEWS);
  const details: AlertDetails = { scope: verdict.scope, signals: verdict.signals, concentration, cited };
  return db.transaction().execute(async (trx) => {
    const episodeId = await insertEpisode(trx, appKey, verdict.scope, since ?? new Date(now.getTime() - DAY_MS), details, now);
    if (episodeId === null) return null;
    // A destination filtered to some countries hears about those countries' spikes, and about the app's and versions'.
    const wanted = (await alertDestinationsOf(trx, appKey)).filter((d) => {
      const countries = readFilters(d.filters).countries ?? [];
      return verdict.scope.kind !== 'country' || countries.length === 0 || countries.includes(verdict.scope.value);
    });
    const queued = await queueAlertDeliveries(
      trx,
      episodeId,
      appKey,
      wanted.map((d) => d.id),
    );
    log.info('spike episode opened', { appKey, episodeId, scope: scopeKey(verdict.scope), signals: verdict.signals.map((s) => s.metric), destinations: queued });
    return queued;
  });
}
