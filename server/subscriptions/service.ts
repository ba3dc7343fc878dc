/**
 * Reviews by e-mail, the operations: a visitor asks for an app's recent reviews or a summary, confirms the daily
 * digest, unsubscribes; the digest runs on schedule. See README.md in this folder for the guarantees.
 */
import { getDb } from '../db/client';
import { log } from '../log';
import { enforceRateLimit, hitRateLimit, ipRateKey, type RateLimitRule } from '../http/rateLimit';
import { HttpError, badRequest } from '../http/errors';
import { MailDeliveryError, sendMail } from '../mail/send';
import { addressHint, appKey, type AppRef } from '../monitor/service';
import { mailboxKey } from '../connect/mailbox';
import { confirmDestinationLink, linkSuperseded } from '../connect/emailConsent';
import { storeName } from '../destinations/format/text';
import { storefrontName } from '@/shared/storefronts';
import { registerApp } from '../connect/apps';
import {
  activateDigest,
  activeDigestSubscriptions,
  addressGeneration,
  claimDueDigests,
  claimEmailRequests,
  clearUnsubscribe,
  enqueueEmailRequest,
  getSubscription,
  isAddressUnsubscribed,
  markEmailRequestCancelled,
  markEmailRequestFailed,
  markEmailRequestSent,
  recordDigestSent,
  retryDigestSoon,
  saveSubscription,
  setDigestCursor,
  stopDigestSchedule,
  unsubscribeAddress,
  type ClaimedEmailRequest,
} from './data';
import { confirmationEmail, digestEmail, recentReviewsEmail, summaryEmail, weeklySummaryEmail, type DigestSection, type EmailApp, type UnsubscribeLinks, type WeeklyOffer } from './emails';
import { env } from '../env';
import { setWeeklyStatus, weeklySummaryById } from '../insights/weeklyData';
import { summaryMessageInput } from '../insights/weeklyMessage';
import { appInfoOf } from '../monitor/apps';
import { ensureFreshReviews, recentReviews, reviewsFirstSeenBetween, ReviewsUnavailableError, toMessageInput, type StoredReview } from './reviews';
import { summarizeReviews } from './summary';
import { confirmPageUrl, oneClickUnsubscribeUrl, unsubscribePageUrl, verifyEmailToken, type ConfirmKind, type EmailToken } from './tokens';

export const EMAIL_LIMITS = {
  reviewsPerIp: { name: 'reviews-email:ip', limit: 20, windowSeconds: 3600 },
  reviewsPerAddress: { name: 'reviews-email:address', limit: 5, windowSeconds: 86_400 },
  summaryPerIp: { name: 'summary-email:ip', limit: 20, windowSeconds: 3600 },
  summaryPerAddress: { name: 'summary-email:address', limit: 3, windowSeconds: 86_400 },
  /** An unsubscribed address gets one confirmation request a day at most, however often the form is used. */
  confirmationsPerAddress: { name: 'email-confirm:address', limit: 1, windowSeconds: 86_400 },
} satisfies Record<string, RateLimitRule>;

/** Reviews in the recent-reviews e-mail, in a digest section, and counted by a summary. */
export const RECENT_REVIEWS = 10;
export const DIGEST_REVIEWS_PER_APP = 20;
export const SUMMARY_REVIEWS = 500;
/** A digest covers reviews stored until this long ago, so a poll still committing is not skipped (reviews.ts). */
export const DIGEST_SETTLE_MS = 2 * 60_000;
/** When a one-off e-mail cannot be made or sent: wait this long before each new try, then give up. */
const RETRY_DELAYS_MS = [60_000, 5 * 60_000, 15 * 60_000, 60 * 60_000, 6 * 60 * 60_000];
const DIGEST_RETRY_MS = 15 * 60_000;
const LEASE_MS = 2 * 60_000;

/** `weeklySummary`: the form's "also a weekly summary" box; the e-mail then asks for the confirming click. */
export type EmailRequestInput = { kind: ConfirmKind; email: string; app: AppRef; country: string; ip: string; weeklySummary?: boolean };
export type EmailRequestResult = { queued: true; confirmation_required: boolean };

// ── asking ──────────────────────────────────────────────────────────────────────────────────────────────────────

/**
 * Store the request and answer at once; the e-mail is made and sent by processEmailRequests (kicked right away, and
 * by the background job if this process stops first). An address that unsubscribed gets a confirmation link instead.
 */
