/**
 * The weekly summaries' SQL: which apps have someone who wants one, the stored summary of an app's week, who receives
 * it, and the queued sends. A summary is stored once per app and week (`insert … on conflict do nothing`, then read
 * back), and each send is queued with ON CONFLICT DO NOTHING on a unique index — one delivery per destination and
 * summary, one e-mail per subscription and summary — so runs racing on two workers, or a run repeated after a crash,
 * queue each send once.
 */
import { sql } from 'kysely';
import type { DB } from '../db/client';

export type WeeklySummaryRow = {
  id: number;
  app_key: string;
  week_start: string;
  method: 'extractive' | 'llm';
  text: string;
  content: unknown;
  citations: string[];
  note: string | null;
};

/** Apps with an active destination that opted in (of an organisation), or an e-mail subscriber who did. */
export async function appsWithWeeklyRecipients(db: DB): Promise<Array<{ key: string; title: string; store: string }>> {
  const r = await sql<{ key: string; title: string; store: string }>`
    select a.key, a.title, a.store from apps a
     where a.key in (
       select da.app_key from destination_apps da join destinations d on d.id = da.destination_id
        where d.weekly_summaries and d.status = 'active' and d.org_id is not null
       union
       select s.app_key from email_subscriptions s join email_recipients e on e.email = s.email
        where s.weekly_status = 'active' and e.unsubscribed_at is null)
     order by a.key`.execute(db);
  return r.rows;
}

const COLUMNS = sql`id::int as id, app_key, to_char(week_start, 'YYYY-MM-DD') as week_start, method, text, content, citations, note`;

export async function weeklySummaryOf(db: DB, appKey: string, weekStart: string): Promise<WeeklySummaryRow | undefined> {
  const r = await sql<WeeklySummaryRow>`select ${COLUMNS} from weekly_summaries where app_key = ${appKey} and week_start = ${weekStart}::date`.execute(db);
  return r.rows[0];
}

export async function weeklySummaryById(db: DB, id: number): Promise<WeeklySummaryRow | undefined> {
  const r = await sql<WeeklySummaryRow>`select ${COLUMNS} from weekly_summaries where id = ${id}`.execute(db);
  return r.rows[0];
}

/** Stores the week's summary unless one is stored already; returns the stored one either way (the first writer's). */
export async function storeWeeklySummary(db: DB, s: Omit<WeeklySummaryRow, 'id'>): Promise<WeeklySummaryRow> {
  await sql`insert into weekly_summaries (app_key, week_start, method, text, content, citations, note)
            values (${s.app_key}, ${s.week_start}::date, ${s.method}, ${s.text}, ${JSON.stringify(s.content)}::jsonb, ${s.citations}::text[], ${s.note})
            on conflict (app_key, week_start) do nothing`.execute(db);
  return (await weeklySummaryOf(db, s.app_key, s.week_start))!;
}

/** The app's active destinations of organisations that opted in to its weekly summary. */
export async function weeklyDestinationsOf(db: DB, appKey: string): Promise<Array<{ id: string; org_id: string }>> {
  const r = await sql<{ id: string; org_id: string }>`
    select d.id, d.org_id from destinations d join destination_apps da on da.destination_id = d.id
     where da.app_key = ${appKey} and d.weekly_summaries and d.status = 'active' and d.org_id is not null
     order by d.id`.execute(db);
  return r.rows;
}

/** One summary delivery per destination and summary (deliveries_one_summary_idx): a repeat is a no-op. */
export async function queueSummaryDeliveries(db: DB, summaryId: number, appKey: string, destinationIds: string[]): Promise<number> {
  if (!destinationIds.length) return 0;
  const r = await db
    .insertInto('deliveries')
    .values(destinationIds.map((id) => ({ destination_id: id, app_key: appKey, review_id: null, kind: 'summary' as const, alert_episode_id: null, weekly_summary_id: summaryId })))
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0);
}

/**
 * The subscriptions whose address wants the app's weekly summary and has not unsubscribed: one per address (an address
 * following the app in two storefronts gets the app's summary once).
 */
export async function weeklySubscriptionsOf(db: DB, appKey: string): Promise<string[]> {
  const r = await sql<{ id: string }>`
    select distinct on (s.email) s.id from email_subscriptions s join email_recipients e on e.email = s.email
     where s.app_key = ${appKey} and s.weekly_status = 'active' and e.unsubscribed_at is null
     order by s.email, s.created_at, s.id`.execute(db);
  return r.rows.map((x) => x.id);
}

/** One e-mail per subscription and summary (email_requests_one_summary_idx), in the reviews-by-e-mail outbox. */
export async function queueSummaryEmails(db: DB, summaryId: number, subscriptionIds: string[]): Promise<number> {
  if (!subscriptionIds.length) return 0;
  const r = await db
    .insertInto('email_requests')
    .values(subscriptionIds.map((id) => ({ subscription_id: id, kind: 'weekly_summary' as const, weekly_summary_id: summaryId })))
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0);
}

/** The weekly summary of one e-mail subscription: `offered` (asked on the form), `active` (the mailbox clicked), `off`. */
export async function setWeeklyStatus(db: DB, subscriptionId: string, status: 'off' | 'offered' | 'active'): Promise<void> {
  await db
    .updateTable('email_subscriptions')
    .set({ weekly_status: status, updated_at: sql`now()`, ...(status === 'active' ? { weekly_confirmed_at: sql`coalesce(weekly_confirmed_at, now())` } : {}) })
    .where('id', '=', subscriptionId)
    .execute();
}
