/**
 * Sends one formatted message to one destination and says what happened, in the terms the delivery worker acts on:
 *   delivered · rate_limited (wait, then try the same message again) · transient (back off, try again) ·
 *   rejected (this message can never go: don't retry it, the destination is fine) ·
 *   gone (the destination itself is unusable: disable it and tell its owner why).
 * Never throws. The webhook URL is re-checked against its platform's shape before sending (prepareTarget: once per
 * destination hold — the URL cannot change while a worker holds the destination).
 */
import { validateWebhookUrl } from '@/shared/webhookUrls';
import { env } from '../env';
import { MailDeliveryError, sendMail } from '../mail/send';
import { isAddressUnsubscribed } from '../subscriptions/data';
import { log } from '../log';
import type { FormattedMessage, Platform } from './types';
import { jsonBody, type SendResult, type WebhookSender } from './send';
import { signWebhook } from './signing';
import { clampAskedWaitMs, gone, parseJson, PLATFORM_NAMES, rejected, type DeliveryOutcome } from './answers';
import { answerRulesOf } from './platforms';

export { clampAskedWaitMs, MAX_ASKED_WAIT_MS, MIN_ASKED_WAIT_MS, PLATFORM_NAMES, type DeliveryOutcome } from './answers';

/** Stored as the destination's status_reason; the connect flow looks for it before mailing an address again. */
export const UNSUBSCRIBED_REASON = 'The recipient unsubscribed from these e-mails.';

/** When a 429 carries no hint: long enough not to hammer, short enough not to fall behind. */
const DEFAULT_RATE_LIMIT_WAIT_MS = 5_000;

const GONE_WORDS: Record<number, string> = {
  401: 'its credentials are no longer valid',
  403: 'posting with it is no longer allowed',
  404: 'it no longer exists — it was probably deleted, or its channel was removed',
  410: 'it no longer exists — its channel was archived or removed',
};

export function classifyWebhookResponse(platform: Platform, res: SendResult): DeliveryOutcome {
  if (res.failure === 'blocked_address') {
    return { type: 'gone', status: 0, error: `The webhook's address leads to a private or internal network, and ARB only posts to public internet addresses. ${res.error ?? ''}`.trim() };
  }
  if (res.failure === 'redirect') {
    return { type: 'gone', status: res.status, error: `The webhook answered with a redirect (HTTP ${res.status}), which ARB does not follow. Connect it again with the webhook's final address.` };
  }
  if (res.failure) return { type: 'transient', status: 0, error: res.error ?? 'The webhook could not be reached.' };

  const { status, body } = res;

  const rules = answerRulesOf(platform);
  if (status >= 200 && status < 300) return rules.success?.(res) ?? { type: 'delivered', status };

  // Only refusals are worth parsing (a success body is "ok" or the posted message).
  const json = parseJson(body);
  if (status === 429 || rules.slowDownStatuses?.includes(status)) {
    const seconds = rules.bodyWaitSeconds?.(json) ?? res.retryAfter;
    const waitMs = clampAskedWaitMs(seconds, DEFAULT_RATE_LIMIT_WAIT_MS);
    return { type: 'rate_limited', status, waitMs, error: `${PLATFORM_NAMES[platform]} asked to slow down (HTTP ${status}).` };
  }

  if (status >= 500) {
    return {
      type: 'transient',
      status,
      error: `${PLATFORM_NAMES[platform]} had a temporary problem (HTTP ${status}); ARB will try again.`,
      waitMs: res.retryAfter !== null ? clampAskedWaitMs(res.retryAfter, 0) : undefined,
    };
  }

  const own = rules.refusal(status, body, json);
  if (own) return own;
  if (GONE_WORDS[status]) return gone(platform, status, body, GONE_WORDS[status]);
  return rejected(platform, status, body);
}

export type DeliveryTarget = {
  destinationId: string;
  platform: Platform;
  /** Webhook URL or e-mail address (decrypted). */
  target: string;
  /** Signed webhooks: the destination's `whsec_` secret (decrypted). */
  signingSecret?: string | null;
  /** Signed webhooks, during a rotation's grace period: the secret it replaced (decrypted), which signs too. */
  previousSigningSecret?: string | null;
};

/** A target checked for sending: the URL to POST to, or why nothing may be sent to it. */
export type PreparedTarget = DeliveryTarget & ({ postUrl: string; invalid?: undefined } | { postUrl?: undefined; invalid: DeliveryOutcome });

/** Checks a webhook URL against its platform's shape (e-mail addresses need no URL). */
export function prepareTarget(target: DeliveryTarget): PreparedTarget {
  if (target.platform === 'email') return { ...target, postUrl: '' };
  const check = validateWebhookUrl(target.platform, target.target, { allowPrivate: env().ALLOW_PRIVATE_WEBHOOKS });
  if (!check.ok) {
    return { ...target, invalid: { type: 'gone', status: 0, error: `The saved address is not a valid ${PLATFORM_NAMES[target.platform]} webhook: ${check.error}` } };
  }
  return { ...target, postUrl: answerRulesOf(target.platform).sendUrl?.(target.target) ?? target.target };
}

export async function deliver(
  target: PreparedTarget,
  message: FormattedMessage,
  /** `idempotencyKey`: the message's id (messageIds.ts), sent as Idempotency-Key and, signed, as webhook-id. */
  opts: { sender: WebhookSender; idempotencyKey: string },
): Promise<DeliveryOutcome> {
  if (target.platform === 'email' || message.kind === 'email') {
    if (message.kind !== 'email') return { type: 'rejected', status: 0, error: 'This message has no e-mail form.' };
    // The recipient may have used the unsubscribe link of any ARB e-mail since this was queued.
    if (await isAddressUnsubscribed(target.target)) return { type: 'gone', status: 0, error: UNSUBSCRIBED_REASON, unsubscribed: true };
    try {
      await sendMail({ to: target.target, subject: message.subject, text: message.text, html: message.html, headers: message.headers });
      return { type: 'delivered', status: 250 };
    } catch (err) {
      // Another failure's text (a file system error of the outbox…) stays in the log; the status shows a plain reason.
      if (!(err instanceof MailDeliveryError)) log.error('e-mail delivery failed', { err });
      const msg = err instanceof MailDeliveryError ? err.message : 'The e-mail could not be sent.';
      return { type: 'transient', status: 0, error: msg };
    }
  }

  if (target.invalid) return target.invalid;
  // A stable id per message, unique across installations (messageIds.ts): platforms that dedupe on it will, and
  // receivers' logs can tie a repeat to its first try.
  const headers: Record<string, string> = { 'idempotency-key': opts.idempotencyKey };
  if (target.platform === 'webhook') {
    if (!target.signingSecret) return { type: 'rejected', status: 0, error: 'This webhook has no signing secret: rotate its secret in the dashboard.' };
    // The sender sends jsonBody's bytes too, so the signature covers the exact bytes sent. While a rotation's grace
    // lasts, the replaced secret signs too, so the receiver verifies with either.
    const secrets = target.previousSigningSecret ? [target.signingSecret, target.previousSigningSecret] : [target.signingSecret];
    Object.assign(headers, signWebhook(secrets, opts.idempotencyKey, jsonBody(message.body)));
  }
  const body = answerRulesOf(target.platform).sendBody?.(target.target, message.body) ?? message.body;
  const res = await opts.sender.postJson(target.postUrl, body, headers);
  return classifyWebhookResponse(target.platform, res);
}
