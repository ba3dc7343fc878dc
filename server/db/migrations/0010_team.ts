import { sql, type Kysely } from 'kysely';

// Teams: invitations by e-mail (a link that signs the invitee in and joins them, or a sign-in with the invited address)
// and an audit log of every change to an organisation (who, what, when), which admins read.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table users add constraint users_role_check check (role in ('owner', 'admin', 'member'))`.execute(db);
  await db.schema.createIndex('users_org_idx').on('users').columns(['org_id']).execute();

  await db.schema
    .createTable('org_invitations')
    .addColumn('id', 'text', (c) => c.primaryKey()) // inv_ + random
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull()) // normalised the way sign-in normalises addresses
    .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('admin', 'member')`))
    .addColumn('invited_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique()) // keyed hash of the link's token; the token is never stored
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('accepted_at', 'timestamptz')
    .addColumn('revoked_at', 'timestamptz')
    .execute();
  // At most one open invitation per address and organisation: inviting again replaces it.
  await sql`create unique index org_invitations_open_idx on org_invitations (org_id, email)
             where accepted_at is null and revoked_at is null`.execute(db);
  await db.schema.createIndex('org_invitations_email_idx').on('org_invitations').columns(['email']).execute();

  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id').onDelete('cascade'))
    // Who: kept as an e-mail too, so the entry still says who it was after that person leaves.
    .addColumn('actor_user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('actor_email', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target', 'text')
    .addColumn('details', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('audit_log_org_idx').on('audit_log').columns(['org_id', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['audit_log', 'org_invitations']) await db.schema.dropTable(t).ifExists().execute();
  await db.schema.dropIndex('users_org_idx').ifExists().execute();
  await sql`alter table users drop constraint if exists users_role_check`.execute(db);
}
