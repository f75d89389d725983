// Batches end to end: a teacher's course opens a weekday and a weekend batch; a student in India who
// buys the weekend batch is told its days and seats, then listed only its Saturday and Sunday classes,
// in their own time zone; when the teacher cancels one, the open list loses it without a reload.
import { expect, test } from '@playwright/test';
import { apiRoutes } from '@mooz/contract/api-routes';
import { pathOf } from '@mooz/contract/endpoint';
import { apiLogIn, look, newStudent, prepare } from './support/a11y';

const DAY = 86_400_000;

/** The Monday at least a week ahead (UTC), as YYYY-MM-DD. */
function mondayAhead(): string {
  const day = new Date(Date.now() + 7 * DAY);
  day.setUTCDate(day.getUTCDate() + ((8 - day.getUTCDay()) % 7));
  return day.toISOString().slice(0, 10);
}

test('a student of the weekend batch sees only its Saturday and Sunday classes, and a cancelled one leaves', async ({ browser, request }) => {
  // The student's list polls every 15 s: room for a course, a purchase and one poll.
  test.setTimeout(90_000);
  const teacher = await apiLogIn(request, 'teacher@mooz.local');
  const asTeacher = { Authorization: `Bearer ${teacher.access}` };
  const name = `Weekend Watercolour ${Date.now()}`;
  const created = await request.post(apiRoutes.courses.create.path, {
    headers: asTeacher,
    data: {
      name,
      description: 'Paint light and water, two mornings a weekend.',
      price: 150_000,
      currency: 'INR',
      skills: ['Watercolour'],
      duration_weeks: 2,
      batch_start_dates: [mondayAhead()],
      weekday_times: ['07:30'],
      weekend_times: ['10:00'],
      time_zone: 'Asia/Kolkata',
      published: true,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const course = (await created.json()).data;
  expect(course.batches.map((b: { kind: string }) => b.kind)).toEqual(['weekdays', 'weekends']);

  const { session } = await newStudent(request, 'Wren');
  const context = await browser.newContext({ timezoneId: 'Asia/Kolkata', locale: 'en-GB' });
  await prepare(context, look('en', 'light', false), session);
  const page = await context.newPage();
  await page.goto(`/courses/${course.id}`);
  await page.getByTestId('enroll-button').click();
  const enroll = page.getByTestId('enroll-modal').getByRole('dialog');
  await expect(enroll.getByTestId('enroll-your-time')).toContainText('Mon – Fri 07:30');
  await enroll.getByText('Weekends', { exact: true }).click();
  await expect(enroll.getByRole('radio', { name: 'Weekends' })).toBeChecked();
  await expect(enroll.getByTestId('enroll-your-time')).toContainText('Sat, Sun 10:00');
  await expect(enroll.getByTestId('enroll-seats')).toHaveText('9 seats left');
  await enroll.getByTestId('enroll-submit').click();
  const checkout = page.getByTestId('sandbox-checkout').getByRole('dialog');
  await expect(checkout).toContainText(name);
  await checkout.getByTestId('sandbox-pay').click();
  await expect(page.getByText('Payment verified successfully!')).toBeVisible();

  await page.getByTestId('menu-sessions').click();
  const rows = page.getByTestId('session-row');
  // Two weekends of Saturday and Sunday: none of the weekday batch's classes.
  await expect(rows).toHaveCount(4);
  for (const row of await rows.all()) {
    await expect(row).toContainText(name);
    await expect(row).toContainText(/Saturday|Sunday/);
    await expect(row.getByTestId('session-time')).toContainText('10:00');
  }

  // The teacher cancels the first one; the student's open list drops it on its own.
  const listed = (await (await request.get(apiRoutes.sessions.list.path, { headers: asTeacher })).json()).data as {
    id: number;
    batch_id: number | null;
    course_id: number;
  }[];
  const weekendBatch = course.batches.find((b: { kind: string }) => b.kind === 'weekends');
  const first = listed.find((s) => s.batch_id === weekendBatch.id)!;
  const cancelled = await request.post(pathOf(apiRoutes.sessions.cancel, { id: first.id }), { headers: asTeacher, data: { reason: 'The studio is closed that day' } });
  expect(cancelled.status(), await cancelled.text()).toBe(200);
  await expect(rows).toHaveCount(3, { timeout: 30_000 });
  await context.close();
});
