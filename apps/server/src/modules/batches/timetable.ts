// A batch's timetable: which days it meets, and the instants of its sessions. Dates and clock times
// are the course's own, in the course's time zone; the instants are UTC, found by asking the runtime's
// time-zone database (Intl) for the zone's offset, so daylight-saving changes fall where they should.
import { batchDays } from '@mooz/contract/batches';
import type { BatchKind } from '@mooz/contract/courses';
import { zoneOffsetMs } from '../../infrastructure/wall-clock';

const DAY_MS = 86_400_000;

const toUtcDay = (date: string) => Date.parse(`${date}T00:00:00Z`);
const fromUtcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export const addDays = (date: string, days: number) => fromUtcDay(toUtcDay(date) + days * DAY_MS);

/** ISO weekday of a calendar date: Monday 1 … Sunday 7. */
export const isoWeekday = (date: string) => ((new Date(toUtcDay(date)).getUTCDay() + 6) % 7) + 1;

/** The weekday a batch of this kind starts on: Monday for weekdays, Saturday for weekends. */
const firstDayOf = (kind: BatchKind) => batchDays[kind][0];

/** The first day on or after `date` that a batch of this kind may start on. */
export function batchStartOnOrAfter(kind: BatchKind, date: string): string {
  return addDays(date, (firstDayOf(kind) - isoWeekday(date) + 7) % 7);
}

/**
 * The instant the zone's clocks show `date` `time`. A time skipped by a daylight-saving jump (02:30
 * on the night clocks go forward) is taken as the same time after the jump, an hour later in UTC.
 */
export function zonedInstant(date: string, time: string, zone: string): Date {
  const [hours, minutes] = time.split(':').map(Number) as [number, number];
  const wall = toUtcDay(date) + (hours * 60 + minutes) * 60_000;
  // The offsets in force a day either side: the same, or the two around a daylight-saving change.
  const candidates = [...new Set([wall - zoneOffsetMs(zone, wall - DAY_MS), wall - zoneOffsetMs(zone, wall + DAY_MS)])];
  const showing = candidates.filter((at) => at + zoneOffsetMs(zone, at) === wall);
  // A time that happens twice (clocks going back) is its first occurrence; one that never happens
  // (clocks going forward) is read with the offset from before the jump, which lands after it.
  return new Date(showing.length ? Math.min(...showing) : Math.max(...candidates));
}

export interface BatchTimes {
  kind: BatchKind;
  startDate: string;
  endDate: string;
  time: string | null;
  saturdayTime: string | null;
  sundayTime: string | null;
}

/** The clock time a batch meets on an ISO weekday, or null when it does not meet that day. */
function meetingTime(batch: Omit<BatchTimes, 'startDate' | 'endDate'>, weekday: number): string | null {
  if (batch.kind === 'weekdays') return weekday <= 5 ? batch.time : null;
  if (weekday === 6) return batch.saturdayTime;
  if (weekday === 7) return batch.sundayTime;
  return null;
}

interface Occurrence {
  date: string;
  weekday: number;
  time: string;
  startsAt: Date;
}

/** Every meeting of the batch from its start date to its end date, in order. */
export function batchOccurrences(batch: BatchTimes, zone: string): Occurrence[] {
  const occurrences: Occurrence[] = [];
  for (let date = batch.startDate; date <= batch.endDate; date = addDays(date, 1)) {
    const weekday = isoWeekday(date);
    const time = meetingTime(batch, weekday);
    if (time) occurrences.push({ date, weekday, time, startsAt: zonedInstant(date, time, zone) });
  }
  return occurrences;
}

/** Each weekday the batch meets, with its time and first occurrence. */
export function weeklyMeetings(batch: BatchTimes, zone: string) {
  const firstWeek = batchOccurrences({ ...batch, endDate: addDays(batch.startDate, 6) < batch.endDate ? addDays(batch.startDate, 6) : batch.endDate }, zone);
  return firstWeek.map((o) => ({ weekday: o.weekday, time: o.time, first_starts_at: o.startsAt.toISOString() }));
}
