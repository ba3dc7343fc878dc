import { sql, type Kysely } from 'kysely';

// What an organisation pays for and how much of its monthly allowances it has used.
// orgs.plan (since 0001) names the plan in the catalogue (shared/plans.ts). Beside it: the subscription's state as the
// payment provider last reported it (plan_status, Stripe's words: active, trialing, past_due, canceled, unpaid…), the
// end of the period paid for, and the provider's customer and subscription ids (unique: one organisation each).
// org_usage_months counts what a plan allows per calendar month (UTC): one row per organisation and month, created by
// the first use of that month, so a month without use reads 0 without a row.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('orgs')
    .addColumn('plan_status', 'text', (c) => c.notNull().defaultTo('active'))
    .addColumn('current_period_end', 'timestamptz')
    .addColumn('stripe_customer_id', 'text', (c) => c.unique())
    .addColumn('stripe_subscription_id', 'text', (c) => c.unique())
    .execute();

  await db.schema
    .createTable('org_usage_months')
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id').onDelete('cascade'))
    .addColumn('month', 'text', (c) => c.notNull()) // 'YYYY-MM', UTC (text: the same value on PGlite and PostgreSQL)
    .addColumn('ask_arb_questions', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('org_usage_months_pkey', ['org_id', 'month'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('org_usage_months').ifExists().execute();
  await sql`alter table orgs drop column if exists stripe_subscription_id, drop column if exists stripe_customer_id, drop column if exists current_period_end, drop column if exists plan_status`.execute(db);
}
