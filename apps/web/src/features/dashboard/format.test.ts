import { describe, expect, it } from 'vitest';
import { absoluteUrl, assignmentsPath, formatCount, formatDay, formatHours, formatPercent, inUnit, trendUnit } from './format';

// Intl separates with narrow and no-break spaces (fr "3,5\u202fh"): compared as plain spaces.
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

describe('dashboard figures', () => {
  it('round hours for reading: minutes under an hour, one decimal under a hundred, whole hours beyond', () => {
    expect(formatHours(0, 'en')).toBe('0 hr');
    expect(formatHours(3 / 3600, 'en')).toBe('< 1 min');
    expect(formatHours(0.4, 'en')).toBe('24 min');
    expect(formatHours(0.999, 'en')).toBe('1 hr');
    expect(formatHours(3.46, 'en')).toBe('3.5 hr');
    expect(formatHours(1234.5, 'en')).toBe('1,235 hr');
  });

  it('in the reader language', () => {
    expect(plain(formatHours(3.46, 'fr'))).toBe('3,5 h');
    expect(plain(formatHours(3.46, 'de'))).toBe('3,5 Std.');
    expect(plain(formatHours(0.4, 'de'))).toBe('24 Min.');
    expect(plain(formatHours(1234.5, 'pt'))).toBe('1.235 h');
    expect(plain(formatCount(12345, 'de'))).toBe('12.345');
    expect(plain(formatPercent(75, 'fr'))).toBe('75 %');
  });

  it('never shows a negative, NaN or infinite time', () => {
    expect(formatHours(-2, 'en')).toBe('0 hr');
    expect(formatHours(Number.NaN, 'en')).toBe('0 hr');
    expect(formatHours(Number.POSITIVE_INFINITY, 'en')).toBe('0 hr');
    expect(formatPercent(140, 'en')).toBe('100%');
    expect(formatPercent(-5, 'en')).toBe('0%');
  });

  it("picks the chart's unit from the week: minutes while no day reaches an hour", () => {
    const quiet = [{ hours: 0 }, { hours: 0.25 }, { hours: 0.01 }];
    expect(trendUnit(quiet)).toBe('minute');
    expect(quiet.map((day) => inUnit(day.hours, 'minute'))).toEqual([0, 15, 0.6]);
    expect(trendUnit([...quiet, { hours: 1.26 }])).toBe('hour');
    expect(inUnit(1.26, 'hour')).toBe(1.3);
    expect(inUnit(-1, 'hour')).toBe(0);
  });

  it("reads a trend's calendar day as that day, whatever the browser's zone", () => {
    expect(formatDay('2026-11-23', 'en', 'short')).toBe('Mon');
    expect(formatDay('2026-11-23', 'fr', 'long')).toBe('lundi 23 novembre');
    expect(formatDay('not a date', 'en', 'short')).toBe('not a date');
  });

  it('links to the course page assignments tab, and makes server paths absolute', () => {
    expect(assignmentsPath(12)).toBe('/courses/12?tab=assignments');
    expect(absoluteUrl('/certificates/ABC', 'https://mooz.example')).toBe('https://mooz.example/certificates/ABC');
    expect(absoluteUrl('https://cdn.example/x.pdf', 'https://mooz.example')).toBe('https://cdn.example/x.pdf');
  });
});
