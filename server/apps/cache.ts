/**
 * A loading cache for store answers, on lru-cache: entries expire after a TTL (per value if asked, e.g. shorter for
 * "not found"), the least recently used entry goes when the cache is full, and `load` makes concurrent callers for
 * the same key share ONE upstream request (lru-cache's `fetch` coalesces them).
 *
 * Why coalescing: people type app names letter by letter and a page can ask for the same app details several times;
 * without it ten identical concurrent requests would become ten upstream requests, which is exactly how the stores'
 * rate limits (and Google Play's captcha) are reached.
 *
 * Failures are never stored: the next caller tries again. A load that fails is shared only by the callers that were
 * already waiting for it.
 */
import { LRUCache } from 'lru-cache';

export type LoadingCacheOptions<V, I> = {
  /** How long an entry stays fresh. */
  ttlMs: number;
  /** Most entries kept; the least recently used goes first. */
  max: number;
  /** Per-value TTL (e.g. a shorter one for "not found"); defaults to ttlMs. */
  ttlFor?: (value: V) => number;
  /** Fetches the value for `input` from upstream; throwing stores nothing. */
  load: (input: I) => Promise<V>;
  /** Clock in milliseconds, for tests. */
  now?: () => number;
};

export type LoadingCache<V, I> = {
  /** The fresh value, or undefined. Synchronous so hot paths answer without awaiting. */
  get(key: string): V | undefined;
  /** The cached value, or the load already running for this key, or a new load of `input` (stored on success). */
  load(key: string, input: I): Promise<V>;
  clear(): void;
  readonly size: number;
};

// lru-cache stores only non-null values; a box lets `null` ("no such app") be cached like any answer.
type Box<V> = { value: V };

export function createLoadingCache<V, I>(options: LoadingCacheOptions<V, I>): LoadingCache<V, I> {
  const cache = new LRUCache<string, Box<V>, I>({
    max: options.max,
    ttl: options.ttlMs,
    ...(options.now ? { perf: { now: options.now }, ttlResolution: 0 } : {}),
    fetchMethod: async (_key, _stale, { context, options: fetchOptions }) => {
      const value = await options.load(context);
      const ttl = options.ttlFor?.(value) ?? options.ttlMs;
      if (ttl <= 0) return undefined; // nothing stored
      fetchOptions.ttl = ttl;
      return { value };
    },
  });
  // lru-cache types fetch()'s options with a conditional type that TypeScript cannot resolve for a generic I.
  const fetchWith = cache.fetch.bind(cache) as (key: string, options: { context: I }) => Promise<Box<V> | undefined>;
  return {
    get: (key) => cache.get(key)?.value,
    async load(key, input) {
      const box = await fetchWith(key, { context: input });
      if (box) return box.value;
      // Not storable (TTL 0): load it for this caller alone.
      return options.load(input);
    },
    clear: () => cache.clear(),
    get size() {
      return cache.size;
    },
  };
}
