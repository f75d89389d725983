// Teachers' tools: removing a course, the students of a course, editing and cancelling a
// session, and who attended it. Request bodies and response shapes; endpoints.ts declares the calls.
import { z } from 'zod';
import { batchKind, sessionInput } from './courses';
import { limits } from './limits';
import { multiLineText, recordIdParam } from './primitives';

/** DELETE of a course: gone for good while nobody had bought it, otherwise archived. */
export const courseRemovalOutcomes = ['deleted', 'archived'] as const;
export const courseRemoval = z.object({ outcome: z.enum(courseRemovalOutcomes) });
export type CourseRemoval = z.infer<typeof courseRemoval>;

/** The batch a student bought: kind, dates, its time(s) in the course's time zone. */
export const studentBatch = z.object({
  /** Null for a subscription made before batches existed. */
  id: z.number().int().nullable(),
  kind: batchKind,
  start_date: z.string(),
  end_date: z.string(),
  /** `HH:MM`: one for weekdays; Saturday's then Sunday's for weekends. */
  times: z.array(z.string()),
  time_zone: z.string(),
});

export const courseStudent = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  batch: studentBatch,
  /** When the payment was verified. */
  paid_at: z.string().nullable(),
  /** Sessions of the student's batch (and the course's extra ones) held so far, and how many they attended. */
  attendance: z.object({ attended: z.number().int(), held: z.number().int() }),
  /** The batch's last day is before today in the course's time zone: a certificate may be awarded by hand. */
  batch_ended: z.boolean(),
  /** The student's certificate of this course, if they have one: its id and public verification page. */
  certificate: z.object({ id: z.string(), verify_url: z.string() }).nullable(),
});
export type CourseStudent = z.infer<typeof courseStudent>;

export const sessionIdParams = z.object({ id: recordIdParam() });

/** PATCH of a session: any of title, start and duration, only while it has not ended. */
export const sessionPatch = z
  .object({
    title: sessionInput.shape.title,
    starts_at: sessionInput.shape.starts_at,
    duration_minutes: sessionInput.shape.duration_minutes,
  })
  .partial()
  .strict()
  .refine((patch) => Object.keys(patch).length > 0, { message: 'Change at least one field', path: ['title'] });
export type SessionPatch = z.input<typeof sessionPatch>;

export const cancelSessionBody = z
  .object({
    reason: multiLineText()
      .trim()
      .min(1, 'Required')
      .max(limits.cancelReasonMaxLength, `Use at most ${limits.cancelReasonMaxLength} characters`),
  })
  .strict();
export type CancelSessionBody = z.input<typeof cancelSessionBody>;

export const cancelledSession = z.object({ id: z.number().int(), cancelled_at: z.string(), cancel_reason: z.string() });

/** One stint in the room: a join and its leave (null while still there). A leave-and-return is two. */
export const attendanceVisit = z.object({ joined_at: z.string(), left_at: z.string().nullable() });

export const attendee = z.object({
  user_id: z.number().int(),
  name: z.string(),
  email: z.string(),
  first_joined_at: z.string(),
  /** Null while a visit is still open (the last visit is closed at the session's end for the minutes). */
  last_left_at: z.string().nullable(),
  /** Time present within the session (so far, while it runs), overlapping visits (two tabs) counted once, whole minutes. */
  minutes_present: z.number().int(),
  /** In the room now (a visit is open; the room opens a few minutes before the start); always false once the session has ended. */
  here: z.boolean(),
  /** Every stint, oldest first. */
  visits: z.array(attendanceVisit),
});

/**
 * Who is attending or attended a session: served while it runs (live: the People tab polls it) and
 * after it ended. The teacher's own presence is not attendance of their class.
 */
export const sessionAttendance = z.object({
  session_id: z.number().int(),
  /** The session is under way: minutes count up to now and `here` says who is in the room. */
  live: z.boolean(),
  attended: z.array(attendee),
  /** The session's students (its batch's, or the course's for an extra session) who never came (so far). */
  absent: z.array(z.object({ user_id: z.number().int(), name: z.string(), email: z.string() })),
});
export type SessionAttendance = z.infer<typeof sessionAttendance>;
