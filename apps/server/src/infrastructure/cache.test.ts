import { describe, expect, it } from 'vitest';
import { cachedMap, cachedValue, clockWindow } from './cache';

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('cachedValue', () => {
  it('shares one load between concurrent misses and keeps the value for its lifetime', async () => {
    let now = 0;
    let loads = 0;
    const value = cachedValue(async () => ++loads, { ttlMs: 1000, now: () => now });
    expect(await Promise.all([value.get(), value.get(), value.get()])).toEqual([1, 1, 1]);
    now = 999;
    expect(await value.get()).toBe(1);
    now = 1000;
    expect(await value.get()).toBe(2);
  });

  it('never keeps a load that an invalidation overtook, though it answers those who asked', async () => {
    const first = deferred<string>();
    let next: Promise<string> = first.promise;
    const value = cachedValue(() => next, { ttlMs: 60_000 });
    const asked = value.get();
    value.invalidate();
    next = Promise.resolve('after the write');
    first.resolve('before the write');
    expect(await asked).toBe('before the write');
    expect(await value.get()).toBe('after the write');
    expect(await value.get()).toBe('after the write');
  });
});

describe('cachedMap', () => {
  it('drops one key, the keys whose value matches, or all, and never more than maxEntries', async () => {
    let loads = 0;
    const map = cachedMap(async (key: string) => `${key}${++loads}`, { ttlMs: 60_000, maxEntries: 3 });
    expect([await map.get('a'), await map.get('b'), await map.get('c')]).toEqual(['a1', 'b2', 'c3']);
    expect(await map.get('a')).toBe('a1');
    map.invalidate('a');
    expect(await map.get('a')).toBe('a4');
    map.invalidateWhere((value) => value.startsWith('b'));
    expect([await map.get('b'), await map.get('c')]).toEqual(['b5', 'c3']);
    // A fourth key pushes out the oldest kept one (c3, kept before a4 and b5).
    expect(await map.get('d')).toBe('d6');
    expect(await map.get('c')).toBe('c7');
    map.invalidate();
    expect(await map.get('d')).toBe('d8');
  });

  it('does not keep a load overtaken by an invalidation of its key', async () => {
    const first = deferred<number>();
    let next: Promise<number> = first.promise;
    const map = cachedMap(() => next, { ttlMs: 60_000, maxEntries: 10 });
    const asked = map.get(1);
    map.invalidate(1);
    next = Promise.resolve(2);
    first.resolve(1);
    expect(await asked).toBe(1);
    expect(await map.get(1)).toBe(2);
  });
});

describe('clockWindow', () => {
  it('spans from the latest instant at or before the time to the earliest after it', () => {
    expect(clockWindow([10, 30, 20, 50], 25)).toEqual({ from: 20, until: 30 });
    expect(clockWindow([25], 25)).toEqual({ from: 25, until: Infinity });
    expect(clockWindow([], 25)).toEqual({ from: -Infinity, until: Infinity });
  });
});
