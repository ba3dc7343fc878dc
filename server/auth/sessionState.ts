/**
 * Is a session still live? Asked on every request with an access token, so answers are kept in memory for
 * SESSION_CACHE_MS. A revocation made in this process takes effect here at once (the cache entry is overwritten);
 * other processes notice within SESSION_CACHE_MS. The session's absolute end is checked on every call.
 */
import { getSession } from './sessionData';

export const SESSION_CACHE_MS = 5_000;
const MAX_ENTRIES = 50_000;

type Entry = { active: boolean; expiresAt: number; checkedAt: number };

// On globalThis: the API routes and the server code may load this module as two copies in one process.
const g = globalThis as unknown as { __arbSessionCache?: Map<string, Entry> };
const cache = (g.__arbSessionCache ??= new Map());

export async function isSessionActive(sessionId: string, now = Date.now()): Promise<boolean> {
  const hit = cache.get(sessionId);
  if (hit && (!hit.active || now - hit.checkedAt < SESSION_CACHE_MS)) return hit.active && hit.expiresAt > now;
  const row = await getSession(sessionId);
  const entry: Entry = {
    active: !!row && !row.revoked_at,
    expiresAt: row ? row.expires_at.getTime() : 0,
    checkedAt: now,
  };
  if (cache.size >= MAX_ENTRIES) cache.clear();
  cache.set(sessionId, entry);
  return entry.active && entry.expiresAt > now;
}

/** Called right after sessions are revoked in the database, so this process refuses them from now on. */
export function forgetRevokedSessions(sessionIds: readonly string[]): void {
  for (const id of sessionIds) cache.set(id, { active: false, expiresAt: 0, checkedAt: Date.now() });
}
