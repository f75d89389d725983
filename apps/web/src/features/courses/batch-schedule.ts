// How a batch's weekly meetings read for a viewer: the days and times in their own time zone (a 16:00
// weekday class in Los Angeles falls Tuesday to Saturday at 05:30 in India), and in the course's zone.
// The server gives each meeting's first instant; the days and clock times come from it, in any zone.
import type { Batch } from '@mooz/contract/batches';
import { isolate } from '../../lib/bidi';
import { dateTimeFormat, viewerTimeZone } from '../../lib/intl';

interface WeeklyPattern {
  /** ISO weekdays in the zone, Monday 1 … Sunday 7, in week order. */
  days: number[];
  /** The clock time in the zone, as the locale writes it. */
  time: string;
}

const isoDays: Record<string, number> = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 };

/**
 * The batch's meetings grouped by clock time in `zone` (the viewer's own when undefined). A catalogue
 * reads hundreds of meetings on its first draw: each is read once, in one call, and each distinct clock
 * time is written in the locale once.
 */
export function weeklyPatterns(batch: Pick<Batch, 'meetings'>, locale: string, zone?: string): WeeklyPattern[] {
  const reader = dateTimeFormat('en-US', { timeZone: zone, weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  const writer = dateTimeFormat(locale, { timeZone: 'UTC', hour: '2-digit', minute: '2-digit' });
  const byClock = new Map<number, number[]>();
  for (const meeting of batch.meetings) {
    const parts = reader.formatToParts(new Date(meeting.first_starts_at));
    const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((each) => each.type === type)?.value ?? '';
    const clock = (Number(part('hour')) % 24) * 60 + Number(part('minute'));
    byClock.set(clock, [...(byClock.get(clock) ?? []), isoDays[part('weekday')] ?? 1]);
  }
  return [...byClock].map(([clock, days]) => ({
    // The clock time as the locale writes it: the same wall time, read in UTC.
    time: writer.format(Date.UTC(2026, 0, 1, Math.floor(clock / 60), clock % 60)),
    days: [...new Set(days)].sort((a, b) => a - b),
  }));
}

/** A day name in the locale; 2026-11-23 is a Monday, so ISO day d is 2026-11-22 + d. */
const dayName = (day: number, locale: string) =>
  dateTimeFormat(locale, { weekday: 'short', timeZone: 'UTC' }).format(new Date(Date.UTC(2026, 10, 22 + day)));

/**
 * Days as they read best: three or more days in a row as a range ("Tue – Sat", "Sun – Thu" across the
 * week's end), otherwise listed ("Sat, Sun").
 */
export function describeDays(days: number[], locale: string): string {
  if (days.length >= 3) {
    for (const start of days) {
      const run = days.map((_, i) => ((start - 1 + i) % 7) + 1);
      if (run.every((d) => days.includes(d))) {
        return `${dayName(run[0]!, locale)} – ${dayName(run.at(-1)!, locale)}`;
      }
    }
  }
  return days.map((d) => dayName(d, locale)).join(', ');
}

/** "Tue – Sat 05:30" (several patterns joined with " · "), each part isolated for right-to-left. */
export function describeSchedule(batch: Pick<Batch, 'meetings'>, locale: string, zone?: string): string {
  return weeklyPatterns(batch, locale, zone)
    .map((p) => isolate(`${describeDays(p.days, locale)} ${p.time}`))
    .join(' · ');
}

/** Whether the course's clocks read like the viewer's for this batch (then one schedule says it all). */
export function sameClocks(batch: Pick<Batch, 'meetings' | 'time_zone'>, locale: string, zone = viewerTimeZone()): boolean {
  return describeSchedule(batch, locale, zone) === describeSchedule(batch, locale, batch.time_zone);
}

/** Batches a student can still buy: not started, soonest first (sold-out ones stay, marked). */
export const openBatches = (batches: Batch[], kind?: Batch['kind']) => batches.filter((b) => !b.started && (!kind || b.kind === kind));

/** The distinct schedules of a course's open batches of a kind, in the viewer's zone ("Mon – Fri 09:00 · Mon – Fri 18:30"). */
export function kindSchedules(batches: Batch[], kind: Batch['kind'], locale: string): string {
  const pool = openBatches(batches, kind);
  const described = (pool.length ? pool : batches.filter((b) => b.kind === kind)).map((b) => describeSchedule(b, locale));
  return [...new Set(described)].join(' · ');
}

/** The start date of the soonest batch one can still join. */
export const nextBatchStart = (batches: Batch[]) => openBatches(batches).map((b) => b.start_date).sort()[0];

/** The batch an enrollment is in, by its kind, start date and times. */
export function batchOfEnrollment(
  batches: Batch[],
  enrollment: { batch: Batch['kind']; start_date: string; time?: string | null; saturday_time?: string | null; sunday_time?: string | null },
): Batch | undefined {
  return batches.find(
    (b) =>
      b.kind === enrollment.batch &&
      b.start_date === enrollment.start_date &&
      (b.time ?? null) === (enrollment.time ?? null) &&
      (b.saturday_time ?? null) === (enrollment.saturday_time ?? null) &&
      (b.sunday_time ?? null) === (enrollment.sunday_time ?? null),
  );
}
