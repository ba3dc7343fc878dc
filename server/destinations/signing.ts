/**
 * Signatures of outgoing webhooks, as the Standard Webhooks specification (standardwebhooks.com) defines them, so a
 * receiver can check with any of its libraries (n8n, Zapier, Make, a customer's own service) that a request came from
 * ARB and was not changed or replayed:
 *   webhook-id         the message's id: the same on every retry of one message, so a receiver can drop repeats, and
 *                      never another message's, from any installation ('msg_' + a ULID in hex: messageIds.ts)
 *   webhook-timestamp  when this attempt was sent, unix seconds (receivers refuse ones far from their clock)
 *   webhook-signature  `v1,` + base64(HMAC-SHA256(key, `${id}.${timestamp}.${body}`)), key = the secret's bytes;
 *                      after a rotation, for SECRET_ROTATION_GRACE_HOURS, one such signature per secret, the new one
 *                      first, separated by a space (the specification's form), so a receiver that still has the old
 *                      secret keeps verifying until it is given the new one, and one that has the new one already does
 * The secret is `whsec_` + base64 of 32 random bytes (the specification asks for 24 to 64), one per destination.
 */
import { createHmac, randomBytes } from 'node:crypto';

export const SIGNING_SECRET_PREFIX = 'whsec_';
const SECRET_BYTES = 32;

/** How long the secret a rotation replaced still signs, next to the new one: a day to update the receiver. */
export const SECRET_ROTATION_GRACE_HOURS = 24;

export function newSigningSecret(): string {
  return SIGNING_SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

export function isSigningSecret(value: string): boolean {
  return value.startsWith(SIGNING_SECRET_PREFIX) && Buffer.from(value.slice(SIGNING_SECRET_PREFIX.length), 'base64').length >= 24;
}

export type WebhookSignatureHeaders = { 'webhook-id': string; 'webhook-timestamp': string; 'webhook-signature': string };

function signatureWith(secret: string, signed: string): string {
  if (!secret.startsWith(SIGNING_SECRET_PREFIX)) throw new Error('A signing secret starts with whsec_.');
  const key = Buffer.from(secret.slice(SIGNING_SECRET_PREFIX.length), 'base64');
  return `v1,${createHmac('sha256', key).update(signed).digest('base64')}`;
}

/**
 * The three headers for sending `body` (the exact bytes sent) as message `id` at `now`, signed with `secret` — a list
 * while a rotation's grace lasts: the current secret first, then the one it replaced.
 */
export function signWebhook(secret: string | readonly string[], id: string, body: string, now = new Date()): WebhookSignatureHeaders {
  const secrets = typeof secret === 'string' ? [secret] : secret;
  if (secrets.length === 0) throw new Error('A webhook is signed with at least one secret.');
  const timestamp = String(Math.floor(now.getTime() / 1000));
  const signed = `${id}.${timestamp}.${body}`;
  return { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': secrets.map((s) => signatureWith(s, signed)).join(' ') };
}
