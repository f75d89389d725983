// Batches: one run of a course for a kind of week, with its seats and its own sessions. Weekday
// batches start on a Monday and meet Monday to Friday at `time`; weekend batches start on a Saturday
// and meet on Saturday at `saturday_time` and Sunday at `sunday_time`; all in the course's time zone.
import { z } from 'zod';
import { batchKind, clockTime, isoDate, recordIdParam } from './primitives';
import { limits } from './limits';

/** ISO weekday numbers: Monday 1 … Sunday 7. */
export const batchDays = { weekdays: [1, 2, 3, 4, 5], weekends: [6, 7] } as const;

/** One weekly meeting of a batch, and the instant of its first occurrence, so a viewer anywhere can name the day and time in their own zone. */
export const batchMeeting = z.object({
  /** ISO weekday in the course's time zone: Monday 1 … Sunday 7. */
  weekday: z.number().int().min(1).max(7),
  time: z.string(),
  first_starts_at: z.string(),
});

export const batch = z.object({
  id: z.number().int(),
  course_id: z.number().int(),
  kind: batchKind,
  start_date: z.string(),
  end_date: z.string(),
  time: z.string().nullable(),
  saturday_time: z.string().nullable(),
  sunday_time: z.string().nullable(),
  /** The IANA zone the dates and times are in (the course's). */
  time_zone: z.string(),
  session_minutes: z.number().int(),
  capacity: z.number().int(),
  seats_left: z.number().int(),
  sold_out: z.boolean(),
  /** Its first session has started: it can no longer be bought. */
  started: z.boolean(),
  meetings: z.array(batchMeeting),
});
export type Batch = z.infer<typeof batch>;

const seats = z
  .number()
  .int('Use a whole number of seats')
  .min(1, 'At least 1 seat')
  .max(limits.batchSeatsMax, `At most ${limits.batchSeatsMax} seats`);

const sessionMinutes = z
  .number()
  .int('Use whole minutes')
  .min(limits.sessionMinMinutes, `At least ${limits.sessionMinMinutes} minutes`)
  .max(limits.sessionMaxMinutes, `At most ${limits.sessionMaxMinutes} minutes`);

/** A new batch; its start day (Monday or Saturday) and its times are checked on the server, field by field. */
export const batchInput = z.object({
  kind: batchKind,
  start_date: isoDate,
  time: clockTime.optional(),
  saturday_time: clockTime.optional(),
  sunday_time: clockTime.optional(),
  capacity: seats.default(limits.defaultBatchSeats),
  session_minutes: sessionMinutes.default(limits.defaultBatchSessionMinutes),
});
export type BatchInput = z.input<typeof batchInput>;

/** Seats can grow, or shrink down to the seats already sold. */
export const batchPatch = z.object({ capacity: seats }).strict();

export const batchParams = z.object({ id: recordIdParam(), batchId: recordIdParam() });

/** A time zone name the runtime knows (IANA), e.g. `Asia/Kolkata`. */
export const timeZoneName = z
  .string()
  .trim()
  .min(1, 'Required')
  .max(64)
  .refine((zone) => {
    try {
      new Intl.DateTimeFormat('en', { timeZone: zone });
      return true;
    } catch {
      return false;
    }
  }, 'Use a time zone name such as Asia/Kolkata')
  .meta({ examples: ['Asia/Kolkata', 'UTC', 'America/Los_Angeles', 'Europe/Berlin', 'Australia/Adelaide'] });
