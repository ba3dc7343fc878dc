import { describe, expect, test } from 'vitest';
import { createLoadingCache } from '@/server/apps/cache';

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** A cache whose loads are counted and answered by `answer(input)`. */
function counting<V>(answer: (input: string) => Promise<V>, extra: { ttlMs?: number; max?: number; ttlFor?: (v: V) => number; now?: () => number } = {}) {
  const loads: string[] = [];
  const cache = createLoadingCache<V, string>({
    ttlMs: extra.ttlMs ?? 60_000,
    max: extra.max ?? 10,
    ttlFor: extra.ttlFor,
    now: extra.now,
    load: (input) => {
      loads.push(input);
      return answer(input);
    },
  });
  return { cache, loads };
}

describe('createLoadingCache', () => {
  test('forgets an entry once its TTL has passed', async () => {
    let now = 1000;
    const { cache, loads } = counting(async (i) => i.toUpperCase(), { ttlMs: 100, now: () => now });
    await cache.load('a', 'a');
    now += 99;
    expect(cache.get('a')).toBe('A');
    now += 2;
    expect(cache.get('a')).toBeUndefined();
    await cache.load('a', 'a');
    expect(loads).toEqual(['a', 'a']);
  });

  test('drops the least recently used entry when full', async () => {
    const { cache } = counting(async (i) => i, { max: 2 });
    await cache.load('a', 'a');
    await cache.load('b', 'b');
    cache.get('a'); // a is now the most recent
    await cache.load('c', 'c');
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe('a');
    expect(cache.get('c')).toBe('c');
    expect(cache.size).toBe(2);
  });

  test('ten concurrent callers for one key share one load', async () => {
    const gate = deferred<string>();
    const { cache, loads } = counting(() => gate.promise);
    const calls = Array.from({ length: 10 }, () => cache.load('k', 'k'));
    gate.resolve('value');
    expect(await Promise.all(calls)).toEqual(Array(10).fill('value'));
    expect(loads).toHaveLength(1);
  });

  test('serves a stored value without loading again', async () => {
    let n = 0;
    const { cache, loads } = counting(async () => `v${++n}`);
    expect(await cache.load('k', 'k')).toBe('v1');
    expect(await cache.load('k', 'k')).toBe('v1');
    expect(loads).toHaveLength(1);
  });

  test('does not store a failure: the next caller loads again', async () => {
    const gate = deferred<string>();
    let fail = true;
    const { cache, loads } = counting(() => (fail ? gate.promise : Promise.resolve('up')));
    const waiting = [cache.load('k', 'k'), cache.load('k', 'k')];
    gate.reject(new Error('down'));
    await expect(waiting[0]).rejects.toThrow('down');
    await expect(waiting[1]).rejects.toThrow('down'); // it joined the failing load
    fail = false;
    expect(await cache.load('k', 'k')).toBe('up');
    expect(loads).toHaveLength(2);
  });

  test('turns a load that throws synchronously into a rejection', async () => {
    let sync = true;
    const { cache } = counting((): Promise<string> => {
      if (sync) throw new Error('sync');
      return Promise.resolve('ok');
    });
    await expect(cache.load('k', 'k')).rejects.toThrow('sync');
    sync = false;
    expect(await cache.load('k', 'k')).toBe('ok');
  });

  test('caches null ("no such app") with its own, shorter TTL', async () => {
    let now = 1000; // lru-cache treats a start time of 0 as "no TTL"; real clocks never read 0
    const { cache, loads } = counting(async (i): Promise<string | null> => (i === 'missing' ? null : 'yes'), {
      ttlMs: 1000,
      ttlFor: (v) => (v === null ? 10 : 1000),
      now: () => now,
    });
    expect(await cache.load('missing', 'missing')).toBeNull();
    await cache.load('found', 'found');
    now = 1005;
    expect(cache.get('missing')).toBeNull();
    expect(await cache.load('missing', 'missing')).toBeNull();
    expect(loads).toEqual(['missing', 'found']);
    now = 1050;
    expect(cache.get('missing')).toBeUndefined();
    expect(cache.get('found')).toBe('yes');
  });

  test('a load that finishes after clear() is not stored', async () => {
    const gate = deferred<string>();
    const { cache } = counting(() => gate.promise);
    const pending = cache.load('k', 'k');
    cache.clear();
    gate.resolve('stale');
    await pending.catch(() => undefined);
    expect(cache.get('k')).toBeUndefined();
  });
});
