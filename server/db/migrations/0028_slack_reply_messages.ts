import { sql, type Kysely } from 'kysely';

// Where a review's message sits in a Slack channel (channel id and message ts, as Slack's Reply click tells them; an
// incoming webhook answers "ok" and never says), so the message can be updated again with chat.update when the reply
// to that review is published — which may be hours after the click, long after its response_url has expired (30
// minutes; while it lasts it is used first: it needs no scope).
// `shown_published_at` is the reply's published_at the message last showed; `failures`/`next_try_at` space out the
// retries of an update Slack did not take.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('slack_reply_messages')
    .addColumn('destination_id', 'text', (c) => c.notNull().references('destinations.id').onDelete('cascade'))
    .addColumn('review_id', 'bigint', (c) => c.notNull().references('reviews.id').onDelete('cascade'))
    .addColumn('channel_id', 'text', (c) => c.notNull())
    .addColumn('message_ts', 'text', (c) => c.notNull())
    .addColumn('response_url', 'text')
    .addColumn('response_url_at', 'timestamptz')
    .addColumn('shown_published_at', 'timestamptz')
    .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_try_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('slack_reply_messages_pkey', ['destination_id', 'review_id'])
    .execute();
  await db.schema.createIndex('slack_reply_messages_review').on('slack_reply_messages').column('review_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('slack_reply_messages').ifExists().execute();
}
