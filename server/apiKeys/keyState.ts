/**
 * What the public API knows about a presented key, kept in memory for PUBLIC_API_CACHE_MS (default 5 s):
 *
 * - presented key → the key's id and organisation, or null (unknown or revoked: a 401 without asking the database
 *   again). Kept under an unkeyed SHA-256 of the presented key (`keySlot`, ~1 µs), not the key itself nor its keyed
 *   hash (HMAC, ~10 µs: the database's lookup, made only when the key is not in memory);
 * - organisation → its plan columns (the plan is worked out per call, so a grace period ends on time) and its public-API
 *   calls this month as the database last said.
 *
 * A revocation, a plan change or a deleted organisation made in THIS process takes effect at once: the service that
 * writes it calls forgetApiKey / forgetOrgPlan / forgetOrgApiKeys after its write. Another process notices within
 * PUBLIC_API_CACHE_MS (its entries expire and are read again). 0 reads the database on every call.
 *
 * On globalThis: the API routes and the server code may load this module as two copies in one process.
 */
import { hash } from 'node:crypto';
import { env } from '../env';
import { findActiveKeyByHash, findOrgApiState, type OrgApiState } from './data';
import { createReadCache, type ReadCache } from './readCache';

export type KnownKey = { keyId: string; orgId: string; lastUsedAt: number | null };
export type KnownOrg = Omit<OrgApiState, 'api_calls'> & { month: string; apiCalls: number };

const cacheMs = () => env().PUBLIC_API_CACHE_MS;

const g = globalThis as unknown as { __arbApiKeyState?: { keys: ReadCache<KnownKey | null>; orgs: ReadCache<KnownOrg | null> } };
const state = (g.__arbApiKeyState ??= {
  keys: createReadCache<KnownKey | null>({ max: 50_000, ttlMs: cacheMs }),
  orgs: createReadCache<KnownOrg | null>({ max: 20_000, ttlMs: cacheMs }),
});

/** Where a presented key is kept in memory. */
export const keySlot = (presented: string): string => hash('sha256', presented);

/** The key in this slot as known in memory: a key, null (refused), or undefined (not known: call loadKey). */
export const knownKey = (slot: string): KnownKey | null | undefined => state.keys.get(slot);

/** Reads the key with this keyed hash (the database's) into its slot. */
export function loadKey(slot: string, keyHash: string): Promise<KnownKey | null> {
  return state.keys.load(slot, async () => {
    const row = await findActiveKeyByHash(keyHash);
    return row ? { keyId: row.id, orgId: row.org_id, lastUsedAt: row.last_used_at ? new Date(row.last_used_at).getTime() : null } : null;
  });
}

/** The organisation's plan and month as known in memory for `month`, or undefined (call loadOrg). */
export function knownOrg(orgId: string, month: string): KnownOrg | null | undefined {
  const org = state.orgs.get(orgId);
  return org && org.month !== month ? undefined : org;
}

export function loadOrg(orgId: string, month: string): Promise<KnownOrg | null> {
  const cached = knownOrg(orgId, month);
  if (cached !== undefined) return Promise.resolve(cached);
  // A new month: the entry of the last one is read again.
  if (state.orgs.get(orgId)) state.orgs.forget(orgId);
  return state.orgs.load(orgId, async () => {
    const row = await findOrgApiState(orgId, month);
    return row ? { plan: row.plan, plan_status: row.plan_status, past_due_since: row.past_due_since, month, apiCalls: row.api_calls } : null;
  });
}

/** The database's count of the organisation's calls in `month` after a flush: kept so the allowance check stays right. */
export function noteMonthCalls(orgId: string, month: string, apiCalls: number): void {
  state.orgs.update(orgId, (org) => (org && org.month === month ? { ...org, apiCalls } : org));
}

/** After a key was revoked in this process: the next call with it reads it again (and finds it revoked). */
export const forgetApiKey = (keyId: string) => state.keys.forgetWhere((k) => k?.keyId === keyId);

/** After the organisation's plan columns changed in this process. */
export const forgetOrgPlan = (orgId: string) => state.orgs.forget(orgId);

/** After the organisation was deleted (its keys with it) in this process. */
export function forgetOrgApiKeys(orgId: string): void {
  state.keys.forgetWhere((k) => k?.orgId === orgId);
  state.orgs.forget(orgId);
}

/** Tests: forget everything. */
export function clearApiKeyState(): void {
  state.keys.clear();
  state.orgs.clear();
}
