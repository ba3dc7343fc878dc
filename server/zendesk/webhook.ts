/**
 * POST v1/integrations/zendesk/webhook?key=… — Zendesk's webhook, fired by the trigger the setup page describes (or a
 * webhook subscribed to Zendesk's ticket events). `key` names the organisation (its connection's webhook_key); the
 * request is taken only when X-Zendesk-Webhook-Signature is the base64 HMAC-SHA256, keyed with that webhook's signing
 * secret, of X-Zendesk-Webhook-Signature-Timestamp followed by the raw body, and the timestamp is within five minutes
 * of our clock (stale and unsigned requests are refused before their body is read). Each event is acted on once: its
 * id (Zendesk's event `id`, or the hash of the signed request for a trigger's body) is recorded as it is taken.
 *
 * The event names a ticket; what ARB does is read from Zendesk itself (the ticket and its comments), so a body that
 * was changed on the way could say nothing that counts:
 *   - a public comment that is not the ticket's description and was not sent before → the review's reply, through the
 *     replies service (the store's limit, credentials, plan and errors as for any reply), then an internal note on
 *     the ticket with the outcome ("Published on the App Store", or the store's reason);
 *   - the ticket solved (or closed) → the review's status becomes done.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { decryptSecret } from '../crypto';
import { readBody, UNREAD_BODY_HEADERS } from '../http/body';
import { HttpError, badRequest, unauthorized } from '../http/errors';
import { log } from '../log';
import { sendReply } from '../replies/service';
import { setStatus } from '../workflow/data';
import type { ReplyStore } from '@/shared/replies';

/** The store as a sentence names it. */
const STORE_NAMES: Record<ReplyStore, string> = { apple_app_store: 'the App Store', google_play_store: 'Google Play' };
import { addComment, listComments, showTicket, ZendeskError, type ZendeskAccount } from './client';
import {
  claimCommentReply,
  commentIdsSent,
  connectionByWebhookKey,
  forgetEvent,
  markEventReceived,
  recordCommentOutcome,
  reviewForTicket,
  setTicketStatus,
  takeEvent,
  ticketRowByTicketId,
  type ConnectionRow,
  type TicketRow,
} from './data';
import { accountOf } from './tickets';

/** How far Zendesk's timestamp may be from our clock, either way. */
export const ZENDESK_TIMESTAMP_WINDOW_SECONDS = 5 * 60;
export const WEBHOOK_MAX_BYTES = 256 * 1024;

export type WebhookAnswer = { received: true; duplicate?: true; ignored?: string };

const header = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** Zendesk's timestamp (ISO 8601, e.g. 2026-12-02T18:35:12Z; unix seconds accepted too) in seconds, or null. */
export function timestampSeconds(value: string | undefined): number | null {
  if (!value || value.length > 40) return null;
  if (/^\d{9,12}$/.test(value)) return Number(value);
  const t = Date.parse(value);
  return Number.isNaN(t) ? null : Math.floor(t / 1000);
}

/** The signature Zendesk sends: base64(HMAC-SHA256(secret, timestamp + body)). */
export function zendeskSignature(secret: string, timestamp: string, body: string): string {
  return createHmac('sha256', secret).update(timestamp + body).digest('base64');
}

export function checkZendeskHeaders(timestamp: string | undefined, signature: string | undefined, nowSeconds: number): string | null {
  const t = timestampSeconds(timestamp);
  if (t === null) return 'X-Zendesk-Webhook-Signature-Timestamp is missing or not a time.';
  if (Math.abs(nowSeconds - t) > ZENDESK_TIMESTAMP_WINDOW_SECONDS) return 'X-Zendesk-Webhook-Signature-Timestamp is more than five minutes away from now (a replayed request, or a clock that is off).';
  if (!signature || !/^[A-Za-z0-9+/]{43}=$/.test(signature)) return 'X-Zendesk-Webhook-Signature is missing or not a base64 HMAC-SHA256 signature.';
  return null;
}

