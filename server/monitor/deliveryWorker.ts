/**
 * The delivery worker: claims DESTINATIONS (not single deliveries) and sends their queued messages in order.
 *
 * Holding the destination — a lease taken with FOR UPDATE SKIP LOCKED — is what gives each destination one sender at a
 * time across all processes: its messages go out in queue order, its pace (server/destinations/pacing.ts) and any
 * Retry-After hold for everyone, and two workers can never send the same delivery at the same time.
 *
 * Each delivery's attempt is recorded (committed: its 'sending' mark) before its HTTP call — right before, or before the
 * short pace wait that precedes it — and its outcome right after, so the only message whose fate is unknown after a
 * crash is the one that was in flight. Its lease then expires,
 * the next worker finds its attempt without an outcome (`interrupted`) and sends it again: at-least-once for exactly that message, counted as `resent`
 * (see README.md for why exactly-once cannot be had from a webhook and how small the window is).
 *
 * The per-message writes and the queue reads go through deliveryMarks.ts and deliveryQueue.ts, which group those of
 * all the destinations this process holds at that moment into one statement each.
 */
import { sql } from 'kysely';
import type { DB } from '../db/client';
import { log } from '../log';
import { decryptSecret } from '../crypto';
import { messageIdOf } from '../destinations/messageIds';
import { deliver, MAX_ASKED_WAIT_MS, MIN_ASKED_WAIT_MS, prepareTarget, type DeliveryOutcome, type PreparedTarget } from '../destinations/deliver';
import { afterSend, nextAllowedAt, paceFor } from '../destinations/pacing';
import type { WebhookSender } from '../destinations/send';
import type { FormattedMessage, Platform } from '../destinations/types';
import type { DisabledCause } from '../db/types';
import { msInterval as ms } from '../db/interval';
import { count } from './counters';
import { OPEN } from './deliveryStatus';
import { createDeliveryMarks, type Delivered, type DeliveryMarks } from './deliveryMarks';
import { PREPARED } from '../db/preparedStatements';
import { createQueueLoader } from './deliveryQueue';
import { buildMessage, type OpenDelivery } from './messages';
import { translationsForDelivery } from '../ai/translate/deliveries';
import { rateLimitPauseReason } from './pauses';
import { recordDelivery, recordReviewToChat } from '../metrics/registry';

export type DeliveryWorkerOptions = {
  workerId: string;
  leaseMs: number;
  pacing: 'platform' | 'off';
  sender: WebhookSender;
  /** Give the destination back after this long so other destinations (and other workers) get their turn. */
  maxHoldMs?: number;
  /** Waits up to this long for the pace while holding; longer waits release the destination instead. */
  maxInlineWaitMs?: number;
  isStopping?: () => boolean;
  /** First retry delay after a 5xx or network error (doubles per attempt). Tests shorten it. */
  retryBaseMs?: number;
  /** Shared by the destinations this process holds, so their reads and writes are grouped (createDeliveryGroups). */
  groups?: DeliveryGroups;
  /** Frees this destination's slot in the engine while it only waits; returns the call that takes a slot back. */
  stepAside?: () => () => Promise<void>;
  /** Rate limits in a row (no success between them) after which the destination is paused. Tests lower it. */
  rateLimitPauseAfter?: number;
};

/**
 * The queue reads and per-message writes of every destination a process holds, grouped into one statement per moment
 * (deliveryQueue.ts, deliveryMarks.ts). One per engine or drainDeliveries call.
 */
export type DeliveryGroups = { marks: DeliveryMarks; loadQueue: (destinationId: string) => Promise<OpenDelivery[]> };

export function createDeliveryGroups(db: DB, workerId: string, leaseMs: number): DeliveryGroups {
  return { marks: createDeliveryMarks(db, workerId, leaseMs), loadQueue: createQueueLoader(db, BATCH) };
}

