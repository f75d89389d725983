import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// The module keeps the page's state: each test loads it afresh.
const fresh = async () => {
  vi.resetModules();
  return import('./first-screen');
};

async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await vi.advanceTimersByTimeAsync(0);
  return done;
}

const nothing = () => Promise.resolve();

describe('afterFirstScreen', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('waits for the first screen’s requests to be answered, then for the browser to be idle', async () => {
    const { afterFirstScreen, requestStarted } = await fresh();
    const first = requestStarted();
    const second = requestStarted();
    const after = afterFirstScreen(nothing);
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
    // Later work is not kept waiting for requests, and an answer counted twice changes nothing.
    third();
    requestStarted();
    const later = afterFirstScreen(() => Promise.resolve('later'));
    await vi.advanceTimersByTimeAsync(2100);
    await expect(later).resolves.toBe('later');
  });

  it('does not count a page that has asked nothing yet as drawn', async () => {
    const { afterFirstScreen, requestStarted } = await fresh();
    const after = afterFirstScreen(nothing);
    await vi.advanceTimersByTimeAsync(3000);
    expect(await settled(after)).toBe(false);
    requestStarted()();
    await vi.advanceTimersByTimeAsync(2500);
    expect(await settled(after)).toBe(true);
  });

  it('runs the waiting work one piece at a time, a failed piece not stopping the next', async () => {
    const { afterFirstScreen, requestStarted } = await fresh();
    const ran: string[] = [];
    let finishFirst!: () => void;
    const first = afterFirstScreen(() => {
      ran.push('first');
      return new Promise<void>((resolve) => (finishFirst = resolve));
    });
    const failing = afterFirstScreen(() => {
      ran.push('failing');
      return Promise.reject(new Error('offline'));
    });
    const last = afterFirstScreen(() => {
      ran.push('last');
      return Promise.resolve();
    });
    requestStarted()();
    await vi.advanceTimersByTimeAsync(5000);
    expect(ran).toEqual(['first']);
    const failed = expect(failing).rejects.toThrow('offline');
    finishFirst();
    await first;
    await vi.advanceTimersByTimeAsync(5000);
    await failed;
    await last;
    expect(ran).toEqual(['first', 'failing', 'last']);
  });

  it('lets the work come after 8 s however busy the page stays', async () => {
    const { afterFirstScreen, requestStarted } = await fresh();
    requestStarted();
    const after = afterFirstScreen(nothing);
    await vi.advanceTimersByTimeAsync(7900);
    expect(await settled(after)).toBe(false);
    await vi.advanceTimersByTimeAsync(2500);
    expect(await settled(after)).toBe(true);
  });
});
