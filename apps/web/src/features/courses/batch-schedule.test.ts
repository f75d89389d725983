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
});