export async function requestEmail(input: EmailRequestInput): Promise<EmailRequestResult> {
  const [perIp, perAddress] = input.kind === 'summary' ? [EMAIL_LIMITS.summaryPerIp, EMAIL_LIMITS.summaryPerAddress] : [EMAIL_LIMITS.reviewsPerIp, EMAIL_LIMITS.reviewsPerAddress];
  await enforceRateLimit(perIp, ipRateKey(input.ip), 'Too many e-mail requests from your network in the last hour. Try again later.');
  await enforceRateLimit(perAddress, mailboxKey(input.email), 'This address has asked for several e-mails today already. Try again tomorrow.');
  const country = input.app.store === 'apple_app_store' ? input.country || 'us' : '';
  const app = await registerApp(input.app, country || 'us');
  const sub = await saveSubscription({ email: input.email, appKey: appKey({ store: input.app.store, appId: app.app_id }), country, ip: input.ip });
  if (input.weeklySummary && sub.weekly_status === 'off') await setWeeklyStatus(await getDb(), sub.id, 'offered');

  if (await isAddressUnsubscribed(input.email)) {
    const allowed = await hitRateLimit(EMAIL_LIMITS.confirmationsPerAddress, mailboxKey(input.email));
    // Over the limit the answer is the same: the confirmation sent earlier today is the one to click.
    if (allowed.allowed) await enqueueEmailRequest(sub.id, input.kind === 'summary' ? 'confirm_summary' : 'confirm_recent_reviews');
    kickEmailRequests();
    return { queued: true, confirmation_required: true };
  }
  await enqueueEmailRequest(sub.id, input.kind);
  kickEmailRequests();
  return { queued: true, confirmation_required: false };
}

// ── sending the one-off e-mails ─────────────────────────────────────────────────────────────────────────────────

async function linksFor(email: string): Promise<UnsubscribeLinks> {
  return { page: await unsubscribePageUrl(email), oneClick: await oneClickUnsubscribeUrl(email) };
}

function emailApp(r: { app_store: AppRef['store']; app_title: string; app_store_url: string | null }): EmailApp {
  return { title: r.app_title, storeName: storeName(r.app_store), storeUrl: r.app_store_url };
}

function inputsFor(r: { app_store: AppRef['store']; app_id: string; app_title: string; app_icon_url: string | null; app_store_url: string | null }, reviews: StoredReview[]) {
  return reviews.map((rv) => toMessageInput({ store: r.app_store, appId: r.app_id, title: r.app_title, iconUrl: r.app_icon_url, storeUrl: r.app_store_url }, rv));
}

/** The weekly summary's offer for a subscription: none when it is on. */
async function weeklyOffer(sub: { id: string; email: string; weekly_status: 'off' | 'offered' | 'active' }): Promise<WeeklyOffer> {
  if (sub.weekly_status === 'active') return null;
  const url = await confirmPageUrl({ purpose: 'weekly', subscriptionId: sub.id, generation: await addressGeneration(sub.email) });
  return { url, asked: sub.weekly_status === 'offered' };
}

async function sendOne(req: ClaimedEmailRequest): Promise<void> {
  const ref: AppRef = { store: req.app_store, appId: req.app_id };
  const weekly = req.kind === 'recent_reviews' || req.kind === 'summary' ? await weeklyOffer({ id: req.subscription_id, email: req.email, weekly_status: req.weekly_status }) : null;
  const countryName = req.country ? storefrontName(req.country) : null;
  const links = await linksFor(req.email);
  switch (req.kind) {
    case 'recent_reviews': {
      await ensureFreshReviews(ref, req.country);
      const readAt = new Date();
      const reviews = await recentReviews(ref, req.country, RECENT_REVIEWS);
      const digestUrl =
        req.digest_status === 'active' ? null : await confirmPageUrl({ purpose: 'digest', subscriptionId: req.subscription_id, generation: await addressGeneration(req.email) });
      await sendMail(recentReviewsEmail({ to: req.email, app: emailApp(req), countryName, reviews: inputsFor(req, reviews), digestUrl, weekly, links }));
      // A digest turned on later starts after what this e-mail showed.
      await setDigestCursor(req.subscription_id, readAt);
      return;
    }
    case 'summary': {
      await ensureFreshReviews(ref, req.country);
      const reviews = await recentReviews(ref, req.country, SUMMARY_REVIEWS);
      const summary = summarizeReviews(reviews);
      await sendMail(summaryEmail({ to: req.email, app: emailApp(req), countryName, summary, negative: inputsFor(req, summary.latestNegative), weekly, links }));
      return;
    }
    case 'weekly_summary': {
      const stored = req.weekly_summary_id === null ? undefined : await weeklySummaryById(await getDb(), req.weekly_summary_id);
      if (!stored) throw new Error('The weekly summary of this e-mail no longer exists.');
      const app = appInfoOf({ store: req.app_store, app_id: req.app_id, title: req.app_title, icon_url: req.app_icon_url, store_url: req.app_store_url });
      await sendMail(weeklySummaryEmail({ to: req.email, summary: summaryMessageInput(stored, app, env().APP_URL), links }));
      return;
    }
    case 'confirm_recent_reviews':
    case 'confirm_summary': {
      const what: ConfirmKind = req.kind === 'confirm_summary' ? 'summary' : 'recent_reviews';
      const confirmUrl = await confirmPageUrl({ purpose: 'confirm', subscriptionId: req.subscription_id, kind: what, generation: await addressGeneration(req.email) });
      await sendMail(confirmationEmail({ to: req.email, app: emailApp(req), what, confirmUrl, links }));
      return;
    }
  }
}

