import { sql, type Kysely } from 'kysely';

// The review monitoring engine: apps, monitored sources, reviews (+ edit history), destinations, their app
// subscriptions, and deliveries. See server/monitor/README.md for what each constraint guarantees.
export async function up(db: Kysely<unknown>): Promise<void> {
  // key = `${store}__${app_id}`, the same form the customer API uses in its paths (v1/apps/{store}__{appId}/…).
  await db.schema
    .createTable('apps')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('store', 'text', (c) => c.notNull())
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('icon_url', 'text')
    .addColumn('store_url', 'text')
    .addColumn('developer', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('apps_store_app_id_key', ['store', 'app_id'])
    .execute();

  // One row per thing we poll: app × kind × country (public iOS feed) or × language (public Play reviews).
  // country/language are '' when they do not apply, so the unique constraint holds without NULL tricks.
  await db.schema
    .createTable('monitored_sources')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('app_key', 'text', (c) => c.notNull().references('apps.key').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('country', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('language', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('credentials_enc', 'text') // AES-256-GCM (server/crypto.ts), official APIs only
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('active')) // active | paused | disabled
    .addColumn('status_reason', 'text')
    .addColumn('next_poll_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('watermark', 'timestamptz') // newest review modification time seen by a COMPLETE poll
    .addColumn('failure_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('last_polled_at', 'timestamptz')
    .addColumn('last_success_at', 'timestamptz')
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('monitored_sources_identity_key', ['app_key', 'kind', 'country', 'language'])
    .execute();
  await sql`create index monitored_sources_due_idx on monitored_sources (next_poll_at) where status = 'active'`.execute(db);

  await db.schema
    .createTable('reviews')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('app_key', 'text', (c) => c.notNull().references('apps.key').onDelete('cascade'))
    .addColumn('store', 'text', (c) => c.notNull())
    .addColumn('store_review_id', 'text', (c) => c.notNull())
    .addColumn('country', 'text')
    .addColumn('language', 'text')
    .addColumn('author_name', 'text', (c) => c.notNull())
    .addColumn('title', 'text')
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('rating', 'smallint', (c) => c.notNull())
    .addColumn('app_version', 'text')
    .addColumn('written_at', 'timestamptz') // when the store says it was first written
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull()) // the store's last modification
    .addColumn('reply_text', 'text')
    .addColumn('reply_updated_at', 'timestamptz')
    .addColumn('permalink', 'text')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0)) // edits of text or rating seen so far
    .addColumn('sentiment', 'text') // positive | neutral | negative, filled by enrichment
    .addColumn('sentiment_score', 'real')
    .addColumn('first_seen_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_changed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('reviews_store_review_key', ['store', 'store_review_id'])
    .execute();
  await db.schema.createIndex('reviews_app_recent_idx').on('reviews').columns(['app_key', 'updated_at desc', 'id desc']).execute();

  // What a review said before each edit: version N holds the text/rating the review had while reviews.version = N.
  await db.schema
    .createTable('review_versions')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('review_id', 'bigint', (c) => c.notNull().references('reviews.id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('rating', 'smallint', (c) => c.notNull())
    .addColumn('title', 'text')
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addColumn('recorded_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('review_versions_review_version_key', ['review_id', 'version'])
    .execute();

  // A place reviews are posted to. The URL (or e-mail address) is a bearer secret: encrypted, plus a keyed hash so
  // "same webhook again" can be found without decrypting every row.
  await db.schema
    .createTable('destinations')
    .addColumn('id', 'text', (c) => c.primaryKey()) // dst_ + 24 random base62 chars (public status page id)
    .addColumn('org_id', 'text', (c) => c.references('orgs.id').onDelete('cascade')) // null: try-free
    .addColumn('platform', 'text', (c) => c.notNull())
    .addColumn('target_enc', 'text', (c) => c.notNull())
    .addColumn('target_hash', 'text', (c) => c.notNull())
    .addColumn('target_hint', 'text', (c) => c.notNull()) // host + last 4 chars, safe to show and log
    .addColumn('label', 'text') // channel name when known (Slack OAuth), else null
    .addColumn('filters', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('active')) // active | paused | disabled
    .addColumn('status_reason', 'text')
    .addColumn('warning', 'text')
    .addColumn('welcome_count', 'integer', (c) => c.notNull().defaultTo(5))
    .addColumn('backfill', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_by_email', 'text')
    .addColumn('last_delivery_at', 'timestamptz')
    .addColumn('last_error', 'text')
    .addColumn('last_error_at', 'timestamptz')
    .addColumn('next_send_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`)) // pacing / Retry-After gate
    .addColumn('pace_tat', 'timestamptz') // GCRA "theoretical arrival time" (server/destinations/pacing.ts)
    .addColumn('consecutive_failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('destinations_target_hash_idx').on('destinations').column('target_hash').execute();
  await db.schema.createIndex('destinations_org_idx').on('destinations').column('org_id').execute();

  await db.schema
    .createTable('destination_apps')
    .addColumn('destination_id', 'text', (c) => c.notNull().references('destinations.id').onDelete('cascade'))
    .addColumn('app_key', 'text', (c) => c.notNull().references('apps.key').onDelete('cascade'))
    .addColumn('welcomed_at', 'timestamptz') // welcome (intro + last N reviews) queued for this app
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('destination_apps_pkey', ['destination_id', 'app_key'])
    .execute();
  await db.schema.createIndex('destination_apps_app_idx').on('destination_apps').column('app_key').execute();

  // One row per message owed to a destination. The unique constraint is what makes "at most once per review ×
  // destination" hold no matter how many pollers race: fan-out inserts with ON CONFLICT DO NOTHING.
  // review_version tells the 1st edit's announcement from the 2nd's; the welcome intro has no review.
  await db.schema
    .createTable('deliveries')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('destination_id', 'text', (c) => c.notNull().references('destinations.id').onDelete('cascade'))
    .addColumn('review_id', 'bigint', (c) => c.references('reviews.id').onDelete('cascade'))
    // A copy of the review's (or the welcome's) app, for the welcome intro and per-app queries. No foreign key: the
    // row goes with its destination or review, and a third per-row check would slow the bulk fan-out for nothing.
    .addColumn('app_key', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull()) // new | updated | welcome
    .addColumn('review_version', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending')) // pending | sending | retry | delivered | failed
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('first_attempt_at', 'timestamptz')
    .addColumn('last_attempt_at', 'timestamptz')
    .addColumn('delivered_at', 'timestamptz')
    .addColumn('last_status', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('worker', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('deliveries_once_key', ['review_id', 'destination_id', 'kind', 'review_version'])
    .execute();
  await sql`create unique index deliveries_one_welcome_idx on deliveries (destination_id, app_key) where review_id is null`.execute(db);
  await sql`create index deliveries_open_by_destination_idx on deliveries (destination_id, id) where status in ('pending', 'sending', 'retry')`.execute(db);
  await sql`create index deliveries_open_due_idx on deliveries (next_attempt_at) where status in ('pending', 'sending', 'retry')`.execute(db);
  await db.schema.createIndex('deliveries_review_idx').on('deliveries').column('review_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['deliveries', 'destination_apps', 'destinations', 'review_versions', 'reviews', 'monitored_sources', 'apps']) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
