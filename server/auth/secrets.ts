/**
 * Random identifiers and keyed hashes for the sign-in flow. Codes and one-time tokens are stored only as
 * HMAC-SHA256(AUTH_SECRET, purpose + value): a copy of the database alone cannot be used to sign in, and a 6-digit
 * code cannot be brute-forced offline without the secret.
 */
import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { env } from '../env';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `length` characters from crypto randomness, uniform over base62 (rejection sampling, no modulo bias). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248) out += BASE62[byte % 62]; // 248 = 4 × 62: the bytes above would favour the first characters
      if (out.length === length) break;
    }
  }
  return out;
}

/** Organisation ids are unguessable: they are the only key of the /subscribe link. ~143 bits. */
export const newOrgId = () => `org_${randomBase62(24)}`;
export const newUserId = () => `usr_${randomBase62(24)}`;
export const ORG_ID_PATTERN = /^org_[0-9A-Za-z]{20,64}$/;

export function newLoginCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

export function newSignInToken(): string {
  return randomBytes(32).toString('base64url');
}

export function keyedHash(purpose: 'login-code' | 'sign-in-token' | 'handoff-code' | 'sign-in-network' | 'invitation-token', value: string): string {
  return createHmac('sha256', env().AUTH_SECRET).update(`${purpose}\n${value}`).digest('hex');
}

export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}
