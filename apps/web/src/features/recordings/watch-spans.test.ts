import { describe, expect, it } from 'vitest';
import { slackSeconds, WatchSpans } from './watch-spans';

/** The wall clock the events happen at (ms). */
let now = 0;

/**
 * Plays from `from` to `to` at `rate` as the video reports it: a timeupdate every `every` ms of wall
 * time (a quarter second normally; a busy machine or a hidden tab reports less often).
 */
function play(spans: WatchSpans, from: number, to: number, { rate = 1, every = 250 } = {}) {
  const step = (every / 1000) * rate;
  for (let t = from; t <= to + 1e-9; t += step) {
    spans.played(Math.round(t * 1000) / 1000, now, rate);
    now += every;
  }
}

/** A timeupdate at `time`, `after` ms of wall time after the previous one. */
function report(spans: WatchSpans, time: number, after = 250, rate = 1) {
  now += after;
  spans.played(time, now, rate);
}

describe('watched spans from the video events', () => {
  it('makes one span of contiguous playback', () => {
    const spans = new WatchSpans();
    play(spans, 0, 12);
    expect(spans.take()).toEqual([[0, 12]]);
  });

  it('ends the span at a seek and starts a new one where playback lands', () => {
    const spans = new WatchSpans();
    play(spans, 0, 5);
    spans.seeked();
    play(spans, 60, 64);
    expect(spans.take()).toEqual([
      [0, 5],
      [60, 64],
    ]);
  });

  it('counts a seek back as a new span, not as a negative stretch', () => {
    const spans = new WatchSpans();
    play(spans, 30, 40);
    spans.seeked();
    play(spans, 10, 15);
    expect(spans.take()).toEqual([
      [30, 40],
      [10, 15],
    ]);
  });

  it('does not count a forward jump without a seek as watched', () => {
    const spans = new WatchSpans();
    play(spans, 0, 4);
    // A quarter second later the video says 4 + slack + 2 s: it cannot have played that.
    report(spans, 4 + slackSeconds + 2);
    play(spans, 7.25, 10);
    expect(spans.take()).toEqual([
      [0, 4],
      [7, 10],
    ]);
  });

  it('keeps the steps of fast playback (2×) in one span', () => {
    const spans = new WatchSpans();
    play(spans, 0, 20, { rate: 2 });
    expect(spans.take()).toEqual([[0, 20]]);
  });

  it('keeps playback in one span when the events come seldom (a busy machine, a hidden tab)', () => {
    const spans = new WatchSpans();
    // One event every 1.5 s of wall time, at 2×: 3 s of video between events.
    play(spans, 0, 30, { rate: 2, every: 1500 });
    expect(spans.take()).toEqual([[0, 30]]);
  });

  it('reports nothing for a pause, a seek while paused, or a video that never moved', () => {
    const spans = new WatchSpans();
    report(spans, 42);
    // Paused for a minute: the time stays.
    report(spans, 42, 60_000);
    spans.seeked();
    report(spans, 90);
    expect(spans.pending).toBe(false);
    expect(spans.take()).toEqual([]);
  });

  it('gives each stretch once: after a report, playback carries on in a span from there', () => {
    const spans = new WatchSpans();
    play(spans, 0, 15);
    expect(spans.take()).toEqual([[0, 15]]);
    play(spans, 15.25, 30);
    expect(spans.take()).toEqual([[15, 30]]);
    expect(spans.take()).toEqual([]);
  });

  it('hands at most one report of spans at a time and keeps the rest, in order, for the next', () => {
    const spans = new WatchSpans();
    for (let i = 0; i < 5; i++) {
      play(spans, i * 100, i * 100 + 2);
      spans.seeked();
    }
    expect(spans.take(3)).toEqual([
      [0, 2],
      [100, 102],
      [200, 202],
    ]);
    expect(spans.take(3)).toEqual([
      [300, 302],
      [400, 402],
    ]);
  });

  it('puts spans a report failed to deliver back before the newer ones', () => {
    const spans = new WatchSpans();
    play(spans, 0, 3);
    const lost = spans.take();
    spans.seeked();
    play(spans, 50, 52);
    spans.giveBack(lost);
    expect(spans.take()).toEqual([
      [0, 3],
      [50, 52],
    ]);
  });

  it('ignores times that are not times', () => {
    const spans = new WatchSpans();
    report(spans, Number.NaN);
    report(spans, -1);
    report(spans, Infinity);
    play(spans, 0, 1);
    expect(spans.take()).toEqual([[0, 1]]);
  });
});
