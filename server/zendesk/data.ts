/**
 * Zendesk's SQL: the organisation's connection, the one ticket row per (organisation, review) and its claim by one
 * creator at a time, the webhook events already taken, and the comments already sent as replies. The only place with
 * their SQL.
 */
import { sql, type Selectable, type Transaction } from 'kysely';
import { getDb, type DB } from '../db/client';
import { leaseEnd, leaseRanOut } from '../db/lease';
import { msInterval } from '../db/interval';
import type { Database, ZendeskConnectionsTable, ZendeskTicketsTable } from '../db/types';
import type { ReviewOfApp } from '../reviews/data';

type Db = DB | Transaction<Database>;
const dbOf = async (db?: Db) => db ?? (await getDb());

export type ConnectionRow = Selectable<ZendeskConnectionsTable>;
export type TicketRow = Selectable<ZendeskTicketsTable>;

// ── connection ──────────────────────────────────────────────────────────────────────────────────────────────────────

export async function connectionOf(orgId: string, db?: Db): Promise<ConnectionRow | undefined> {
  return (await dbOf(db)).selectFrom('zendesk_connections').selectAll().where('org_id', '=', orgId).executeTakeFirst();
}

export async function connectionByWebhookKey(key: string, db?: Db): Promise<ConnectionRow | undefined> {
  return (await dbOf(db)).selectFrom('zendesk_connections').selectAll().where('webhook_key', '=', key).executeTakeFirst();
}

/**
 * Saves the organisation's connection. Connecting again keeps the webhook's key and secret when the account is the
 * same (the webhook made in Zendesk goes on working); another account starts without a secret.
 */
