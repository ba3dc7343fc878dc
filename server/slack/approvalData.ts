/**
 * The SQL of drafts posted to Slack for approval (reply_approval_messages, migration 0041): queued in the rule's
 * transaction, posted by an outbox (one claim per attempt), and where the message is once a click said so.
 */
import { sql, type Transaction } from 'kysely';
import { decryptSecret } from '../crypto';
import { getDb, type DB } from '../db/client';
import type { Database } from '../db/types';

type Db = DB | Transaction<Database>;
const dbOf = async (db?: Db) => db ?? (await getDb());

/**
 * Queues the draft's message for the destination, when it is a Slack channel of the organisation added with "Add to
 * Slack" (only those can receive button clicks) and not disabled: false otherwise, queueing nothing.
 */
export async function insertApprovalMessage(replyId: string, destinationId: string, orgId: string, db?: Db): Promise<boolean> {
  const r = await sql<{ reply_id: string }>`
    insert into reply_approval_messages (reply_id, destination_id)
    select ${replyId}, d.id from destinations d
     where d.id = ${destinationId} and d.org_id = ${orgId} and d.platform = 'slack' and d.slack_team_id is not null and d.status <> 'disabled'
    on conflict (reply_id) do nothing
    returning reply_id`.execute(await dbOf(db));
  return r.rows.length > 0;
}

/** A message to post: the destination's webhook URL (decrypted) and its attempt count. */
export type ApprovalToPost = { replyId: string; destinationId: string; orgId: string; webhookUrl: string; attempts: number };

/** Takes the message for one attempt (`holdSeconds` before another may try it), when it is pending and due. */
export async function claimApprovalMessage(replyId: string, holdSeconds: number, db?: Db): Promise<ApprovalToPost | null> {
  const r = await sql<{ reply_id: string; destination_id: string; org_id: string; target_enc: string; attempts: number }>`
    update reply_approval_messages m set attempts = m.attempts + 1, next_try_at = now() + ${holdSeconds} * interval '1 second'
      from destinations d
     where m.reply_id = ${replyId} and m.state = 'pending' and m.next_try_at <= now() and d.id = m.destination_id
    returning m.reply_id, m.destination_id, d.org_id, d.target_enc, m.attempts`.execute(await dbOf(db));
  const row = r.rows[0];
  if (!row) return null;
  return { replyId: row.reply_id, destinationId: row.destination_id, orgId: row.org_id, webhookUrl: decryptSecret(row.target_enc), attempts: row.attempts };
}

export async function finishApprovalMessage(replyId: string, outcome: { state: 'posted' } | { state: 'failed'; error: string } | { state: 'retry'; error: string; afterSeconds: number }, db?: Db): Promise<void> {
  const d = await dbOf(db);
  if (outcome.state === 'posted') {
    await sql`update reply_approval_messages set state = 'posted', posted_at = now(), next_try_at = null, last_error = null where reply_id = ${replyId}`.execute(d);
  } else if (outcome.state === 'failed') {
    await sql`update reply_approval_messages set state = 'failed', next_try_at = null, last_error = ${outcome.error} where reply_id = ${replyId}`.execute(d);
  } else {
    await sql`update reply_approval_messages set next_try_at = now() + ${outcome.afterSeconds} * interval '1 second', last_error = ${outcome.error} where reply_id = ${replyId}`.execute(d);
  }
}

export async function dueApprovalMessages(limit: number, db?: Db): Promise<string[]> {
  const r = await sql<{ reply_id: string }>`
    select reply_id from reply_approval_messages where state = 'pending' and next_try_at <= now() order by next_try_at limit ${limit}`.execute(await dbOf(db));
  return r.rows.map((x) => x.reply_id);
}

/** Where the message is, as a click on it says (an incoming webhook never does). */
export async function rememberApprovalMessage(replyId: string, destinationId: string, where: { channelId: string | null; messageTs: string | null; responseUrl: string }, db?: Db): Promise<void> {
  await sql`
    update reply_approval_messages set channel_id = coalesce(${where.channelId}, channel_id), message_ts = coalesce(${where.messageTs}, message_ts),
           response_url = ${where.responseUrl}
     where reply_id = ${replyId} and destination_id = ${destinationId}`.execute(await dbOf(db));
}

export async function approvalMessageOf(replyId: string, db?: Db): Promise<{ destination_id: string; state: string; attempts: number; last_error: string | null; response_url: string | null } | undefined> {
  const r = await sql<{ destination_id: string; state: string; attempts: number; last_error: string | null; response_url: string | null }>`
    select destination_id, state, attempts, last_error, response_url from reply_approval_messages where reply_id = ${replyId}`.execute(await dbOf(db));
  return r.rows[0];
}
