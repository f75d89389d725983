// An assignment's due date is an instant (ISO 8601). The teacher picks it as a wall-clock date and time
// in their own zone; every viewer reads it in theirs, with how long is left ("in 3 days") or that it
// has passed. The zone is a parameter so the conversions can be pinned for any zone.
import { isolate } from '../../lib/bidi';
import { dateTimeFormat, viewerTimeZone } from '../../lib/intl';

/** Minutes the zone's clocks are ahead of UTC at `at` (from its "GMT+05:30" name). */
function offsetMinutes(zone: string, at: number): number {
  const name =
    dateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' })
      .formatToParts(new Date(at))
      .find((part) => part.type === 'timeZoneName')?.value ?? 'GMT';
  const match = /GMT([+-])(\d{2}):?(\d{2})?/.exec(name);
  if (!match) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3] ?? 0);
  return match[1] === '-' ? -minutes : minutes;
}

const localPattern = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

/**
 * A datetime-local value (`YYYY-MM-DDTHH:MM`) on `zone`'s clocks as an ISO instant, or null when it is
 * not one. A time skipped by a daylight-saving jump lands just after the jump (as the clocks would).
 */
export function isoFromDueInput(value: string, zone: string = viewerTimeZone()): string | null {
  const match = localPattern.exec(value);
  if (!match) return null;
  const [, y, mo, d, h, mi] = match.map(Number) as [number, number, number, number, number, number];
  const wall = Date.UTC(y, mo - 1, d, h, mi);
  const check = new Date(wall);
  if (check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d || h > 23 || mi > 59) return null;
  // The offset read twice: at the wall time taken as UTC, then at the first guess (settles across a change).
  const guess = wall - offsetMinutes(zone, wall) * 60_000;
  return new Date(wall - offsetMinutes(zone, guess) * 60_000).toISOString();
}

/** An instant as a datetime-local value on `zone`'s clocks (to edit a due date). */
export function dueInputValue(iso: string, zone: string = viewerTimeZone()): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '';
  const parts = Object.fromEntries(
    dateTimeFormat('en-CA', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(at)
      .map((part) => [part.type, part.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
}

/** The due date as the viewer writes dates, with the zone named ("Mon, 30 Nov 2026, 18:00 GMT+1"). */
export function formatDue(iso: string, locale: string, zone: string = viewerTimeZone()): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  return isolate(
    dateTimeFormat(locale, {
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      timeZone: zone,
      timeZoneName: 'short',
    }).format(at),
  );
}

/** An instant (submission, review) in the viewer's zone, short. */
export function formatMoment(iso: string, locale: string, zone: string = viewerTimeZone()): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  return isolate(
    dateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: zone }).format(at),
  );
}

type DueState = { overdue: true } | { overdue: false; value: number; unit: 'minute' | 'hour' | 'day' };

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** How long is left: whole days from two days on, whole hours from two hours on, else minutes. */
export function dueState(iso: string, now: number = Date.now()): DueState {
  const left = Date.parse(iso) - now;
  if (!(left > 0)) return { overdue: true };
  if (left >= 2 * DAY) return { overdue: false, value: Math.floor(left / DAY), unit: 'day' };
  if (left >= 2 * HOUR) return { overdue: false, value: Math.floor(left / HOUR), unit: 'hour' };
  return { overdue: false, value: Math.max(1, Math.floor(left / MINUTE)), unit: 'minute' };
}

/** "in 3 days", "dans 3 jours", "in 3 Tagen": the time left in the viewer's language. */
export function formatTimeLeft(state: Extract<DueState, { overdue: false }>, locale: string): string {
  return isolate(new Intl.RelativeTimeFormat(locale, { numeric: 'always' }).format(state.value, state.unit));
}