export type ClaimedDestination = {
  id: string;
  platform: Platform;
  target_enc: string;
  /** Signed webhooks only. */
  signing_secret_enc: string | null;
  /** Signed webhooks during a rotation's grace period: the replaced secret, which signs too (null once it expired). */
  previous_signing_secret_enc: string | null;
  pace_tat: Date | null;
  consecutive_failures: number;
  /** The Slack workspace it was installed from ("Add to Slack"), for the Reply button. */
  slack_team_id: string | null;
  /** Its organisation (null: an anonymous connection) and the language its reviews are translated into, if any. */
  org_id: string | null;
  translate_to: string | null;
};

const BATCH = 100;
/** Retries of a failing webhook give up on a message after this long; until then the backoff keeps growing. */
export const GIVE_UP_AFTER_MS = 24 * 3600_000;
const BACKOFF_BASE_MS = 10_000;
const BACKOFF_CAP_MS = 3600_000;

/**
 * A message whose sending was interrupted this many times in a row — the worker stopped (crashed, was killed, lost its
 * database) between its 'sending' mark and its outcome — is parked instead of sent again: a message that crashes the
 * worker would otherwise crash every worker that takes its destination, forever, and hold up every message behind it.
 * Three: one or two interruptions are what a deploy or a lost machine does; three in a row on the same message is
 * that message.
 */
export const PARK_AFTER_INTERRUPTIONS = 3;

/** The reason a parked message carries (its last_error), shown with the destination's status. */
export function parkedReason(interruptions: number): string {
  return `Not sent: the worker stopped while sending this message ${interruptions} times in a row, so ARB set it aside instead of trying again. The messages after it are sent as usual.`;
}

/** Exponential backoff with jitter: 10 s, 20 s, 40 s … capped at an hour, each scaled by a random 50–100 %. */
export function backoffMs(attempts: number, random = Math.random(), baseMs = BACKOFF_BASE_MS): number {
  const raw = Math.min(BACKOFF_CAP_MS, baseMs * 2 ** Math.max(0, attempts - 1));
  return Math.round(raw * (0.5 + random / 2));
}

/**
 * A destination whose answers this many times in a row were no success, the last of them a 429 — about 70 minutes of
 * doubling waits at least, when they are all 429s — is paused with a reason its owner sees instead of being asked
 * again forever. (5xx answers count toward the run too: they share the destination's failure counter.)
 */
export const RATE_LIMIT_PAUSE_AFTER = 12;

/**
 * The wait after the `streak`-th rate limit in a row: what the receiver asked (already clamped to 1 s … 1 h), but at
 * least 1 s doubled per 429 before it, so a receiver that keeps asking for "no wait" still gets fewer and fewer POSTs.
 */
export function rateLimitWaitMs(askedMs: number, streak: number): number {
  return Math.min(MAX_ASKED_WAIT_MS, Math.max(askedMs, MIN_ASKED_WAIT_MS * 2 ** Math.min(30, Math.max(0, streak - 1))));
}

/**
 * Leases up to `limit` destinations whose queue head is due, those waiting longest first.
 *
 * The head, not any open delivery: the queue goes out in order, so a later message that is due waits behind a head
 * that is not (a retry's backoff), and claiming the destination would only give it back. Asked "is any open delivery
 * due", PostgreSQL joined every destination to every due open delivery through the index on next_attempt_at whenever
 * its statistics lagged a burst of fan-out: 36 ms a claim over 132 destinations in bench/deliver.ts, against 0.9 ms.
 *
 * The heads are found by walking the open-queue index (destination_id, id) from one destination with open deliveries
 * to the next (`heads`: one index step each, PostgreSQL having no skip scan of its own), so a claim costs what the
 * destinations with something to send cost, not what every active destination does: most of them, most of the time,
 * have nothing queued, and every process claims at least once a second.
 *
 * `busy`: destinations this process is still sending to. Their lease may have run out during a slow answer; they must
 * not be claimed a second time, or two of our own tasks would send the same message in parallel.
 */
export async function claimDestinations(db: DB, workerId: string, limit: number, leaseMs: number, busy: string[] = []): Promise<ClaimedDestination[]> {
  return (await claimStatement(workerId, limit, leaseMs, busy).execute(db)).rows;
}

