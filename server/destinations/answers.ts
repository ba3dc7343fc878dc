/**
 * What a receiver's answer means, in the terms the delivery worker acts on, and the words for it. The rules every
 * platform shares are in classifyWebhookResponse (deliver.ts); what one platform's answers mean on top of them is its
 * `answers` (AnswerRules) in server/destinations/platforms/<id>.ts. Separate from deliver.ts so the platform files can
 * use these helpers without importing the module that imports them.
 */
import { PLATFORM_REGISTRY, type Platform } from '@/shared/platforms';
import type { SendResult } from './send';

export type DeliveryOutcome =
  | { type: 'delivered'; status: number; /** Platform asked for a pause before the next message (Discord buckets). */ pauseMs?: number }
  | { type: 'rate_limited'; status: number; waitMs: number; error: string }
  | { type: 'transient'; status: number; error: string; waitMs?: number }
  | { type: 'rejected'; status: number; error: string }
  | { type: 'gone'; status: number; error: string; /** The e-mail recipient unsubscribed (not the receiver refusing). */ unsubscribed?: true };

/** Who answered, in a delivery error's or a status's words ("Slack", "Webhook endpoint"): the registry's. */
export const PLATFORM_NAMES = Object.fromEntries(
  Object.entries(PLATFORM_REGISTRY).map(([id, entry]) => [id, 'answerName' in entry ? entry.answerName : entry.name]),
) as Record<Platform, string>;

/** What one platform's answers mean beyond the shared rules. Each hook answers undefined to leave it to them. */
export type AnswerRules = {
  /** A 2xx answer that is not simply "delivered". */
  success?: (res: SendResult) => DeliveryOutcome | undefined;
  /** Statuses besides 429 that ask to slow down. */
  slowDownStatuses?: readonly number[];
  /** The wait (seconds) a slow-down's JSON body asks for, when it is more precise than Retry-After. */
  bodyWaitSeconds?: (json: Record<string, unknown> | null) => number | undefined;
  /** A 4xx that is no slow-down: this platform's meaning, before the shared one (GONE_WORDS, else rejected). */
  refusal: (status: number, body: string, json: Record<string, unknown> | null) => DeliveryOutcome | undefined;
  /** The URL to POST to, from the stored webhook URL (a query the platform wants added). */
  sendUrl?: (url: string) => string;
  /** The body to POST, from the formatted payload and the stored URL (Telegram: the chat its URL names). */
  sendBody?: (url: string, payload: unknown) => unknown;
};

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

export function parseJson(body: string): Record<string, unknown> | null {
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

export function gone(platform: Platform, status: number, body: string, why: string): DeliveryOutcome {
  return {
    type: 'gone',
    status,
    error: `${PLATFORM_NAMES[platform]} refused the webhook: ${why} (${httpSaid(status, body)}). Connect it again to keep receiving reviews.`,
  };
}

export function rejected(platform: Platform, status: number, body: string): DeliveryOutcome {
  return { type: 'rejected', status, error: `${PLATFORM_NAMES[platform]} did not accept this message (${httpSaid(status, body)}).` };
}

/** A refusal of a message for what it is (its size, its format): rejected when the status is one of `statuses`. */
export const rejectsOn = (platform: Platform, statuses: readonly number[]) => (status: number, body: string) =>
  statuses.includes(status) ? rejected(platform, status, body) : undefined;
