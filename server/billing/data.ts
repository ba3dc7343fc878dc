/** Data functions of billing: the organisation's subscription columns, the Stripe events applied, the owners to tell. */
import { sql } from 'kysely';
import { getDb, type DB } from '../db/client';

const dbOf = async (db?: DB) => db ?? (await getDb());

export type SubscriptionColumns = {
  plan: string;
  plan_status: string;
  current_period_end: Date | null;
  stripe_customer_id: string;
  stripe_subscription_id: string;
  past_due_since: Date | null;
  grace_notice: string | null;
};

/** The organisation a Stripe subscription or customer belongs to, by the ids stored for it. */
export async function orgIdForStripe(ids: { subscriptionId?: string; customerId?: string }, db?: DB): Promise<string | undefined> {
  const d = await dbOf(db);
  if (ids.subscriptionId) {
    const row = await d.selectFrom('orgs').select('id').where('stripe_subscription_id', '=', ids.subscriptionId).executeTakeFirst();
    if (row) return row.id;
  }
  if (ids.customerId) {
    const row = await d.selectFrom('orgs').select('id').where('stripe_customer_id', '=', ids.customerId).executeTakeFirst();
    if (row) return row.id;
  }
  return undefined;
}

export async function orgExists(orgId: string, db?: DB): Promise<boolean> {
  return !!(await (await dbOf(db)).selectFrom('orgs').select('id').where('id', '=', orgId).executeTakeFirst());
}

/** Claims an event for processing: false when it was processed (or is being processed) already. */
export async function claimStripeEvent(id: string, type: string, db?: DB): Promise<boolean> {
  const rows = await (await dbOf(db)).insertInto('stripe_events').values({ id, type }).onConflict((oc) => oc.column('id').doNothing()).returning('id').execute();
  return rows.length === 1;
}

/** Gives an event back when applying it failed, so Stripe's next delivery of it is applied. */
export async function releaseStripeEvent(id: string, db?: DB): Promise<void> {
  await (await dbOf(db)).deleteFrom('stripe_events').where('id', '=', id).execute();
}

export async function setStripeEventOrg(id: string, orgId: string, db?: DB): Promise<void> {
  await (await dbOf(db)).updateTable('stripe_events').set({ org_id: orgId }).where('id', '=', id).execute();
}

export async function ownerEmails(orgId: string, db?: DB): Promise<string[]> {
  const rows = await (await dbOf(db)).selectFrom('users').select('email').where('org_id', '=', orgId).where('role', '=', 'owner').execute();
  return rows.map((r) => r.email);
}

/** Organisations past due whose next grace e-mail is due: the reminder after `reminderAfter`, the end after `endAfter`. */
export async function orgsDueForGraceNotice(now: Date, reminderAfterMs: number, endAfterMs: number, db?: DB) {
  const r = await sql<{ id: string; past_due_since: Date; grace_notice: string | null }>`
    select id, past_due_since, grace_notice from orgs
     where plan_status = 'past_due' and past_due_since is not null
       and ((coalesce(grace_notice, '') <> 'ended' and past_due_since <= ${new Date(now.getTime() - endAfterMs)})
         or (coalesce(grace_notice, '') not in ('reminder', 'ended') and past_due_since <= ${new Date(now.getTime() - reminderAfterMs)}))
     order by past_due_since limit 500`.execute(await dbOf(db));
  return r.rows;
}

/** Records a grace e-mail as sent, once: false when another process sent it first. */
export async function markGraceNotice(orgId: string, from: string | null, to: string, db?: DB): Promise<boolean> {
  const r = await sql`update orgs set grace_notice = ${to} where id = ${orgId} and grace_notice is not distinct from ${from}`.execute(await dbOf(db));
  return Number(r.numAffectedRows ?? 0) === 1;
}

/** A one-time payment's customer, for an organisation without one yet. */
export async function saveCustomerOnly(orgId: string, customerId: string, db?: DB): Promise<void> {
  await (await dbOf(db)).updateTable('orgs').set({ stripe_customer_id: customerId }).where('id', '=', orgId).where('stripe_customer_id', 'is', null).execute();
}

/**
 * Stores the organisation's subscription columns only while its stored subscription is still `expected`: two
 * processes applying two different subscriptions at once cannot both win (PostgreSQL re-checks the condition after
 * the other's update commits). False when another process changed it first.
 */
export async function saveOrgSubscriptionIfUnchanged(orgId: string, expected: string | null, values: SubscriptionColumns, db?: DB): Promise<boolean> {
  const r = await (await dbOf(db))
    .updateTable('orgs')
    .set(values)
    .where('id', '=', orgId)
    .where(sql<boolean>`stripe_subscription_id is not distinct from ${expected}`)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export type RefusedSubscriptionRow = { subscription_id: string; org_id: string; kept_subscription_id: string; plan: string | null; created_at: Date; cancelled_at: Date | null };

/** Records a refused subscription (once: a second process handling its events finds it recorded). */
export async function recordRefusedSubscription(input: { subscriptionId: string; orgId: string; keptSubscriptionId: string; plan: string | null }, db?: DB): Promise<void> {
  await (await dbOf(db))
    .insertInto('refused_subscriptions')
    .values({ subscription_id: input.subscriptionId, org_id: input.orgId, kept_subscription_id: input.keptSubscriptionId, plan: input.plan })
    .onConflict((oc) => oc.column('subscription_id').doNothing())
    .execute();
}

export async function getRefusedSubscription(subscriptionId: string, db?: DB): Promise<RefusedSubscriptionRow | undefined> {
  return (await dbOf(db))
    .selectFrom('refused_subscriptions')
    .select(['subscription_id', 'org_id', 'kept_subscription_id', 'plan', 'created_at', 'cancelled_at'])
    .where('subscription_id', '=', subscriptionId)
    .executeTakeFirst();
}

export async function markRefusedCancelled(subscriptionId: string, db?: DB): Promise<void> {
  await (await dbOf(db)).updateTable('refused_subscriptions').set({ cancelled_at: sql`now()` }).where('subscription_id', '=', subscriptionId).where('cancelled_at', 'is', null).execute();
}

/** Claims the owners' e-mail about a refused subscription: true for the one caller that should send it. */
export async function claimRefusedNotice(subscriptionId: string, db?: DB): Promise<boolean> {
  const r = await (await dbOf(db))
    .updateTable('refused_subscriptions')
    .set({ owners_told_at: sql`now()` })
    .where('subscription_id', '=', subscriptionId)
    .where('owners_told_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** The organisation's subscriptions refused since `since`, newest first (the Billing page says what happened to them). */
export async function recentRefusedSubscriptions(orgId: string, since: Date, db?: DB): Promise<RefusedSubscriptionRow[]> {
  return (await dbOf(db))
    .selectFrom('refused_subscriptions')
    .select(['subscription_id', 'org_id', 'kept_subscription_id', 'plan', 'created_at', 'cancelled_at'])
    .where('org_id', '=', orgId)
    .where('created_at', '>=', since)
    .orderBy('created_at', 'desc')
    .limit(5)
    .execute();
}
