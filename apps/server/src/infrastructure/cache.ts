// What the busiest endpoints read, kept in memory for a few seconds at most and dropped the moment the
// database changes under it (db/changes.ts here, infrastructure/change-bus.ts from other processes).
// Concurrent misses share one load; a load that an invalidation overtakes answers its own callers but
// is never kept, so nothing read before a write outlives the write.

export interface CacheOptions {
  /** How long a loaded value may be used without news from the database: the fallback, when no change reaches us. */
  ttlMs: number;
  now?: () => number;
}

export interface CachedValue<T> {
  get(): Promise<T>;
  invalidate(): void;
}

export function cachedValue<T>(load: () => Promise<T>, options: CacheOptions): CachedValue<T> {
  const now = options.now ?? Date.now;
  let generation = 0;
  let kept: { value: T; until: number } | null = null;
  let loading: Promise<T> | null = null;

  return {
    get() {
      if (kept && kept.until > now()) return Promise.resolve(kept.value);
      if (loading) return loading;
      const started = generation;
      const until = now() + options.ttlMs;
      const pending: Promise<T> = load().then(
        (value) => {
          if (loading === pending) loading = null;
          if (generation === started) kept = { value, until };
          return value;
        },
        (error: unknown) => {
          if (loading === pending) loading = null;
          throw error;
        },
      );
      loading = pending;
      return pending;
    },
    invalidate() {
      generation++;
      kept = null;
      loading = null;
    },
  };
}

export interface CachedMap<K, V> {
  get(key: K): Promise<V>;
  /** Drops one key, or every key. */
  invalidate(key?: K): void;
  /** Drops the keys whose kept value matches. */
  invalidateWhere(test: (value: V, key: K) => boolean): void;
}

export function cachedMap<K, V>(load: (key: K) => Promise<V>, options: CacheOptions & { maxEntries: number }): CachedMap<K, V> {
  const now = options.now ?? Date.now;
  // Any invalidation overtakes every load under way: rarer than hits by far, and always safe.
  let generation = 0;
  const kept = new Map<K, { value: V; until: number }>();
  const loading = new Map<K, Promise<V>>();

  function keep(key: K, value: V, until: number) {
    kept.delete(key);
    // The oldest entries go first (a Map iterates in insertion order).
    while (kept.size >= options.maxEntries) kept.delete(kept.keys().next().value as K);
    kept.set(key, { value, until });
  }

  return {
    get(key) {
      const entry = kept.get(key);
      if (entry && entry.until > now()) return Promise.resolve(entry.value);
      const pending = loading.get(key);
      if (pending) return pending;
      const started = generation;
      const until = now() + options.ttlMs;
      const promise: Promise<V> = load(key).then(
        (value) => {
          if (loading.get(key) === promise) loading.delete(key);
          if (generation === started) keep(key, value, until);
          return value;
        },
        (error: unknown) => {
          if (loading.get(key) === promise) loading.delete(key);
          throw error;
        },
      );
      loading.set(key, promise);
      return promise;
    },
    invalidate(key?: K) {
      generation++;
      if (key === undefined) {
        kept.clear();
        loading.clear();
      } else {
        kept.delete(key);
        loading.delete(key);
      }
    },
    invalidateWhere(test) {
      generation++;
      loading.clear();
      for (const [key, entry] of kept) if (test(entry.value, key)) kept.delete(key);
    },
  };
}

/**
 * The span of time around `time` in which none of `instants` is crossed: from the latest instant at or
 * before it to the earliest after it. What the clock alone changes (a session going live, a batch
 * starting) holds for that span, so an answer worked out at `time` may be kept for it.
 */
export function clockWindow(instants: Iterable<number>, time: number): { from: number; until: number } {
  let from = -Infinity;
  let until = Infinity;
  for (const instant of instants) {
    if (instant <= time) from = Math.max(from, instant);
    else until = Math.min(until, instant);
  }
  return { from, until };
}
