import { describe, expect, it } from 'vitest';
import { describeDays, describeSchedule, weeklyPatterns } from './batch-schedule';

// A 16:00 weekday class in Los Angeles, first week of 2026-11-23 (UTC-8): 00:00 UTC the next day.
const losAngeles = {
  time_zone: 'America/Los_Angeles',
  meetings: [1, 2, 3, 4, 5].map((weekday) => ({
    weekday,
    time: '16:00',
    first_starts_at: new Date(Date.UTC(2026, 10, 23 + weekday - 1, 16 + 8)).toISOString(),
  })),
};

describe('batch schedules', () => {
  it("names the days and time in the viewer's zone: Tuesday to Saturday in India", () => {
    expect(weeklyPatterns(losAngeles, 'en-GB', 'Asia/Kolkata')).toEqual([{ days: [2, 3, 4, 5, 6], time: '05:30' }]);
    expect(describeSchedule(losAngeles, 'en-GB', 'Asia/Kolkata')).toBe('Tue – Sat 05:30');
  });

  it('lists two days, and ranges across the end of the week', () => {
    expect(describeDays([6, 7], 'en-GB')).toBe('Sat, Sun');
    expect(describeDays([1, 2, 3, 4, 7], 'en-GB')).toBe('Sun – Thu');
    expect(describeDays([1, 3, 5], 'en-GB')).toBe('Mon, Wed, Fri');
  });

  it('groups a weekend batch meeting at two times', () => {
    const weekend = {
      meetings: [
        { weekday: 6, time: '10:00', first_starts_at: '2026-11-28T04:30:00.000Z' },
        { weekday: 7, time: '15:00', first_starts_at: '2026-11-29T09:30:00.000Z' },
      ],
    };
    expect(describeSchedule(weekend, 'en-GB', 'Asia/Kolkata')).toBe('Sat 10:00 · Sun 15:00');
  });

  it('writes each time as the locale writes that meeting in the zone, midnight and half hours included', () => {
    const instants = ['2026-11-23T00:00:00.000Z', '2026-11-24T18:30:00.000Z', '2026-11-26T23:45:00.000Z', '2026-03-29T01:30:00.000Z'];
    for (const locale of ['en-US', 'fr', 'de', 'pt-BR', 'ar-EG']) {
      for (const zone of ['UTC', 'Asia/Kolkata', 'America/Los_Angeles', 'Europe/Berlin', 'Australia/Adelaide']) {
        for (const instant of instants) {
          const [pattern] = weeklyPatterns({ meetings: [{ weekday: 1, time: '00:00', first_starts_at: instant }] }, locale, zone);
          const expected = new Intl.DateTimeFormat(locale, { timeZone: zone, hour: '2-digit', minute: '2-digit' }).format(new Date(instant));
          const weekday = new Intl.DateTimeFormat('en-US', { timeZone: zone, weekday: 'short' }).format(new Date(instant));
          expect(pattern, `${instant} in ${zone}, ${locale}`).toEqual({ time: expected, days: [['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].indexOf(weekday) + 1] });
        }
      }
    }
  });
});
