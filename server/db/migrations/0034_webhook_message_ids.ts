import { sql, type Kysely } from 'kysely';

// Webhook message ids that are unique everywhere, and secret rotation without a gap (docs/SECURITY.md "Signed webhook
// destinations"):
// - webhook_message_id(): 'msg_' + a ULID's 128 bits in hexadecimal — 48 bits of milliseconds, then 80 random bits
//   (bytes 1–6 and 10–13 of a version 4 UUID; the others carry its version and variant) — the default of the new
//   deliveries.webhook_id. Hexadecimal rather than Crockford's base 32: the same uniqueness and order, at a quarter of
//   base 32's cost in SQL (5,000 rows: +35 ms on PostgreSQL, +140 ms on PGlite; base 32: +130–230 ms, +400–700 ms).
//   Every path that queues a message (fan-out, welcomes, alerts, weekly summaries) gets its id in the INSERT that
//   creates the row, so it is the same on every retry and after any restart, and no two installations or restored
//   databases share one. The id used to be `arb-delivery-<row id>`: a second installation, or a database restored
//   from a backup, posted new messages under ids a receiver had already seen, and a receiver that drops repeats by
//   webhook-id (as Standard Webhooks asks) dropped them.
// - Rows made before this migration keep webhook_id null (no table rewrite: the column is added without a default,
//   which is then set for new rows only). The worker sends them as 'msg_<destination id>-<row id>'
//   (server/destinations/messageIds.ts): the destination id is random (dst_ + 24 base62 characters), so that is unique
//   across installations too, and a restored copy of such a row is the same message under the same id.
// - destinations.previous_signing_secret_enc / previous_secret_expires_at: the secret a rotation replaced, which still
//   signs (next to the new one) until it expires.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function webhook_message_id() returns text language sql volatile parallel safe as $$
      select 'msg_' || lpad(to_hex(floor(extract(epoch from clock_timestamp()) * 1000)::bigint), 12, '0')
                    || encode(substring(r from 1 for 6) || substring(r from 10 for 4), 'hex')
        from uuid_send(gen_random_uuid()) as r
    $$`.execute(db);
  await db.schema.alterTable('deliveries').addColumn('webhook_id', 'text').execute();
  await sql`alter table deliveries alter column webhook_id set default webhook_message_id()`.execute(db);
  await db.schema
    .alterTable('destinations')
    .addColumn('previous_signing_secret_enc', 'text')
    .addColumn('previous_secret_expires_at', 'timestamptz')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('destinations').dropColumn('previous_secret_expires_at').dropColumn('previous_signing_secret_enc').execute();
  await db.schema.alterTable('deliveries').dropColumn('webhook_id').execute();
  await sql`drop function if exists webhook_message_id()`.execute(db);
}
