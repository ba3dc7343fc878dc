import { sql, type Kysely } from 'kysely';

// Consent for e-mail: a new e-mail destination waits (status 'pending_confirmation') until its mailbox clicks the
// link of the one confirmation e-mail; and every unsubscribe moves the address to a new generation, so a link made
// before it (digest offer, confirmation) can no longer undo it. See server/subscriptions/README.md.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('destinations')
    .addColumn('confirmation_sent_at', 'timestamptz') // the last confirmation e-mail (null: none sent yet)
    .addColumn('confirmed_at', 'timestamptz') // when the mailbox confirmed (null for chat webhooks and older rows)
    .execute();
  await db.schema
    .alterTable('email_recipients')
    .addColumn('generation', 'integer', (c) => c.notNull().defaultTo(0)) // +1 on every unsubscribe
    .execute();
  // Addresses that unsubscribed before this migration start at generation 1: links e-mailed before it carry none (0).
  await sql`update email_recipients set generation = 1 where unsubscribed_at is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('email_recipients').dropColumn('generation').execute();
  await db.schema.alterTable('destinations').dropColumn('confirmed_at').dropColumn('confirmation_sent_at').execute();
}
