// How money, dates and clock times read in the user's language and time zone. Course clock times are
// UTC (contract: times are UTC), so a batch's "09:00" is shown as the local time it falls on.
// Each result is isolated for right-to-left layouts (lib/bidi.ts), so "03:00 PM" never reads "PM 03:00".
import { isolate } from './bidi';
import { dateTimeFormat, numberFormat } from './intl';

export function formatPrice(minor: number, currency: string, locale: string): string {
  try {
    return isolate(numberFormat(locale, { style: 'currency', currency }).format(minor / 100));
  } catch {
    return `${(minor / 100).toFixed(2)} ${currency}`;
  }
}

/** A calendar date (YYYY-MM-DD) as the user writes dates; a date has no time zone. */
export function formatDate(date: string, locale: string, style: 'medium' | 'long' = 'medium'): string {
  const day = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(day.getTime())) return date;
  return isolate(dateTimeFormat(locale, { dateStyle: style, timeZone: 'UTC' }).format(day));
}

/** Today as YYYY-MM-DD in UTC, the day the server compares batch start dates with. */
export const todayUtc = () => new Date().toISOString().slice(0, 10);
