import { sql, type Kysely } from 'kysely';

// Weekly summaries (server/insights/weekly*.ts): one stored summary per app and UTC week (Monday to Sunday), so every
// recipient — and every retry — gets the same text; each destination's opt-in; summary deliveries in the same outbox
// as reviews (one per destination and summary: a unique index); and, for the reviews-by-e-mail subscribers, their
// opt-in and one e-mail per subscription and summary in the e-mail outbox (a unique index too).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table destinations add column weekly_summaries boolean not null default false`.execute(db);
  await db.schema
    .createTable('weekly_summaries')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('app_key', 'text', (c) => c.notNull().references('apps.key').onDelete('cascade'))
    .addColumn('week_start', 'date', (c) => c.notNull()) // the Monday (UTC) the summarised week began
    .addColumn('method', 'text', (c) => c.notNull().check(sql`method in ('extractive', 'llm')`))
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('content', 'jsonb', (c) => c.notNull())
    .addColumn('citations', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'::text[]`))
    .addColumn('note', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('weekly_summaries_app_week_key', ['app_key', 'week_start'])
    .execute();

  await sql`alter table deliveries add column weekly_summary_id bigint references weekly_summaries(id) on delete cascade`.execute(db);
  // The welcome intro's one-per-app rule is for deliveries without a review, an episode or a summary.
  await sql`drop index deliveries_one_welcome_idx`.execute(db);
  await sql`create unique index deliveries_one_welcome_idx on deliveries (destination_id, app_key) where review_id is null and alert_episode_id is null and weekly_summary_id is null`.execute(db);
  await sql`create unique index deliveries_one_summary_idx on deliveries (destination_id, weekly_summary_id) where weekly_summary_id is not null`.execute(db);

  await sql`alter table email_subscriptions add column weekly_status text not null default 'off'`.execute(db); // off | offered (asked on the form) | active
  await sql`alter table email_subscriptions add column weekly_confirmed_at timestamptz`.execute(db);
  await sql`alter table email_requests add column weekly_summary_id bigint references weekly_summaries(id) on delete cascade`.execute(db);
  await sql`create unique index email_requests_one_summary_idx on email_requests (subscription_id, weekly_summary_id) where weekly_summary_id is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists email_requests_one_summary_idx`.execute(db);
  await sql`alter table email_requests drop column if exists weekly_summary_id`.execute(db);
  await sql`alter table email_subscriptions drop column if exists weekly_confirmed_at`.execute(db);
  await sql`alter table email_subscriptions drop column if exists weekly_status`.execute(db);
  await sql`drop index if exists deliveries_one_summary_idx`.execute(db);
  await sql`delete from deliveries where weekly_summary_id is not null`.execute(db);
  await sql`drop index if exists deliveries_one_welcome_idx`.execute(db);
  await sql`create unique index deliveries_one_welcome_idx on deliveries (destination_id, app_key) where review_id is null and alert_episode_id is null`.execute(db);
  await sql`alter table deliveries drop column if exists weekly_summary_id`.execute(db);
  await db.schema.dropTable('weekly_summaries').ifExists().execute();
  await sql`alter table destinations drop column if exists weekly_summaries`.execute(db);
}
