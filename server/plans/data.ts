/**
 * Data functions for plans and usage: the organisation's plan columns, what it has (apps, channels, members, API
 * keys) and what it used this month (org_usage_months). The only place with SQL for them.
 */
import { sql } from 'kysely';
import { getDb, type DB } from '../db/client';
import type { UsageCounts } from './schemas';

const dbOf = async (db?: DB) => db ?? (await getDb());

export type OrgPlanRow = {
  id: string;
  plan: string;
  plan_status: string;
  current_period_end: Date | null;
  stripe_customer_id: string | null;
  stripe_subscription_id: string | null;
  past_due_since: Date | null;
  grace_notice: string | null;
};

/** The counts GET v1/org and GET v1/org/billing answer (schemas.ts): a count added there is one countUsage must fill. */
export type { UsageCounts };

/** Destinations that take a channel of the plan: delivering, or an e-mail address about to once confirmed (paused and disabled ones do not). */
export const COUNTED_DESTINATION_STATUSES = ['active', 'pending_confirmation'] as const;

export async function getOrgPlan(orgId: string, db?: DB): Promise<OrgPlanRow | undefined> {
  return (await dbOf(db))
    .selectFrom('orgs')
    .select(['id', 'plan', 'plan_status', 'current_period_end', 'stripe_customer_id', 'stripe_subscription_id', 'past_due_since', 'grace_notice'])
    .where('id', '=', orgId)
    .executeTakeFirst();
}

/**
 * The apps an organisation watches, which the plan's app limit counts: its apps (org_apps, the Apps page) and the apps
 * of its delivering or about-to-deliver destinations — a dashboard connection or a destination's `apps` makes an app
 * watched as much as the Apps page does. An app the plan paused (org_apps.plan_paused_at) is not watched: it is not
 * polled for the organisation and its channels get nothing from it (sourceDemand.ts).
 */
function watchedAppsQuery(orgId: string, exceptDestination?: string) {
  return sql`
    select oa.app_key from org_apps oa where oa.org_id = ${orgId} and oa.plan_paused_at is null
    union
    select da.app_key from destination_apps da join destinations d on d.id = da.destination_id
     where d.org_id = ${orgId} and d.status in ('active', 'pending_confirmation') ${exceptDestination ? sql`and d.id <> ${exceptDestination}` : sql``}
       and not exists (select 1 from org_apps pa where pa.org_id = d.org_id and pa.app_key = da.app_key and pa.plan_paused_at is not null)`;
}

/** The apps the organisation watches (the plan's count), leaving out what only `exceptDestination` watches when given. */
export async function watchedAppKeys(orgId: string, db?: DB, exceptDestination?: string): Promise<string[]> {
  const r = await sql<{ app_key: string }>`${watchedAppsQuery(orgId, exceptDestination)}`.execute(await dbOf(db));
  return r.rows.map((x) => x.app_key);
}

/** The calendar month (UTC) of `now` as stored: 'YYYY-MM'. */
export const usageMonth = (now: Date) => now.toISOString().slice(0, 7);

/** Everything an organisation has and used in `month`, in one statement. */
export async function countUsage(orgId: string, month: string, db?: DB): Promise<UsageCounts> {
  const row = await (await dbOf(db))
    .selectNoFrom((eb) => [
      sql<number>`(select count(*) from (${watchedAppsQuery(orgId)}) w)`.as('apps'),
      eb
        .selectFrom('destinations')
        .select((e) => e.fn.countAll<number>().as('n'))
        .where('org_id', '=', orgId)
        .where('status', 'in', COUNTED_DESTINATION_STATUSES)
        .as('channels'),
      eb.selectFrom('users').select((e) => e.fn.countAll<number>().as('n')).where('org_id', '=', orgId).as('members'),
      eb.selectFrom('api_keys').select((e) => e.fn.countAll<number>().as('n')).where('org_id', '=', orgId).where('revoked_at', 'is', null).as('api_keys'),
      eb
        .selectFrom('org_usage_months')
        .select('ask_arb_questions')
        .where('org_id', '=', orgId)
        .where('month', '=', month)
        .as('ask_arb_questions'),
      eb.selectFrom('org_usage_months').select('api_calls').where('org_id', '=', orgId).where('month', '=', month).as('api_calls'),
    ])
    .executeTakeFirstOrThrow();
  return {
    apps: Number(row.apps ?? 0),
    channels: Number(row.channels ?? 0),
    members: Number(row.members ?? 0),
    api_keys: Number(row.api_keys ?? 0),
    ask_arb_questions: Number(row.ask_arb_questions ?? 0),
    api_calls: Number(row.api_calls ?? 0),
  };
}

