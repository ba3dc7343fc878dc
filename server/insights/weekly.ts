/**
 * The weekly summary of every app someone asked for one of: each UTC week (Monday to Sunday), once the week is over,
 * the existing summary (summaries.ts: the model's themes with checked citations when a model is configured, the
 * labelled extractive summary otherwise; both with what changed against the week before and the versions) is stored
 * once per app and week, then queued to every recipient that opted in — destinations through the delivery outbox
 * (server/monitor), e-mail subscribers through the reviews-by-e-mail outbox (server/subscriptions).
 *
 * The run (`runWeeklySummaries`) can happen any time after the week ended and as often as wanted: it always works on
 * the last complete week, a stored summary is never written again (a retry sends the same text), and every send is
 * queued once per recipient and week by a unique index. So a run missed on Monday (a stopped server) is caught up by
 * the next one, two workers racing send nothing twice, and a recipient who opts in during the week gets that week's
 * summary at the next run.
 *
 * Plans: a destination's organisation needs the `summaries` feature, at queue time. The model is asked only for apps
 * with such a destination (the server's own call, once per app and week, shared by every recipient: no organisation's
 * budget pays); apps followed only by e-mail subscribers get the extractive summary.
 */
import { llmConfig } from '../ai/llm/config';
import { getDb } from '../db/client';
import { log } from '../log';
import { wake } from '../monitor/wake';
import { orgHasFeature } from '../plans/features';
import { kickEmailRequests } from '../subscriptions/service';
import { periodsOf } from './period';
import { composeSummary, type SummaryContent } from './summaries';
import { appsWithWeeklyRecipients, queueSummaryDeliveries, queueSummaryEmails, storeWeeklySummary, weeklyDestinationsOf, weeklySubscriptionsOf, weeklySummaryOf } from './weeklyData';

const DAY_MS = 86_400_000;

/** The Monday (UTC, 'YYYY-MM-DD') that began the last complete week before `now`. */
export function lastCompleteWeek(now: Date): string {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const sinceMonday = (now.getUTCDay() + 6) % 7;
  return new Date(today - (sinceMonday + 7) * DAY_MS).toISOString().slice(0, 10);
}

export type WeeklyRunResult = { week: string; apps: number; written: number; deliveries: number; emails: number };

/** Summarises the last complete week for every app with a recipient, and queues what is owed. Safe to run concurrently. */
export async function runWeeklySummaries(now = new Date()): Promise<WeeklyRunResult> {
  const db = await getDb();
  const week = lastCompleteWeek(now);
  const result: WeeklyRunResult = { week, apps: 0, written: 0, deliveries: 0, emails: 0 };
  const entitled = new Map<string, boolean>();
  const hasSummaries = async (orgId: string) => {
    if (!entitled.has(orgId)) entitled.set(orgId, await orgHasFeature(orgId, 'summaries'));
    return entitled.get(orgId)!;
  };
  for (const app of await appsWithWeeklyRecipients(db)) {
    try {
      const destinations: string[] = [];
      for (const d of await weeklyDestinationsOf(db, app.key)) if (await hasSummaries(d.org_id)) destinations.push(d.id);
      const subscriptions = await weeklySubscriptionsOf(db, app.key);
      if (!destinations.length && !subscriptions.length) continue;
      result.apps++;
      let summary = await weeklySummaryOf(db, app.key, week);
      if (!summary) {
        const from = new Date(`${week}T00:00:00Z`);
        const periods = periodsOf({ from, to: new Date(from.getTime() + 6 * DAY_MS) });
        const composed = await composeSummary(app, periods, { orgId: null, model: !!llmConfig() && destinations.length > 0 });
        summary = await storeWeeklySummary(db, { app_key: app.key, week_start: week, ...composed });
        result.written++;
      }
      // A week without a review says nothing worth a message (like a digest day without reviews): stored, not sent.
      if ((summary.content as SummaryContent).figures.reviews === 0) continue;
      result.deliveries += await queueSummaryDeliveries(db, summary.id, app.key, destinations);
      result.emails += await queueSummaryEmails(db, summary.id, subscriptions);
    } catch (err) {
      log.error('weekly summary failed for an app', { appKey: app.key, week, err });
    }
  }
  if (result.deliveries) wake('deliver');
  if (result.emails) kickEmailRequests();
  if (result.written || result.deliveries || result.emails) log.info('weekly summaries', { ...result });
  return result;
}
