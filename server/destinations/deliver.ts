/**
 * Sends one formatted message to one destination and says what happened, in the terms the delivery worker acts on:
 *   delivered · rate_limited (wait, then try the same message again) · transient (back off, try again) ·
 *   rejected (this message can never go: don't retry it, the destination is fine) ·
 *   gone (the destination itself is unusable: disable it and tell its owner why).
 * Never throws. The webhook URL is re-checked against its platform's shape before sending (prepareTarget: once per
 * destination hold — the URL cannot change while a worker holds the destination).
 */
import { validateWebhookUrl } from '../../lib/webhookUrls';
import { env } from '../env';
import { MailDeliveryError, sendMail } from '../mail/send';
import { isAddressUnsubscribed } from '../subscriptions/data';
import { log } from '../log';
import type { FormattedMessage, Platform } from './types';
import { jsonBody, type SendResult, type WebhookSender } from './send';
import { signWebhook } from './signing';

export type DeliveryOutcome =
  | { type: 'delivered'; status: number; /** Platform asked for a pause before the next message (Discord buckets). */ pauseMs?: number }
  | { type: 'rate_limited'; status: number; waitMs: number; error: string }
  | { type: 'transient'; status: number; error: string; waitMs?: number }
  | { type: 'rejected'; status: number; error: string }
  | { type: 'gone'; status: number; error: string; /** The e-mail recipient unsubscribed (not the receiver refusing). */ unsubscribed?: true };

export const PLATFORM_NAMES: Record<Platform, string> = {
  slack: 'Slack',
  msteams: 'Microsoft Teams',
  mattermost: 'Mattermost',
  discord: 'Discord',
  webex: 'Webex',
  email: 'E-mail',
  webhook: 'Webhook endpoint',
};

/** Stored as the destination's status_reason; the connect flow looks for it before mailing an address again. */
export const UNSUBSCRIBED_REASON = 'The recipient unsubscribed from these e-mails.';

/** When a 429 carries no hint: long enough not to hammer, short enough not to fall behind. */
const DEFAULT_RATE_LIMIT_WAIT_MS = 5_000;
/**
 * Bounds on any wait a receiver asks for. Below a second, a receiver answering `429 Retry-After: 0` would get a POST
 * several times a second for as long as it likes; above an hour, a huge or absurd value (`1e300`) would park the
 * destination forever and overflow the interval arithmetic.
 */
export const MIN_ASKED_WAIT_MS = 1_000;
export const MAX_ASKED_WAIT_MS = 3600_000;

/** A wait a receiver asked for (seconds; any number, even NaN or Infinity) as milliseconds within the bounds above. */
export function clampAskedWaitMs(seconds: number | null | undefined, fallbackMs: number, min = MIN_ASKED_WAIT_MS): number {
  const ms = typeof seconds === 'number' && !Number.isNaN(seconds) ? seconds * 1000 : fallbackMs;
  return Math.round(Math.min(MAX_ASKED_WAIT_MS, Math.max(min, ms)));
}

function parseJson(body: string): Record<string, unknown> | null {
  try {
    const v = JSON.parse(body) as unknown;
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** "HTTP 404, 10015": the status and the platform's own error code or short message, never our payload. */
function httpSaid(status: number, body: string): string {
  const json = parseJson(body);
  const code = json?.code ?? json?.id ?? json?.error ?? json?.message;
  const text = (typeof code === 'string' || typeof code === 'number' ? String(code) : body).replace(/\s+/g, ' ').trim().slice(0, 120);
  return text ? `HTTP ${status}, ${text}` : `HTTP ${status}`;
}

function gone(platform: Platform, status: number, body: string, why: string): DeliveryOutcome {
  return {
    type: 'gone',
    status,
    error: `${PLATFORM_NAMES[platform]} refused the webhook: ${why} (${httpSaid(status, body)}). Connect it again to keep receiving reviews.`,
  };
}

function rejected(platform: Platform, status: number, body: string): DeliveryOutcome {
  return { type: 'rejected', status, error: `${PLATFORM_NAMES[platform]} did not accept this message (${httpSaid(status, body)}).` };
}

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

  if (status >= 200 && status < 300) {
    // Slack's only success is 200 "ok"; anything else in 2xx is not a confirmed post.
    if (platform === 'slack' && status !== 200) return { type: 'transient', status, error: `Slack answered ${status} instead of 200.` };
    if (platform === 'discord' && res.headers['x-ratelimit-remaining'] === '0') {
      const reset = Number(res.headers['x-ratelimit-reset-after']);
      if (Number.isFinite(reset) && reset > 0) return { type: 'delivered', status, pauseMs: clampAskedWaitMs(reset, 0, 0) };
    }
    return { type: 'delivered', status };
  }

  // Only refusals are worth parsing (a success body is "ok" or the posted message).
  const json = parseJson(body);
  if (status === 429 || (platform === 'webex' && status === 423)) {
    let seconds = res.retryAfter;
    // Discord's JSON retry_after (float seconds) is more precise than its header.
    if (platform === 'discord' && typeof json?.retry_after === 'number') seconds = json.retry_after;
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

  switch (platform) {
    case 'slack':
      // 400 invalid_payload & co. are about this message (our bug), never about the webhook.
      if (status === 400) return rejected(platform, status, body);
      break;
    case 'discord':
      // 10015 Unknown Webhook (404), 50027 Invalid Webhook Token (401); 50035 / 40005 are about the message.
      if (status === 400 || status === 413) return rejected(platform, status, body);
      break;
    case 'mattermost':
      if (status === 400) {
        const id = typeof json?.id === 'string' ? json.id : body;
        if (/incoming_webhook\.(invalid|disabled)|invalid_webhook|webhook\.invalid/i.test(id)) {
          return gone(platform, status, body, 'the incoming webhook is unknown or disabled on that Mattermost server');
        }
        return rejected(platform, status, body);
      }
      break;
    case 'msteams':
    case 'webex':
    case 'email':
      if (status === 400 || status === 413 || status === 415) return rejected(platform, status, body);
      break;
    case 'webhook':
      // A receiver that validates the payload says so with 400 or 422: about this message, not the endpoint.
      if (status === 400 || status === 413 || status === 415 || status === 422) return rejected(platform, status, body);
      break;
  }
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

/** Webhook URLs that want a query added so the platform reports errors synchronously. */
function sendUrl(platform: Platform, url: string): string {
  if (platform !== 'discord') return url;
  const u = new URL(url);
  u.searchParams.set('wait', 'true'); // without it Discord answers 204 before validating the message
  return u.toString();
}

/** Checks a webhook URL against its platform's shape (e-mail addresses need no URL). */
export function prepareTarget(target: DeliveryTarget): PreparedTarget {
  if (target.platform === 'email') return { ...target, postUrl: '' };
  const check = validateWebhookUrl(target.platform, target.target, { allowPrivate: env().ALLOW_PRIVATE_WEBHOOKS });
  if (!check.ok) {
    return { ...target, invalid: { type: 'gone', status: 0, error: `The saved address is not a valid ${PLATFORM_NAMES[target.platform]} webhook: ${check.error}` } };
  }
  return { ...target, postUrl: sendUrl(target.platform, target.target) };
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
  const res = await opts.sender.postJson(target.postUrl, message.body, headers);
  return classifyWebhookResponse(target.platform, res);
}
