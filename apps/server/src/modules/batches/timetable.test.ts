import { describe, expect, it } from 'vitest';
import { addDays, batchOccurrences, batchStartOnOrAfter, isoWeekday, weeklyMeetings, zonedInstant } from './timetable';

describe('batch timetable', () => {
  it('starts weekday batches on a Monday and weekend batches on a Saturday', () => {
    // 2026-11-23 is a Monday.
    expect(isoWeekday('2026-11-23')).toBe(1);
    expect(batchStartOnOrAfter('weekdays', '2026-11-23')).toBe('2026-11-23');
    expect(batchStartOnOrAfter('weekends', '2026-11-23')).toBe('2026-11-28');
    expect(isoWeekday('2026-11-28')).toBe(6);
    expect(batchStartOnOrAfter('weekdays', '2026-11-24')).toBe('2026-11-30');
    expect(batchStartOnOrAfter('weekends', '2026-11-29')).toBe('2026-12-05');
  });

  it('turns a wall-clock time in the course zone into the right UTC instant', () => {
    expect(zonedInstant('2026-11-23', '07:30', 'Asia/Kolkata').toISOString()).toBe('2026-11-23T02:00:00.000Z');
    expect(zonedInstant('2026-11-23', '16:00', 'America/Los_Angeles').toISOString()).toBe('2026-11-24T00:00:00.000Z');
    expect(zonedInstant('2026-07-06', '16:00', 'America/Los_Angeles').toISOString()).toBe('2026-07-06T23:00:00.000Z');
    expect(zonedInstant('2026-11-23', '09:00', 'UTC').toISOString()).toBe('2026-11-23T09:00:00.000Z');
  });

  it('keeps a course time at its local hour across a daylight-saving change', () => {
    // Europe/Berlin leaves summer time on 2026-10-25: 18:00 is 16:00 UTC before and 17:00 UTC after.
    const batch = { kind: 'weekends' as const, startDate: '2026-10-17', endDate: '2026-10-30', time: null, saturdayTime: '18:00', sundayTime: '18:00' };
    const times = batchOccurrences(batch, 'Europe/Berlin').map((o) => `${o.date} ${o.startsAt.toISOString().slice(11, 16)}`);
    expect(times).toEqual(['2026-10-17 16:00', '2026-10-18 16:00', '2026-10-24 16:00', '2026-10-25 17:00']);
  });

  it('takes a time skipped by the spring jump as the same time after it', () => {
    // America/New_York jumps from 02:00 to 03:00 on 2027-03-14.
    expect(zonedInstant('2027-03-14', '02:30', 'America/New_York').toISOString()).toBe('2027-03-14T07:30:00.000Z');
  });

  it('takes a time that happens twice, as clocks go back, as its first occurrence', () => {
    // Europe/Berlin shows 02:30 twice on 2026-10-25: first in summer time (00:30 UTC), then an hour later.
    expect(zonedInstant('2026-10-25', '02:30', 'Europe/Berlin').toISOString()).toBe('2026-10-25T00:30:00.000Z');
  });

  it('meets Monday to Friday for weekday batches and Saturday and Sunday for weekend batches', () => {
    const weekdays = batchOccurrences(
      { kind: 'weekdays', startDate: '2026-11-23', endDate: addDays('2026-11-23', 13), time: '07:30', saturdayTime: null, sundayTime: null },
      'Asia/Kolkata',
    );
    expect(weekdays).toHaveLength(10);
    expect(new Set(weekdays.map((o) => o.weekday))).toEqual(new Set([1, 2, 3, 4, 5]));
    const weekends = batchOccurrences(
      { kind: 'weekends', startDate: '2026-11-28', endDate: addDays('2026-11-28', 13), time: null, saturdayTime: '10:00', sundayTime: '15:00' },
      'Asia/Kolkata',
    );
    expect(weekends.map((o) => [o.date, o.time])).toEqual([
      ['2026-11-28', '10:00'],
      ['2026-11-29', '15:00'],
      ['2026-12-05', '10:00'],
      ['2026-12-06', '15:00'],
    ]);
  });

  it('names the first week so a viewer in UTC+5:30 or UTC-8 can see their own days', () => {
    // A 16:00 weekday class in Los Angeles is 05:30 the next day in India: Tuesday to Saturday there.
    const meetings = weeklyMeetings(
      { kind: 'weekdays', startDate: '2026-11-23', endDate: '2027-02-12', time: '16:00', saturdayTime: null, sundayTime: null },
      'America/Los_Angeles',
    );
    expect(meetings.map((m) => m.weekday)).toEqual([1, 2, 3, 4, 5]);
    const inIndia = meetings.map((m) =>
      new Intl.DateTimeFormat('en-GB', { timeZone: 'Asia/Kolkata', weekday: 'short', hour: '2-digit', minute: '2-digit' }).format(new Date(m.first_starts_at)),
    );
    expect(inIndia).toEqual(['Tue 05:30', 'Wed 05:30', 'Thu 05:30', 'Fri 05:30', 'Sat 05:30']);
    // A 07:30 weekday class in India is the evening before in Los Angeles: Sunday to Thursday there.
    const fromIndia = weeklyMeetings(
      { kind: 'weekdays', startDate: '2026-11-23', endDate: '2027-02-12', time: '07:30', saturdayTime: null, sundayTime: null },
      'Asia/Kolkata',
    );
    const inLosAngeles = fromIndia.map((m) =>
      new Intl.DateTimeFormat('en-GB', { timeZone: 'America/Los_Angeles', weekday: 'short', hour: '2-digit', minute: '2-digit' }).format(new Date(m.first_starts_at)),
    );
    expect(inLosAngeles).toEqual(['Sun 18:00', 'Mon 18:00', 'Tue 18:00', 'Wed 18:00', 'Thu 18:00']);
  });
});
