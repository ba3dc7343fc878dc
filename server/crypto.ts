/**
 * Secrets at rest (webhook URLs, e-mail targets, store credentials): AES-256-GCM with ENCRYPTION_KEY, and a keyed hash
 * so that "is this webhook already connected?" can be answered with an index lookup instead of decrypting every row.
 *
 * Format: `v1.<iv>.<tag>.<ciphertext>` (base64url). The version prefix lets a future key rotation tell old from new.
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { env } from './env';

const VERSION = 'v1';

function key(): Buffer {
  return Buffer.from(env().ENCRYPTION_KEY, 'hex');
}

export function encryptSecret(plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key(), iv);
  const ct = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [VERSION, iv.toString('base64url'), tag.toString('base64url'), ct.toString('base64url')].join('.');
}

export class DecryptError extends Error {}

export function decryptSecret(sealed: string): string {
  const [version, iv, tag, ct] = sealed.split('.');
  if (version !== VERSION || !iv || !tag || ct === undefined) throw new DecryptError('Not an encrypted secret of a known version.');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key(), Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    // Wrong ENCRYPTION_KEY or a tampered row: say so without echoing anything secret.
    throw new DecryptError('The secret could not be decrypted (was the server’s encryption key changed?).');
  }
}

/** A stable keyed hash of a secret, for equality lookups. `purpose` keeps hashes of different kinds apart. */
export function secretHash(purpose: string, value: string): string {
  return createHmac('sha256', key()).update(`${purpose}\0${value}`).digest('base64url');
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `prefix_` + `length` random base62 characters (rejection sampling keeps them uniform). */
export function randomId(prefix: string, length = 24): string {
  let out = '';
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      if (b < 248) out += BASE62[b % 62];
      if (out.length === length) break;
    }
  }
  return `${prefix}_${out}`;
}
