import type { Kysely } from 'kysely';

// A dashboard hand-off code is bound to the browser that asked for it: GET v1/auth/token/refresh sets a random nonce
// in an HttpOnly cookie and stores its hash with the code; POST v1/auth/token/handoff takes the code only with that
// cookie (server/auth/handoffNonce.ts). Codes from before this column (60 s at most) have none and are refused.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('handoff_codes').addColumn('nonce_hash', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('handoff_codes').dropColumn('nonce_hash').execute();
}
