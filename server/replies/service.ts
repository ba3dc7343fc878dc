/**
 * Replies to reviews through the stores: record, send, retry, confirm.
 *
 * A reply is one row per (organisation, review), its life a state machine: sending → pending_publish → published, or
 * failed with the store's reason in plain words. Sending is an outbox: the request that records the reply makes the
 * first attempt itself (so the answer usually says how it went), and a periodic job makes the later ones (backoff on
 * 5xx and unreachable stores, the store's Retry-After on 429). An attempt holds the row by a lease, so one reply is
 * only ever being sent by one process; an attempt after one whose outcome is unknown (a crash, a dropped connection
 * between sending and recording) first reads the review's current App Store response, and records it instead of
 * posting again when it is ours. The next poll of the official source confirms "published" (server/monitor/ingest.ts
 * calls confirmPublished with the reviews whose reply it changed).
 */
import { onReplyPublished } from '../workflow/edits';
import { decryptSecret, randomId } from '../crypto';
import { HttpError, badRequest, notFound } from '../http/errors';
import { log } from '../log';
import { recordAudit } from '../org/data';
import { assertFeature } from '../plans/features';
import type { SourceCredentials } from '../sources/types';
import { REPLY_MAX_CHARS, replyLength, STORE_NAMES, type ReplyStore } from '@/shared/replies';
import {
  allowanceOf,
  claimPending,
  claimReply,
  deleteReplyRow,
  dueIds,
  finishAttempt,
  finishPendingCheck,
  PENDING_CHECK_SECONDS,
  replyById,
  replyOf,
  reviewForReply,
  setAllowance,
  spendAllowance,
  upsertSending,
  type ReplyOutcome,
  type ReplyRow,
  type ReviewForReply,
} from './data';
import { allowanceKey, classifyStoreError, removeFromStore, sendToStore, storeHasReply, storeShowsReply, type ReplyTarget } from './stores';
import { parseRateLimitHeader } from '../sources/appStoreConnect';
import { SourceError } from '../sources/types';
import { pauseAutomaticReplies, pauseCauseOf } from './pauses';

/** Who replies: a signed-in person, or a script with an API key. */
export type ReplyActor = { orgId: string; userId: string | null; label: string; audit: { userId: string; email: string } | null };

/** Attempts before a reply that keeps meeting 5xx or no answer is given up as failed. */
export const REPLY_MAX_ATTEMPTS = 6;
/** How long one attempt holds its reply: longer than any store call (20 s timeouts, a token exchange first). */
const LEASE_SECONDS = 90;
/** Google's default quota of reply requests per app a day. */
export const PLAY_DAILY_REPLY_QUOTA = 2000;
/** Apple's allowance is for a rolling hour. */
const APPLE_WINDOW_MS = 3600_000;

/** Seconds before attempt `n + 1` after `n` attempts met a 5xx: 5 s, 20 s, 80 s, ~5 min, ~21 min (± 10%). */
export function backoffSeconds(attempts: number): number {
  const base = Math.min(3600, 5 * 4 ** Math.max(0, attempts - 1));
  return Math.round(base * (0.9 + Math.random() * 0.2));
}

const STORE_API = { apple_app_store: 'App Store Connect', google_play_store: 'the Google Play Developer API' } as const;
const CREDENTIALS_KIND = { apple_app_store: 'App Store Connect API key', google_play_store: 'Google Play service account' } as const;

/** The store call's target; null without credentials, 'unreadable' when the sealed credentials cannot be opened. */
function targetOf(review: ReviewForReply): ReplyTarget | null | 'unreadable' {
  if (!review.credentials_enc) return null;
  let credentials: SourceCredentials;
  try {
    credentials = JSON.parse(decryptSecret(review.credentials_enc)) as SourceCredentials;
  } catch (err) {
    log.error('stored store credentials could not be opened', { app: review.app_key, err: (err as Error).message });
    return 'unreadable';
  }
  return { store: review.store as ReplyStore, appId: review.app_id, storeReviewId: review.store_review_id, credentials };
}

