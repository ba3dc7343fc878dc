import type { Kysely } from 'kysely';
import { sql } from 'kysely';

// A second live Stripe subscription for an organisation that already pays (a stale Checkout tab paid later, a
// double click across two tabs): the running one is kept and the newcomer is recorded here, cancelled through Stripe
// and told to the owners once (server/billing/refused.ts). The subscription id is the key, so two processes handling
// its events at once record, cancel and e-mail it once.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('refused_subscriptions')
    .addColumn('subscription_id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id').onDelete('cascade'))
    .addColumn('kept_subscription_id', 'text', (c) => c.notNull())
    .addColumn('plan', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('cancelled_at', 'timestamptz')
    .addColumn('owners_told_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('refused_subscriptions_org_idx').on('refused_subscriptions').columns(['org_id', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('refused_subscriptions').ifExists().execute();
}
