import { sql, type Kysely } from 'kysely';

// Why a destination is paused or disabled, as a value code compares (status_reason stays, for people to read).
// Before this column the code compared status_reason with English sentences; existing rows are classified once here
// by those sentences, for the last time.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table destinations add column disabled_cause text
    check (disabled_cause in ('owner', 'unsubscribed', 'receiver_refused', 'rate_limited', 'anonymous_expired'))`.execute(db);
  await sql`update destinations set disabled_cause = 'unsubscribed'
             where status = 'disabled' and status_reason = 'The recipient unsubscribed from these e-mails.'`.execute(db);
  await sql`update destinations set disabled_cause = 'receiver_refused' where status = 'disabled' and disabled_cause is null`.execute(db);
  await sql`update destinations set disabled_cause = 'rate_limited'
             where status = 'paused' and status_reason like '% answered every message with “too many requests”%'`.execute(db);
  await sql`update destinations set disabled_cause = 'anonymous_expired'
             where status = 'paused' and status_reason like 'This connection was made without an account and ran its%'`.execute(db);
  await sql`update destinations set disabled_cause = 'owner' where status = 'paused' and disabled_cause is null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table destinations drop column disabled_cause`.execute(db);
}
