import { sql, type Kysely } from 'kysely';

// Public-API calls per organisation and calendar month, beside the month's Ask ARB questions: the plan's `api_calls`
// allowance is checked against it, and the Billing page shows it.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('org_usage_months').addColumn('api_calls', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table org_usage_months drop column if exists api_calls`.execute(db);
}