const UNREADABLE = 'The stored store credentials of this app can no longer be read on this server (its encryption key changed?): save them again on the Apps page (Store credentials), then send the reply again.';

/** Google's quota day ends at midnight Pacific time; the next UTC midnight is never later than that by more than 8 h. */
function nextQuotaDay(now: Date): Date {
  const d = new Date(now);
  d.setUTCHours(24, 0, 0, 0);
  return d;
}

const secondsUntil = (t: Date) => Math.max(1, Math.ceil((t.getTime() - Date.now()) / 1000));

async function rememberAppleAllowance(key: string, header: string | string[] | undefined): Promise<void> {
  const rate = parseRateLimitHeader(header);
  if (rate) await setAllowance(key, rate.remaining, new Date(Date.now() + APPLE_WINDOW_MS));
}

/** One send attempt of reply `id`, when it is due and free; null when another sender holds it or it is not due. */
export async function attemptReply(id: string): Promise<ReplyRow | null> {
  const row = await claimReply(id, LEASE_SECONDS);
  if (!row) return null;
  const finish = async (o: ReplyOutcome) => {
    const done = await finishAttempt(row, o);
    // The queue (server/workflow): a published reply makes the review replied.
    if (done?.state === 'published') await onReplyPublished(done.org_id, String(done.review_id));
    return done;
  };
  const review = await reviewForReply(row.org_id, String(row.review_id));
  if (!review) return finish({ state: 'failed', failure: 'This app is no longer in your organisation, so the reply was not sent.' });
  const target = targetOf(review);
  if (target === 'unreadable') return finish({ state: 'failed', failure: UNREADABLE });
  if (!target) {
    const store = review.store as ReplyStore;
    return finish({ state: 'failed', failure: `The ${CREDENTIALS_KIND[store]} of ${review.app_title} was removed before the reply was sent: add it again on the Apps page (Store credentials), then send the reply again.` });
  }
  const key = allowanceKey(target);
  const l = log.child({ reply: row.id, app: row.app_key, attempt: row.attempts });

  if (target.store === 'apple_app_store') {
    const a = await allowanceOf(key);
    if (a && a.remaining <= 0 && a.resets_at.getTime() > Date.now()) {
      const note = `App Store Connect's hourly request allowance for this key is used up: the reply is sent when it allows.`;
      await pauseAutomaticReplies(row.org_id, row.app_key, { kind: 'quota', reason: note, until: a.resets_at });
      return finish({ state: 'sending', retryInSeconds: secondsUntil(a.resets_at), note: `App Store Connect's hourly request allowance for this key is used up: the reply is sent when it allows.`, countAttempt: false });
    }
  }
  try {
    // After an attempt that may have reached the store, what the store holds decides: ours is recorded, not sent again.
    let sent = row.attempts > 1 ? await storeHasReply(target, row.text) : null;
    if (sent) l.info('reply found on the store after an attempt with no known outcome: recorded, not sent again');
    if (!sent) {
      if (target.store === 'google_play_store' && !(await spendAllowance(key, PLAY_DAILY_REPLY_QUOTA, nextQuotaDay(new Date())))) {
        const resets = (await allowanceOf(key))?.resets_at ?? nextQuotaDay(new Date());
        await pauseAutomaticReplies(row.org_id, row.app_key, { kind: 'quota', reason: `Google Play's daily reply quota for this app (${PLAY_DAILY_REPLY_QUOTA}) is used up until the next day's quota starts.`, until: resets });
        return finish({ state: 'sending', retryInSeconds: secondsUntil(resets), note: `Google Play's daily reply quota for this app (${PLAY_DAILY_REPLY_QUOTA}) is used up: the reply is sent when the next day's quota starts.`, countAttempt: false });
      }
      sent = await sendToStore(target, row.text);
    }
    if (sent.rateLimit) await setAllowance(key, sent.rateLimit.remaining, new Date(Date.now() + APPLE_WINDOW_MS));
    l.info('reply sent', { published: sent.published });
    return finish({ state: sent.published ? 'published' : 'pending_publish', storeResponseId: sent.responseId, text: sent.text });
  } catch (err) {
    if (err instanceof SourceError && target.store === 'apple_app_store') await rememberAppleAllowance(key, err.headers?.['x-rate-limit']);
    const refusal = classifyStoreError(target, err);
    // Credentials or a quota the store refused stop every reply of the app: rules draft none until it is fixed.
    const cause = pauseCauseOf(err, refusal);
    if (cause) await pauseAutomaticReplies(row.org_id, row.app_key, cause);
    l.warn('reply attempt failed', { status: err instanceof SourceError ? err.status : undefined, err: (err as Error).message, outcome: refusal.kind });
    if (refusal.kind === 'failed') return finish({ state: 'failed', failure: refusal.reason });
    if (refusal.rateLimited) {
      if (target.store === 'apple_app_store') await setAllowance(key, 0, new Date(Date.now() + (refusal.afterSeconds ?? 60) * 1000));
      return finish({ state: 'sending', retryInSeconds: refusal.afterSeconds ?? 60, note: refusal.reason, countAttempt: false });
    }
    if (row.attempts >= REPLY_MAX_ATTEMPTS) {
      return finish({ state: 'failed', failure: `${STORE_API[target.store]} kept failing, ${row.attempts} tries over about half an hour (last: ${refusal.reason.replace(/: the reply is tried again shortly\.$/, '')}). Send the reply again later.` });
    }
    return finish({ state: 'sending', retryInSeconds: refusal.afterSeconds ?? backoffSeconds(row.attempts), note: refusal.reason, countAttempt: true });
  }
}