export async function saveConnection(
  c: { orgId: string; subdomain: string; email: string; apiTokenEnc: string; userId: number; userName: string | null; webhookKey: string; createdBy: string },
  db?: Db,
): Promise<ConnectionRow> {
  return (await dbOf(db))
    .insertInto('zendesk_connections')
    .values({
      org_id: c.orgId,
      subdomain: c.subdomain,
      email: c.email,
      api_token_enc: c.apiTokenEnc,
      zendesk_user_id: c.userId,
      zendesk_user_name: c.userName,
      webhook_key: c.webhookKey,
      created_by: c.createdBy,
    })
    .onConflict((oc) =>
      oc.column('org_id').doUpdateSet({
        email: (eb) => eb.ref('excluded.email'),
        api_token_enc: (eb) => eb.ref('excluded.api_token_enc'),
        zendesk_user_id: (eb) => eb.ref('excluded.zendesk_user_id'),
        zendesk_user_name: (eb) => eb.ref('excluded.zendesk_user_name'),
        signing_secret_enc: sql`case when zendesk_connections.subdomain = excluded.subdomain then zendesk_connections.signing_secret_enc end`,
        subdomain: (eb) => eb.ref('excluded.subdomain'),
        updated_at: sql`now()`,
      }),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function setSigningSecret(orgId: string, sealed: string, db?: Db): Promise<boolean> {
  const r = await (await dbOf(db)).updateTable('zendesk_connections').set({ signing_secret_enc: sealed, updated_at: sql`now()` }).where('org_id', '=', orgId).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function markEventReceived(orgId: string, db?: Db): Promise<void> {
  await (await dbOf(db)).updateTable('zendesk_connections').set({ last_event_at: sql`now()` }).where('org_id', '=', orgId).execute();
}

/** Forgets the connection; the tickets' links stay (they name tickets that still exist in Zendesk). */
export async function deleteConnection(orgId: string, db?: Db): Promise<boolean> {
  const d = await dbOf(db);
  const r = await d.deleteFrom('zendesk_connections').where('org_id', '=', orgId).executeTakeFirst();
  // Tickets still waiting to be created never will be: there is no account to create them in.
  await d.deleteFrom('zendesk_tickets').where('org_id', '=', orgId).where('state', '=', 'queued').execute();
  return Number(r.numDeletedRows) > 0;
}

// ── tickets ─────────────────────────────────────────────────────────────────────────────────────────────────────────

/** The review, when it is one of the organisation's apps' reviews, with what its ticket says. */
export type ReviewForTicket = ReviewOfApp & {
  language: string | null;
  country: string | null;
  app_version: string | null;
  permalink: string | null;
  version: number;
};

export async function reviewForTicket(orgId: string, reviewId: string, db?: Db): Promise<ReviewForTicket | undefined> {
  const r = await sql<ReviewForTicket>`
    select r.id::text as id, r.app_key, r.store, a.title as app_title, r.author_name, r.rating, r.title, r.body,
           r.language, r.country, r.app_version, r.permalink, r.version
      from reviews r
      join org_apps oa on oa.app_key = r.app_key and oa.org_id = ${orgId}
      join apps a on a.key = r.app_key
     where r.id = ${reviewId}::bigint`.execute(await dbOf(db));
  return r.rows[0];
}

/** Queues the review's ticket; false when the review already has its row (queued, created or failed). */
export async function insertTicketRow(t: { id: string; orgId: string; reviewId: string; requestedBy: string }, db?: Db): Promise<boolean> {
  const r = await (await dbOf(db))
    .insertInto('zendesk_tickets')
    .values({ id: t.id, org_id: t.orgId, review_id: t.reviewId, state: 'queued', requested_by: t.requestedBy, next_attempt_at: sql<Date>`now()` })
    .onConflict((oc) => oc.columns(['org_id', 'review_id']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return !!r;
}

/** A failed ticket asked for again: queued anew. */
export async function requeueFailed(orgId: string, reviewId: string, requestedBy: string, db?: Db): Promise<boolean> {
  const r = await (await dbOf(db))
    .updateTable('zendesk_tickets')
    .set({ state: 'queued', failure: null, attempts: 0, next_attempt_at: sql<Date>`now()`, requested_by: requestedBy, updated_at: sql`now()` })
    .where('org_id', '=', orgId)
    .where('review_id', '=', Number(reviewId))
    .where('state', '=', 'failed')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function ticketRowOf(orgId: string, reviewId: string, db?: Db): Promise<TicketRow | undefined> {
  return (await dbOf(db)).selectFrom('zendesk_tickets').selectAll().where('org_id', '=', orgId).where('review_id', '=', Number(reviewId)).executeTakeFirst();
}

export async function ticketRowsOf(orgId: string, reviewIds: readonly string[], db?: Db): Promise<TicketRow[]> {
  if (!reviewIds.length) return [];
  return (await dbOf(db)).selectFrom('zendesk_tickets').selectAll().where('org_id', '=', orgId).where('review_id', 'in', reviewIds.map(Number)).execute();
}

export async function ticketRowByTicketId(orgId: string, ticketId: number, db?: Db): Promise<TicketRow | undefined> {
  return (await dbOf(db)).selectFrom('zendesk_tickets').selectAll().where('org_id', '=', orgId).where('ticket_id', '=', ticketId).executeTakeFirst();
}

/**
 * Takes the row for one attempt to create its ticket: only when it is queued, due and nobody holds it, in ONE update
 * that also counts the attempt. Null when another creator holds it, it is not due, or it is no longer queued.
 */
export async function claimTicket(id: string, leaseMs: number, db?: Db): Promise<TicketRow | undefined> {
  return (await dbOf(db))
    .updateTable('zendesk_tickets')
    .set({ lease_until: leaseEnd(leaseMs), attempts: sql`attempts + 1`, updated_at: sql`now()` })
    .where('id', '=', id)
    .where('state', '=', 'queued')
    .where(sql<boolean>`next_attempt_at <= now()`)
    .where(leaseRanOut())
    .returningAll()
    .executeTakeFirst();
}

export type TicketOutcome =
  | { state: 'created'; ticketId: number; url: string; status: string }
  | { state: 'queued'; retryInSeconds: number; note: string }
  | { state: 'failed'; failure: string };

/** Writes the attempt's outcome and frees the row (only while this attempt holds it: its attempt count). */
export async function finishTicket(row: TicketRow, o: TicketOutcome, db?: Db): Promise<TicketRow | undefined> {
  const base = (await dbOf(db)).updateTable('zendesk_tickets');
  const set =
    o.state === 'created'
      ? base.set({ state: 'created', ticket_id: o.ticketId, ticket_url: o.url, ticket_status: o.status, failure: null, next_attempt_at: null, lease_until: null, updated_at: sql`now()` })
      : o.state === 'queued'
        ? base.set({ failure: o.note, next_attempt_at: sql<Date>`now() + ${msInterval(o.retryInSeconds * 1000)}`, lease_until: null, updated_at: sql`now()` })
        : base.set({ state: 'failed', failure: o.failure, next_attempt_at: null, lease_until: null, updated_at: sql`now()` });
  return set.where('id', '=', row.id).where('attempts', '=', row.attempts).returningAll().executeTakeFirst();
}

/** Queued tickets due for an attempt, and created ones owing a comment about an edit. */
export async function dueTicketIds(limit: number, db?: Db): Promise<{ creations: string[]; comments: string[] }> {
  const d = await dbOf(db);
  const creations = await d
    .selectFrom('zendesk_tickets')
    .select('id')
    .where('state', '=', 'queued')
    .where(sql<boolean>`next_attempt_at <= now()`)
    .where(leaseRanOut())
    .orderBy('next_attempt_at')
    .limit(limit)
    .execute();
  const comments = await d
    .selectFrom('zendesk_tickets')
    .select('id')
    .where('comment_due', '=', true)
    .where('state', '=', 'created')
    .where(sql<boolean>`coalesce(next_attempt_at, now()) <= now()`)
    .where(leaseRanOut())
    .limit(limit)
    .execute();
  return { creations: creations.map((r) => r.id), comments: comments.map((r) => r.id) };
}

/** Marks the tickets of these reviews (every organisation's) as owing a comment about the review's edit. */
export async function markCommentDue(reviewIds: readonly (string | number)[], db?: Db): Promise<number> {
  if (!reviewIds.length) return 0;
  const r = await (await dbOf(db))
    .updateTable('zendesk_tickets')
    .set({ comment_due: true, next_attempt_at: sql<Date>`now()` })
    .where('review_id', 'in', reviewIds.map(Number))
    .where('state', '=', 'created')
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** Takes a created ticket owing a comment, for one attempt to add it. */
export async function claimComment(id: string, leaseMs: number, db?: Db): Promise<TicketRow | undefined> {
  return (await dbOf(db))
    .updateTable('zendesk_tickets')
    .set({ lease_until: leaseEnd(leaseMs), comment_due: false })
    .where('id', '=', id)
    .where('state', '=', 'created')
    .where('comment_due', '=', true)
    .where(leaseRanOut())
    .returningAll()
    .executeTakeFirst();
}

/** The comment's attempt ended: freed; `again` puts the comment back (a passing failure), after `retryInSeconds`. */
export async function finishComment(id: string, again: { retryInSeconds: number } | null, db?: Db): Promise<void> {
  await (await dbOf(db))
    .updateTable('zendesk_tickets')
    .set(again ? { lease_until: null, comment_due: true, next_attempt_at: sql<Date>`now() + ${msInterval(again.retryInSeconds * 1000)}` } : { lease_until: null, next_attempt_at: null })
    .where('id', '=', id)
    .execute();
}

export async function setTicketStatus(orgId: string, ticketId: number, status: string, db?: Db): Promise<void> {
  await (await dbOf(db)).updateTable('zendesk_tickets').set({ ticket_status: status, updated_at: sql`now()` }).where('org_id', '=', orgId).where('ticket_id', '=', ticketId).execute();
}

// ── webhook events and comments ─────────────────────────────────────────────────────────────────────────────────────

/** Records the event as taken; false when it was taken before (a replay, or Zendesk's retry of a delivered event). */
export async function takeEvent(orgId: string, eventKey: string, db?: Db): Promise<boolean> {
  const r = await (await dbOf(db))
    .insertInto('zendesk_webhook_events')
    .values({ org_id: orgId, event_key: eventKey })
    .onConflict((oc) => oc.columns(['org_id', 'event_key']).doNothing())
    .returning('event_key')
    .executeTakeFirst();
  return !!r;
}

export async function forgetEvent(orgId: string, eventKey: string, db?: Db): Promise<void> {
  await (await dbOf(db)).deleteFrom('zendesk_webhook_events').where('org_id', '=', orgId).where('event_key', '=', eventKey).execute();
}

/** Forgets events older than `olderThanMs` (their signatures' five minutes are long over). */
export async function pruneEvents(olderThanMs: number, db?: Db): Promise<number> {
  const r = await (await dbOf(db)).deleteFrom('zendesk_webhook_events').where(sql<boolean>`received_at < now() - ${msInterval(olderThanMs)}`).executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** Claims the comment for sending as the review's reply; false when it was claimed before (sent once, ever). */
export async function claimCommentReply(c: { orgId: string; ticketId: number; commentId: number; reviewId: string }, db?: Db): Promise<boolean> {
  const r = await (await dbOf(db))
    .insertInto('zendesk_comment_replies')
    .values({ org_id: c.orgId, ticket_id: c.ticketId, comment_id: c.commentId, review_id: c.reviewId })
    .onConflict((oc) => oc.columns(['org_id', 'ticket_id', 'comment_id']).doNothing())
    .returning('comment_id')
    .executeTakeFirst();
  return !!r;
}

export async function recordCommentOutcome(c: { orgId: string; ticketId: number; commentId: number; replyId: string | null; outcome: string }, db?: Db): Promise<void> {
  await (await dbOf(db))
    .updateTable('zendesk_comment_replies')
    .set({ reply_id: c.replyId, outcome: c.outcome })
    .where('org_id', '=', c.orgId)
    .where('ticket_id', '=', c.ticketId)
    .where('comment_id', '=', c.commentId)
    .execute();
}

export async function commentIdsSent(orgId: string, ticketId: number, db?: Db): Promise<Set<number>> {
  const rows = await (await dbOf(db)).selectFrom('zendesk_comment_replies').select('comment_id').where('org_id', '=', orgId).where('ticket_id', '=', ticketId).execute();
  return new Set(rows.map((r) => Number(r.comment_id)));
}
