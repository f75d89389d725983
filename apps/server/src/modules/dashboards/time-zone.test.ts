import { describe, expect, it } from 'vitest';
import { HttpError } from '../../http/errors';
import { checkTimeZone, localMidnight, localWeek } from './time-zone';
import { skillLevels } from './skills';

const HOUR = 3_600_000;
const lengths = (bounds: Date[]) => bounds.slice(1).map((b, i) => (b.getTime() - bounds[i]!.getTime()) / HOUR);

describe('the tz of the dashboards', () => {
  it('defaults to UTC, resolves a known name as Intl spells it, and refuses anything else with 400 on tz', () => {
    expect(checkTimeZone(undefined)).toBe('UTC');
    expect(checkTimeZone('')).toBe('UTC');
    expect(checkTimeZone('Asia/Kolkata')).toBe('Asia/Kolkata');
    expect(checkTimeZone('europe/berlin')).toBe('Europe/Berlin');
    expect(checkTimeZone('Asia/Calcutta')).toBe('Asia/Calcutta');
    for (const bad of ['Mars/Olympus_Mons', 'Europe', '+05:30', 'UTC+1', '../../etc/passwd', 'Europe//Berlin', 'Asia/', '123']) {
      let error: unknown;
      try {
        checkTimeZone(bad);
      } catch (e) {
        error = e;
      }
      expect(error, bad).toBeInstanceOf(HttpError);
      expect((error as HttpError).statusCode).toBe(400);
      expect((error as HttpError).message).toBe('Unknown time zone');
      expect((error as HttpError).errors).toEqual({ tz: ['Unknown time zone'] });
    }
  });

  it('cuts seven local days ending today, oldest first, at local midnight', () => {
    const week = localWeek('Asia/Kolkata', new Date('2026-11-22T20:00:00Z')); // 01:30 on the 23rd in India
    expect(week.dates).toEqual(['2026-11-17', '2026-11-18', '2026-11-19', '2026-11-20', '2026-11-21', '2026-11-22', '2026-11-23']);
    expect(week.bounds[0]!.toISOString()).toBe('2026-11-16T18:30:00.000Z');
    expect(week.bounds[7]!.toISOString()).toBe('2026-11-23T18:30:00.000Z');
    expect(lengths(week.bounds)).toEqual([24, 24, 24, 24, 24, 24, 24]);
  });

  it('has a 23-hour day when the clocks go forward and a 25-hour day when they go back', () => {
    const berlin = localWeek('Europe/Berlin', new Date('2026-03-30T10:00:00Z'));
    expect(berlin.dates.at(-2)).toBe('2026-03-29');
    expect(lengths(berlin.bounds)).toEqual([24, 24, 24, 24, 24, 23, 24]);
    expect(berlin.bounds[5]!.toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(berlin.bounds[6]!.toISOString()).toBe('2026-03-29T22:00:00.000Z');
    const newYork = localWeek('America/New_York', new Date('2026-11-02T12:00:00Z'));
    expect(newYork.dates.at(-2)).toBe('2026-11-01');
    expect(lengths(newYork.bounds)).toEqual([24, 24, 24, 24, 24, 25, 24]);
    expect(newYork.bounds[5]!.toISOString()).toBe('2026-11-01T04:00:00.000Z');
  });

  it('starts a day whose midnight the clocks skip at its first moment', () => {
    // Chile moves from 00:00 straight to 01:00 on 2026-09-06.
    expect(new Date(localMidnight('America/Santiago', '2026-09-06')).toISOString()).toBe('2026-09-06T04:00:00.000Z');
    expect(new Date(localMidnight('America/Santiago', '2026-09-07')).toISOString()).toBe('2026-09-07T03:00:00.000Z');
  });

  it('puts one instant on different dates at UTC+14 and UTC-11', () => {
    const now = new Date('2026-11-20T10:00:00Z');
    expect(localWeek('Pacific/Kiritimati', now).dates.at(-1)).toBe('2026-11-21');
    expect(localWeek('Pacific/Pago_Pago', now).dates.at(-1)).toBe('2026-11-19');
    expect(localWeek('UTC', now).dates.at(-1)).toBe('2026-11-20');
    expect(localWeek('Pacific/Kiritimati', now).bounds[6]!.toISOString()).toBe('2026-11-20T10:00:00.000Z');
    expect(localWeek('Pacific/Pago_Pago', now).bounds[7]!.toISOString()).toBe('2026-11-20T11:00:00.000Z');
  });
});

describe('skill levels', () => {
  it('gives each skill of the courses the progress in its course, the higher of two, once, 0-100', () => {
    const skills = new Map([
      [1, ['Vitest', 'Playwright']],
      [2, ['playwright ', 'Docker', '']],
    ]);
    expect(skillLevels([{ courseId: 1, share: 0.666 }, { courseId: 2, share: 0.9 }], skills)).toEqual([
      { name: 'Vitest', level: 67 },
      { name: 'Playwright', level: 90 },
      { name: 'Docker', level: 90 },
    ]);
    expect(skillLevels([{ courseId: 1, share: 0 }, { courseId: 3, share: 1 }], skills)).toEqual([
      { name: 'Vitest', level: 0 },
      { name: 'Playwright', level: 0 },
    ]);
  });
});
