import { sql, type Kysely } from 'kysely';

// Automatic replies that rules draft (server/replies/ruleReplies.ts), sent at once ('auto') or waiting for a person's
// approval ('approval'), and what keeps them safe.
// - replies gain who drafted them: `rule_id` and `rule_name` (the rule as it was named when it drafted; the rule may be
//   renamed or deleted later), `rule_mode`, `template_id`, `drafted_by` ('template' | 'model'), and who decided on an
//   approval: `decided_by` (a member), `decided_by_label` (their e-mail), `decided_at`. Two new states:
//   `awaiting_approval` (a draft waiting in Replies → Awaiting approval; never due for the outbox) and `rejected` (a
//   person said no; kept, so the rule never drafts for that review again). A queued automatic reply is `sending`, as
//   any reply the outbox sends. The one row per (organisation, review) of 0017 is what makes "never twice" hold.
// - reply_rule_days: automatic replies drafted per (organisation, app, UTC day), across rules: a rule's `daily_cap`
//   is checked and spent here in one statement.
// - reply_pauses: an app whose store refused a reply for its credentials or its quota: rules draft no reply for it
//   until the pause is lifted (DELETE, or new credentials) or `until` passes (a quota's reset). `reason` in words.
// - reply_approval_messages: a draft posted to a Slack channel for approval (Approve / Edit / Reject buttons): its
//   destination, whether it was posted (an outbox: `next_try_at`, `attempts`, `last_error`), and where the message is
//   once a click said so (channel, ts, the click's response_url).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('replies')
    .addColumn('rule_id', 'text')
    .addColumn('rule_name', 'text')
    .addColumn('rule_mode', 'text')
    .addColumn('template_id', 'text')
    .addColumn('drafted_by', 'text')
    .addColumn('decided_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('decided_by_label', 'text')
    .addColumn('decided_at', 'timestamptz')
    .execute();
  await sql`create index replies_org_state_idx on replies (org_id, state, created_at desc, id desc)`.execute(db);

  await db.schema
    .createTable('reply_rule_days')
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id').onDelete('cascade'))
    .addColumn('app_key', 'text', (c) => c.notNull())
    .addColumn('day', 'date', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('reply_rule_days_pkey', ['org_id', 'app_key', 'day'])
    .execute();

  await db.schema
    .createTable('reply_pauses')
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id').onDelete('cascade'))
    .addColumn('app_key', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull()) // credentials | quota
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('since', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('until', 'timestamptz')
    .addPrimaryKeyConstraint('reply_pauses_pkey', ['org_id', 'app_key'])
    .execute();

  await db.schema
    .createTable('reply_approval_messages')
    .addColumn('reply_id', 'text', (c) => c.primaryKey().references('replies.id').onDelete('cascade'))
    .addColumn('destination_id', 'text', (c) => c.notNull().references('destinations.id').onDelete('cascade'))
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('pending')) // pending | posted | failed
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_try_at', 'timestamptz', (c) => c.defaultTo(sql`now()`))
    .addColumn('last_error', 'text')
    .addColumn('posted_at', 'timestamptz')
    .addColumn('channel_id', 'text')
    .addColumn('message_ts', 'text')
    .addColumn('response_url', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index reply_approval_messages_due_idx on reply_approval_messages (next_try_at) where state = 'pending'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('reply_approval_messages').ifExists().execute();
  await db.schema.dropTable('reply_pauses').ifExists().execute();
  await db.schema.dropTable('reply_rule_days').ifExists().execute();
  await sql`drop index if exists replies_org_state_idx`.execute(db);
  for (const c of ['decided_at', 'decided_by_label', 'decided_by', 'drafted_by', 'template_id', 'rule_mode', 'rule_name', 'rule_id']) {
    await db.schema.alterTable('replies').dropColumn(c).execute();
  }
}
