/**
 * A small in-process cache: entries expire after a TTL, the least recently used entry goes when the cache is full,
 * and `coalesce` makes concurrent callers for the same key share ONE load (an in-flight promise map).
 *
 * Why coalescing: people type app names letter by letter and a page can ask for the same app details several times;
 * without it ten identical concurrent requests would become ten upstream requests, which is exactly how the stores'
 * rate limits (and Google Play's captcha) are reached.
 *
 * Failures are never stored: the next caller tries again. A load that fails is shared only by the callers that were
 * already waiting for it.
 */

export type CacheOptions<V> = {
  /** How long an entry stays fresh. */
  ttlMs: number;
  /** Most entries kept; the least recently used goes first. */
  max: number;
  /** Per-value TTL (e.g. a shorter one for "not found"); defaults to ttlMs. */
  ttlFor?: (value: V) => number;
  /** Clock, for tests. */
  now?: () => number;
};

export type CacheStats = { hits: number; misses: number; loads: number; coalesced: number };

export type Cache<V> = {
  /** The fresh value, or undefined. Synchronous so hot paths answer without awaiting. */
  get(key: string): V | undefined;
  set(key: string, value: V, ttlMs?: number): void;
  delete(key: string): void;
  clear(): void;
  readonly size: number;
  readonly stats: Readonly<CacheStats>;
  /** The cached value, or the result of the load already running for this key, or a new load (stored on success). */
  coalesce(key: string, load: () => Promise<V>): Promise<V>;
};

type Entry<V> = { value: V; expiresAt: number };

export function createCache<V>(options: CacheOptions<V>): Cache<V> {
  if (!(options.max >= 1)) throw new Error('createCache: max must be at least 1');
  const now = options.now ?? Date.now;
  // Map keeps insertion order: re-inserting on read moves an entry to the "most recent" end.
  const entries = new Map<string, Entry<V>>();
  const inFlight = new Map<string, Promise<V>>();
  const stats: CacheStats = { hits: 0, misses: 0, loads: 0, coalesced: 0 };

  const get = (key: string): V | undefined => {
    const entry = entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= now()) {
      entries.delete(key);
      return undefined;
    }
    entries.delete(key);
    entries.set(key, entry);
    return entry.value;
  };

  const set = (key: string, value: V, ttlMs?: number) => {
    const ttl = ttlMs ?? options.ttlFor?.(value) ?? options.ttlMs;
    if (ttl <= 0) return;
    entries.delete(key);
    entries.set(key, { value, expiresAt: now() + ttl });
    while (entries.size > options.max) {
      const oldest = entries.keys().next().value as string;
      entries.delete(oldest);
    }
  };

  return {
    get(key) {
      const value = get(key);
      if (value === undefined) stats.misses++;
      else stats.hits++;
      return value;
    },
    set,
    delete: (key) => void entries.delete(key),
    clear() {
      entries.clear();
      inFlight.clear();
    },
    get size() {
      return entries.size;
    },
    stats,
    coalesce(key, load) {
      const cached = get(key);
      if (cached !== undefined) {
        stats.hits++;
        return Promise.resolve(cached);
      }
      stats.misses++;
      const running = inFlight.get(key);
      if (running) {
        stats.coalesced++;
        return running;
      }
      stats.loads++;
      // Started on a microtask so that a load throwing synchronously still becomes a rejected promise.
      const promise: Promise<V> = Promise.resolve()
        .then(load)
        .then(
          (value) => {
            // Only the load that is still the current one may store (clear() during a load drops it).
            if (inFlight.get(key) === promise) {
              inFlight.delete(key);
              set(key, value);
            }
            return value;
          },
          (err: unknown) => {
            if (inFlight.get(key) === promise) inFlight.delete(key);
            throw err;
          },
        );
      inFlight.set(key, promise);
      return promise;
    },
  };
}
