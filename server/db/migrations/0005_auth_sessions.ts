import { sql, type Kysely } from 'kysely';

// Revocable sign-ins (docs/SECURITY.md "Sessions and tokens"): every token of a sign-in names its session, and a revoked
// session ends them all. Hand-off codes carry a session from the header's Dashboard link to /dashboard once.
// Login codes remember which network asked for them, so a stranger's request cannot replace someone else's code.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('auth_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey()) // ses_ + random
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull()) // absolute end: renewing never extends it
    .addColumn('revoked_at', 'timestamptz')
    .addColumn('last_renewed_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('auth_sessions_user_idx').on('auth_sessions').columns(['user_id']).execute();

  await db.schema
    .createTable('handoff_codes')
    .addColumn('code_hash', 'text', (c) => c.primaryKey())
    .addColumn('session_id', 'text', (c) => c.notNull().references('auth_sessions.id').onDelete('cascade'))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('consumed_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  // Keyed hash of the requesting network (IPv4 address or IPv6 /64); null for codes from before this migration.
  await db.schema.alterTable('login_codes').addColumn('requester_hash', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('login_codes').dropColumn('requester_hash').execute();
  for (const t of ['handoff_codes', 'auth_sessions']) await db.schema.dropTable(t).ifExists().execute();
}
