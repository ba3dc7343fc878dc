import { sql, type Kysely } from 'kysely';

// A fingerprint of each key the data depends on (server/db/keyFingerprints.ts): a process that starts with other keys
// than the ones the data was written with is refused, instead of failing on every encrypted row later.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('key_fingerprints')
    .addColumn('name', 'text', (c) => c.primaryKey()) // AUTH_SECRET | ENCRYPTION_KEY
    .addColumn('fingerprint', 'text', (c) => c.notNull()) // HMAC-SHA256(key, constant), hex: says nothing of the key
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('key_fingerprints').execute();
}
