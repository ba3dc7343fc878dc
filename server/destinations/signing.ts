/**
 * Signatures of outgoing webhooks, as the Standard Webhooks specification (standardwebhooks.com) defines them, so a
 * receiver can check with any of its libraries (n8n, Zapier, Make, a customer's own service) that a request came from
 * ARB and was not changed or replayed:
 *   webhook-id         the message's id: the same on every retry of one message, so a receiver can drop repeats
 *   webhook-timestamp  when this attempt was sent, unix seconds (receivers refuse ones far from their clock)
 *   webhook-signature  `v1,` + base64(HMAC-SHA256(key, `${id}.${timestamp}.${body}`)), key = the secret's bytes
 * The secret is `whsec_` + base64 of 32 random bytes (the specification asks for 24 to 64), one per destination.
 */
import { createHmac, randomBytes } from 'node:crypto';

export const SIGNING_SECRET_PREFIX = 'whsec_';
const SECRET_BYTES = 32;

export function newSigningSecret(): string {
  return SIGNING_SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

export function isSigningSecret(value: string): boolean {
  return value.startsWith(SIGNING_SECRET_PREFIX) && Buffer.from(value.slice(SIGNING_SECRET_PREFIX.length), 'base64').length >= 24;
}

export type WebhookSignatureHeaders = { 'webhook-id': string; 'webhook-timestamp': string; 'webhook-signature': string };

/** The three headers for sending `body` (the exact bytes sent) as message `id` at `now`. */
export function signWebhook(secret: string, id: string, body: string, now = new Date()): WebhookSignatureHeaders {
  if (!secret.startsWith(SIGNING_SECRET_PREFIX)) throw new Error('A signing secret starts with whsec_.');
  const key = Buffer.from(secret.slice(SIGNING_SECRET_PREFIX.length), 'base64');
  const timestamp = String(Math.floor(now.getTime() / 1000));
  const signature = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${signature}` };
}
