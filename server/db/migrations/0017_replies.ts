import { sql, type Kysely } from 'kysely';

// Replies to reviews through the stores' APIs, reply templates per app, and what is left of each store key's
// allowance.
// - replies: one row per (organisation, review), changed in place when the reply is replaced. `state` is its life
//   (draft → sending → pending_publish → published, or failed with `failure` in plain words); a sending row is
//   claimed by one sender at a time through `lease_until`, so a reply is never posted twice; `attempts` counts tries
//   and `next_attempt_at` holds the backoff. `review_updated_at` is the review's content_updated_at when the reply was
//   sent: a later edit of the review shows as "edited after reply".
// - reply_templates: saved texts per app with {author} and {app} placeholders.
// - store_allowances: per store key (an App Store Connect key, a Play app), the requests left until `resets_at`, as
//   the store last reported them (X-Rate-Limit) or as counted here (Play's daily reply quota).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('replies')
    .addColumn('id', 'text', (c) => c.primaryKey()) // rpl_ + random
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id').onDelete('cascade'))
    .addColumn('review_id', 'bigint', (c) => c.notNull().references('reviews.id').onDelete('cascade'))
    .addColumn('app_key', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull()) // draft | sending | pending_publish | published | failed
    .addColumn('store_response_id', 'text')
    .addColumn('failure', 'text')
    .addColumn('author_user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('author_label', 'text', (c) => c.notNull()) // the person's e-mail, or "API key <name>"
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'timestamptz')
    .addColumn('lease_until', 'timestamptz')
    .addColumn('review_updated_at', 'timestamptz', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('sent_at', 'timestamptz')
    .addColumn('published_at', 'timestamptz')
    .addUniqueConstraint('replies_org_review_key', ['org_id', 'review_id'])
    .execute();
  await sql`create index replies_due_idx on replies (next_attempt_at) where state = 'sending'`.execute(db);
  await sql`create index replies_review_idx on replies (review_id)`.execute(db);

  await db.schema
    .createTable('reply_templates')
    .addColumn('id', 'text', (c) => c.primaryKey()) // tpl_ + random
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id').onDelete('cascade'))
    .addColumn('app_key', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('reply_templates_org_app_idx').on('reply_templates').columns(['org_id', 'app_key', 'name']).execute();

  await db.schema
    .createTable('store_allowances')
    .addColumn('key', 'text', (c) => c.primaryKey()) // appstore_connect:{keyId} | play:{package}
    .addColumn('remaining', 'integer', (c) => c.notNull())
    .addColumn('resets_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('store_allowances').ifExists().execute();
  await db.schema.dropTable('reply_templates').ifExists().execute();
  await db.schema.dropTable('replies').ifExists().execute();
}