/** claimDestinations' statement, for tests/worker/claims.test.ts to check its plan. */
export function claimStatement(workerId: string, limit: number, leaseMs: number, busy: string[]) {
  return sql<ClaimedDestination>`${PREPARED}
    with recursive heads(destination_id, next_attempt_at) as (
      (select x.destination_id, x.next_attempt_at from deliveries x
        where x.status in ${OPEN}
        order by x.destination_id, x.id limit 1)
      union all
      select n.destination_id, n.next_attempt_at from heads h
       cross join lateral (
         select x.destination_id, x.next_attempt_at from deliveries x
          where x.status in ${OPEN} and x.destination_id > h.destination_id
          order by x.destination_id, x.id limit 1) n)
    update destinations d
       set lease_owner = ${workerId}, lease_until = now() + ${ms(leaseMs)}
     where d.id in (
       select dd.id from heads h
         join destinations dd on dd.id = h.destination_id
        where h.next_attempt_at <= now()
          and dd.status = 'active' and dd.next_send_at <= now()
          and (dd.lease_until is null or dd.lease_until < now())
          and dd.id <> all(${busy}::text[])
        order by dd.next_send_at
        limit ${limit}
        for update of dd skip locked)
    returning d.id, d.platform, d.target_enc, d.signing_secret_enc,
              case when d.previous_secret_expires_at > now() then d.previous_signing_secret_enc end as previous_signing_secret_enc,
              d.pace_tat, d.consecutive_failures, d.slack_team_id, d.org_id, d.translate_to`;
}

async function markRetry(db: DB, destinationId: string, d: OpenDelivery, waitMs: number, status: number, error: string, failure: boolean): Promise<'retry' | 'failed'> {
  const firstAttempt = d.first_attempt_at?.getTime() ?? Date.now();
  const giveUp = failure && Date.now() - firstAttempt > GIVE_UP_AFTER_MS;
  const next = giveUp ? 'failed' : 'retry';
  const lastError = giveUp ? `Gave up after a day of failed attempts. Last answer: ${error}` : error;
  await sql`
    with upd as (
      update deliveries set status = ${next}, next_attempt_at = now() + ${ms(waitMs)}, last_status = ${status || null}, last_error = ${lastError}
       where id = ${d.id})
    update destinations
       set next_send_at = now() + ${ms(waitMs)}, last_error = ${lastError}, last_error_at = now(),
           consecutive_failures = consecutive_failures + ${failure ? 1 : 0}
     where id = ${destinationId}`.execute(db);
  return next;
}

/** Sets an interrupted message aside (status 'parked', with its reason): it is not sent again, the queue moves on. */
async function parkDelivery(db: DB, deliveryId: number, reason: string): Promise<void> {
  await sql`update deliveries set status = 'parked', last_error = ${reason} where id = ${deliveryId} and status in ${OPEN}`.execute(db);
}

async function markRejected(db: DB, destinationId: string, deliveryId: number, status: number, error: string): Promise<void> {
  await sql`
    with upd as (
      update deliveries set status = 'failed', last_status = ${status || null}, last_error = ${error} where id = ${deliveryId})
    update destinations set last_error = ${error}, last_error_at = now() where id = ${destinationId}`.execute(db);
}

/** The destination is unusable: disable it with its reason, and close its queue with that reason. */
async function disableDestination(db: DB, destinationId: string, deliveryId: number, status: number, reason: string, cause: DisabledCause): Promise<number> {
  return db.transaction().execute(async (trx) => {
    await sql`update deliveries set status = 'failed', last_status = ${status || null}, last_error = ${reason} where id = ${deliveryId}`.execute(trx);
    const rest = await sql`
      update deliveries set status = 'failed', last_error = ${`Not sent: the destination was disabled. ${reason}`}
       where destination_id = ${destinationId} and status in ${OPEN}`.execute(trx);
    await sql`
      update destinations
         set status = 'disabled', status_reason = ${reason}, disabled_cause = ${cause}, last_error = ${reason}, last_error_at = now(),
             lease_owner = null, lease_until = null, updated_at = now()
       where id = ${destinationId}`.execute(trx);
    return Number(rest.numAffectedRows ?? 0);
  });
}

