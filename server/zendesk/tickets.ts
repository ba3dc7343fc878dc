/**
 * A review's Zendesk ticket: asked for (the "Create ticket" button, a rule's zendesk_ticket action), queued as the
 * review's one row, then created by one attempt at a time.
 *
 * Never two tickets for one review: the row is unique per (organisation, review), so a second request finds it
 * (`exists`); an attempt holds the row by a lease and counts itself in the same update, so two workers never create
 * at once; and an attempt after one whose outcome is unknown (a crash, a dropped answer, a timeout) first asks Zendesk
 * for tickets whose external_id is the review's id, and records the one it finds instead of creating another.
 */
import { decryptSecret, randomId } from '../crypto';
import { env } from '../env';
import { notFound } from '../http/errors';
import { log } from '../log';
import { recordAudit } from '../org/data';
import type { DB } from '../db/client';
import type { WorkflowActor } from '../workflow/data';
import { whenReviewsEdited } from '../workflow/edits';
import { STORE_NAMES, type ReplyStore } from '@/shared/replies';
import { addComment, agentTicketUrl, createTicket, ticketsByExternalId, ZendeskError, type ZendeskAccount, type ZendeskTicket } from './client';
import {
  claimComment,
  claimTicket,
  connectionOf,
  dueTicketIds,
  finishComment,
  finishTicket,
  insertTicketRow,
  markCommentDue,
  requeueFailed,
  reviewForTicket,
  ticketRowOf,
  ticketRowsOf,
  type ConnectionRow,
  type ReviewForTicket,
  type TicketRow,
} from './data';

/** Who asked for the ticket. */
export type TicketActor = WorkflowActor;

/** Longer than any Zendesk call (20 s timeouts, two calls). */
const LEASE_MS = 60_000;
/** Attempts before a ticket that keeps meeting 5xx or no answer is given up. */
export const TICKET_MAX_ATTEMPTS = 6;

const labelOf = (a: TicketActor) => (a.kind === 'member' ? a.email : a.kind === 'rule' ? `rule "${a.ruleName}"` : a.label);

/** The connection's account, or null without one; throws when the sealed token can no longer be opened. */
export function accountOf(c: ConnectionRow): ZendeskAccount {
  return { subdomain: c.subdomain, email: c.email, apiToken: decryptSecret(c.api_token_enc) };
}

/**
 * Queues the review's ticket (inside the caller's transaction when given one; no call to Zendesk here). `exists` when
 * the review has its ticket or it is queued already; a ticket that failed is queued again.
 */
export async function requestTicket(input: { orgId: string; reviewId: string; actor: TicketActor }, db?: DB): Promise<{ outcome: 'queued' | 'exists' | 'not_connected' }> {
  const { orgId, reviewId, actor } = input;
  // Another organisation's review is a 404 whether or not this one connected Zendesk: nothing hints that it exists.
  const review = /^\d{1,18}$/.test(reviewId) ? await reviewForTicket(orgId, reviewId, db) : undefined;
  if (!review) throw notFound(`There is no review ${reviewId} among your organisation's apps.`);
  if (!(await connectionOf(orgId, db))) return { outcome: 'not_connected' };
  const by = labelOf(actor);
  const queued = (await insertTicketRow({ id: randomId('zdt'), orgId, reviewId: review.id, requestedBy: by }, db)) || (await requeueFailed(orgId, review.id, by, db));
  if (!queued) return { outcome: 'exists' };
  await recordAudit(
    { orgId, actor: actor.kind === 'member' ? { userId: actor.userId, email: actor.email } : null, action: 'review.ticket_requested', target: review.app_title, details: { review: review.id, app: review.app_key, by } },
    db,
  );
  return { outcome: 'queued' };
}

export type TicketLink = { ticket_id: number; url: string; status: string | null };

/** The reviews' tickets that exist in Zendesk (queued or failed ones have no link yet). */
export async function ticketsOfReviews(orgId: string, reviewIds: readonly string[], db?: DB): Promise<Map<string, TicketLink>> {
  const out = new Map<string, TicketLink>();
  for (const r of await ticketRowsOf(orgId, reviewIds.filter((id) => /^\d{1,18}$/.test(id)), db)) {
    if (r.state === 'created' && r.ticket_id !== null && r.ticket_url) out.set(String(r.review_id), { ticket_id: Number(r.ticket_id), url: r.ticket_url, status: r.ticket_status });
  }
  return out;
}

