/**
 * API keys of an organisation, for the public API. A key is `arb_` + 40 random base62 characters (~238 bits), shown
 * once — in the answer that creates it — and stored only as a keyed hash (HMAC-SHA256 with ENCRYPTION_KEY, as webhook
 * targets are), so a copy of the database does not hold a usable key. The list shows a short prefix so people can
 * tell keys apart. Admins create and revoke keys; every change is in the audit log.
 *
 * verifyApiKey is what the public API calls with a presented key: the key and its organisation, or null — from memory
 * when the key was seen within PUBLIC_API_CACHE_MS (keyState.ts). Revoking a key forgets it in this process at once;
 * other processes refuse it within PUBLIC_API_CACHE_MS. Its last use is stamped by the public API's batched writes
 * (callCounts.ts), at most once a minute per key.
 */
import { randomId, secretHash } from '../crypto';
import { HttpError, notFound } from '../http/errors';
import { log } from '../log';
import { recordAudit } from '../org/data';
import type { Membership } from '../org/membership';
import { countActiveApiKeys, insertApiKey, listActiveApiKeys, revokeApiKey, type ApiKeyRow, type ListedApiKey } from './data';
import { forgetApiKey, keySlot, knownKey, loadKey, type KnownKey } from './keyState';
import { assertWithinLimit } from '../plans/limits';

export const API_KEY_PATTERN = /^arb_[0-9A-Za-z]{40}$/;
/** Keys an organisation may hold at once: plenty for every integration, few enough to review. */
export const MAX_ACTIVE_KEYS = 25;
const PREFIX_LENGTH = 'arb_'.length + 6;

const hashOf = (key: string) => secretHash('api-key', key);

export type CreatedApiKey = ApiKeyRow & { key: string };

export async function createApiKey(m: Membership, name: string): Promise<CreatedApiKey> {
  if ((await countActiveApiKeys(m.orgId)) >= MAX_ACTIVE_KEYS) {
    throw new HttpError(409, 'too_many_keys', `This organisation already has ${MAX_ACTIVE_KEYS} API keys. Revoke one you no longer use first.`);
  }
  await assertWithinLimit(m.orgId, 'api_keys');
  const key = randomId('arb', 40);
  const row = await insertApiKey({ id: randomId('key'), orgId: m.orgId, name, prefix: key.slice(0, PREFIX_LENGTH), keyHash: hashOf(key), createdBy: m.userId });
  await recordAudit({ orgId: m.orgId, actor: { userId: m.userId, email: m.email }, action: 'api_key.created', target: name, details: { id: row.id, prefix: row.prefix } });
  log.info('API key created', { keyId: row.id });
  return { ...row, key };
}

export const listApiKeys = (m: Membership): Promise<ListedApiKey[]> => listActiveApiKeys(m.orgId);

/**
 * The keys `userId` created for the organisation that still work: what someone leaving leaves behind. A key belongs to
 * the organisation, not to whoever made it, so it keeps working until an admin revokes it (the Team page lists them).
 */
export const workingKeysCreatedBy = (orgId: string, userId: string): Promise<ListedApiKey[]> => listActiveApiKeys(orgId, undefined, { createdBy: userId });

export async function revokeKey(m: Membership, id: string): Promise<void> {
  const revoked = await revokeApiKey(m.orgId, id);
  if (!revoked) throw notFound('Your organisation has no API key with this id. It may have been revoked already.');
  // Refused from the next call on in this process; other processes within PUBLIC_API_CACHE_MS.
  forgetApiKey(id);
  await recordAudit({ orgId: m.orgId, actor: { userId: m.userId, email: m.email }, action: 'api_key.revoked', target: revoked.name, details: { id, prefix: revoked.prefix } });
  log.info('API key revoked', { keyId: id });
}

/**
 * The key a presented key is, with its organisation, or null for anything else: unknown, revoked, malformed. Answered
 * without a promise when the key is known in memory (the public API's hot path awaits nothing then).
 */
export function verifyApiKey(presented: string): KnownKey | null | Promise<KnownKey | null> {
  if (!API_KEY_PATTERN.test(presented)) return null;
  const slot = keySlot(presented);
  const known = knownKey(slot);
  return known !== undefined ? known : loadKey(slot, hashOf(presented));
}
