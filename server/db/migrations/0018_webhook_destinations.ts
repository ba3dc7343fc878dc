import { sql, type Kysely } from 'kysely';

// Signed webhook destinations: each has its own signing secret (`whsec_…`), encrypted at rest like the webhook URL
// (server/crypto.ts). Null for every other platform.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('destinations').addColumn('signing_secret_enc', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table destinations drop column if exists signing_secret_enc`.execute(db);
}
