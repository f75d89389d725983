// What the busiest endpoints read, kept in memory for a few seconds at most and dropped the moment the
// database changes under it (db/changes.ts here, infrastructure/change-bus.ts from other processes).
// Concurrent misses share one load; a load that an invalidation overtakes answers its own callers but
// is never kept, so nothing read before a write outlives the write.
// A value in use is read again ahead of its expiry (refresh-ahead): a use in the second half of its
// lifetime starts one load in the background and is answered from what is kept, so that under load
// nobody waits for an expiry (on PostgreSQL, where the lifetime is short, the expiries were the p99).
// Nothing is ever served past `ttlMs` after the load that read it began: a value whose refresh has not
// arrived by then is waited for, as before. Only an invalidation or a first read makes callers wait.

interface CacheOptions<V = unknown> {
  /** How long a loaded value may be used without news from the database: the fallback, when no change reaches us. */
  ttlMs: number;
  /** From what age a use reloads the value in the background; half the lifetime unless told. */
  refreshAfterMs?: number;
  /**
   * Whether a value read anew equals the one it replaces: when it does, the one kept before stays, the
   * same object, so that whatever is worked out from it (and keyed by it) stays valid.
   */
  same?: (kept: V, loaded: V) => boolean;
  now?: () => number;
}

interface CachedValue<T> {
  get(): Promise<T>;
  invalidate(): void;
}

interface Entry<V> {
  value: V;
  /** A use from then on starts a background reload. */
  refreshAt: number;
  /** Never used from then on. */
  until: number;
}

const ignore = () => {};

export function cachedValue<T>(load: () => Promise<T>, options: CacheOptions<T>): CachedValue<T> {
  const now = options.now ?? Date.now;
  const refreshAfterMs = options.refreshAfterMs ?? options.ttlMs / 2;
  let generation = 0;
  let kept: Entry<T> | null = null;
  // The last value kept, still after an invalidation: a reload that finds the same keeps its identity.
  let last: { value: T } | null = null;
  let loading: Promise<T> | null = null;

  function start(): Promise<T> {
    const started = generation;
    // The lifetime counts from before the read: a write committed after it began may be missing from it.
    const at = now();
    const pending: Promise<T> = load().then(
      (loaded) => {
        if (loading === pending) loading = null;
        if (generation !== started) return loaded;
        const value = last && options.same?.(last.value, loaded) ? last.value : loaded;
        kept = { value, refreshAt: at + refreshAfterMs, until: at + options.ttlMs };
        last = { value };
        return value;
      },
      (error: unknown) => {
        if (loading === pending) loading = null;
        throw error;
      },
    );
    loading = pending;
    return pending;
  }

  return {
    get() {
      const time = now();
      if (kept && kept.until > time) {
        // A failed refresh is not this caller's: the kept value holds until it expires, and then a
        // caller waits for a load of its own and sees the error.
        if (time >= kept.refreshAt && !loading) start().catch(ignore);
        return Promise.resolve(kept.value);
      }
      return loading ?? start();
    },
    invalidate() {
      generation++;
      kept = null;
      loading = null;
    },
  };
}

/** What `peek` answers for a key with nothing kept within its lifetime. */
export const notKept: unique symbol = Symbol('not kept');

interface CachedMap<K, V> {
  get(key: K): Promise<V>;
  /**
   * What `get` would answer at once, without a promise: the value kept for `key` (a use like any other,
   * which may start its refresh-ahead), or `notKept` when a caller would have to wait for a load.
   */
  peek(key: K): V | typeof notKept;
  /** Drops one key, or every key. */
  invalidate(key?: K): void;
  /** Drops the keys whose kept value matches. */
  invalidateWhere(test: (value: V, key: K) => boolean): void;
}

export function cachedMap<K, V>(load: (key: K) => Promise<V>, options: CacheOptions<V> & { maxEntries: number }): CachedMap<K, V> {
  const now = options.now ?? Date.now;
  const refreshAfterMs = options.refreshAfterMs ?? options.ttlMs / 2;
  // Any invalidation overtakes every load under way: rarer than hits by far, and always safe.
  let generation = 0;
  const kept = new Map<K, Entry<V>>();
  const loading = new Map<K, Promise<V>>();

  function keep(key: K, entry: Entry<V>) {
    kept.delete(key);
    // The oldest entries go first (a Map iterates in insertion order).
    while (kept.size >= options.maxEntries) kept.delete(kept.keys().next().value as K);
    kept.set(key, entry);
  }

  function start(key: K): Promise<V> {
    const started = generation;
    const at = now();
    const promise: Promise<V> = load(key).then(
      (loaded) => {
        if (loading.get(key) === promise) loading.delete(key);
        if (generation !== started) return loaded;
        const before = kept.get(key);
        const value = before && options.same?.(before.value, loaded) ? before.value : loaded;
        keep(key, { value, refreshAt: at + refreshAfterMs, until: at + options.ttlMs });
        return value;
      },
      (error: unknown) => {
        if (loading.get(key) === promise) loading.delete(key);
        throw error;
      },
    );
    loading.set(key, promise);
    return promise;
  }

  return {
    get(key) {
      const time = now();
      const entry = kept.get(key);
      if (entry && entry.until > time) {
        if (time >= entry.refreshAt && !loading.has(key)) start(key).catch(ignore);
        return Promise.resolve(entry.value);
      }
      return loading.get(key) ?? start(key);
    },
    peek(key) {
      const time = now();
      const entry = kept.get(key);
      if (!entry || entry.until <= time) return notKept;
      if (time >= entry.refreshAt && !loading.has(key)) start(key).catch(ignore);
      return entry.value;
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
