import { sql, type Kysely } from 'kysely';

// API keys of an organisation for the public API: `arb_` + random, stored only as a keyed hash (the key itself is
// shown once, when it is made), with a short visible prefix so people can tell their keys apart.
// Also each destination's `translate_to`: the language its reviews should be translated into (stored for the
// dashboard; nothing translates them yet).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey()) // key_ + random: names the key in the API and the audit log
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('prefix', 'text', (c) => c.notNull()) // the key's first characters, shown in the list
    .addColumn('key_hash', 'text', (c) => c.notNull().unique()) // HMAC of the whole key; the key is never stored
    .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_used_at', 'timestamptz')
    .addColumn('revoked_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('api_keys_org_idx').on('api_keys').columns(['org_id', 'created_at']).execute();

  await sql`alter table destinations add column translate_to text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table destinations drop column if exists translate_to`.execute(db);
  await db.schema.dropTable('api_keys').ifExists().execute();
}
