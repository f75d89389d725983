// The course and my-course objects of the contract, built in exactly one place.
import type { Course, Enrollment, MyCourse } from '@mooz/contract/courses';
import type { courses, subscriptions } from '../../db/schema/index';

export type CourseRow = typeof courses.$inferSelect;
export type SubscriptionRow = typeof subscriptions.$inferSelect;
export interface TeacherName {
  firstName: string;
  lastName: string;
}

export const fullName = (person: TeacherName) => `${person.firstName} ${person.lastName}`.trim();

export function presentCourse(row: CourseRow, teacher: TeacherName, enrolled: boolean): Course {
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
    enrolled,
  };
}

export function presentEnrollment(row: SubscriptionRow): Enrollment {
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

export function presentMyCourse(row: CourseRow, teacher: TeacherName, subscription: SubscriptionRow | null): MyCourse {
  return {
    ...presentCourse(row, teacher, subscription !== null),
    enrollment: subscription ? presentEnrollment(subscription) : null,
  };
}