/**
 * One look at the store for a pending reply no poll has confirmed yet: published when the store shows its text,
 * otherwise looked at again later (a store error only postpones the look).
 */
export async function checkPendingReply(id: string): Promise<boolean> {
  const row = await claimPending(id, LEASE_SECONDS);
  if (!row) return false;
  const review = await reviewForReply(row.org_id, String(row.review_id));
  const target = review ? targetOf(review) : null;
  let published = false;
  try {
    published = !!target && target !== 'unreadable' && (await storeShowsReply(target, row.text));
  } catch (err) {
    log.warn('could not read whether a reply is published', { reply: row.id, app: row.app_key, err: (err as Error).message });
  }
  await finishPendingCheck(row.id, published, PENDING_CHECK_SECONDS * 3);
  if (published) await onReplyPublished(row.org_id, String(row.review_id));
  return published;
}

/** Every reply due for another attempt, then every pending one due for a look (the periodic job; tests call it). */
export async function runDueReplies(limit = 50): Promise<number> {
  let done = 0;
  for (const id of await dueIds('sending', limit)) {
    if (await attemptReply(id)) done++;
  }
  for (const id of await dueIds('pending_publish', limit)) await checkPendingReply(id);
  return done;
}

/** The review, when it is one of the organisation's apps' reviews; 404 otherwise. */
async function reviewOrNotFound(orgId: string, reviewId: string): Promise<ReviewForReply> {
  const review = /^\d{1,18}$/.test(reviewId) ? await reviewForReply(orgId, reviewId) : undefined;
  if (!review) throw notFound(`There is no review ${reviewId} among your organisation's apps.`);
  return review;
}

/** The store's limit, checked before anything is recorded or sent. */
export function checkReplyText(store: ReplyStore, text: string): string {
  const trimmed = text.trim();
  if (!trimmed) throw badRequest('text: write the reply first: it cannot be empty.');
  const n = replyLength(trimmed);
  const max = REPLY_MAX_CHARS[store];
  if (n > max) throw badRequest(`text: a ${STORE_NAMES[store]} reply can be at most ${max.toLocaleString('en-US')} characters, and this one has ${n.toLocaleString('en-US')}. Shorten it by ${(n - max).toLocaleString('en-US')}.`);
  return trimmed;
}