const STARS = (n: number) => '★'.repeat(Math.max(0, Math.min(5, n))) + '☆'.repeat(Math.max(0, 5 - n));
const firstWords = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1).replace(/\s+\S*$/, '')}…`);
const inboxLink = (reviewId: string) => `${env().APP_URL}/dashboard/reviews?${new URLSearchParams({ review: reviewId })}`;

/** What the ticket says: the subject from the stars and the title, the review and its link in the description. */
export function ticketOf(review: ReviewForTicket): { subject: string; description: string; externalId: string; tags: string[] } {
  const store = STORE_NAMES[review.store as ReplyStore] ?? review.store;
  const headline = review.title?.trim() || firstWords(review.body.replace(/\s+/g, ' ').trim(), 80) || 'A review without text';
  const facts = [review.country?.toUpperCase(), review.app_version && `version ${review.app_version}`, review.language && `language ${review.language}`].filter(Boolean).join(', ');
  const description = [
    `${review.author_name} rated ${review.app_title} ${review.rating} of 5 stars on ${store}${facts ? ` (${facts})` : ''}:`,
    '',
    ...(review.title?.trim() ? [review.title.trim(), ''] : []),
    review.body.trim() || '(no text)',
    '',
    `In ARB: ${inboxLink(review.id)}`,
    ...(review.permalink ? [`On ${store}: ${review.permalink}`] : []),
    '',
    `Answer with a public reply on this ticket: ARB sends it to ${store} as the developer's reply to this review, and notes here how it went.`,
  ].join('\n');
  const tags = ['arb', review.store === 'apple_app_store' ? 'app_store' : 'google_play', `stars_${review.rating}`, ...(review.language ? [`lang_${review.language.toLowerCase().replace(/[^a-z0-9_-]/g, '')}`] : [])];
  return { subject: firstWords(`${STARS(review.rating)} ${headline} — ${review.app_title}`, 250), description, externalId: review.id, tags };
}

/** Seconds before attempt `n + 1` after `n` attempts met a 5xx or no answer: 10 s, 40 s, 160 s, ~11 min, ~43 min. */
const backoffSeconds = (attempts: number) => Math.min(3600, 10 * 4 ** Math.max(0, attempts - 1));

const created = (c: ConnectionRow, t: ZendeskTicket) => ({ state: 'created' as const, ticketId: t.id, url: agentTicketUrl(c.subdomain, t.id), status: t.status });

/** One attempt to create the ticket of row `id`, when it is due and free; null when another creator holds it. */
export async function attemptTicket(id: string): Promise<TicketRow | null> {
  const row = await claimTicket(id, LEASE_MS);
  if (!row) return null;
  const l = log.child({ ticketRow: row.id, review: String(row.review_id), attempt: row.attempts });
  const finish = async (o: Parameters<typeof finishTicket>[1]) => (await finishTicket(row, o)) ?? null;
  const connection = await connectionOf(row.org_id);
  if (!connection) return finish({ state: 'failed', failure: 'Zendesk was disconnected before the ticket was created: connect it again on the Integrations page, then create the ticket again.' });
  const review = await reviewForTicket(row.org_id, String(row.review_id));
  if (!review) return finish({ state: 'failed', failure: 'This review is no longer among your organisation\'s apps, so no ticket was created.' });
  let account: ZendeskAccount;
  try {
    account = accountOf(connection);
  } catch {
    return finish({ state: 'failed', failure: 'The saved Zendesk API token can no longer be read on this server (its encryption key changed?): connect Zendesk again on the Integrations page.' });
  }
  const ticket = ticketOf(review);
  try {
    // After an attempt whose outcome is unknown, Zendesk's own record decides: a ticket with this external_id is ours.
    if (row.attempts > 1) {
      const found = (await ticketsByExternalId(account, ticket.externalId)).sort((a, b) => a.id - b.id)[0];
      if (found) {
        l.info('zendesk ticket found by external_id after an attempt with no known outcome: recorded, not created again', { ticket: found.id });
        return finish(created(connection, found));
      }
    }
    const t = await createTicket(account, ticket);
    l.info('zendesk ticket created', { ticket: t.id });
    return finish(created(connection, t));
  } catch (err) {
    if (!(err instanceof ZendeskError)) throw err;
    l.warn('zendesk ticket attempt failed', { status: err.status, kind: err.kind });
    if (!err.passing) return finish({ state: 'failed', failure: err.message });
    if (err.kind === 'unavailable' && row.attempts >= TICKET_MAX_ATTEMPTS) {
      return finish({ state: 'failed', failure: `Zendesk kept failing, ${row.attempts} tries over about an hour (last: ${err.message}). Create the ticket again later.` });
    }
    return finish({ state: 'queued', retryInSeconds: err.retryAfterSeconds ?? backoffSeconds(row.attempts), note: err.message });
  }
}