function signatureMatches(secret: string, timestamp: string, body: string, signature: string): boolean {
  const expected = Buffer.from(zendeskSignature(secret, timestamp, body), 'base64');
  const given = Buffer.from(signature, 'base64');
  return given.length === expected.length && timingSafeEqual(expected, given);
}

/** The ticket an event names: ARB's trigger body `{ ticket_id }`, or Zendesk's ticket event `{ detail: { id } }`. */
function ticketIdOf(event: Record<string, unknown>): number | null {
  const detail = event.detail && typeof event.detail === 'object' ? (event.detail as Record<string, unknown>) : null;
  const raw = event.ticket_id ?? detail?.id ?? (typeof event.subject === 'string' ? /^zen:ticket:(\d+)$/.exec(event.subject)?.[1] : undefined);
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d{1,15}$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}

export async function handleZendeskWebhook(req: IncomingMessage, key: string): Promise<WebhookAnswer> {
  const connection = await connectionByWebhookKey(key);
  if (!connection) throw new HttpError(404, 'not_found', 'This webhook URL is not (or no longer) connected to an ARB organisation: copy the URL again from ARB\'s Integrations page.', UNREAD_BODY_HEADERS);
  if (!connection.signing_secret_enc) {
    throw new HttpError(401, 'unauthorized', "ARB does not have this webhook's signing secret yet: in Zendesk, open the webhook, reveal its signing secret, and paste it on ARB's Integrations page.", UNREAD_BODY_HEADERS);
  }
  const timestamp = header(req.headers['x-zendesk-webhook-signature-timestamp']);
  const signature = header(req.headers['x-zendesk-webhook-signature']);
  const early = checkZendeskHeaders(timestamp, signature, Math.floor(Date.now() / 1000));
  if (early) {
    log.info('zendesk webhook refused before its body', { org: connection.org_id, reason: early });
    throw new HttpError(401, 'unauthorized', early, UNREAD_BODY_HEADERS);
  }
  const raw = await readBody(req, WEBHOOK_MAX_BYTES);
  let secret: string;
  try {
    secret = decryptSecret(connection.signing_secret_enc);
  } catch {
    throw unauthorized("The saved signing secret can no longer be read on this server (its encryption key changed?): paste the webhook's signing secret again on ARB's Integrations page.");
  }
  if (!signatureMatches(secret, timestamp!, raw, signature!)) {
    log.warn('zendesk webhook refused: bad signature', { org: connection.org_id });
    throw unauthorized("X-Zendesk-Webhook-Signature does not match this request: is the signing secret saved in ARB the one of this webhook?");
  }
  let event: unknown;
  try {
    event = JSON.parse(raw);
  } catch {
    throw badRequest('The body is not JSON: set the webhook\'s request format to JSON.');
  }
  if (!event || typeof event !== 'object' || Array.isArray(event)) throw badRequest('The body is not a JSON object.');
  const e = event as Record<string, unknown>;
  const ticketId = ticketIdOf(e);
  if (ticketId === null) throw badRequest('ticket_id: the event names no ticket. Use the JSON body shown on ARB\'s Integrations page in the trigger.');

  const eventKey = typeof e.id === 'string' && e.id.length <= 200 ? `id:${e.id}` : `sig:${createHash('sha256').update(signature!).digest('base64url')}`;
  if (!(await takeEvent(connection.org_id, eventKey))) {
    log.info('zendesk webhook event seen before: nothing done', { org: connection.org_id, ticket: ticketId });
    return { received: true, duplicate: true };
  }
  await markEventReceived(connection.org_id);
  const row = await ticketRowByTicketId(connection.org_id, ticketId);
  if (!row) return { received: true, ignored: 'This ticket was not created by ARB.' };
  try {
    await onTicketChanged(connection, row, ticketId);
  } catch (err) {
    // Not acted on: Zendesk's retry of this event is taken again (a comment already sent stays sent once).
    await forgetEvent(connection.org_id, eventKey);
    throw err;
  }
  return { received: true };
}

