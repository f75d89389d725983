import { describe, expect, it } from 'vitest';
import { SpeakerTracker, SWITCH_AFTER } from './active-speaker';

const levels = (entries: Record<string, number>) => new Map(Object.entries(entries));

describe('who is speaking', () => {
  it('hears everyone above the speaking level, loudest first, and no one in a quiet room', () => {
    const tracker = new SpeakerTracker();
    expect(tracker.hear(levels({ a: 0.001, b: 0.002 }))).toEqual([]);
    expect(tracker.hear(levels({ a: 0.05, b: 0.2, c: 0.0001 }))).toEqual(['b', 'a']);
  });

  it('makes the loudest voice the active speaker once it stays loudest, and keeps them through a pause', () => {
    const tracker = new SpeakerTracker();
    for (let look = 1; look < SWITCH_AFTER; look++) tracker.hear(levels({ a: 0.3 }));
    expect(tracker.speaker).toBeNull();
    tracker.hear(levels({ a: 0.3 }));
    expect(tracker.speaker).toBe('a');
    // A cough from b does not take the stage; silence keeps a.
    tracker.hear(levels({ a: 0.001, b: 0.4 }));
    tracker.hear(levels({}));
    expect(tracker.speaker).toBe('a');
  });

  it('keeps a speaker still talking against a voice no clearly louder, and gives way to one that is', () => {
    const tracker = new SpeakerTracker();
    for (let look = 0; look < SWITCH_AFTER; look++) tracker.hear(levels({ a: 0.2 }));
    for (let look = 0; look < 5; look++) tracker.hear(levels({ a: 0.2, b: 0.25 }));
    expect(tracker.speaker).toBe('a');
    for (let look = 0; look < SWITCH_AFTER; look++) tracker.hear(levels({ a: 0.05, b: 0.3 }));
    expect(tracker.speaker).toBe('b');
  });

  it('forgets a speaker who left', () => {
    const tracker = new SpeakerTracker();
    for (let look = 0; look < SWITCH_AFTER; look++) tracker.hear(levels({ a: 0.3 }));
    tracker.forget(new Set(['b']));
    expect(tracker.speaker).toBeNull();
  });
});
