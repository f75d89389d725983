// How lengths of video and sizes of files read: "1:02:03" and "12.5 MB" in the user's language (a
// French reader gets "12,5 Mo"). Each result is isolated for right-to-left layouts (lib/bidi.ts).
import { isolate } from './bidi';
import { dateTimeFormat, numberFormat } from './intl';

/** A length in seconds as a clock: "0:05", "12:34", "1:02:03". Unknown or negative lengths are "0:00". */
export function formatDuration(seconds: number): string {
  const whole = Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds) : 0;
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const secs = whole % 60;
  const two = (n: number) => String(n).padStart(2, '0');
  return isolate(hours > 0 ? `${hours}:${two(minutes)}:${two(secs)}` : `${minutes}:${two(secs)}`);
}

const units = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte'] as const;

/**
 * A size in bytes with the largest decimal unit that keeps it at 1 or more (kB, MB and GB are powers
 * of 1000, as the unit names say), one decimal past the unit, none for bytes (spelled out: "500 bytes").
 */
export function formatBytes(bytes: number, locale: string): string {
  const size = Number.isFinite(bytes) && bytes > 0 ? bytes : 0;
  let unit = 0;
  let value = size;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  // 999.96 kB rounds to "1,000 kB": say "1 MB" instead.
  if (unit > 0 && unit < units.length - 1 && Math.round(value * 10) / 10 >= 1000) {
    value /= 1000;
    unit++;
  }
  const format = (lng: string | undefined) =>
    numberFormat(lng, { style: 'unit', unit: units[unit], unitDisplay: unit === 0 ? 'long' : 'short', maximumFractionDigits: unit === 0 ? 0 : 1 }).format(value);
  try {
    return isolate(format(locale));
  } catch {
    return isolate(format(undefined));
  }
}

/** An instant as a date and clock time in the viewer's own time zone ("12 Mar 2031, 14:05"), optionally naming the zone. */
export function formatDateTime(iso: string, locale: string, withZone = false): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const options: Intl.DateTimeFormatOptions = withZone
    ? { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', timeZoneName: 'short' }
    : { dateStyle: 'medium', timeStyle: 'short' };
  try {
    return isolate(dateTimeFormat(locale, options).format(at));
  } catch {
    return isolate(dateTimeFormat(undefined, options).format(at));
  }
}
