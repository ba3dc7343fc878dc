import type { Kysely } from 'kysely';

// An organisation's store credentials for one of its apps (App Store Connect API key, or a Google Play service
// account): sealed with ENCRYPTION_KEY (server/crypto.ts), never sent back; the label (key id, or the service
// account's address) and the time of the successful check are what the dashboard shows. The engine's official
// source of the app carries a copy (monitored_sources.credentials_enc); removing the app removes these with its row.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('org_apps')
    .addColumn('credentials_kind', 'text') // 'app_store_connect' | 'google_play'
    .addColumn('credentials_enc', 'text')
    .addColumn('credentials_label', 'text')
    .addColumn('credentials_checked_at', 'timestamptz')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('org_apps')
    .dropColumn('credentials_kind')
    .dropColumn('credentials_enc')
    .dropColumn('credentials_label')
    .dropColumn('credentials_checked_at')
    .execute();
}
