// A teacher's tools in Chromium: the demo teacher cancels a session with a reason and a
// student's open sessions list loses it without a reload; the teacher opens a course's students and
// downloads them as CSV. The cancel dialog and the students page are scanned with axe, and shot at
// 1280 and 390 px.
import { readFileSync } from 'node:fs';
import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { apiRoutes } from '@mooz/contract/api-routes';
import { batchEndDate } from '@mooz/contract/courses';
import { apiLogIn, auth, AxeReport, look, newStudent, prepare, type SignedIn } from './support/a11y';
import { createCourse, nextMonday, scheduleClass } from './support/courses';
import { payFor } from './support/purchase';
import { shoot } from './support/screens';

const view = look('en', 'light', false);
const DAY = 86_400_000;

async function signedInPage(browser: Browser, who: SignedIn, width = 1280): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 900 }, acceptDownloads: true });
  await prepare(context, view, who);
  return context.newPage();
}

/** A new published course of the demo teacher, bought by a new student through the sandbox checkout. */
async function boughtCourse(request: APIRequestContext, teacher: SignedIn) {
  const start = nextMonday();
  const course = await createCourse(request, teacher, { name: `Ceramics ${Date.now()}`, description: 'Throwing, glazing and firing.', price: 150_000, batch_start_dates: [start] });
  const buyer = await newStudent(request, 'Csvbuyer');
  await payFor(request, buyer.session, { course_id: course.id, batch: 'weekdays', start_date: start, end_date: batchEndDate(start, 4), time: '09:00' });
  return { course, buyer };
}

test('a session the teacher cancels leaves an open student list without a reload', async ({ browser, request }) => {
  test.setTimeout(90_000);
  const teacher = await apiLogIn(request, 'teacher@mooz.local');
  const [course] = (await (await request.get(apiRoutes.courses.mine.path, { headers: auth(teacher) })).json()).data as { id: number }[];
  const title = `Cancelled class ${Date.now()}`;
  await scheduleClass(request, teacher, course!.id, title, 2 * DAY);

  // A new student in trial sees every session.
  const student = await newStudent(request, 'Watcher');
  const studentPage = await signedInPage(browser, student.session);
  await studentPage.goto('/sessions');
  const studentRow = studentPage.getByTestId('session-row').filter({ hasText: title });
  await expect(studentRow).toBeVisible();
  await expect(studentRow.getByTestId('cancel-session-button')).toHaveCount(0);

  const teacherPage = await signedInPage(browser, teacher);
  await teacherPage.goto('/sessions');
  const row = teacherPage.getByTestId('session-row').filter({ hasText: title });
  await row.getByTestId('cancel-session-button').click();
  const dialog = teacherPage.getByRole('dialog', { name: `Cancel “${title}”?` });
  await expect(dialog).toBeVisible();
  // A reason is required.
  await dialog.getByTestId('cancel-session-submit').click();
  await expect(dialog.getByText('Give the students a reason')).toBeVisible();
  const axe = new AxeReport(view);
  await axe.scan(teacherPage, 'cancel session dialog');
  await shoot(teacherPage, 'cancel-dialog');
  await dialog.getByTestId('cancel-session-reason').fill('The kiln is broken');
  await dialog.getByTestId('cancel-session-submit').click();
  await expect(dialog).toBeHidden();
  await expect(row).toHaveCount(0);

  // The student's page was not reloaded: its list asks again on its own.
  await expect(studentRow).toHaveCount(0, { timeout: 30_000 });
  await axe.expectClean();
});

test('the teacher sees who bought a course and downloads them as CSV', async ({ browser, request }) => {
  test.setTimeout(90_000);
  const teacher = await apiLogIn(request, 'teacher@mooz.local');
  const { course, buyer } = await boughtCourse(request, teacher);

  const page = await signedInPage(browser, teacher);
  await page.goto('/my-courses');
  const card = page.getByTestId('course-card').filter({ hasText: course.name });
  await card.getByTestId('course-students-link').click();
  await expect(page).toHaveURL(new RegExp(`/my-courses/${course.id}/students$`));
  const studentRow = page.getByTestId('student-row').filter({ hasText: buyer.email });
  await expect(studentRow).toBeVisible();
  await expect(studentRow).toContainText('Csvbuyer Student');
  await expect(studentRow.getByTestId('student-attendance')).toHaveText('0 of 0 sessions');
  const axe = new AxeReport(view);
  await axe.scan(page, 'course students');
  await shoot(page, 'course-students');

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-students').click()]);
  expect(download.suggestedFilename()).toMatch(/^students-ceramics-\d+-\d{4}-\d\d-\d\d\.csv$/);
  const csv = readFileSync((await download.path())!, 'utf8').replace(/^\uFEFF/, '');
  const [header, ...rows] = csv.trimEnd().split('\r\n');
  expect(header).toBe('Name,Email,Batch,Start date,End date,Times,Time zone,Paid at (UTC),Sessions attended,Sessions held');
  expect(rows).toHaveLength(1);
  expect(rows[0]).toContain(`Csvbuyer Student,${buyer.email},weekdays,`);

  // Removing a bought course archives it, as its dialog says beforehand.
  await page.goto('/my-courses');
  await expect(card).toBeVisible();
  await shoot(page, 'my-courses');
  await card.getByTestId('course-more-actions').click();
  await page.getByTestId('remove-course').click();
  const dialog = page.getByTestId('remove-course-dialog').getByRole('dialog');
  await expect(dialog.getByTestId('remove-course-outcome')).toHaveAttribute('data-outcome', 'archived');
  await axe.scan(page, 'remove course dialog');
  await shoot(page, 'remove-course-dialog');
  await dialog.getByTestId('remove-course-confirm').click();
  await expect(card.getByText('Archived')).toBeVisible();
  await axe.expectClean();
});
