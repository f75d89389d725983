import { describe, expect, it } from 'vitest';
import { dateTimeFormat, numberFormat, viewerTimeZone } from './intl';

describe("Intl's formatters", () => {
  it('are made once for each locale and set of options, and format as Intl does', () => {
    const options = { dateStyle: 'medium', timeZone: 'UTC' } as const;
    expect(dateTimeFormat('fr', options)).toBe(dateTimeFormat('fr', { ...options }));
    expect(dateTimeFormat('fr', options)).not.toBe(dateTimeFormat('de', options));
    expect(dateTimeFormat('fr', options)).not.toBe(dateTimeFormat('fr', { ...options, timeZone: 'Asia/Kolkata' }));
    const at = new Date(Date.UTC(2026, 10, 28, 21, 30));
    expect(dateTimeFormat('fr', options).format(at)).toBe(new Intl.DateTimeFormat('fr', options).format(at));
    expect(numberFormat('de', { style: 'currency', currency: 'EUR' })).toBe(numberFormat('de', { style: 'currency', currency: 'EUR' }));
    expect(numberFormat('de', { style: 'currency', currency: 'EUR' }).format(1234.5)).toBe(
      new Intl.NumberFormat('de', { style: 'currency', currency: 'EUR' }).format(1234.5),
    );
  });

  it('throw each time for what Intl refuses, and keep nothing of it', () => {
    expect(() => dateTimeFormat('en', { timeZone: 'Mars/Olympus' })).toThrow(RangeError);
    expect(() => dateTimeFormat('en', { timeZone: 'Mars/Olympus' })).toThrow(RangeError);
    expect(() => numberFormat('en', { style: 'currency', currency: '€€' })).toThrow(RangeError);
  });

  it("name the viewer's time zone", () => {
    expect(viewerTimeZone()).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC');
  });
});