/** Reads the ticket and its comments from Zendesk, and acts on what is new. */
async function onTicketChanged(connection: ConnectionRow, row: TicketRow, ticketId: number): Promise<void> {
  const l = log.child({ org: connection.org_id, ticket: ticketId, review: String(row.review_id) });
  let account: ZendeskAccount;
  try {
    account = accountOf(connection);
  } catch {
    l.error('zendesk api token could not be opened');
    throw new HttpError(503, 'unavailable', 'The saved Zendesk API token can no longer be read on this server: connect Zendesk again on ARB\'s Integrations page.');
  }
  try {
    const ticket = await showTicket(account, ticketId);
    if (ticket.status !== row.ticket_status) await setTicketStatus(connection.org_id, ticketId, ticket.status);
    await sendNewComment(connection, account, row, ticketId);
    if ((ticket.status === 'solved' || ticket.status === 'closed') && row.ticket_status !== 'solved' && row.ticket_status !== 'closed') {
      await setStatus({ orgId: connection.org_id, reviewIds: [String(row.review_id)], status: 'done', actor: { kind: 'system', label: `Zendesk ticket #${ticketId} solved` } });
      l.info('zendesk ticket solved: review done');
    }
  } catch (err) {
    if (!(err instanceof ZendeskError)) throw err;
    l.warn('zendesk webhook: could not read the ticket', { status: err.status, kind: err.kind });
    // Zendesk retries a webhook that fails: let it, for a passing failure (the event is taken again then).
    throw new HttpError(502, 'upstream_error', err.message);
  }
}

/** What the internal note says after the reply's first attempt. */
function outcomeNote(store: ReplyStore, state: string, failure: string | null): string {
  const name = STORE_NAMES[store];
  if (state === 'published' || state === 'pending_publish') return `Published on ${name}${state === 'pending_publish' ? ' (the store shows it once it has processed it)' : ''}.`;
  if (state === 'sending') return `Not published on ${name} yet: ${failure ?? 'the store did not take it yet'} ARB tries again by itself.`;
  return `Not published on ${name}: ${failure ?? 'the store refused the reply.'}`;
}

/** The ticket's newest public comment not sent before (never its description) → the review's reply, once. */
async function sendNewComment(connection: ConnectionRow, account: ZendeskAccount, row: TicketRow, ticketId: number): Promise<void> {
  const comments = await listComments(account, ticketId);
  const sent = await commentIdsSent(connection.org_id, ticketId);
  const candidates = comments.slice(1).filter((c) => c.public && !sent.has(c.id) && (c.plain_body ?? c.body).trim() !== '');
  const newest = candidates.at(-1);
  if (!newest) return;
  const reviewId = String(row.review_id);
  // Older public comments of the same ticket that were never sent are passed over: the newest is the answer.
  for (const older of candidates.slice(0, -1)) await claimCommentReply({ orgId: connection.org_id, ticketId, commentId: older.id, reviewId });
  if (!(await claimCommentReply({ orgId: connection.org_id, ticketId, commentId: newest.id, reviewId }))) return;
  const review = await reviewForTicket(connection.org_id, reviewId);
  const store = (review?.store ?? 'apple_app_store') as ReplyStore;
  let note: string;
  let replyId: string | null = null;
  try {
    const reply = await sendReply({ orgId: connection.org_id, userId: null, label: `Zendesk ticket #${ticketId}`, audit: null }, reviewId, (newest.plain_body ?? newest.body).trim());
    replyId = reply.id;
    note = outcomeNote(store, reply.state, reply.failure);
  } catch (err) {
    if (!(err instanceof HttpError)) throw err;
    note = `Not published on ${STORE_NAMES[store]}: ${err.message}`;
  }
  await recordCommentOutcome({ orgId: connection.org_id, ticketId, commentId: newest.id, replyId, outcome: note });
  try {
    await addComment(account, ticketId, note, false);
  } catch (err) {
    log.warn('zendesk: the outcome note could not be added', { ticket: ticketId, err: (err as Error).message });
  }
}

