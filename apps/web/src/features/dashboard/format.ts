// How the dashboards' figures read: the API's hours are fractional and unrounded (contract), so
// rounding happens here, in the user's language (Intl), each result isolated for right-to-left pages.
import { isolate } from '../../lib/bidi';
import { dateTimeFormat, numberFormat } from '../../lib/intl';

const unit = (locale: string, name: 'hour' | 'minute', digits: number) =>
  numberFormat(locale, { style: 'unit', unit: name, unitDisplay: 'short', maximumFractionDigits: digits });

/**
 * A duration given in hours: under an hour in whole minutes ("24 min", "< 1 min" for a few seconds),
 * under a hundred hours with one decimal ("3.5 hr", "3,5 Std."), beyond that in whole hours.
 */
export function formatHours(hours: number, locale: string): string {
  const safe = Number.isFinite(hours) && hours > 0 ? hours : 0;
  if (safe === 0) return isolate(unit(locale, 'hour', 0).format(0));
  const minutes = safe * 60;
  if (minutes < 1) return isolate(`< ${unit(locale, 'minute', 0).format(1)}`);
  if (minutes < 59.5) return isolate(unit(locale, 'minute', 0).format(Math.round(minutes)));
  return isolate(unit(locale, 'hour', safe < 100 ? 1 : 0).format(safe));
}

/** A count ("1,234", "1 234"). */
export const formatCount = (value: number, locale: string) => isolate(numberFormat(locale).format(value));

/** A share of 0-100 for a ring or a bar ("75 %" in French). */
export const formatPercent = (value: number, locale: string) =>
  isolate(numberFormat(locale, { style: 'percent', maximumFractionDigits: 0 }).format(Math.max(0, Math.min(100, value)) / 100));

/** The chart's unit for a week: minutes while no day reaches an hour (a bar of 0.2 h reads badly), hours beyond. */
export function trendUnit(days: { hours: number }[]): 'minute' | 'hour' {
  return days.some((day) => day.hours >= 1) ? 'hour' : 'minute';
}

/** A day's value in the chart's unit, rounded for the axis and tooltip (one decimal). */
export function inUnit(hours: number, chartUnit: 'minute' | 'hour'): number {
  const value = chartUnit === 'minute' ? hours * 60 : hours;
  return Math.round(Math.max(0, value) * 10) / 10;
}

/** A value already in the chart's unit, as text ("12 min", "1.5 hr", "0.05 min" on a quiet axis). */
export const formatInUnit = (value: number, chartUnit: 'minute' | 'hour', locale: string) => isolate(unit(locale, chartUnit, 2).format(value));

/** A trend's day (YYYY-MM-DD, a calendar date in the server's cut) as a short weekday, and in full for the table. */
export function formatDay(date: string, locale: string, style: 'short' | 'long'): string {
  const day = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(day.getTime())) return date;
  const options: Intl.DateTimeFormatOptions =
    style === 'short' ? { weekday: 'short', timeZone: 'UTC' } : { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' };
  return dateTimeFormat(locale, options).format(day);
}

/** A moment (an ISO instant) in the user's zone: "Mon 24 Nov, 14:30". */
export function formatMoment(iso: string, locale: string, timeZone?: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  return isolate(
    dateTimeFormat(locale, { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', timeZone }).format(at),
  );
}

/** Where a student or a teacher finds a course's assignments (the course page's tab). */
export const assignmentsPath = (courseId: number) => `/courses/${courseId}?tab=assignments`;

/** A link the server gives as a path, made absolute for sharing (verify_url) or for the API host (url). */
export function absoluteUrl(link: string, origin: string): string {
  try {
    return new URL(link, origin).href;
  } catch {
    return link;
  }
}
