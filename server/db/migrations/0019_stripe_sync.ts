import { sql, type Kysely } from 'kysely';

// Keeping organisations in step with their Stripe subscriptions, and plans that pause instead of deleting.
// - stripe_events: every webhook event id applied, so a redelivered or replayed event changes nothing the second time.
// - orgs.past_due_since / grace_notice: when the subscription's payment started failing (the grace period runs from
//   there) and the last grace e-mail sent to the owner ('started', 'reminder', 'ended'), so each is sent once.
// - org_apps.plan_paused_at: an app paused because the plan allows fewer apps (not polled for the organisation, its
//   channels get nothing from it); its reviews and settings stay, and it resumes when the plan allows it again.
// - destinations.disabled_cause gains 'plan_limit': a channel paused because the plan allows fewer channels.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('stripe_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('org_id', 'text')
    .addColumn('processed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .alterTable('orgs')
    .addColumn('past_due_since', 'timestamptz')
    .addColumn('grace_notice', 'text')
    .execute();
  await db.schema.alterTable('org_apps').addColumn('plan_paused_at', 'timestamptz').execute();
  await sql`alter table destinations drop constraint if exists destinations_disabled_cause_check`.execute(db);
  await sql`alter table destinations add constraint destinations_disabled_cause_check
    check (disabled_cause in ('owner', 'unsubscribed', 'receiver_refused', 'rate_limited', 'anonymous_expired', 'plan_limit'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`update destinations set disabled_cause = 'owner' where disabled_cause = 'plan_limit'`.execute(db);
  await sql`alter table destinations drop constraint if exists destinations_disabled_cause_check`.execute(db);
  await sql`alter table destinations add constraint destinations_disabled_cause_check
    check (disabled_cause in ('owner', 'unsubscribed', 'receiver_refused', 'rate_limited', 'anonymous_expired'))`.execute(db);
  await db.schema.alterTable('org_apps').dropColumn('plan_paused_at').execute();
  await sql`alter table orgs drop column if exists grace_notice, drop column if exists past_due_since`.execute(db);
  await db.schema.dropTable('stripe_events').ifExists().execute();
}
