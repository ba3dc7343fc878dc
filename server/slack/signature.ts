/**
 * Slack signs every request it sends to an app (the Reply button's click, the Reply form's submission): the header
 * X-Slack-Signature is `v0=` + hex HMAC-SHA256 of `v0:{X-Slack-Request-Timestamp}:{raw body}` keyed with the app's
 * Signing Secret. A request is taken only with a valid signature and a timestamp within five minutes of ours, so a
 * recorded request cannot be replayed later. Pure: the caller reads the headers, the body and the clock.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** How far Slack's timestamp may be from our clock, either way (Slack's own guidance). */
export const SLACK_TIMESTAMP_WINDOW_SECONDS = 5 * 60;

export type SlackRequestCheck = { ok: true } | { ok: false; reason: string };

/**
 * What can be checked from the headers alone: the timestamp's window and the signature's shape. The endpoint calls it
 * BEFORE reading the body, so a stale, replayed or unsigned request is refused without its body being read.
 */
export function checkSlackHeaders(input: { timestamp: string | undefined; signature: string | undefined; nowSeconds: number }): SlackRequestCheck {
  const { timestamp, signature, nowSeconds } = input;
  if (!timestamp || !/^\d{1,12}$/.test(timestamp)) return { ok: false, reason: 'X-Slack-Request-Timestamp is missing or not a number.' };
  if (Math.abs(nowSeconds - Number(timestamp)) > SLACK_TIMESTAMP_WINDOW_SECONDS) {
    return { ok: false, reason: 'X-Slack-Request-Timestamp is more than five minutes away from now (a replayed request, or a clock that is off).' };
  }
  if (!signature || !/^v0=[0-9a-f]{64}$/.test(signature)) return { ok: false, reason: 'X-Slack-Signature is missing or not a v0 signature.' };
  return { ok: true };
}

export function verifySlackRequest(input: {
  secret: string;
  timestamp: string | undefined;
  signature: string | undefined;
  body: string;
  nowSeconds: number;
}): SlackRequestCheck {
  const { secret, timestamp, signature, body } = input;
  const headers = checkSlackHeaders(input);
  if (!headers.ok) return headers;
  const expected = createHmac('sha256', secret).update(`v0:${timestamp!}:${body}`).digest();
  const given = Buffer.from(signature!.slice(3), 'hex');
  if (!timingSafeEqual(expected, given)) return { ok: false, reason: 'X-Slack-Signature does not match this request (does this server have the Slack app’s Signing Secret?).' };
  return { ok: true };
}
