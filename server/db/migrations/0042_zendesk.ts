import { sql, type Kysely } from 'kysely';

// Zendesk: an organisation's help desk (issue 32, server/zendesk/README.md).
// - zendesk_connections: one per organisation. The API token is sealed with ENCRYPTION_KEY (server/crypto.ts) and never
//   answered; `zendesk_user_id` is the user the token acts as (GET /api/v2/users/me.json at connect). The webhook's
//   signing secret is Zendesk's (it makes one when the admin creates the webhook), sealed too; `webhook_key` is ARB's
//   random name for the organisation in the webhook's URL, so an event is matched to its organisation before its
//   signature is checked with that organisation's secret.
// - zendesk_tickets: one row per (organisation, review), unique: the ticket, and the queue that creates it. `state`
//   queued → created (or failed with `failure` in plain words). A creator claims the row with `lease_until` and
//   `attempts + 1` in one update; an attempt after one whose outcome is unknown looks the ticket up by external_id
//   before creating it again. `comment_due` marks a created ticket that should get a note about the review's edit.
// - zendesk_webhook_events: the events already taken (Zendesk's event id, or the hash of the signed request), so each
//   is acted on once; kept a day (the signature's own window is five minutes).
// - zendesk_comment_replies: each public agent comment sent as a review's reply, unique per (organisation, ticket,
//   comment): a comment is sent once, however often its event arrives.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('zendesk_connections')
    .addColumn('org_id', 'text', (c) => c.primaryKey().references('orgs.id').onDelete('cascade'))
    .addColumn('subdomain', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('api_token_enc', 'text', (c) => c.notNull())
    .addColumn('zendesk_user_id', 'bigint', (c) => c.notNull())
    .addColumn('zendesk_user_name', 'text')
    .addColumn('signing_secret_enc', 'text')
    .addColumn('webhook_key', 'text', (c) => c.notNull().unique())
    .addColumn('last_event_at', 'timestamptz')
    .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('zendesk_tickets')
    .addColumn('id', 'text', (c) => c.primaryKey()) // zdt_ + random
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id').onDelete('cascade'))
    .addColumn('review_id', 'bigint', (c) => c.notNull().references('reviews.id').onDelete('cascade'))
    .addColumn('state', 'text', (c) => c.notNull()) // queued | created | failed
    .addColumn('ticket_id', 'bigint')
    .addColumn('ticket_url', 'text')
    .addColumn('ticket_status', 'text')
    .addColumn('failure', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'timestamptz')
    .addColumn('lease_until', 'timestamptz')
    .addColumn('comment_due', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('requested_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('zendesk_tickets_org_review_key', ['org_id', 'review_id'])
    .execute();
  await sql`create index zendesk_tickets_due_idx on zendesk_tickets (next_attempt_at) where state = 'queued' or comment_due`.execute(db);
  await sql`create index zendesk_tickets_ticket_idx on zendesk_tickets (org_id, ticket_id)`.execute(db);
  await sql`create index zendesk_tickets_review_idx on zendesk_tickets (review_id)`.execute(db);

  await db.schema
    .createTable('zendesk_webhook_events')
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id').onDelete('cascade'))
    .addColumn('event_key', 'text', (c) => c.notNull())
    .addColumn('received_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('zendesk_webhook_events_pkey', ['org_id', 'event_key'])
    .execute();
  await db.schema.createIndex('zendesk_webhook_events_received_idx').on('zendesk_webhook_events').column('received_at').execute();

  await db.schema
    .createTable('zendesk_comment_replies')
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id').onDelete('cascade'))
    .addColumn('ticket_id', 'bigint', (c) => c.notNull())
    .addColumn('comment_id', 'bigint', (c) => c.notNull())
    .addColumn('review_id', 'bigint', (c) => c.notNull().references('reviews.id').onDelete('cascade'))
    .addColumn('reply_id', 'text')
    .addColumn('outcome', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('zendesk_comment_replies_pkey', ['org_id', 'ticket_id', 'comment_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('zendesk_comment_replies').ifExists().execute();
  await db.schema.dropTable('zendesk_webhook_events').ifExists().execute();
  await db.schema.dropTable('zendesk_tickets').ifExists().execute();
  await db.schema.dropTable('zendesk_connections').ifExists().execute();
}
