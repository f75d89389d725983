// The dashboards in Chromium against the real server: a student who bought a course joins
// its live class from the dashboard's Join button, stays a few seconds, and back on the dashboard the
// total time and today's bar (in the student's own time zone, UTC+14 here) have grown; the demo
// teacher's dashboard shows the same five stats the API gives; a brand-new student is invited to the
// catalogue; an admin switches between the platform's teaching and a teacher's, and to learning. Both
// dashboards are scanned with axe (English light, French dark right to left), their main actions are
// reached by keyboard, and they are shot at 1280 and 390 px.
import { expect, test, type APIRequestContext, type Browser, type Locator, type Page } from '@playwright/test';
import { batchEndDate } from '@mooz/contract/courses';
import type { StudentDashboard, TeacherDashboard } from '@mooz/contract/dashboards';
import { apiRoutes } from '@mooz/contract/api-routes';
import { apiLogIn, auth, AxeReport, look, newStudent, prepare, type Look, type SignedIn } from './support/a11y';
import { createCourse, nextMonday, scheduleClass } from './support/courses';
import { cameraWindows } from './support/fake-camera';
import { payFor } from './support/purchase';
import { shoot } from './support/screens';

test.describe.configure({ mode: 'serial', timeout: 300_000 });

const english = look('en', 'light', false);
const frenchDarkRtl = look('fr', 'dark', true);
/** The student's zone: the first to start a day, so "today" there is rarely UTC's today. */
const studentZone = 'Pacific/Kiritimati';

const windows = cameraWindows();

/** A new course of the demo teacher with a class whose room is open now, bought by a new student. */
async function liveClass(request: APIRequestContext, teacher: SignedIn) {
  const start = nextMonday();
  const course = await createCourse(request, teacher, {
    name: `Bookbinding ${Date.now()}`,
    description: 'Folding, sewing and covers.',
    price: 90_000,
    skills: ['Sewing signatures', 'Case binding'],
    batch_start_dates: [start],
  });
  const session = await scheduleClass(request, teacher, course.id, `Kettle stitch ${Date.now()}`);

  const { session: student } = await newStudent(request, 'Dana');
  await payFor(request, student, { course_id: course.id, batch: 'weekdays', start_date: start, end_date: batchEndDate(start, 4), time: '09:00' });
  return { course, session, student };
}

async function openWindow(browser: Browser, who: SignedIn, view: Look, options: { width?: number; timezoneId?: string } = {}): Promise<Page> {
  const context = await windows.newWindow({ viewport: { width: options.width ?? 1280, height: 900 }, timezoneId: options.timezoneId }, browser);
  await prepare(context, view, who, String(who.user.first_name ?? 'Someone'));
  return context.newPage();
}

/** The unrounded figure a stat card carries, and the seven values of a trend's table, oldest first. */
const figure = async (stat: Locator) => Number(await stat.getAttribute('data-value'));
async function trend(page: Page, testId: string) {
  const rows = page.getByTestId(`${testId}-table`).locator('tbody tr');
  await expect(rows).toHaveCount(7);
  return rows.evaluateAll((list) => list.map((row) => ({ date: row.getAttribute('data-date'), hours: Number(row.getAttribute('data-hours')) })));
}

/** A first screen on two cores shared with other runs can take a while (chunks, translations, the query). */
const firstPaint = { timeout: 60_000 };

const todayIn = (timeZone: string) => new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());

const hasFocus = (target: Locator) =>
  target.evaluate((element) => element === document.activeElement || element.contains(document.activeElement), undefined, { timeout: 2_000 }).catch(() => false);

