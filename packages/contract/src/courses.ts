// Courses and class sessions: request bodies and response shapes of /api/courses/* and
// /api/classes/sessions/.
import { z } from 'zod';
import { limits } from './limits';
import { batch, timeZoneName } from './batches';
import { batchKind, clockTime, isoDate, multiLineText, recordId, recordIdParam, singleLineText } from './primitives';

export { batchKind, batchKinds, clockTime, isoDate, type BatchKind } from './primitives';

export const course = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  /** Minor units (paise). */
  price: z.number().int(),
  currency: z.string(),
  teacher: z.object({ id: z.number().int(), name: z.string() }),
  skills: z.array(z.string()),
  duration_weeks: z.number().int(),
  batch_start_dates: z.array(z.string()),
  weekday_times: z.array(z.string()),
  weekend_times: z.array(z.string()),
  image_url: z.string().nullable().optional(),
  published: z.boolean(),
  /** Set once a bought course was removed: out of the catalogue, kept for its students. Absent otherwise. */
  archived_at: z.string().optional(),
  /** Whether the caller has bought this course. */
  enrolled: z.boolean(),
  /** The IANA zone its batch dates and times are in. */
  time_zone: z.string(),
  /** Its batches, soonest first: what `batch_start_dates` and the time lists summarise. */
  batches: z.array(batch),
});
export type Course = z.infer<typeof course>;

export const enrollment = z.object({
  batch: batchKind,
  start_date: z.string(),
  end_date: z.string(),
  time: z.string().nullable().optional(),
  saturday_time: z.string().nullable().optional(),
  sunday_time: z.string().nullable().optional(),
});
export type Enrollment = z.infer<typeof enrollment>;

/** A course in "my courses": the student's enrollment, or null for the courses a teacher teaches. */
export const myCourse = course.extend({ enrollment: enrollment.nullable() });
export type MyCourse = z.infer<typeof myCourse>;

const uniqueList = <T extends z.ZodType<string>>(item: T, max: number, field: string) =>
  z
    .array(item)
    .max(max, `Use at most ${max} ${field}`)
    .refine((list) => new Set(list).size === list.length, `Remove the repeated ${field}`);

const courseFields = z.object({
  name: singleLineText().trim().min(1, 'Required').max(limits.courseNameMaxLength, `Use at most ${limits.courseNameMaxLength} characters`),
  description: multiLineText()
    .trim()
    .min(1, 'Required')
    .max(limits.courseDescriptionMaxLength, `Use at most ${limits.courseDescriptionMaxLength} characters`),
  /** Minor units (paise). */
  price: z
    .number()
    .int('Use whole minor units (paise)')
    .min(limits.coursePriceMin, `At least ${(limits.coursePriceMin / 100).toFixed(2)}`)
    .max(limits.coursePriceMax, 'Too large'),
  currency: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{3}$/, 'Use a 3-letter currency code')
    .default('INR'),
  skills: uniqueList(
    singleLineText().trim().min(1, 'Required').max(limits.courseSkillMaxLength, `Use at most ${limits.courseSkillMaxLength} characters`),
    limits.courseSkillsMax,
    'skills',
  ).default([]),
  duration_weeks: z
    .number()
    .int('Use whole weeks')
    .min(limits.courseMinWeeks, `At least ${limits.courseMinWeeks} week`)
    .max(limits.courseMaxWeeks, `At most ${limits.courseMaxWeeks} weeks`),
  batch_start_dates: uniqueList(isoDate, 52, 'dates').min(1, 'Add at least one batch start date'),
  weekday_times: uniqueList(clockTime, 12, 'times').default([]),
  weekend_times: uniqueList(clockTime, 12, 'times').default([]),
  image_url: z.url('Enter a valid URL').max(2048).nullable().optional(),
  published: z.boolean().default(true),
  /** The IANA zone its batch dates and times are in (default Asia/Kolkata). */
  time_zone: timeZoneName.optional(),
  /** Admins may create a course for a teacher; a teacher's courses are always their own. */
  teacher_id: recordId().optional(),
});

const needsSomeTime = (body: { weekday_times?: string[]; weekend_times?: string[] }) =>
  body.weekday_times === undefined ||
  body.weekend_times === undefined ||
  body.weekday_times.length + body.weekend_times.length > 0;

const atLeastOneTime = (list: 'weekday_times' | 'weekend_times') => ({ required: [list], properties: { [list]: { minItems: 1 } } });

export const courseInput = courseFields
  .refine(needsSomeTime, { path: ['weekday_times'], message: 'Add at least one weekday or weekend time' })
  // The refinement in JSON Schema words, so the OpenAPI document states the same rule.
  .meta({ anyOf: [atLeastOneTime('weekday_times'), atLeastOneTime('weekend_times')] });
export type CourseInput = z.input<typeof courseInput>;

/** PATCH: any subset of the fields; the result must still offer at least one time (checked on the server). */
export const coursePatch = z
  .object({
    name: courseFields.shape.name,
    description: courseFields.shape.description,
    price: courseFields.shape.price,
    currency: courseFields.shape.currency.removeDefault(),
    skills: courseFields.shape.skills.removeDefault(),
    duration_weeks: courseFields.shape.duration_weeks,
    batch_start_dates: courseFields.shape.batch_start_dates,
    weekday_times: courseFields.shape.weekday_times.removeDefault(),
    weekend_times: courseFields.shape.weekend_times.removeDefault(),
    image_url: courseFields.shape.image_url,
    published: courseFields.shape.published.removeDefault(),
    time_zone: courseFields.shape.time_zone,
  })
  .partial()
  .strict();
export type CoursePatch = z.infer<typeof coursePatch>;

export const courseIdParams = z.object({ id: recordIdParam() });

/** The last day of a batch: start + duration_weeks·7 − 1 days. */
export function batchEndDate(startDate: string, durationWeeks: number): string {
  const start = new Date(`${startDate}T00:00:00Z`);
  start.setUTCDate(start.getUTCDate() + durationWeeks * 7 - 1);
  return start.toISOString().slice(0, 10);
}

export const sessionStatuses = ['scheduled', 'live', 'ended'] as const;

export const session = z.object({
  id: z.number().int(),
  course_id: z.number().int(),
  course_name: z.string(),
  /** The batch whose timetable it belongs to; null for a course's open session (all its students). */
  batch_id: z.number().int().nullable(),
  title: z.string(),
  starts_at: z.string(),
  ends_at: z.string(),
  room_id: z.string(),
  status: z.enum(sessionStatuses),
  teacher_name: z.string(),
  capacity: z.number().int(),
  can_join: z.boolean(),
});
export type Session = z.infer<typeof session>;

export const sessionInput = z.object({
  course_id: recordId(),
  title: singleLineText().trim().min(1, 'Required').max(200, 'Use at most 200 characters'),
  starts_at: z.iso.datetime({ offset: true, message: 'Use an ISO 8601 date and time' }),
  duration_minutes: z
    .number()
    .int('Use whole minutes')
    .min(limits.sessionMinMinutes, `At least ${limits.sessionMinMinutes} minutes`)
    .max(limits.sessionMaxMinutes, `At most ${limits.sessionMaxMinutes} minutes`),
  capacity: z
    .number()
    .int()
    .min(limits.meetingMinCapacity, `At least ${limits.meetingMinCapacity}`)
    .max(limits.meetingMaxCapacity, `At most ${limits.meetingMaxCapacity}`)
    .default(limits.defaultMeetingCapacity),
});
export type SessionInput = z.input<typeof sessionInput>;
