/**
 * An in-process cache of database reads for the public API's hot path, on lru-cache: `get` answers a fresh entry
 * synchronously (a warm request awaits nothing), `load` makes concurrent callers of one key share one read, and
 * `forget` is for a write made in this process, which takes effect here at once. Other processes see a write when
 * their entry expires, `ttlMs()` after they read it (read at each store, so a setting change applies to new entries;
 * 0 stores nothing: every call reads the database).
 *
 * A read that was running when something was forgotten answers its callers but is not stored: it may have read the
 * rows from before the write, and storing them would undo the forgetting for a whole TTL.
 *
 * Unlike server/apps/cache.ts (store answers, lru-cache's own `fetch`), entries here must be forgettable while a read
 * is running; lru-cache aborts a pending fetch on delete and rejects its callers, which would turn a revocation into
 * errors for the requests in flight.
 */
import { LRUCache } from 'lru-cache';

export type ReadCache<V> = {
  /** The fresh entry, or undefined (a stored null is an answer: "there is no such thing"). */
  get(key: string): V | undefined;
  /** The fresh entry, the read already running for `key`, or a new `read()` (stored unless forgotten meanwhile). */
  load(key: string, read: () => Promise<V>): Promise<V>;
  /** Changes a stored entry in place (e.g. a count the process learnt); nothing when there is none. */
  update(key: string, change: (value: V) => V): void;
  forget(key: string): void;
  forgetWhere(matches: (value: V, key: string) => boolean): void;
  clear(): void;
};

type Box<V> = { value: V };

export function createReadCache<V>(options: { max: number; ttlMs: () => number }): ReadCache<V> {
  const cache = new LRUCache<string, Box<V>>({ max: options.max });
  const reading = new Map<string, Promise<V>>();
  // Bumped by every forget: a read that started before it is not stored.
  let epoch = 0;
  const forgetAll = () => {
    epoch++;
    reading.clear();
  };

  return {
    get: (key) => cache.get(key)?.value,
    load(key, read) {
      const hit = cache.get(key);
      if (hit) return Promise.resolve(hit.value);
      const running = reading.get(key);
      if (running) return running;
      const started = epoch;
      const p = read().then(
        (value) => {
          if (reading.get(key) === p) reading.delete(key);
          const ttl = options.ttlMs();
          if (started === epoch && ttl > 0) cache.set(key, { value }, { ttl });
          return value;
        },
        (err: unknown) => {
          if (reading.get(key) === p) reading.delete(key);
          throw err;
        },
      );
      reading.set(key, p);
      return p;
    },
    update(key, change) {
      const hit = cache.get(key);
      if (hit) hit.value = change(hit.value);
    },
    forget(key) {
      cache.delete(key);
      forgetAll();
    },
    forgetWhere(matches) {
      const gone = [...cache.entries()].filter(([key, box]) => matches(box.value, key)).map(([key]) => key);
      for (const key of gone) cache.delete(key);
      forgetAll();
    },
    clear() {
      cache.clear();
      forgetAll();
    },
  };
}
