import { describe, expect, it } from 'vitest';
import { dueInputValue, dueState, formatDue, formatTimeLeft, isoFromDueInput } from './due-date';

describe('a due date picked on the teacher’s clocks', () => {
  it('is the instant that zone names, on either side of UTC', () => {
    expect(isoFromDueInput('2026-11-30T18:00', 'UTC')).toBe('2026-11-30T18:00:00.000Z');
    expect(isoFromDueInput('2026-11-30T18:00', 'Asia/Kolkata')).toBe('2026-11-30T12:30:00.000Z');
    expect(isoFromDueInput('2026-11-30T18:00', 'America/New_York')).toBe('2026-11-30T23:00:00.000Z');
  });

  it('crosses the date line at UTC+14 and UTC−11', () => {
    // Kiritimati's 1 December 09:00 is still 30 November in UTC; Pago Pago's 30 November 20:00 is already 1 December.
    expect(isoFromDueInput('2026-12-01T09:00', 'Pacific/Kiritimati')).toBe('2026-11-30T19:00:00.000Z');
    expect(isoFromDueInput('2026-11-30T20:00', 'Pacific/Pago_Pago')).toBe('2026-12-01T07:00:00.000Z');
  });

  it('follows daylight saving: summer and winter hours, and a time the spring jump skips', () => {
    expect(isoFromDueInput('2026-07-01T12:00', 'Europe/Paris')).toBe('2026-07-01T10:00:00.000Z');
    expect(isoFromDueInput('2026-01-15T12:00', 'Europe/Paris')).toBe('2026-01-15T11:00:00.000Z');
    // 29 March 2026, 02:30 does not exist in Paris (02:00 → 03:00): it lands on a real instant around the jump.
    const skipped = isoFromDueInput('2026-03-29T02:30', 'Europe/Paris')!;
    expect(['2026-03-29T00:30:00.000Z', '2026-03-29T01:30:00.000Z']).toContain(skipped);
  });

  it('refuses what is not a date and time', () => {
    expect(isoFromDueInput('', 'UTC')).toBeNull();
    expect(isoFromDueInput('2026-02-30T10:00', 'UTC')).toBeNull();
    expect(isoFromDueInput('2026-11-30T25:00', 'UTC')).toBeNull();
    expect(isoFromDueInput('tomorrow', 'UTC')).toBeNull();
  });

  it('reads back into the same field value in the same zone', () => {
    for (const zone of ['UTC', 'Asia/Kolkata', 'Pacific/Kiritimati', 'Pacific/Pago_Pago', 'Europe/Paris']) {
      expect(dueInputValue(isoFromDueInput('2026-11-30T18:45', zone)!, zone)).toBe('2026-11-30T18:45');
    }
  });
});

describe('a due date as each viewer reads it', () => {
  const due = '2026-11-30T23:30:00.000Z';

  it('falls on the viewer’s own day and hour', () => {
    expect(formatDue(due, 'en-GB', 'UTC')).toMatch(/30 Nov 2026.*23:30/);
    expect(formatDue(due, 'en-GB', 'Asia/Kolkata')).toMatch(/1 Dec 2026.*05:00/);
    expect(formatDue(due, 'en-GB', 'Pacific/Pago_Pago')).toMatch(/30 Nov 2026.*12:30/);
    expect(formatDue(due, 'en-GB', 'Pacific/Kiritimati')).toMatch(/1 Dec 2026.*13:30/);
  });

  it('names the zone', () => {
    expect(formatDue(due, 'en-GB', 'Asia/Kolkata')).toMatch(/GMT\+5:30|IST/);
  });

  it('says how long is left, or that it is overdue', () => {
    const now = Date.parse('2026-11-27T12:00:00Z');
    expect(dueState('2026-11-30T12:00:00Z', now)).toEqual({ overdue: false, value: 3, unit: 'day' });
    expect(dueState('2026-11-28T12:00:00Z', now)).toEqual({ overdue: false, value: 24, unit: 'hour' });
    expect(dueState('2026-11-27T12:45:00Z', now)).toEqual({ overdue: false, value: 45, unit: 'minute' });
    expect(dueState('2026-11-27T12:00:00Z', now)).toEqual({ overdue: true });
    expect(dueState('2026-11-20T12:00:00Z', now)).toEqual({ overdue: true });
  });

  it('says the time left in the viewer’s language', () => {
    const left = { overdue: false as const, value: 3, unit: 'day' as const };
    expect(formatTimeLeft(left, 'en')).toBe('in 3 days');
    expect(formatTimeLeft(left, 'fr')).toBe('dans 3 jours');
    expect(formatTimeLeft(left, 'de')).toBe('in 3 Tagen');
    expect(formatTimeLeft(left, 'pt')).toBe('em 3 dias');
  });
});