/**
 * The destination kept answering 429: pause it with its reason (shown on its public status) and put the message back
 * in the queue, where it waits with everything behind it until the owner reconnects or resumes.
 */
async function pauseRateLimited(db: DB, destinationId: string, deliveryId: number, status: number, reason: string): Promise<void> {
  await sql`
    with upd as (
      update deliveries set status = 'retry', next_attempt_at = now(), last_status = ${status || null}, last_error = ${reason}
       where id = ${deliveryId})
    update destinations
       set status = 'paused', status_reason = ${reason}, disabled_cause = 'rate_limited', last_error = ${reason}, last_error_at = now(),
           lease_owner = null, lease_until = null, updated_at = now()
     where id = ${destinationId}`.execute(db);
}

const sleep = (n: number) => new Promise((r) => setTimeout(r, n));

/** `sent`: messages delivered. `dueAt`: when the destination, given back with messages still waiting, may be sent to again. */
export type HoldResult = { sent: number; dueAt: number | null };

/** The secret a rotation replaced, while it still signs; one that cannot be read only stops signing early. */
function previousSecretOf(dest: ClaimedDestination): string | null {
  try {
    return dest.previous_signing_secret_enc ? decryptSecret(dest.previous_signing_secret_enc) : null;
  } catch {
    return null;
  }
}

/**
 * Sends what is due for one claimed destination, in order, until its queue is empty, its pace or a Retry-After asks
 * for a longer wait, the hold time is up, or the worker is stopping; then gives the destination back.
 * Never throws for a delivery's sake: every outcome is recorded on the delivery row.
 */
