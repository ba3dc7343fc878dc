/**
 * Checks a Standard Webhooks signature (standardwebhooks.com), as ARB signs its webhook destinations
 * (server/destinations/signing.ts in ARB): `webhook-signature` holds one or more space-separated `v1,<base64>` entries
 * (two while a rotated secret's grace lasts), each base64(HMAC-SHA256(key, `${webhook-id}.${webhook-timestamp}.${body}`))
 * over the exact bytes received, key = the bytes of the `whsec_` secret's base64 part. The timestamp must be within
 * the tolerance of this clock, both ways, so a captured request cannot be replayed later.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const TOLERANCE_SECONDS = 5 * 60;

export type SignedRequest = { id?: string; timestamp?: string; signature?: string; body: Buffer };

export type Verdict = { ok: true } | { ok: false; reason: string };

export function secretKey(secret: string): Buffer | null {
  const base64 = secret.trim().replace(/^whsec_/, '');
  const key = Buffer.from(base64, 'base64');
  return key.length > 0 ? key : null;
}

export function verifySignature(secret: string, req: SignedRequest, now = Date.now()): Verdict {
  const key = secretKey(secret);
  if (!key) return { ok: false, reason: 'The signing secret is not set: paste the whsec_… secret ARB showed for this destination.' };
  if (!req.id || !req.timestamp || !req.signature) return { ok: false, reason: 'Missing webhook-id, webhook-timestamp or webhook-signature header.' };
  if (!/^\d{1,12}$/.test(req.timestamp)) return { ok: false, reason: 'webhook-timestamp is not unix seconds.' };
  const age = Math.floor(now / 1000) - Number(req.timestamp);
  if (Math.abs(age) > TOLERANCE_SECONDS) return { ok: false, reason: `webhook-timestamp is ${age > 0 ? 'older' : 'newer'} than 5 minutes: refused as a possible replay.` };
  const expected = createHmac('sha256', key).update(`${req.id}.${req.timestamp}.`).update(req.body).digest();
  const matches = req.signature
    .split(' ')
    .filter((entry) => entry.startsWith('v1,'))
    .some((entry) => {
      const given = Buffer.from(entry.slice(3), 'base64');
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
  return matches ? { ok: true } : { ok: false, reason: 'The signature does not match: check the signing secret (after a rotation, use the new one).' };
}
