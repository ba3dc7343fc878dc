import { sql, type Kysely } from 'kysely';

// Engine hardening: periodic jobs that run once per period across every worker process (job_runs), anonymous
// connections that expire (destinations.expires_at), and sources nobody needs that stop being polled
// (monitored_sources.status 'idle', no schema change: status is text).
export async function up(db: Kysely<unknown>): Promise<void> {
  // One row per periodic job. A process starts a run only by moving last_started_at forward in one UPDATE whose WHERE
  // says "a period has passed and nobody is running it", so two processes can never both start the same period's run.
  await db.schema
    .createTable('job_runs')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('last_started_at', 'timestamptz')
    .addColumn('last_finished_at', 'timestamptz')
    .addColumn('running_until', 'timestamptz') // a run's lease: a process that died mid-run frees the job when it ends
    .addColumn('run_by', 'text')
    .addColumn('runs', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();

  // Anonymous chat connections run until this time, then pause (claiming by signing in clears it). Null: no expiry.
  await db.schema.alterTable('destinations').addColumn('expires_at', 'timestamptz').execute();
  await sql`create index destinations_expiry_idx on destinations (expires_at) where expires_at is not null and status = 'active'`.execute(db);
  await sql`create index destinations_anonymous_email_idx on destinations (created_by_email) where org_id is null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists destinations_anonymous_email_idx`.execute(db);
  await sql`drop index if exists destinations_expiry_idx`.execute(db);
  await db.schema.alterTable('destinations').dropColumn('expires_at').execute();
  await db.schema.dropTable('job_runs').execute();
}
