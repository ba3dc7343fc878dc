import { sql, type Kysely } from 'kysely';

// Spike alerts (server/alerts): the episodes the detector opens and closes, each destination's opt-in, and alert
// deliveries in the same outbox as reviews. An alert delivery names its episode; one per destination and episode
// (a unique index), so no re-run of the check, no race between workers, can queue an alert twice.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table destinations add column spike_alerts boolean not null default false`.execute(db);
  await db.schema
    .createTable('spike_episodes')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('app_key', 'text', (c) => c.notNull().references('apps.key').onDelete('cascade'))
    .addColumn('scope_kind', 'text', (c) => c.notNull()) // app | country | version
    .addColumn('scope_value', 'text', (c) => c.notNull().defaultTo('')) // '' for the whole app
    .addColumn('opened_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('since', 'timestamptz', (c) => c.notNull()) // the first 1–2★ review of the window that opened it
    .addColumn('closed_at', 'timestamptz')
    .addColumn('details', 'jsonb', (c) => c.notNull()) // what the alert says: signals, concentration, cited reviews
    .execute();
  // At most one open episode per app and scope: the check inserts ON CONFLICT DO NOTHING and alerts only if it inserted.
  await sql`create unique index spike_episodes_one_open_idx on spike_episodes (app_key, scope_kind, scope_value) where closed_at is null`.execute(db);
  await sql`create index spike_episodes_app_idx on spike_episodes (app_key, closed_at)`.execute(db);

  await sql`alter table deliveries add column alert_episode_id bigint references spike_episodes(id) on delete cascade`.execute(db);
  // The welcome intro is the other delivery without a review: its one-per-app rule must not catch alerts.
  await sql`drop index deliveries_one_welcome_idx`.execute(db);
  await sql`create unique index deliveries_one_welcome_idx on deliveries (destination_id, app_key) where review_id is null and alert_episode_id is null`.execute(db);
  await sql`create unique index deliveries_one_alert_idx on deliveries (destination_id, alert_episode_id) where alert_episode_id is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists deliveries_one_alert_idx`.execute(db);
  await sql`delete from deliveries where alert_episode_id is not null`.execute(db);
  await sql`drop index if exists deliveries_one_welcome_idx`.execute(db);
  await sql`create unique index deliveries_one_welcome_idx on deliveries (destination_id, app_key) where review_id is null`.execute(db);
  await sql`alter table deliveries drop column if exists alert_episode_id`.execute(db);
  await db.schema.dropTable('spike_episodes').ifExists().execute();
  await sql`alter table destinations drop column if exists spike_alerts`.execute(db);
}
