// The public API's read cache (server/apiKeys/readCache.ts): concurrent loads share one read, a forgotten entry is read
// again, a read that was running when something was forgotten is answered but not stored, a stored "none" (null) is an
// answer, a TTL of 0 stores nothing, and a failed read is not stored.
import { describe, expect, test } from 'vitest';
import { createReadCache } from '@/server/apiKeys/readCache';

function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('createReadCache', () => {
  test('concurrent loads share one read; the value is then answered synchronously', async () => {
    const cache = createReadCache<string>({ max: 10, ttlMs: () => 60_000 });
    let reads = 0;
    const read = async () => `v${++reads}`;
    expect(await Promise.all([cache.load('a', read), cache.load('a', read), cache.load('a', read)])).toEqual(['v1', 'v1', 'v1']);
    expect(reads).toBe(1);
    expect(cache.get('a')).toBe('v1');
  });

  test('null is stored as an answer; undefined means not known', async () => {
    const cache = createReadCache<string | null>({ max: 10, ttlMs: () => 60_000 });
    expect(cache.get('gone')).toBeUndefined();
    await cache.load('gone', async () => null);
    expect(cache.get('gone')).toBeNull();
  });

  test('forget: the next load reads again; a read running across the forget answers its callers but is not stored', async () => {
    const cache = createReadCache<string>({ max: 10, ttlMs: () => 60_000 });
    await cache.load('k', async () => 'old');
    cache.forget('k');
    expect(cache.get('k')).toBeUndefined();
    const slow = deferred<string>();
    const running = cache.load('k', () => slow.promise);
    cache.forget('k'); // a write lands while the read is running: what it read may be from before the write
    slow.resolve('read before the write');
    expect(await running).toBe('read before the write');
    expect(cache.get('k')).toBeUndefined();
    expect(await cache.load('k', async () => 'new')).toBe('new');
    expect(cache.get('k')).toBe('new');
  });

  test('forgetWhere drops the matching entries only; update changes a stored entry in place', async () => {
    const cache = createReadCache<{ org: string; n: number }>({ max: 10, ttlMs: () => 60_000 });
    await cache.load('k1', async () => ({ org: 'o1', n: 1 }));
    await cache.load('k2', async () => ({ org: 'o2', n: 1 }));
    cache.forgetWhere((v) => v.org === 'o1');
    expect(cache.get('k1')).toBeUndefined();
    cache.update('k2', (v) => ({ ...v, n: 7 }));
    expect(cache.get('k2')).toEqual({ org: 'o2', n: 7 });
  });

  test('a TTL of 0 stores nothing, and a failed read is not stored', async () => {
    let ttl = 0;
    const cache = createReadCache<string>({ max: 10, ttlMs: () => ttl });
    await cache.load('k', async () => 'v');
    expect(cache.get('k')).toBeUndefined();
    ttl = 60_000;
    await expect(cache.load('k', async () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(cache.get('k')).toBeUndefined();
    expect(await cache.load('k', async () => 'v')).toBe('v');
  });
});
