import { describe, expect, test } from 'vitest';
import { createCache } from '@/server/apps/cache';

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('createCache', () => {
  test('forgets an entry once its TTL has passed', () => {
    let now = 1000;
    const cache = createCache<string>({ ttlMs: 100, max: 10, now: () => now });
    cache.set('a', 'A');
    now += 99;
    expect(cache.get('a')).toBe('A');
    now += 1;
    expect(cache.get('a')).toBeUndefined();
  });

  test('drops the least recently used entry when full', () => {
    const cache = createCache<number>({ ttlMs: 60_000, max: 2 });
    cache.set('a', 1);
    cache.set('b', 2);
    cache.get('a'); // a is now the most recent
    cache.set('c', 3);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe(1);
    expect(cache.get('c')).toBe(3);
    expect(cache.size).toBe(2);
  });

  test('ten concurrent callers for one key share one load', async () => {
    const cache = createCache<string>({ ttlMs: 60_000, max: 10 });
    const gate = deferred<string>();
    let loads = 0;
    const calls = Array.from({ length: 10 }, () =>
      cache.coalesce('k', () => {
        loads++;
        return gate.promise;
      }),
    );
    gate.resolve('value');
    expect(await Promise.all(calls)).toEqual(Array(10).fill('value'));
    expect(loads).toBe(1);
    expect(cache.stats.coalesced).toBe(9);
  });

  test('serves a stored value without loading again', async () => {
    const cache = createCache<string>({ ttlMs: 60_000, max: 10 });
    let loads = 0;
    const load = async () => `v${++loads}`;
    expect(await cache.coalesce('k', load)).toBe('v1');
    expect(await cache.coalesce('k', load)).toBe('v1');
    expect(loads).toBe(1);
  });

  test('does not store a failure: the next caller loads again', async () => {
    const cache = createCache<string>({ ttlMs: 60_000, max: 10 });
    const waiting = [cache.coalesce('k', () => Promise.reject(new Error('down'))), cache.coalesce('k', async () => 'unused')];
    await expect(waiting[0]).rejects.toThrow('down');
    await expect(waiting[1]).rejects.toThrow('down'); // it joined the failing load
    expect(await cache.coalesce('k', async () => 'up')).toBe('up');
  });

  test('turns a load that throws synchronously into a rejection', async () => {
    const cache = createCache<string>({ ttlMs: 60_000, max: 10 });
    await expect(
      cache.coalesce('k', () => {
        throw new Error('sync');
      }),
    ).rejects.toThrow('sync');
    expect(await cache.coalesce('k', async () => 'ok')).toBe('ok');
  });

  test('uses a per-value TTL, e.g. shorter for "not found"', async () => {
    let now = 0;
    const cache = createCache<string | null>({ ttlMs: 1000, max: 10, ttlFor: (v) => (v === null ? 10 : 1000), now: () => now });
    await cache.coalesce('missing', async () => null);
    await cache.coalesce('found', async () => 'yes');
    now = 50;
    expect(cache.get('missing')).toBeUndefined();
    expect(cache.get('found')).toBe('yes');
  });

  test('a load that finishes after clear() is not stored', async () => {
    const cache = createCache<string>({ ttlMs: 60_000, max: 10 });
    const gate = deferred<string>();
    const pending = cache.coalesce('k', () => gate.promise);
    cache.clear();
    gate.resolve('stale');
    await pending;
    expect(cache.get('k')).toBeUndefined();
  });
});
