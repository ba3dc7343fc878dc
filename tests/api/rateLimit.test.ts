// The DB-backed rate limiter, on PGlite and on PostgreSQL (where several connections hit the same counter at once).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { HttpError } from '@/server/http/errors';
import { deleteExpiredRateLimits, enforceRateLimit, hitRateLimit, ipRateKey, type RateLimitRule } from '@/server/http/rateLimit';
import { createTestDb, type TestDb } from '../helpers/testDb';

let db: TestDb;
beforeAll(async () => {
  db = await createTestDb();
});
afterAll(() => db.close());

const rule: RateLimitRule = { name: 'test', limit: 3, windowSeconds: 60 };
const t0 = new Date('2030-01-01T00:00:00Z');
const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000);

describe('hitRateLimit', () => {
  test('allows `limit` hits per window, then refuses with the time left as Retry-After', async () => {
    const results = [];
    for (let i = 0; i < 5; i++) results.push(await hitRateLimit(rule, 'k1', { now: at(i) }));
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, false, false]);
    expect(results.map((r) => r.remaining)).toEqual([2, 1, 0, 0, 0]);
    expect(results[3].retryAfterSeconds).toBe(57); // window opened at t0, ends at t0+60, now t0+3
    expect(results[4].retryAfterSeconds).toBe(56);
  });

  test('a new window starts once the old one has ended', async () => {
    for (let i = 0; i < 4; i++) await hitRateLimit(rule, 'k2', { now: at(i) });
    const later = await hitRateLimit(rule, 'k2', { now: at(60) });
    expect(later).toMatchObject({ allowed: true, count: 1, remaining: 2, retryAfterSeconds: 60 });
  });

  test('keys and rule names count separately', async () => {
    for (let i = 0; i < 3; i++) await hitRateLimit(rule, 'k3', { now: at(0) });
    expect((await hitRateLimit(rule, 'k3', { now: at(0) })).allowed).toBe(false);
    expect((await hitRateLimit(rule, 'k4', { now: at(0) })).allowed).toBe(true);
    expect((await hitRateLimit({ ...rule, name: 'other' }, 'k3', { now: at(0) })).allowed).toBe(true);
  });

  test('concurrent hits are counted exactly (one atomic upsert each)', async () => {
    const many: RateLimitRule = { name: 'burst', limit: 10, windowSeconds: 60 };
    const results = await Promise.all(Array.from({ length: 40 }, () => hitRateLimit(many, 'same', { now: at(1) })));
    expect(results.filter((r) => r.allowed)).toHaveLength(10);
    expect(results.map((r) => r.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
  });

  test('enforceRateLimit throws 429 with Retry-After and the given message', async () => {
    const one: RateLimitRule = { name: 'one', limit: 1, windowSeconds: 30 };
    await enforceRateLimit(one, 'x', 'Slow down.', { now: at(0) });
    const err = await enforceRateLimit(one, 'x', 'Slow down.', { now: at(10) }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpError);
    expect(err).toMatchObject({ status: 429, code: 'rate_limited', message: 'Slow down.', headers: { 'Retry-After': '20' } });
  });

  test('deleteExpiredRateLimits removes only ended windows', async () => {
    await hitRateLimit({ name: 'old', limit: 5, windowSeconds: 10 }, 'a', { now: at(0) });
    await hitRateLimit({ name: 'new', limit: 5, windowSeconds: 1000 }, 'a', { now: at(0) });
    await deleteExpiredRateLimits({ now: at(100) });
    const keys = (await db.db.selectFrom('rate_limits').select('key').execute()).map((r) => r.key);
    expect(keys).toContain('new:a');
    expect(keys).not.toContain('old:a');
  });
});

describe('ipRateKey', () => {
  test('IPv4 as is, IPv4-mapped IPv6 as IPv4, IPv6 by /64', () => {
    expect(ipRateKey('203.0.113.9')).toBe('203.0.113.9');
    expect(ipRateKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(ipRateKey('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(ipRateKey('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(ipRateKey('2001:db8:1:3::1')).not.toBe(ipRateKey('2001:db8:1:2::1'));
    expect(ipRateKey('unknown')).toBe('unknown');
  });
});