/**
 * The reviews were edited: their tickets (every organisation's) get a note with the new text, by the outbox (inside
 * the ingest's transaction when given one: no call to Zendesk here).
 */
export async function noteReviewsEdited(reviewIds: readonly (string | number)[], db?: DB): Promise<number> {
  return markCommentDue(reviewIds, db);
}

/** One attempt to add the note about the review's edit to its ticket. */
async function attemptEditComment(id: string): Promise<void> {
  const row = await claimComment(id, LEASE_MS);
  if (!row || row.ticket_id === null) return;
  const connection = await connectionOf(row.org_id);
  const review = connection ? await reviewForTicket(row.org_id, String(row.review_id)) : undefined;
  if (!connection || !review) return finishComment(row.id, null);
  try {
    const text = [
      `${review.author_name} edited the review: now ${review.rating} of 5 stars.`,
      '',
      ...(review.title?.trim() ? [review.title.trim(), ''] : []),
      review.body.trim() || '(no text)',
      '',
      `In ARB: ${inboxLink(review.id)}`,
    ].join('\n');
    await addComment(accountOf(connection), Number(row.ticket_id), text, false);
    await finishComment(row.id, null);
  } catch (err) {
    const passing = err instanceof ZendeskError && err.passing;
    log.warn('zendesk edit note failed', { ticket: Number(row.ticket_id), err: (err as Error).message, again: passing });
    await finishComment(row.id, passing ? { retryInSeconds: (err as ZendeskError).retryAfterSeconds ?? 60 } : null);
  }
}

/** Every ticket due for an attempt, then every edit note owed (the periodic job; tests call it). */
export async function runDueTickets(limit = 50): Promise<number> {
  const due = await dueTicketIds(limit);
  let done = 0;
  for (const id of due.creations) if (await attemptTicket(id)) done++;
  for (const id of due.comments) await attemptEditComment(id);
  return done;
}

/** The review's ticket row, after one attempt when it is queued, or after the one someone else is making (the "Create ticket" button's answer). */
export async function ticketNow(orgId: string, reviewId: string): Promise<TicketRow | undefined> {
  const row = await ticketRowOf(orgId, reviewId);
  if (row?.state !== 'queued') return row;
  return (await attemptTicket(row.id)) ?? (await afterOtherAttempt(orgId, reviewId));
}

/** How long a request waits for an attempt another request (or the job) is making at the same ticket. */
const OTHER_ATTEMPT_WAIT_MS = 5_000;

/**
 * The ticket once the attempt someone else holds is over (its lease given back), or as it is after
 * OTHER_ATTEMPT_WAIT_MS: two clicks at once then answer "created" and "already has one", not "created" and "queued".
 */
async function afterOtherAttempt(orgId: string, reviewId: string): Promise<TicketRow | undefined> {
  const until = Date.now() + OTHER_ATTEMPT_WAIT_MS;
  for (;;) {
    const row = await ticketRowOf(orgId, reviewId);
    const held = row?.state === 'queued' && row.lease_until !== null && new Date(row.lease_until).getTime() > Date.now();
    if (!held || Date.now() >= until) return row;
    await new Promise((r) => setTimeout(r, 100));
  }
}

// An edited review's ticket gets a note: registered where the poll's transaction runs the edit hooks (every process
// that polls imports this module through server/jobs.ts).
whenReviewsEdited((trx, reviewIds) => noteReviewsEdited(reviewIds, trx).then(() => undefined));
