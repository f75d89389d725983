// The course and my-course objects of the contract, built in exactly one place.
import type { Batch } from '@mooz/contract/batches';
import type { Course, Enrollment, MyCourse } from '@mooz/contract/courses';
import type { courses, subscriptions } from '../../db/schema/index';
import { presentBatch, zonedInstant } from '../batches';
import type { BatchRow } from '../batches';
import { fullName, type PersonName } from '../../db/person-name';

export type CourseRow = typeof courses.$inferSelect;
export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type TeacherName = PersonName;

/** A course with its batches (soonest first), as seen at `now`. */
export function presentCourse(row: CourseRow, teacher: TeacherName, enrolled: boolean, batches: BatchRow[], now: Date): Course {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    price: row.price,
    currency: row.currency,
    teacher: { id: row.teacherId, name: fullName(teacher) },
    skills: row.skills,
    duration_weeks: row.durationWeeks,
    batch_start_dates: row.batchStartDates,
    weekday_times: row.weekdayTimes,
    weekend_times: row.weekendTimes,
    image_url: row.imageUrl,
    published: row.published,
    ...(row.archivedAt && { archived_at: row.archivedAt.toISOString() }),
    enrolled,
    time_zone: row.timeZone,
    batches: batches.map((b) => presentBatch(b, row.timeZone, now)),
  };
}

/** The instant a presented batch counts as started from (presentBatch's rule: its first meeting, else its first day's midnight). */
export function firstStartOf(batch: Batch): Date {
  return batch.meetings[0] ? new Date(batch.meetings[0].first_starts_at) : zonedInstant(batch.start_date, '00:00', batch.time_zone);
}

function presentEnrollment(row: SubscriptionRow): Enrollment {
  return row.batch === 'weekdays'
    ? { batch: row.batch, start_date: row.startDate, end_date: row.endDate, time: row.time }
    : {
        batch: row.batch,
        start_date: row.startDate,
        end_date: row.endDate,
        saturday_time: row.saturdayTime,
        sunday_time: row.sundayTime,
      };
}

export function presentMyCourse(
  row: CourseRow,
  teacher: TeacherName,
  subscription: SubscriptionRow | null,
  batches: BatchRow[],
  now: Date,
): MyCourse {
  return {
    ...presentCourse(row, teacher, subscription !== null, batches, now),
    enrollment: subscription ? presentEnrollment(subscription) : null,
  };
}