/** Sends every due one-off e-mail; returns how many went out. Never throws for one bad request. */
export async function processEmailRequests(): Promise<number> {
  let sent = 0;
  for (;;) {
    const claimed = await claimEmailRequests(10, LEASE_MS);
    if (!claimed.length) return sent;
    for (const req of claimed) {
      const rlog = log.child({ emailRequest: req.id, kind: req.kind });
      try {
        // Unsubscribed after asking: only the confirmation (which exists because of that) may still go.
        if (!req.kind.startsWith('confirm_') && (await isAddressUnsubscribed(req.email))) {
          await markEmailRequestCancelled(req.id, 'The recipient unsubscribed.');
          continue;
        }
        if (req.kind === 'weekly_summary' && req.weekly_status !== 'active') {
          await markEmailRequestCancelled(req.id, 'The recipient turned the weekly summary off.');
          continue;
        }
        await sendOne(req);
        await markEmailRequestSent(req.id);
        sent += 1;
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        const retryable = err instanceof ReviewsUnavailableError || err instanceof MailDeliveryError;
        const delay = retryable ? (RETRY_DELAYS_MS[req.attempts - 1] ?? null) : null;
        await markEmailRequestFailed(req.id, message, delay);
        (retryable ? rlog.warn : rlog.error)('review e-mail not sent', { error: message, attempt: req.attempts, retryInMs: delay });
      }
    }
  }
}

let running: Promise<void> | null = null;
let again = false;

/** Work the outbox now, in this process, without waiting for the next background run. */
export function kickEmailRequests(): void {
  if (running) {
    again = true;
    return;
  }
  running = (async () => {
    do {
      again = false;
      await processEmailRequests();
    } while (again);
  })()
    .catch((err) => log.error('review e-mail outbox run failed', { err }))
    .finally(() => {
      running = null;
    });
}

/** Tests: wait for a kicked run to finish. */
export async function emailRequestsSettled(): Promise<void> {
  while (running) await running;
}

// ── links in the e-mails ────────────────────────────────────────────────────────────────────────────────────────

function tokenError(expired: boolean, what: string): HttpError {
  return badRequest(expired ? `This ${what} link has expired. Ask for the reviews again on ARB’s “Get reviews by e-mail” page.` : `This ${what} link is not valid. Copy the whole link from the e-mail.`, 'invalid_token');
}

export type ConfirmResult = { action: 'digest_on' | 'weekly_on' | 'queued' | 'destination_on'; app: string; email: string };

type ConfirmLink = Extract<EmailToken, { purpose: 'digest' | 'weekly' | 'confirm' | 'destination' }>;

/** The link's token, whichever confirm-page purpose it was made for; expired or forged → 400 in words. */
async function readConfirmLink(token: string): Promise<ConfirmLink> {
  let expired = false;
  for (const purpose of ['digest', 'weekly', 'confirm', 'destination'] as const) {
    const check = await verifyEmailToken(token, purpose);
    if (check.ok) return check.value;
    expired ||= check.expired;
  }
  throw tokenError(expired, 'confirmation');
}

/**
 * The confirm page's button: turns the digest or the weekly summary on, sends what an unsubscribed address asked for, or starts a new
 * e-mail destination. A link made before the address's latest unsubscribe is refused (409): it cannot undo it.
 */
