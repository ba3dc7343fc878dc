import { sql, type Kysely } from 'kysely';

// Reviews by e-mail (server/subscriptions/README.md): who asked for which app's reviews, the per-address state that
// makes "unsubscribed means unsubscribed" and "at most one digest a day" hold, and the outbox of one-off e-mails.
export async function up(db: Kysely<unknown>): Promise<void> {
  // One row per address that ever asked. The row is the lock for that address's digest (FOR UPDATE SKIP LOCKED), so
  // two workers can never both send it the day's digest.
  await db.schema
    .createTable('email_recipients')
    .addColumn('email', 'text', (c) => c.primaryKey())
    .addColumn('unsubscribed_at', 'timestamptz') // set by every unsubscribe link; cleared only by a confirmed request
    .addColumn('next_digest_at', 'timestamptz') // null: no active digest
    .addColumn('last_digest_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index email_recipients_digest_due_idx on email_recipients (next_digest_at) where next_digest_at is not null`.execute(db);

  // An address × app (× iOS storefront, '' for Google Play or "every storefront") that reviews were asked for.
  await db.schema
    .createTable('email_subscriptions')
    .addColumn('id', 'text', (c) => c.primaryKey()) // esub_ + random
    .addColumn('email', 'text', (c) => c.notNull().references('email_recipients.email').onDelete('cascade'))
    .addColumn('app_key', 'text', (c) => c.notNull().references('apps.key').onDelete('cascade'))
    .addColumn('country', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('digest_status', 'text', (c) => c.notNull().defaultTo('offered')) // offered | active | off
    .addColumn('digest_confirmed_at', 'timestamptz')
    .addColumn('digest_cursor', 'timestamptz') // the next digest holds reviews first seen after this
    .addColumn('created_ip', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('email_subscriptions_identity_key', ['email', 'app_key', 'country'])
    .execute();

  // One-off e-mails owed to a subscription: the recent reviews, a summary, or the confirmation an unsubscribed address
  // gets instead. Stored before the answer goes out, so a crash or a mail-server outage delays them, never loses them.
  await db.schema
    .createTable('email_requests')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('subscription_id', 'text', (c) => c.notNull().references('email_subscriptions.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull()) // recent_reviews | summary | confirm_recent_reviews | confirm_summary
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending')) // pending | sent | failed | cancelled
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('lease_until', 'timestamptz')
    .addColumn('last_error', 'text')
    .addColumn('sent_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index email_requests_due_idx on email_requests (next_attempt_at) where status = 'pending'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['email_requests', 'email_subscriptions', 'email_recipients']) await db.schema.dropTable(t).ifExists().execute();
}