export function missingCredentials(review: Pick<ReviewForReply, 'store' | 'app_title'>): HttpError {
  const store = review.store as ReplyStore;
  return new HttpError(
    409,
    'store_credentials_missing',
    `Replying to ${STORE_NAMES[store]} reviews goes through ${STORE_API[store]}: add ${review.app_title}'s ${CREDENTIALS_KIND[store]} on the Apps page (Store credentials), then send the reply again.`,
  );
}

/** The review's reply as ARB holds it from now on; a 409 while a send of it is in flight. */
async function record(actor: ReplyActor, review: ReviewForReply, text: string, state: 'sending' | 'draft'): Promise<ReplyRow> {
  const row = await upsertSending({
    state,
    id: randomId('rpl'),
    orgId: actor.orgId,
    reviewId: review.id,
    appKey: review.app_key,
    text,
    authorUserId: actor.userId,
    authorLabel: actor.label,
    reviewUpdatedAt: review.updated_at,
  });
  if (!row) throw new HttpError(409, 'reply_in_progress', 'A reply to this review is being sent right now. Wait a few seconds, then look again.');
  return row;
}

/**
 * Records the reply (or replaces the review's reply) and makes the first attempt. Resolves with the reply as it stands
 * after that attempt: pending_publish or published when the store took it, sending when it will be tried again,
 * failed with the reason.
 */
export async function sendReply(actor: ReplyActor, reviewId: string, rawText: string): Promise<ReplyRow> {
  const review = await reviewOrNotFound(actor.orgId, reviewId);
  const text = checkReplyText(review.store as ReplyStore, rawText);
  await assertFeature(actor.orgId, 'replies');
  if (!review.credentials_enc) throw missingCredentials(review);
  const row = await record(actor, review, text, 'sending');
  await recordAudit({ orgId: actor.orgId, actor: actor.audit, action: 'review.replied', target: review.app_title, details: { review: review.id, app: review.app_key, by: actor.label } });
  return (await attemptReply(row.id)) ?? (await replyById(row.id))!;
}

/**
 * Keeps the text as the review's draft reply (state draft): checked against the store's limit, never sent until it
 * is sent as a reply. Needs no store credentials yet. Replaces what ARB held for the review (not what the store shows).
 */
export async function saveDraft(actor: ReplyActor, reviewId: string, rawText: string): Promise<ReplyRow> {
  const review = await reviewOrNotFound(actor.orgId, reviewId);
  const text = checkReplyText(review.store as ReplyStore, rawText);
  await assertFeature(actor.orgId, 'replies');
  return record(actor, review, text, 'draft');
}

/**
 * Removes the review's reply: from App Store Connect (DELETE of its response) and from ARB. Google Play has no delete:
 * a Play reply is changed by sending a new one.
 */
export async function removeReply(actor: ReplyActor, reviewId: string): Promise<void> {
  const review = await reviewOrNotFound(actor.orgId, reviewId);
  await assertFeature(actor.orgId, 'replies');
  if (review.store !== 'apple_app_store') throw badRequest('Google Play has no way to delete a reply: change it by sending a new one.');
  const target = targetOf(review);
  if (target === 'unreadable') throw new HttpError(409, 'store_credentials_unreadable', UNREADABLE);
  if (!target) throw missingCredentials(review);
  const row = await replyOf(actor.orgId, review.id);
  if (row?.lease_until && row.lease_until.getTime() > Date.now()) throw new HttpError(409, 'reply_in_progress', 'A reply to this review is being sent right now. Wait a few seconds, then try again.');
  try {
    await removeFromStore(target, row?.store_response_id ?? null);
  } catch (err) {
    const refusal = classifyStoreError(target, err);
    throw new HttpError(refusal.kind === 'failed' ? 422 : 502, 'store_refused', refusal.reason.replace(/the reply is tried again shortly\.$/, 'try again in a minute.'));
  }
  if (row) await deleteReplyRow(row.id);
  await recordAudit({ orgId: actor.orgId, actor: actor.audit, action: 'review.reply_removed', target: review.app_title, details: { review: review.id, app: review.app_key, by: actor.label } });
}