/** Count one Ask ARB question of `orgId` in `month`; the month's count after it. */
export async function addAskArbQuestion(orgId: string, month: string, db?: DB): Promise<number> {
  const row = await (await dbOf(db))
    .insertInto('org_usage_months')
    .values({ org_id: orgId, month, ask_arb_questions: 1 })
    .onConflict((oc) =>
      oc.columns(['org_id', 'month']).doUpdateSet({ ask_arb_questions: sql`org_usage_months.ask_arb_questions + 1`, updated_at: sql`now()` }),
    )
    .returning('ask_arb_questions')
    .executeTakeFirstOrThrow();
  return row.ask_arb_questions;
}

/** Invitations of the organisation still open at `now` (each may become a member), but `exceptEmail`'s (replaced when invited again). */
export async function countOpenInvitations(orgId: string, now: Date, db?: DB, exceptEmail?: string): Promise<number> {
  let q = (await dbOf(db))
    .selectFrom('org_invitations')
    .select((e) => e.fn.countAll<number>().as('n'))
    .where('org_id', '=', orgId)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now);
  if (exceptEmail) q = q.where('email', '<>', exceptEmail);
  const row = await q.executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Whether the organisation already has a destination for this target on this platform (any state). */
export async function orgHasDestinationTarget(orgId: string, platform: string, targetHash: string, db?: DB): Promise<boolean> {
  const row = await (await dbOf(db))
    .selectFrom('destinations')
    .select('id')
    .where('org_id', '=', orgId)
    .where('platform', '=', platform)
    .where('target_hash', '=', targetHash)
    .limit(1)
    .executeTakeFirst();
  return !!row;
}

/** The organisation's apps and channels as the plan's "choose what stays active" step shows them, oldest first. */
export type PlanItems = {
  apps: Array<{ app_key: string; title: string; store: string; paused: boolean; created_at: Date }>;
  channels: Array<{ id: string; platform: string; label: string | null; target_hint: string; status: string; paused: boolean; created_at: Date }>;
};

export async function listPlanItems(orgId: string, db?: DB): Promise<PlanItems> {
  const d = await dbOf(db);
  const [apps, channels] = await Promise.all([
    d
      .selectFrom('org_apps as oa')
      .innerJoin('apps as a', 'a.key', 'oa.app_key')
      .select(['oa.app_key', 'a.title', 'a.store', 'oa.created_at', (e) => e('oa.plan_paused_at', 'is not', null).as('paused')])
      .where('oa.org_id', '=', orgId)
      .orderBy('oa.created_at')
      .orderBy('oa.app_key')
      .execute(),
    d
      .selectFrom('destinations')
      .select(['id', 'platform', 'label', 'target_hint', 'status', 'created_at', (e) => e('disabled_cause', '=', 'plan_limit').as('paused')])
      .where('org_id', '=', orgId)
      .where((e) => e.or([e('status', 'in', COUNTED_DESTINATION_STATUSES), e.and([e('status', '=', 'paused'), e('disabled_cause', '=', 'plan_limit')])]))
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
  ]);
  return {
    apps: apps.map((a) => ({ ...a, paused: !!a.paused })),
    channels: channels.map((c) => ({ ...c, paused: c.status === 'paused' && !!c.paused })),
  };
}

/** Pauses (or resumes) the organisation's apps for the plan; returns the keys whose state changed. */
export async function setAppsPlanPaused(orgId: string, appKeys: string[], paused: boolean, db?: DB): Promise<string[]> {
  if (appKeys.length === 0) return [];
  const rows = await (await dbOf(db))
    .updateTable('org_apps')
    .set({ plan_paused_at: paused ? sql`now()` : null })
    .where('org_id', '=', orgId)
    .where('app_key', 'in', appKeys)
    .where('plan_paused_at', paused ? 'is' : 'is not', null)
    .returning('app_key')
    .execute();
  return rows.map((r) => r.app_key);
}

/**
 * Holds the organisation's row locked until the transaction ends: creations that count against a limit take it first,
 * so two of them cannot both read the count before either inserted (the second waits, then counts the first).
 */
export async function lockOrg(trx: DB, orgId: string): Promise<void> {
  await sql`select id from orgs where id = ${orgId} for update`.execute(trx);
}
