// What a dashboard computed, kept in memory until the first instant it could differ: each entry says
// itself until when it holds (the next thing the clock alone would change), and every entry is dropped
// the moment a table it was read from is written (db/changes.ts in this process, the change bus from
// others; `ttlMs` bounds what a change that never arrives could leave). A load that a write overtakes
// answers its own caller but is never kept, so nothing read before a write outlives the write.

interface KeptAnswers<V> {
  /** The kept value for `key` if it holds at `at` (ms), else `load`'s, kept until its `until` when no write overtook it. */
  get(key: string, at: number, load: () => Promise<{ value: V; until: number }>): Promise<V>;
  /** Drops every entry (a write to a table they were read from). */
  invalidate(): void;
  readonly size: number;
}

export function keptAnswers<V>(options: { ttlMs: number; maxEntries: number }): KeptAnswers<V> {
  let generation = 0;
  const kept = new Map<string, { value: V; from: number; until: number }>();
  return {
    async get(key, at, load) {
      const entry = kept.get(key);
      if (entry && at >= entry.from && at < entry.until) return entry.value;
      const started = generation;
      const { value, until } = await load();
      const keptUntil = Math.min(until, at + options.ttlMs);
      if (generation === started && keptUntil > at) {
        kept.delete(key);
        // The oldest entries go first (a Map iterates in insertion order).
        while (kept.size >= options.maxEntries) kept.delete(kept.keys().next().value as string);
        kept.set(key, { value, from: at, until: keptUntil });
      }
      return value;
    },
    invalidate() {
      generation++;
      kept.clear();
    },
    get size() {
      return kept.size;
    },
  };
}
