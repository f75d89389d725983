import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// The module keeps the page's state: each test loads it afresh.
const fresh = async () => {
  vi.resetModules();
  return import('./first-screen');
};

async function settled(promise: Promise<void>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await vi.advanceTimersByTimeAsync(0);
  return done;
}

describe('afterFirstScreen', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('waits for the first screen’s requests to be answered, then for the browser to be idle', async () => {
    const { afterFirstScreen, requestStarted } = await fresh();
    const first = requestStarted();
    const second = requestStarted();
    const after = afterFirstScreen();
    first();
    await vi.advanceTimersByTimeAsync(1000);
    expect(await settled(after)).toBe(false);
    second();
    // A request the answer leads to, asked at once, is waited for too.
    await vi.advanceTimersByTimeAsync(50);
    const third = requestStarted();
    await vi.advanceTimersByTimeAsync(1000);
    expect(await settled(after)).toBe(false);
    third();
    await vi.advanceTimersByTimeAsync(149);
    expect(await settled(after)).toBe(false);
    // Quiet for 150 ms, then idle.
    await vi.advanceTimersByTimeAsync(2100);
    expect(await settled(after)).toBe(true);
    // Later callers are not kept waiting, and an answer counted twice changes nothing.
    third();
    expect(await settled(afterFirstScreen())).toBe(true);
  });

  it('does not count a page that has asked nothing yet as drawn', async () => {
    const { afterFirstScreen, requestStarted } = await fresh();
    const after = afterFirstScreen();
    await vi.advanceTimersByTimeAsync(3000);
    expect(await settled(after)).toBe(false);
    requestStarted()();
    await vi.advanceTimersByTimeAsync(2500);
    expect(await settled(after)).toBe(true);
  });

  it('lets the rest come after 8 s however busy the page stays', async () => {
    const { afterFirstScreen, requestStarted } = await fresh();
    requestStarted();
    const after = afterFirstScreen();
    await vi.advanceTimersByTimeAsync(7900);
    expect(await settled(after)).toBe(false);
    await vi.advanceTimersByTimeAsync(2500);
    expect(await settled(after)).toBe(true);
  });
});
