// A teacher's course and its classes made through the API, for specs that need a course of their own
// (so that what they buy or schedule changes no demo course another spec reads).
import { expect, type APIRequestContext } from '@playwright/test';
import { apiRoutes } from '@mooz/contract/api-routes';
import { auth, type SignedIn } from './a11y';

const DAY = 86_400_000;

/** The next Monday at least a week away (YYYY-MM-DD): a start date any weekday batch accepts. */
export function nextMonday(): string {
  const day = new Date(Date.now() + 7 * DAY);
  while (day.getUTCDay() !== 1) day.setTime(day.getTime() + DAY);
  return day.toISOString().slice(0, 10);
}

interface CourseFields {
  name: string;
  description: string;
  price: number;
  skills?: string[];
  batch_start_dates?: string[];
  weekday_times?: string[];
}

/** A new course of `teacher`, four weeks long, with a weekday batch at 09:00 from the next Monday unless `fields` say otherwise. */
export async function createCourse<Course = { id: number; name: string }>(request: APIRequestContext, teacher: Pick<SignedIn, 'access'>, fields: CourseFields) {
  const created = await request.post(apiRoutes.courses.create.path, {
    headers: auth(teacher),
    data: { duration_weeks: 4, batch_start_dates: [nextMonday()], weekday_times: ['09:00'], weekend_times: [], ...fields },
  });
  expect(created.status(), await created.text()).toBe(201);
  return (await created.json()).data as Course;
}

/** A class of `courseId` an hour long, starting `startsInMs` from now (in 5 minutes by default: its room is open now). */
export async function scheduleClass(request: APIRequestContext, teacher: Pick<SignedIn, 'access'>, courseId: number, title: string, startsInMs = 5 * 60_000) {
  const scheduled = await request.post(apiRoutes.sessions.schedule.path, {
    headers: auth(teacher),
    data: { course_id: courseId, title, starts_at: new Date(Date.now() + startsInMs).toISOString(), duration_minutes: 60 },
  });
  expect(scheduled.status(), await scheduled.text()).toBe(201);
  return (await scheduled.json()).data as { id: number; title: string; room_id: string };
}
