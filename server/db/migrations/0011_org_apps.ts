import { sql, type Kysely } from 'kysely';

// The organisation's apps: the apps its dashboard shows and its review inbox reads, each watched for as long as one
// organisation has it (server/monitor/sourceDemand.ts counts it as a need), whether or not any destination posts it.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('org_apps')
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id').onDelete('cascade'))
    .addColumn('app_key', 'text', (c) => c.notNull().references('apps.key').onDelete('cascade'))
    // App Store storefronts watched for this organisation; empty for Google Play apps (read by language).
    .addColumn('countries', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'::text[]`))
    .addColumn('added_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    // Kept as an address too, so the list still says who added it after that person leaves.
    .addColumn('added_by_email', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('org_apps_pkey', ['org_id', 'app_key'])
    .execute();
  // "Does any organisation want this app?" (source demand) reads by app.
  await db.schema.createIndex('org_apps_app_idx').on('org_apps').column('app_key').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('org_apps').ifExists().execute();
}