export async function processDestination(db: DB, dest: ClaimedDestination, opts: DeliveryWorkerOptions): Promise<HoldResult> {
  const dlog = log.child({ destinationId: dest.id, platform: dest.platform, worker: opts.workerId });
  const { marks, loadQueue } = opts.groups ?? createDeliveryGroups(db, opts.workerId, opts.leaseMs);
  const pace = paceFor(dest.platform, opts.pacing);
  let holdUntil = Date.now() + (opts.maxHoldMs ?? 2000);
  const maxInlineWait = opts.maxInlineWaitMs ?? 300;
  let tat = dest.pace_tat?.getTime() ?? null;
  let notBefore: number | null = null;
  // A pause the platform asked for after a success (Discord's bucket headers): waited like the pace — inline when
  // short, by giving the destination back when long — so a short pause doesn't cost a release and a new claim.
  let pausedUntil = 0;
  let sent = 0;
  let tried = 0; // messages sent in this hold, whatever their outcome
  let more = false; // given back with messages still waiting (a wait, the hold time, stopping)
  let dueAt: number | null = null;
  // Answers in a row that were not a success (429s and failures), as the destination row counts them.
  let streak = dest.consecutive_failures;
  let target: string;
  let signingSecret: string | null;
  try {
    target = decryptSecret(dest.target_enc);
    signingSecret = dest.signing_secret_enc ? decryptSecret(dest.signing_secret_enc) : null;
  } catch (err) {
    const reason = `The destination's saved address could not be read: ${(err as Error).message}`;
    dlog.error('destination unreadable', { error: reason });
    await marks.release(dest.id, null, tat, Date.now() + 3600_000);
    return { sent: 0, dueAt: null };
  }
  // Checked against its platform's shape once per hold: the URL cannot change while the destination is held.
  const to: PreparedTarget = prepareTarget({ destinationId: dest.id, platform: dest.platform, target, signingSecret, previousSigningSecret: previousSecretOf(dest) });

  // A success not recorded yet: it rides along with the next message's 'sending' mark, or is recorded on its own
  // before anything that could wait (pace, backoff, release). Only message formatting runs in between.
  let delivered: Delivered | null = null;
  const recordDelivered = async () => {
    if (delivered) await marks.delivered(dest.id, delivered);
    delivered = null;
  };

  try {
    outer: for (;;) {
      const batch = await loadQueue(dest.id);
      if (batch.length === 0) break;
      // One translation call per batch (cached per review), before the first message of it goes out. Its time does
      // not count against the hold: a slow or failing translator (nothing cached, asked again at every hold) would
      // otherwise use up every hold before its first message, and the destination would never be sent to.
      const translateStarted = Date.now();
      const translations = dest.translate_to
        ? await translationsForDelivery(dest.org_id, dest.translate_to, batch.flatMap((d) => (d.review_id === null ? [] : [Number(d.review_id)])))
        : null;
      holdUntil += Date.now() - translateStarted;
      for (const d of batch) {
        // A success carried over from the previous batch is not recorded yet, so the reload still lists it as open.
        if (d.id === (delivered as Delivered | null)?.id) continue;
        const now = Date.now();
        if (d.next_attempt_at.getTime() > now) {
          notBefore = d.next_attempt_at.getTime(); // the head of the queue waits, so everything behind it waits
          more = true;
          break outer;
        }
        // The pace (or a pause the platform asked for) may hold this message back a little: waited inline when short,
        // by giving the destination back when long.
        const allowed = Math.max(nextAllowedAt(tat, pace), pausedUntil);
        if (allowed > now && (allowed - now > maxInlineWait || allowed > holdUntil)) {
          notBefore = allowed;
          more = true;
          break outer;
        }
        // The hold ends only once something was sent in it: with a short hold (DELIVERY_HOLD_MS) on a busy machine, the
        // queue read alone can outlast it, and a destination given back before its first message would be claimed,
        // read and given back again without ever moving.
        if (opts.isStopping?.() || (tried > 0 && now > holdUntil)) {
          more = true;
          break outer;
        }

        // Interrupted again and again: this message may be what stops the worker (a payload that crashes the process,
        // a receiver whose answer does). Set it aside before formatting or sending it once more.
        if (d.interrupted && d.interrupted_sends + 1 >= PARK_AFTER_INTERRUPTIONS) {
          const reason = parkedReason(d.interrupted_sends + 1);
          await recordDelivered();
          await parkDelivery(db, d.id, reason);
          count('parked');
          recordDelivery(dest.platform, 'parked');
          dlog.error('delivery parked: its sending was interrupted too many times in a row', { deliveryId: d.id, kind: d.kind, attempts: d.attempts, interruptions: d.interrupted_sends + 1 });
          continue;
        }

        let message: FormattedMessage;
        try {
          message = await buildMessage(dest.platform, target, d, { id: dest.id, slackTeamId: dest.slack_team_id }, translations?.get(Number(d.review_id)));
        } catch (err) {
          // A formatter bug must not wedge the queue behind this one message.
          const error = `This message could not be formatted: ${(err as Error).message}`;
          await recordDelivered();
          await markRejected(db, dest.id, d.id, 0, error);
          count('failed');
          recordDelivery(dest.platform, 'rejected');
          dlog.error('delivery failed', { deliveryId: d.id, kind: d.kind, error });
          continue;
        }
        // While its 'sending' mark (with the previous success) commits and while it waits for its pace, the
        // destination is still held (its order and pace stay its own) but needs no slot: another destination formats
        // and sends meanwhile. On a busy worker the commit takes about as long as the POST, so half of a held
        // destination's time went to waiting on the database in a slot that another could have sent from.
        // The mark comes before the pace's short wait, not after it: the wait then hides the commit (Discord's
        // 50 ms bucket pauses in bench/deliver.ts came with two commits each). A crash during the wait leaves the
        // message marked but not sent: it is sent once at the next hold, counted as resent.
        const previous = delivered;
        delivered = null;
        const back = opts.stepAside?.();
        if (!(await marks.sending(dest.id, d.id, previous))) {
          dlog.warn('lease lost; leaving the destination to its new owner', { deliveryId: d.id });
          return { sent, dueAt: null };
        }
        const wait = allowed - Date.now();
        // Sent after the wait even if the worker is stopping by then: it is marked, and a stop waits for its holds.
        if (wait > 0) await sleep(wait);
        await back?.();
        if (d.interrupted) {
          count('resent');
          dlog.warn('sending again a delivery whose previous attempt was interrupted', { deliveryId: d.id, attempts: d.attempts + 1 });
        }
        tried++;
        const started = performance.now();
        const outcome: DeliveryOutcome = await deliver(to, message, {
          sender: opts.sender,
          idempotencyKey: messageIdOf(d, dest.id),
        });
        tat = afterSend(tat, Date.now(), pace);
        const fields = { deliveryId: d.id, kind: d.kind, reviewId: d.review_id, attempt: d.attempts + 1, status: outcome.status, ms: Math.round(performance.now() - started) };

        switch (outcome.type) {
          case 'delivered':
            delivered = { id: d.id, status: outcome.status };
            streak = 0;
            count('delivered');
            recordDelivery(dest.platform, 'delivered');
            // Queued in the poll's transaction that stored the review: its created_at is when the review was stored.
            if (d.kind === 'new') recordReviewToChat(dest.platform, (Date.now() - new Date(d.created_at).getTime()) / 1000);
            sent++;
            dlog.info('delivered', fields);
            if (outcome.pauseMs) pausedUntil = Date.now() + outcome.pauseMs;
            break;
          case 'rate_limited': {
            // Counted like a failure: the waits double, the message gives up after a day like any other, and a
            // destination that answers nothing else is paused rather than asked forever.
            streak++;
            if (streak >= (opts.rateLimitPauseAfter ?? RATE_LIMIT_PAUSE_AFTER)) {
              const reason = rateLimitPauseReason(dest.platform);
              await pauseRateLimited(db, dest.id, d.id, outcome.status, reason);
              count('retried');
              recordDelivery(dest.platform, 'rate_limited');
              dlog.error('destination paused: it only answers 429', { ...fields, rateLimitsInARow: streak });
              return { sent, dueAt: null };
            }
            const wait = rateLimitWaitMs(outcome.waitMs, streak);
            const next = await markRetry(db, dest.id, d, wait, outcome.status, `${outcome.error} Waiting ${Math.ceil(wait / 1000)} s.`, true);
            count(next === 'failed' ? 'failed' : 'retried');
            recordDelivery(dest.platform, next === 'failed' ? 'failed' : 'rate_limited');
            dlog.warn('rate limited', { ...fields, waitMs: wait, rateLimitsInARow: streak });
            notBefore = Date.now() + wait;
            more = true;
            break outer;
          }
          case 'transient': {
            const wait = Math.max(outcome.waitMs ?? 0, backoffMs(d.attempts + 1, Math.random(), opts.retryBaseMs));
            const next = await markRetry(db, dest.id, d, wait, outcome.status, outcome.error, true);
            count(next === 'failed' ? 'failed' : 'retried');
            recordDelivery(dest.platform, next === 'failed' ? 'failed' : 'retry');
            dlog.warn(next === 'failed' ? 'delivery failed' : 'delivery will be retried', { ...fields, waitMs: wait, error: outcome.error });
            notBefore = Date.now() + wait;
            more = true;
            break outer;
          }
          case 'rejected':
            await markRejected(db, dest.id, d.id, outcome.status, outcome.error);
            count('failed');
            recordDelivery(dest.platform, 'rejected');
            dlog.error('delivery rejected', { ...fields, error: outcome.error });
            break;
          case 'gone': {
            const closed = await disableDestination(db, dest.id, d.id, outcome.status, outcome.error, outcome.unsubscribed ? 'unsubscribed' : 'receiver_refused');
            count('failed', 1 + closed);
            recordDelivery(dest.platform, 'gone');
            dlog.error('destination disabled', { ...fields, error: outcome.error, closedDeliveries: closed });
            return { sent, dueAt: null };
          }
        }
      }
      if (batch.length < BATCH) break;
    }
  } finally {
    // Never hand the destination back earlier than its pace allows, so the next claim doesn't just sit and wait. The
    // last success (if not recorded yet) is recorded in the same statement.
    const until = Math.max(notBefore ?? 0, nextAllowedAt(tat, pace), pausedUntil);
    if (more) dueAt = Math.max(until, Date.now());
    await marks.release(dest.id, delivered, tat, until > Date.now() ? until : null).catch((err) =>
      dlog.error('could not record the last delivery and release the destination', { err }),
    );
  }
  return { sent, dueAt };
}
