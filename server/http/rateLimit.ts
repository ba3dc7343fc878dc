/**
 * Rate limits as fixed-window counters in the database (table rate_limits), so that every process sharing a
 * PostgreSQL server counts together. One atomic upsert per hit: it starts a new window when the old one has ended,
 * otherwise adds one, and returns the count — no read-then-write race between processes.
 *
 *   const perIp: RateLimitRule = { name: 'contact:ip', limit: 5, windowSeconds: 3600 };
 *   await enforceRateLimit(perIp, ipRateKey(ctx.ip), 'Too many messages from your network. Try again later.');
 */
import ipaddr from 'ipaddr.js';
import { getDb, type DB } from '../db/client';
import { tooManyRequests } from './errors';

export type RateLimitRule = {
  /** Namespace of the counter, e.g. 'auth-email:ip'. */
  name: string;
  /** Hits allowed per window; the next one is refused. */
  limit: number;
  windowSeconds: number;
};

export type RateLimitResult = { allowed: boolean; count: number; remaining: number; retryAfterSeconds: number };

/**
 * Count one hit for `key` under `rule`. Refused hits are counted too (cheaply): the window end does not move, so a
 * caller that keeps trying is not locked out longer than the window.
 */
export async function hitRateLimit(
  rule: RateLimitRule,
  key: string,
  options: { db?: DB; now?: Date } = {},
): Promise<RateLimitResult> {
  const db = options.db ?? (await getDb());
  const now = options.now ?? new Date();
  const windowEnd = new Date(now.getTime() + rule.windowSeconds * 1000);
  const row = await db
    .insertInto('rate_limits')
    .values({ key: `${rule.name}:${key}`, count: 1, window_ends_at: windowEnd })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet((eb) => ({
        count: eb
          .case()
          .when('rate_limits.window_ends_at', '<=', now)
          .then(1)
          .else(eb('rate_limits.count', '+', 1))
          .end(),
        window_ends_at: eb
          .case()
          .when('rate_limits.window_ends_at', '<=', now)
          .then(windowEnd)
          .else(eb.ref('rate_limits.window_ends_at'))
          .end(),
      })),
    )
    .returning(['count', 'window_ends_at'])
    .executeTakeFirstOrThrow();
  const count = Number(row.count);
  const endsAt = new Date(row.window_ends_at).getTime();
  return {
    allowed: count <= rule.limit,
    count,
    remaining: Math.max(0, rule.limit - count),
    retryAfterSeconds: Math.max(1, Math.ceil((endsAt - now.getTime()) / 1000)),
  };
}

/** Count one hit; over the limit → 429 with Retry-After and `message`. */
export async function enforceRateLimit(
  rule: RateLimitRule,
  key: string,
  message = 'Too many requests. Try again later.',
  options: { db?: DB; now?: Date } = {},
): Promise<void> {
  const result = await hitRateLimit(rule, key, options);
  if (!result.allowed) throw tooManyRequests(result.retryAfterSeconds, message);
}

/**
 * The key for per-IP limits. An IPv6 client usually owns a whole /64, so counting single addresses would let it
 * rotate through billions of them: the /64 prefix is the key.
 */
export function ipRateKey(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const addr = ipaddr.process(ip);
  if (addr.kind() === 'ipv4') return addr.toString();
  const parts = (addr as ipaddr.IPv6).parts.slice(0, 4).map((p) => p.toString(16));
  return `${parts.join(':')}::/64`;
}

/** Drop counters whose window has ended (their rows would be reset on the next hit anyway). */
export async function deleteExpiredRateLimits(options: { db?: DB; now?: Date } = {}): Promise<number> {
  const db = options.db ?? (await getDb());
  const result = await db
    .deleteFrom('rate_limits')
    .where('window_ends_at', '<=', options.now ?? new Date())
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
