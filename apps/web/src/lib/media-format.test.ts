import { describe, expect, it } from 'vitest';
import { formatBytes, formatDateTime, formatDuration } from './media-format';

describe('video lengths', () => {
  it('reads as a clock, hours only when there are some', () => {
    expect(formatDuration(0)).toBe('0:00');
    expect(formatDuration(5)).toBe('0:05');
    expect(formatDuration(65.9)).toBe('1:05');
    expect(formatDuration(12 * 60 + 34)).toBe('12:34');
    expect(formatDuration(3600 + 2 * 60 + 3)).toBe('1:02:03');
    expect(formatDuration(10 * 3600)).toBe('10:00:00');
  });

  it('shows an unknown length (a live WebM says Infinity) as zero rather than nonsense', () => {
    expect(formatDuration(Infinity)).toBe('0:00');
    expect(formatDuration(Number.NaN)).toBe('0:00');
    expect(formatDuration(-3)).toBe('0:00');
  });
});

describe('file sizes', () => {
  it('picks the unit that keeps the number readable', () => {
    expect(formatBytes(0, 'en')).toBe('0 bytes');
    expect(formatBytes(999, 'en')).toBe('999 bytes');
    expect(formatBytes(1500, 'en')).toBe('1.5 kB');
    expect(formatBytes(12_500_000, 'en')).toBe('12.5 MB');
    expect(formatBytes(2_000_000_000, 'en')).toBe('2 GB');
  });

  it('never says 1,000 of a unit', () => {
    expect(formatBytes(999_960, 'en')).toBe('1 MB');
  });

  it('writes numbers and units as the language does', () => {
    // Which space goes between (narrow no-break in French) is the platform's choice, not ours.
    const spaced = (text: string) => text.replace(/\s/g, ' ');
    expect(spaced(formatBytes(12_500_000, 'fr'))).toBe('12,5 Mo');
    expect(spaced(formatBytes(12_500_000, 'de'))).toBe('12,5 MB');
    expect(spaced(formatBytes(1500, 'pt'))).toBe('1,5 kB');
  });
});

describe('dates', () => {
  it('shows an instant in the given language, and leaves a non-date as it is', () => {
    const text = formatDateTime('2031-03-12T14:05:00Z', 'fr');
    expect(text).toMatch(/2031/);
    expect(text).toMatch(/mars/);
    expect(formatDateTime('not a date', 'en')).toBe('not a date');
  });
});
