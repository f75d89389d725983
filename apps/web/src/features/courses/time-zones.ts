// A course's dates and clock times are wall-clock times in the course's own IANA zone. These turn
// such a time into the instant it names and say it again in the viewer's zone, and list the zones a
// teacher may choose from.
import { limits } from '@mooz/contract/limits';
import { isolate } from '../../lib/bidi';
import { dateTimeFormat, viewerTimeZone } from '../../lib/intl';

/**
 * The zones to choose from: the runtime's list, plus the ones it may leave out under another name
 * (Chromium lists "Asia/Calcutta", not the "Asia/Kolkata" the contract defaults to, and no "UTC").
 */
export function timeZoneChoices(...wanted: (string | undefined)[]): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  const extra = [...wanted, limits.defaultCourseTimeZone, viewerTimeZone(), 'UTC'].filter((zone): zone is string =>
    Boolean(zone),
  );
  return [...new Set([...known, ...extra])].sort();
}

/** Minutes the zone's clocks are ahead of UTC at that instant, read from its "GMT+05:30" name. */
export function zoneOffsetMinutes(zone: string, at: Date): number {
  const name =
    dateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' })
      .formatToParts(at)
      .find((part) => part.type === 'timeZoneName')?.value ?? 'GMT';
  const match = /GMT([+-])(\d{2}):?(\d{2})?/.exec(name);
  if (!match) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3] ?? 0);
  return match[1] === '-' ? -minutes : minutes;
}

/**
 * The instant a zone's clocks show `date` `time`. The offset is read twice: once at the wall time
 * taken as UTC, then at the first guess, which settles on the right side of a daylight-saving change.
 */
export function instantInZone(date: string, time: string, zone: string): Date {
  const wall = Date.parse(`${date}T${time}:00Z`);
  const guess = wall - zoneOffsetMinutes(zone, new Date(wall)) * 60_000;
  return new Date(wall - zoneOffsetMinutes(zone, new Date(guess)) * 60_000);
}

/** Today's date (YYYY-MM-DD) on the zone's clocks. */
export function todayInZone(zone: string, now = new Date()): string {
  return dateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    now,
  );
}

/** A clock time as the user writes it, in a zone, e.g. "14:30" or "2:30 PM". */
function clockIn(at: Date, locale: string, zone: string, withZoneName = false): string {
  return isolate(
    dateTimeFormat(locale, {
      hour: '2-digit',
      minute: '2-digit',
      timeZone: zone,
      ...(withZoneName && { timeZoneName: 'short' }),
    }).format(at),
  );
}

/**
 * A course clock time, and the same moment on the viewer's clock when their zone differs that day:
 * `{ course: "09:00", viewer: "04:30 CET" }`, or `viewer: null` when the two clocks agree.
 */
export function courseTimeForViewer(
  time: string,
  courseZone: string,
  locale: string,
  onDate: string,
  viewer = viewerTimeZone(),
) {
  const at = instantInZone(onDate, time, courseZone);
  // The wall time itself, written as the user writes times (read as UTC so no zone moves it).
  const course = clockIn(new Date(`1970-01-01T${time}:00Z`), locale, 'UTC');
  const same = zoneOffsetMinutes(courseZone, at) === zoneOffsetMinutes(viewer, at);
  return { course, viewer: same ? null : clockIn(at, locale, viewer, true) };
}
