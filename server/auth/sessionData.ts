/**
 * Data functions for sign-in sessions and dashboard hand-off codes (tables auth_sessions, handoff_codes). Consuming a
 * code and revoking are single conditional UPDATE … RETURNING statements, so two processes can never both win.
 * Revoking takes an optional transaction: moving someone to another organisation ends their sessions in the same one.
 */
import { getDb, type DB } from '../db/client';

const dbOf = async (db?: DB) => db ?? (await getDb());

export type SessionRow = { id: string; user_id: string; expires_at: Date; revoked_at: Date | null };

export async function insertSession(input: { id: string; userId: string; expiresAt: Date }, db?: DB): Promise<void> {
  await (await dbOf(db)).insertInto('auth_sessions').values({ id: input.id, user_id: input.userId, expires_at: input.expiresAt }).execute();
}

export async function getSession(id: string, db?: DB): Promise<SessionRow | undefined> {
  const row = await (await dbOf(db))
    .selectFrom('auth_sessions')
    .select(['id', 'user_id', 'expires_at', 'revoked_at'])
    .where('id', '=', id)
    .executeTakeFirst();
  return row && { ...row, expires_at: new Date(row.expires_at), revoked_at: row.revoked_at ? new Date(row.revoked_at) : null };
}

export async function markSessionRenewed(id: string, now: Date, db?: DB): Promise<void> {
  await (await dbOf(db)).updateTable('auth_sessions').set({ last_renewed_at: now }).where('id', '=', id).execute();
}

/** Revoke one session, or every live one of a user; the ids revoked just now (already revoked ones are left out). */
export async function revokeSessionRows(which: { sessionId: string } | { userId: string }, now: Date, db?: DB): Promise<string[]> {
  const rows = await (await dbOf(db))
    .updateTable('auth_sessions')
    .set({ revoked_at: now })
    .$if('sessionId' in which, (q) => q.where('id', '=', (which as { sessionId: string }).sessionId))
    .$if('userId' in which, (q) => q.where('user_id', '=', (which as { userId: string }).userId))
    .where('revoked_at', 'is', null)
    .returning(['id'])
    .execute();
  return rows.map((r) => r.id);
}

export async function insertHandoffCode(input: { codeHash: string; sessionId: string; expiresAt: Date; nonceHash: string }, db?: DB): Promise<void> {
  await (await dbOf(db))
    .insertInto('handoff_codes')
    .values({ code_hash: input.codeHash, session_id: input.sessionId, expires_at: input.expiresAt, nonce_hash: input.nonceHash })
    .execute();
}

/**
 * Use a hand-off code once, from the browser it was made for: its session id; `other_browser` when the code is live
 * but the nonce is not the one it was made with (the code is then left unused); undefined when unknown, expired or used.
 */
export async function consumeHandoffCode(codeHash: string, nonceHash: string | null, now: Date, db?: DB): Promise<string | 'other_browser' | undefined> {
  const d = await dbOf(db);
  if (nonceHash) {
    const row = await d
      .updateTable('handoff_codes')
      .set({ consumed_at: now })
      .where('code_hash', '=', codeHash)
      .where('nonce_hash', '=', nonceHash)
      .where('consumed_at', 'is', null)
      .where('expires_at', '>', now)
      .returning(['session_id'])
      .executeTakeFirst();
    if (row) return row.session_id;
  }
  const live = await d
    .selectFrom('handoff_codes')
    .select('code_hash')
    .where('code_hash', '=', codeHash)
    .where('consumed_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return live ? 'other_browser' : undefined;
}

/** Drop hand-off codes and sessions that can no longer be used (a day after their end, so errors stay explainable). */
export async function deleteEndedSessionRows(now: Date, db?: DB): Promise<number> {
  const d = await dbOf(db);
  const cutoff = new Date(now.getTime() - 24 * 3600 * 1000);
  const codes = await d.deleteFrom('handoff_codes').where('expires_at', '<', cutoff).executeTakeFirst();
  const sessions = await d
    .deleteFrom('auth_sessions')
    .where((eb) => eb.or([eb('expires_at', '<', cutoff), eb('revoked_at', '<', cutoff)]))
    .executeTakeFirst();
  return Number(codes.numDeletedRows) + Number(sessions.numDeletedRows);
}
