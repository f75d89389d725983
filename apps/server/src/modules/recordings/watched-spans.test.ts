import { describe, expect, it } from 'vitest';
import { addWatched, clampSpans, mergeSpans, spansLength } from './watched-spans';

describe('watched spans', () => {
  it('merges overlapping and touching spans into one, in order', () => {
    expect(mergeSpans([[30, 40], [0, 10]], [[5, 20], [20, 25], [39, 50]])).toEqual([
      [0, 25],
      [30, 50],
    ]);
  });

  it('keeps spans with a gap between them apart', () => {
    expect(mergeSpans([[0, 10]], [[11, 20]])).toEqual([
      [0, 10],
      [11, 20],
    ]);
  });

  it('swallows a span inside another', () => {
    expect(mergeSpans([[0, 100]], [[10, 20], [50, 60]])).toEqual([[0, 100]]);
  });

  it('counts the same minute watched twice once', () => {
    const first = addWatched([], [[0, 60]], 600);
    const again = addWatched(first.spans, [[0, 60]], 600);
    expect(again.watchedSeconds).toBe(60);
  });

  it('counts watching 0–600 twice and seeking around inside it as 600 seconds', () => {
    let kept = addWatched([], [[0, 300], [300, 600]], 900);
    kept = addWatched(kept.spans, [[0, 600]], 900);
    kept = addWatched(kept.spans, [[120, 180], [450, 470], [10, 11]], 900);
    expect(kept.watchedSeconds).toBe(600);
    expect(kept.spans).toEqual([[0, 600]]);
  });

  it('adds only the new part of a span that runs past what was watched', () => {
    const kept = addWatched([[0, 100]], [[80, 150]], 600);
    expect(kept).toEqual({ spans: [[0, 150]], watchedSeconds: 150 });
  });

  it('cuts spans to the video: nothing before 0 or past the end counts', () => {
    expect(clampSpans([[-5, 10], [590, 700], [650, 700]], 600)).toEqual([
      [0, 10],
      [590, 600],
    ]);
    expect(addWatched([], [[0, 10_000]], 600).watchedSeconds).toBe(600);
  });

  it('rounds ends to whole seconds and drops spans that round to nothing', () => {
    expect(clampSpans([[1.4, 9.6], [20.2, 20.4], [30.5, 31.49]], 100)).toEqual([[1, 10]]);
    // Reports every 15 s that split the playing at fractions join up again.
    const kept = addWatched(addWatched([], [[0, 15.2]], 100).spans, [[15.2, 30.4]], 100);
    expect(kept.spans).toEqual([[0, 30]]);
  });

  it('ignores spans that are empty, reversed or not numbers', () => {
    expect(clampSpans([[5, 5], [9, 3], [Number.NaN, 4], [0, Number.POSITIVE_INFINITY]], 100)).toEqual([]);
  });

  it('bounds what is kept: a thousand scattered spans leave at most one span per two seconds of video', () => {
    // A fixed pseudo-random sequence (a linear congruential generator), so the test is the same every run.
    let seed = 7;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const scattered = Array.from({ length: 1000 }, () => {
      const from = next() * 100;
      return [from, from + next() * 1.5] as const;
    });
    const kept = addWatched([], scattered, 100);
    expect(kept.spans.length).toBeLessThanOrEqual(50);
    for (const [i, [from, to]] of kept.spans.entries()) {
      expect(to - from).toBeGreaterThanOrEqual(1);
      if (i > 0) expect(from - kept.spans[i - 1]![1]).toBeGreaterThanOrEqual(1);
    }
  });

  it('measures the length of disjoint spans', () => {
    expect(spansLength([[0, 10], [20, 25]])).toBe(15);
    expect(spansLength([])).toBe(0);
  });
});