export async function confirmEmailToken(token: string, ip: string): Promise<ConfirmResult> {
  const link = await readConfirmLink(token);
  if (link.purpose === 'destination') return confirmDestinationLink(link.destinationId, link.generation);
  const sub = await getSubscription(link.subscriptionId);
  if (!sub) throw new HttpError(404, 'not_found', 'This request no longer exists. Ask for the reviews again.');
  if ((await addressGeneration(sub.email)) !== link.generation) throw linkSuperseded();
  const db = await getDb();
  const app = await db.selectFrom('apps').select('title').where('key', '=', sub.app_key).executeTakeFirstOrThrow();
  if (link.purpose === 'digest') {
    await activateDigest(sub.id);
    log.info('daily digest turned on', { subscription: sub.id });
    return { action: 'digest_on', app: app.title, email: maskEmail(sub.email) };
  }
  if (link.purpose === 'weekly') {
    // A click from the mailbox itself: like the digest's, it lifts an earlier unsubscribe (the generation check above
    // refused links made before it).
    await clearUnsubscribe(sub.email);
    await setWeeklyStatus(db, sub.id, 'active');
    log.info('weekly summary turned on', { subscription: sub.id });
    return { action: 'weekly_on', app: app.title, email: maskEmail(sub.email) };
  }
  await enforceRateLimit(link.kind === 'summary' ? EMAIL_LIMITS.summaryPerAddress : EMAIL_LIMITS.reviewsPerAddress, mailboxKey(sub.email), 'This address has asked for several e-mails today already. Try again tomorrow.');
  await enforceRateLimit(EMAIL_LIMITS.reviewsPerIp, ipRateKey(ip), 'Too many e-mail requests from your network in the last hour. Try again later.');
  await clearUnsubscribe(sub.email);
  await enqueueEmailRequest(sub.id, link.kind);
  kickEmailRequests();
  return { action: 'queued', app: app.title, email: maskEmail(sub.email) };
}

/** "ja…@example.com": enough to recognise, not enough to harvest from a forwarded link. */
export const maskEmail = addressHint;

export async function describeUnsubscribe(token: string): Promise<{ email: string; unsubscribed: boolean }> {
  const check = await verifyEmailToken(token, 'unsubscribe');
  if (!check.ok) throw tokenError(false, 'unsubscribe');
  return { email: maskEmail(check.value.email), unsubscribed: await isAddressUnsubscribed(check.value.email) };
}

export async function unsubscribeWithEmailToken(token: string): Promise<{ email: string; unsubscribed: true; apps: string[] }> {
  const check = await verifyEmailToken(token, 'unsubscribe');
  if (!check.ok) throw tokenError(false, 'unsubscribe');
  const result = await unsubscribeAddress(check.value.email);
  if (!result.alreadyUnsubscribed) log.info('address unsubscribed from review e-mails', { apps: result.apps.length });
  return { email: maskEmail(check.value.email), unsubscribed: true, apps: result.apps };
}

// ── the daily digest ────────────────────────────────────────────────────────────────────────────────────────────

/** One digest per due address: the new reviews of every app it follows, in one e-mail. */
export async function runDueDigests(): Promise<{ sent: number; empty: number }> {
  let sent = 0;
  let empty = 0;
  for (;;) {
    const due = await claimDueDigests(20);
    if (!due.length) return { sent, empty };
    for (const { email } of due) {
      try {
        const subs = await activeDigestSubscriptions(email);
        if (!subs.length) {
          await stopDigestSchedule(email);
          continue;
        }
        const until = new Date(Date.now() - DIGEST_SETTLE_MS);
        const sections: DigestSection[] = [];
        let since = until;
        for (const s of subs) {
          const from = s.digest_cursor ?? s.digest_confirmed_at ?? s.created_at;
          if (from < since) since = from;
          const { reviews, total } = await reviewsFirstSeenBetween({ store: s.app_store, appId: s.app_id }, s.country, from, until, DIGEST_REVIEWS_PER_APP);
          if (total) sections.push({ app: emailApp(s), countryName: s.country ? storefrontName(s.country) : null, reviews: inputsFor(s, reviews), total, weekly: await weeklyOffer(s) });
        }
        // Nothing new today: no e-mail, and the reviews of tomorrow's digest still start at the same place.
        if (!sections.length) {
          empty += 1;
          continue;
        }
        await sendMail(digestEmail({ to: email, sections, since, links: await linksFor(email) }));
        await recordDigestSent(email, subs.map((s) => ({ subscriptionId: s.id, cursor: until })));
        sent += 1;
      } catch (err) {
        log.warn('digest not sent; trying again later', { error: (err as Error).message });
        await retryDigestSoon(email, DIGEST_RETRY_MS);
      }
    }
  }
}

