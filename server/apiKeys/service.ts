/**
 * API keys of an organisation, for the public API. A key is `arb_` + 40 random base62 characters (~238 bits), shown
 * once — in the answer that creates it — and stored only as a keyed hash (HMAC-SHA256 with ENCRYPTION_KEY, as webhook
 * targets are), so a copy of the database does not hold a usable key. The list shows a short prefix so people can
 * tell keys apart. Admins create and revoke keys; every change is in the audit log.
 *
 * verifyApiKey is what the public API calls with a presented key: the organisation it belongs to, or null. It stamps
 * last_used_at at most once a minute per key, so a busy integration costs one write a minute, not one per request.
 */
import { randomId, secretHash } from '../crypto';
import { HttpError, notFound } from '../http/errors';
import { log } from '../log';
import { recordAudit } from '../org/data';
import type { Membership } from '../org/membership';
import { countActiveApiKeys, findActiveKeyByHash, insertApiKey, listActiveApiKeys, revokeApiKey, touchApiKey, type ApiKeyRow } from './data';
import { assertWithinLimit } from '../plans/limits';

export const API_KEY_PATTERN = /^arb_[0-9A-Za-z]{40}$/;
/** Keys an organisation may hold at once: plenty for every integration, few enough to review. */
export const MAX_ACTIVE_KEYS = 25;
/** last_used_at is written at most this often per key. */
export const LAST_USED_EVERY_MS = 60_000;
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
  log.info('API key created', { orgId: m.orgId, keyId: row.id });
  return { ...row, key };
}

export const listApiKeys = (m: Membership) => listActiveApiKeys(m.orgId);

export async function revokeKey(m: Membership, id: string): Promise<void> {
  const revoked = await revokeApiKey(m.orgId, id);
  if (!revoked) throw notFound('Your organisation has no API key with this id. It may have been revoked already.');
  await recordAudit({ orgId: m.orgId, actor: { userId: m.userId, email: m.email }, action: 'api_key.revoked', target: revoked.name, details: { id, prefix: revoked.prefix } });
  log.info('API key revoked', { orgId: m.orgId, keyId: id });
}

export type VerifiedKey = { keyId: string; orgId: string; /** The organisation's plan columns, read with the key. */ org: { plan: string; plan_status: string } };

/**
 * The organisation a presented key belongs to (the key's id, and the organisation's plan, read in the same query), or
 * null for anything else: unknown, revoked, malformed.
 */
export async function verifyApiKey(presented: string): Promise<VerifiedKey | null> {
  if (!API_KEY_PATTERN.test(presented)) return null;
  const key = await findActiveKeyByHash(hashOf(presented));
  if (!key) return null;
  if (!key.last_used_at || Date.now() - new Date(key.last_used_at).getTime() >= LAST_USED_EVERY_MS) await touchApiKey(key.id, LAST_USED_EVERY_MS);
  return { keyId: key.id, orgId: key.org_id, org: { plan: key.plan, plan_status: key.plan_status } };
}
