import { describe, expect, it } from 'vitest';
import { cachedMap, cachedValue, clockWindow, notKept } from './cache';

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

  it('reloads a value in use in the background from half its lifetime, and never serves it past its lifetime', async () => {
    let now = 0;
    let loads = 0;
    const reload = deferred<number>();
    const value = cachedValue(async () => (++loads === 1 ? 1 : reload.promise), { ttlMs: 1000, now: () => now });
    expect(await value.get()).toBe(1);
    now = 499;
    expect(await value.get()).toBe(1);
    expect(loads).toBe(1);
    // In the second half: answered from memory at once, one reload started for all the callers.
    now = 500;
    expect(await Promise.all([value.get(), value.get()])).toEqual([1, 1]);
    expect(loads).toBe(2);
    // Expired with the reload still under way: the callers wait for it rather than get the old value.
    now = 1000;
    const waiting = value.get();
    reload.resolve(2);
    expect(await waiting).toBe(2);
    // Its lifetime counts from when the reload began (500), not from when it arrived: kept until 1500,
    // and already in its second half, so this use starts the next reload.
    now = 1499;
    expect(await value.get()).toBe(2);
    expect(loads).toBe(3);
  });

  it('keeps serving the kept value when a background reload fails, until it expires', async () => {
    let now = 0;
    let fail = false;
    const value = cachedValue(async () => (fail ? Promise.reject(new Error('database down')) : 'kept'), { ttlMs: 1000, now: () => now });
    expect(await value.get()).toBe('kept');
    fail = true;
    now = 600;
    expect(await value.get()).toBe('kept');
    await Promise.resolve();
    expect(await value.get()).toBe('kept');
    now = 1000;
    await expect(value.get()).rejects.toThrow('database down');
  });

  it('keeps the very same object when a reload finds an equal value, even after an invalidation', async () => {
    let now = 0;
    let rows = [{ id: 1 }];
    const value = cachedValue(async () => rows.map((row) => ({ ...row })), { ttlMs: 1000, now: () => now, same: (a, b) => JSON.stringify(a) === JSON.stringify(b) });
    const first = await value.get();
    now = 1000;
    expect(await value.get()).toBe(first);
    value.invalidate();
    expect(await value.get()).toBe(first);
    rows = [{ id: 2 }];
    value.invalidate();
    expect(await value.get()).toEqual([{ id: 2 }]);
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

  it('reloads a key in use in the background, and waits for it only once the kept value expired', async () => {
    let now = 0;
    const loads: string[] = [];
    const map = cachedMap(async (key: string) => `${key}${loads.push(key)}`, { ttlMs: 1000, maxEntries: 10, now: () => now });
    expect(await map.get('a')).toBe('a1');
    now = 700;
    expect(await map.get('a')).toBe('a1');
    await Promise.resolve();
    expect(await map.get('a')).toBe('a2');
    // Kept from the reload's start (700): reloaded again from 1200, expired at 1700, then waited for.
    now = 1199;
    expect(await map.get('a')).toBe('a2');
    now = 1700;
    expect(await map.get('a')).toBe('a3');
    expect(loads).toEqual(['a', 'a', 'a']);
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

describe('cachedMap.peek', () => {
  // What authenticate() uses to answer without a promise: it must never answer what get() would not.
  it('answers what get() would at once, and notKept wherever get() would make the caller wait', async () => {
    let now = 0;
    let loads = 0;
    const map = cachedMap(async (key: string) => `${key}${++loads}`, { ttlMs: 1000, maxEntries: 10, now: () => now });
    expect(map.peek('a')).toBe(notKept);
    expect(loads).toBe(0);
    expect(await map.get('a')).toBe('a1');
    expect(map.peek('a')).toBe('a1');
    // In the second half of its lifetime a peek is a use like get's: it starts the reload ahead.
    now = 500;
    expect(map.peek('a')).toBe('a1');
    expect(loads).toBe(2);
    await Promise.resolve();
    // The reload began at 500: kept until 1500.
    now = 1499;
    expect(map.peek('a')).toBe('a2');
    now = 1500;
    expect(map.peek('a')).toBe(notKept);
    expect(await map.get('a')).toBe('a3');
    map.invalidate('a');
    expect(map.peek('a')).toBe(notKept);
  });
});

describe('clockWindow', () => {
  it('spans from the latest instant at or before the time to the earliest after it', () => {
    expect(clockWindow([10, 30, 20, 50], 25)).toEqual({ from: 20, until: 30 });
    expect(clockWindow([25], 25)).toEqual({ from: 25, until: Infinity });
    expect(clockWindow([], 25)).toEqual({ from: -Infinity, until: Infinity });
  });
});
