import { sql, type Kysely } from 'kysely';

// When an invitation's e-mail went out (null: none did, the address had unsubscribed from ARB e-mails). Inviting the
// same address again mails again only INVITATION_RESEND_COOLDOWN after this (server/org/invitations.ts). Every
// invitation made before this column was mailed when it was made (a failed send withdrew it).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('org_invitations').addColumn('mailed_at', 'timestamptz').execute();
  await sql`update org_invitations set mailed_at = created_at`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('org_invitations').dropColumn('mailed_at').execute();
}