/** Tab until `target` has focus (it is in the tab order), at most `max` presses. */
async function tabTo(page: Page, target: Locator, max = 60) {
  await target.waitFor({ state: 'visible' });
  for (let presses = 0; presses <= max; presses++) {
    if (await hasFocus(target)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`${target} not reached after ${max} × Tab`);
}

let teacher: SignedIn;
let attended: Awaited<ReturnType<typeof liveClass>>;

test('a student joins a live class from the dashboard, and the total and today’s bar grow', async ({ request }) => {
  teacher = await apiLogIn(request, 'teacher@mooz.local');
  attended = await liveClass(request, teacher);
  const page = await openWindow(windows.camera(), attended.student, english, { timezoneId: studentZone });

  const asked = page.waitForRequest((r) => r.url().includes(apiRoutes.dashboards.student.path));
  await page.goto('/dashboard');
  expect(new URL((await asked).url()).searchParams.get('tz')).toBe(studentZone);
  await expect(page.getByTestId('greeting')).toContainText('Dana', firstPaint);
  await expect(page.getByTestId('student-dashboard')).toBeVisible(firstPaint);
  const total = page.getByTestId('stat-learning-hours-value');
  const before = await figure(total);
  const weekBefore = await trend(page, 'learning-trend');
  // The seven days end with today in the student's zone (UTC+14), not the server's.
  expect(weekBefore.at(-1)!.date).toBe(todayIn(studentZone));
  // The course's skills are listed, at 0 before any class.
  await expect(page.getByTestId('skill')).toHaveCount(2);
  await expect(page.getByTestId('stat-assignments-value')).toHaveText('0/0');

  // The next class is this one, and its room is open: Join from the dashboard.
  const next = page.getByTestId('next-class');
  await expect(next.getByTestId('next-class-name')).toHaveText(attended.session.title);
  await next.getByTestId('next-class-join').click();
  await expect(page).toHaveURL(new RegExp(`/meeting/${attended.session.room_id}$`));
  await expect(page.getByTestId('meeting-room')).toHaveAttribute('data-phase', 'joined', { timeout: 90_000 });
  await page.waitForTimeout(6_000);
  await page.goto('/dashboard');

  await expect(page.getByTestId('student-dashboard')).toBeVisible(firstPaint);
  // Present for at least the six seconds waited (the server counts to its own clock: a little more).
  await expect.poll(async () => (await figure(total)) - before).toBeGreaterThanOrEqual(5 / 3600);
  const weekAfter = await trend(page, 'learning-trend');
  expect(weekAfter.at(-1)!.hours - weekBefore.at(-1)!.hours).toBeGreaterThanOrEqual(5 / 3600);
  // The other six days did not move, and the hidden table agrees with the chart's data.
  expect(weekAfter.slice(0, 6)).toEqual(weekBefore.slice(0, 6));
  // The chart is drawn once scrolled near.
  await page.getByTestId('learning-trend').scrollIntoViewIfNeeded();
  await expect(page.getByTestId('learning-trend').locator('.recharts-bar-rectangle path').last()).toBeVisible();
  // What the screen shows is what the API says.
  const api = (await (await request.get(`${apiRoutes.dashboards.student.path}?tz=${studentZone}`, { headers: auth(attended.student) })).json()).data as StudentDashboard;
  expect(api.live_hours).toBeGreaterThanOrEqual(5 / 3600);
  expect(api.weekly_learning_trends.map((day) => day.date)).toEqual(weekAfter.map((day) => day.date));
  await shoot(page, 'student-dashboard-en');
});

test("the teacher's dashboard shows the five stats the API gives, and Start reaches the class", async ({ browser, request }) => {
  const api = (await (await request.get(apiRoutes.dashboards.teacher.path, { headers: auth(teacher) })).json()).data as TeacherDashboard;
  // The class the student attended counts them as active; it has not started, so it is upcoming.
  expect(api.stats.activeStudents).toBeGreaterThanOrEqual(1);
  expect(api.stats.upcomingClasses).toBeGreaterThanOrEqual(1);
  expect(api.upcomingWeek).toBeGreaterThanOrEqual(1);
  const page = await openWindow(browser, teacher, english);
  await page.goto('/dashboard');
  await expect(page.getByTestId('teacher-dashboard')).toBeVisible(firstPaint);
  expect(await figure(page.getByTestId('stat-active-students-value'))).toBe(api.stats.activeStudents);
  // The card counts the next seven days.
  expect(await figure(page.getByTestId('stat-upcoming-value'))).toBe(api.upcomingWeek);
  expect(await figure(page.getByTestId('stat-missed-value'))).toBe(api.stats.missingClasses);
  expect(await figure(page.getByTestId('stat-teaching-hours-value'))).toBeCloseTo(api.stats.totalTeachingHours, 2);
  await expect(page.getByTestId('teacher-next-class-name')).toHaveText(api.stats.nextClass!.title);
  expect(await trend(page, 'teaching-trend')).toEqual(api.weeklyTrends.map(({ date, hours }) => ({ date, hours: expect.closeTo(hours, 3) })));
  await expect(page.getByTestId('missed-class')).toHaveCount(api.missedClasses.length);
  await expect(page.getByTestId('pending-review')).toHaveCount(api.pendingReviews.length);

  // By keyboard: Tab reaches Start (or Join), and Enter opens the class's room.
  const start = page.getByTestId('teacher-next-class-join');
  await tabTo(page, start);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/meeting/${api.stats.nextClass!.room_id}$`));
});

test('a student is refused the teacher dashboard, and an unknown time zone is a 400', async ({ request }) => {
  const refused = await request.get(apiRoutes.dashboards.teacher.path, { headers: auth(attended.student) });
  expect(refused.status()).toBe(403);
  const unknown = await request.get(`${apiRoutes.dashboards.student.path}?tz=Mars/Olympus_Mons`, { headers: auth(attended.student) });
  expect(unknown.status()).toBe(400);
});

test('a brand-new student is invited to the catalogue, by keyboard too', async ({ browser, request }) => {
  const { session: fresh } = await newStudent(request, 'Noor');
  const page = await openWindow(browser, fresh, english);
  await page.goto('/dashboard');
  const empty = page.getByTestId('student-dashboard-empty');
  await expect(empty).toBeVisible(firstPaint);
  await expect(page.getByTestId('learning-trend')).toHaveCount(0);
  await expect(page.locator('.recharts-wrapper')).toHaveCount(0);
  await shoot(page, 'student-empty-en');
  const browse = empty.getByTestId('browse-courses');
  await tabTo(page, browse);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/courses$/);
});

test('an admin sees the platform’s teaching, picks the demo teacher, and switches to learning', async ({ browser, request }) => {
  const admin = await apiLogIn(request, 'admin@mooz.local');
  const page = await openWindow(browser, admin, english);
  const platform = page.waitForRequest((r) => r.url().includes(apiRoutes.dashboards.teacher.path) && !r.url().includes('teacher_id'));
  await page.goto('/dashboard');
  await platform;
  await expect(page.getByTestId('admin-dashboard-scope')).toContainText('whole platform');
  await expect(page.getByTestId('teacher-dashboard')).toBeVisible(firstPaint);

  const picker = page.getByTestId('teacher-picker');
  const picked = page.waitForRequest((r) => r.url().includes(`teacher_id=${teacher.user.id}`));
  await picker.click();
  await picker.fill('teacher@mooz');
  await page.getByRole('option', { name: /teacher@mooz\.local/ }).click();
  await picked;
  await expect(page.getByTestId('admin-dashboard-scope')).toContainText(String(teacher.user.first_name));
  const api = (await (await request.get(`${apiRoutes.dashboards.teacher.path}?teacher_id=${teacher.user.id}`, { headers: auth(admin) })).json()).data as TeacherDashboard;
  await expect(page.getByTestId('stat-upcoming-value')).toHaveAttribute('data-value', String(api.upcomingWeek));

  await page.getByTestId('admin-dashboard-view').getByText('Learning', { exact: true }).click();
  await expect(page.getByTestId('student-picker')).toBeVisible();
  await expect(page.getByTestId('admin-dashboard-scope')).toContainText('every student');
  await expect(page.getByTestId('student-dashboard').or(page.getByTestId('student-dashboard-empty'))).toBeVisible();
});

test('both dashboards pass axe in English light and French dark right to left, and are shot', async ({ browser }) => {
  for (const view of [english, frenchDarkRtl]) {
    const report = new AxeReport(view);
    const student = await openWindow(browser, attended.student, view, { timezoneId: studentZone });
    await student.goto('/dashboard');
    await expect(student.getByTestId('student-dashboard')).toBeVisible(firstPaint);
    await report.scan(student, 'student dashboard');
    await shoot(student, `student-dashboard-${view.name.replace(/ /g, '-')}`);
    const teaching = await openWindow(browser, teacher, view);
    await teaching.goto('/dashboard');
    await expect(teaching.getByTestId('teacher-dashboard')).toBeVisible(firstPaint);
    await report.scan(teaching, 'teacher dashboard');
    await shoot(teaching, `teacher-dashboard-${view.name.replace(/ /g, '-')}`);
    await report.expectClean();
  }
});
