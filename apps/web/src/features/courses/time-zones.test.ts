import { describe, expect, it } from 'vitest';
import { limits } from '@mooz/contract/limits';
import { courseTimeForViewer, instantInZone, timeZoneChoices, todayInZone, zoneOffsetMinutes } from './time-zones';

const plain = (text: string) => text.replace(/[\u2066-\u2069]/g, '');

describe('the time zones a teacher chooses from', () => {
  it("include the contract's default, UTC and the course's own even when the runtime lists them otherwise", () => {
    const zones = timeZoneChoices('America/Los_Angeles', 'Etc/GMT+3');
    expect(zones).toEqual(
      expect.arrayContaining([limits.defaultCourseTimeZone, 'UTC', 'America/Los_Angeles', 'Etc/GMT+3']),
    );
    expect(new Set(zones).size).toBe(zones.length);
    expect([...zones].sort()).toEqual(zones);
  });
});

describe('a wall-clock time in a zone', () => {
  it('is the instant it names, India being 5:30 ahead of UTC', () => {
    expect(instantInZone('2026-11-28', '10:00', 'Asia/Kolkata').toISOString()).toBe('2026-11-28T04:30:00.000Z');
  });

  it('follows daylight saving: 16:00 in Los Angeles is 23:00 UTC in summer and 00:00 UTC in winter', () => {
    expect(instantInZone('2026-07-06', '16:00', 'America/Los_Angeles').toISOString()).toBe('2026-07-06T23:00:00.000Z');
    expect(instantInZone('2026-11-23', '16:00', 'America/Los_Angeles').toISOString()).toBe('2026-11-24T00:00:00.000Z');
  });

  it('reads the offset of zones behind UTC and of half-hour zones', () => {
    expect(zoneOffsetMinutes('America/Los_Angeles', new Date('2026-11-23T12:00:00Z'))).toBe(-480);
    expect(zoneOffsetMinutes('Asia/Kolkata', new Date('2026-11-23T12:00:00Z'))).toBe(330);
    expect(zoneOffsetMinutes('UTC', new Date('2026-11-23T12:00:00Z'))).toBe(0);
  });

  it("is today's date on that zone's clocks", () => {
    const now = new Date('2026-11-22T20:00:00Z');
    expect(todayInZone('Asia/Kolkata', now)).toBe('2026-11-23');
    expect(todayInZone('America/Los_Angeles', now)).toBe('2026-11-22');
  });
});

describe('a course time as the viewer reads it', () => {
  it("adds the viewer's time when their clock reads otherwise", () => {
    const shown = courseTimeForViewer('10:00', 'Asia/Kolkata', 'en-GB', '2026-11-28', 'Europe/Paris');
    expect(plain(shown.course)).toBe('10:00');
    expect(plain(shown.viewer ?? '')).toMatch(/^05:30 /);
  });

  it('says the time once when the viewer is in a zone with the same clock', () => {
    expect(courseTimeForViewer('10:00', 'Asia/Kolkata', 'en-GB', '2026-11-28', 'Asia/Calcutta').viewer).toBeNull();
  });
});
