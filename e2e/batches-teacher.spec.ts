// A teacher's batches in Chromium: the demo teacher, whose browser is in Los Angeles while
// the course is in India, sees a course's batches with their times in both zones; opens a weekend
// batch with different Saturday and Sunday times and 3 seats, gives it 4, and removes it. A batch
// bought while its removal is being confirmed is refused with the server's 409 message. The panel and
// the open-a-batch dialog are scanned with axe in English and in German right to left, and shot at
// 1280 and 390 px.
import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { apiRoutes } from '@mooz/contract/api-routes';
import type { Batch } from '@mooz/contract/batches';
import type { Course } from '@mooz/contract/courses';
import { pathOf } from '@mooz/contract/endpoint';
import { apiLogIn, auth, AxeReport, look, newStudent, prepare, settle, type Look, type SignedIn } from './support/a11y';
import { createCourse } from './support/courses';
import { payFor } from './support/purchase';
import { shoot } from './support/screens';

const english = look('en', 'light', false);
const germanRtl = look('de', 'light', true);
const DAY = 86_400_000;

/** The Saturday at least `weeks` weeks away, as YYYY-MM-DD. */
function saturdayIn(weeks: number): string {
  const day = new Date(Date.now() + weeks * 7 * DAY);
  while (day.getUTCDay() !== 6) day.setTime(day.getTime() + DAY);
  return day.toISOString().slice(0, 10);
}

const mondayAfter = (saturday: string) =>
  new Date(Date.parse(`${saturday}T00:00:00Z`) + 2 * DAY).toISOString().slice(0, 10);

async function teacherPage(browser: Browser, teacher: SignedIn, view: Look): Promise<Page> {
  // The viewer is far from the course's zone, so each batch also says when it meets for them.
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    timezoneId: 'America/Los_Angeles',
  });
  await prepare(context, view, teacher);
  return context.newPage();
}

/** One of the demo teacher's published courses with its batches (the demo seeds two intakes of each kind). */
async function demoCourse(request: APIRequestContext, teacher: SignedIn): Promise<Course> {
  const mine = (await (await request.get(apiRoutes.courses.mine.path, { headers: auth(teacher) })).json())
    .data as Course[];
  const course = mine.find((c) => c.published && !c.archived_at && c.batches.length > 0);
  expect(course, 'a demo course with batches').toBeTruthy();
  return course!;
}

async function batchesOf(request: APIRequestContext, teacher: SignedIn, courseId: number): Promise<Batch[]> {
  return ((await (await request.get(pathOf(apiRoutes.courses.one, { id: courseId }), { headers: auth(teacher) })).json()).data as Course)
    .batches;
}

test('the teacher opens a weekend batch with its own Saturday and Sunday times, gives it more seats and removes it', async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const teacher = await apiLogIn(request, 'teacher@mooz.local');
  const course = await demoCourse(request, teacher);
  const page = await teacherPage(browser, teacher, english);
  const axe = new AxeReport(english);

  await page.goto(`/courses/${course.id}`);
  const panel = page.getByTestId('batches-panel');
  await expect(panel.getByRole('heading', { name: 'Batches' })).toBeVisible();
  await expect(panel.getByTestId('batch-row')).toHaveCount(course.batches.length);
  await expect(panel).toContainText(course.time_zone);
  // India and Los Angeles never share a clock: each batch also says when it meets in the viewer's zone.
  await expect(panel.getByTestId('batch-meets-yours')).toHaveCount(course.batches.length);
  await expect(page).toHaveTitle(new RegExp(course.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  await axe.scan(page, 'course page: batches panel');
  await shoot(page, 'batches-panel');

  // Open a batch: a Sunday is refused for a weekend batch before anything is sent.
  await panel.getByTestId('open-batch').click();
  const dialog = page.getByRole('dialog', { name: /Open a batch/ });
  await expect(dialog).toBeVisible();
  await axe.scan(page, 'open a batch dialog');
  await shoot(page, 'open-batch-dialog');
  await dialog.getByRole('radio', { name: 'Weekends' }).check();
  await expect(dialog.getByLabel('Start date (a Saturday)')).toBeVisible();
  const start = saturdayIn(6);
  const sunday = new Date(Date.parse(`${start}T00:00:00Z`) + DAY).toISOString().slice(0, 10);
  await dialog.getByLabel('Start date (a Saturday)').fill(sunday);
  await dialog.getByLabel('Saturday time').fill('08:15');
  await dialog.getByLabel('Sunday time').fill('17:45');
  await dialog.getByLabel('Seats').fill('3');
  await dialog.getByTestId('open-batch-submit').click();
  await expect(dialog.getByText('Weekend batches start on a Saturday')).toBeVisible();
  await dialog.getByLabel('Start date (a Saturday)').fill(start);
  // Each time is the course's (India's); the teacher in Los Angeles is told theirs too.
  await expect(dialog.getByText(new RegExp(`In ${course.time_zone}; .* your time`))).toHaveCount(2);
  await dialog.getByTestId('open-batch-submit').click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Batch opened')).toBeVisible();

  const row = panel.locator(`[data-testid="batch-row"][data-kind="weekends"][data-start="${start}"]`);
  await expect(row).toBeVisible();
  await expect(panel.getByTestId('batch-row')).toHaveCount(course.batches.length + 1);
  // India's 08:15 on Saturday and 17:45 on Sunday are Friday 18:45 and Sunday 04:15 in Los Angeles (winter).
  await expect(row.getByTestId('batch-meets')).toHaveText(/^\W*Sat\W+08:15\W+AM\W+Sun\W+05:45\W+PM\W*$/);
  await expect(row.getByTestId('batch-meets-yours')).toHaveText(
    /^Your time: \W*Fri\W+06:45\W+PM\W+Sun\W+04:15\W+AM\W*$/,
  );
  await expect(row.getByTestId('batch-seats-sold')).toHaveText('0 / 3');
  await expect(row.getByTestId('batch-status')).toHaveText('Open');
  const opened = (await batchesOf(request, teacher, course.id)).find(
    (b) => b.kind === 'weekends' && b.start_date === start,
  );
  expect(opened).toMatchObject({
    saturday_time: '08:15',
    sunday_time: '17:45',
    capacity: 3,
    time_zone: course.time_zone,
  });

  // Four seats instead of three, from the keyboard.
  await row.getByTestId('batch-change-seats').click();
  const seats = page.getByRole('dialog', { name: /Seats of/ });
  await expect(seats.getByLabel('Seats')).toHaveValue('3');
  await seats.getByLabel('Seats').fill('4');
  await seats.getByLabel('Seats').press('Enter');
  await expect(seats).toBeHidden();
  await expect(page.getByText('Batch updated')).toBeVisible();
  await expect(row.getByTestId('batch-seats-sold')).toHaveText('0 / 4');
  expect((await batchesOf(request, teacher, course.id)).find((b) => b.id === opened!.id)?.capacity).toBe(4);

  // Removed after a confirmation.
  await row.getByTestId('batch-remove').click();
  const confirm = page.getByRole('dialog', { name: /Remove the weekend batch/ });
  await expect(confirm).toBeVisible();
  await confirm.getByTestId('batch-remove-confirm').click();
  await expect(confirm).toBeHidden();
  await expect(page.getByText('Batch removed')).toBeVisible();
  await expect(row).toHaveCount(0);
  await expect(panel.getByTestId('batch-row')).toHaveCount(course.batches.length);
  expect((await batchesOf(request, teacher, course.id)).some((b) => b.id === opened!.id)).toBe(false);

  await axe.expectClean();
  await page.context().close();
});

test('a batch bought while its removal is confirmed stays, and the server says why', async ({ browser, request }) => {
  test.setTimeout(90_000);
  const teacher = await apiLogIn(request, 'teacher@mooz.local');
  // A course of its own, so the seat bought here changes no demo course other specs buy from.
  const course = await createCourse<Course>(request, teacher, {
    name: `Pottery ${Date.now()}`,
    description: 'Wheel and glaze.',
    price: 90_000,
    batch_start_dates: [mondayAfter(saturdayIn(2))],
  });
  const start = saturdayIn(3);
  const created = await request.post(pathOf(apiRoutes.batches.create, { id: course.id }), {
    headers: auth(teacher),
    data: { kind: 'weekends', start_date: start, saturday_time: '07:05', sunday_time: '07:10', capacity: 2 },
  });
  expect(created.status(), await created.text()).toBe(201);
  const batch = (await created.json()).data as Batch;

  const page = await teacherPage(browser, teacher, english);
  await page.goto(`/courses/${course.id}`);
  const row = page.locator(`[data-testid="batch-row"][data-batch-id="${batch.id}"]`);
  await row.getByTestId('batch-remove').click();
  const confirm = page.getByRole('dialog', { name: /Remove the weekend batch/ });
  await expect(confirm).toBeVisible();

  // Meanwhile a student buys a seat of it.
  const buyer = await newStudent(request, 'Seatbuyer');
  await payFor(request, buyer.session, {
    course_id: course.id,
    batch_id: batch.id,
    batch: 'weekends',
    start_date: start,
    end_date: batch.end_date,
    saturday_time: '07:05',
    sunday_time: '07:10',
  });

  await confirm.getByTestId('batch-remove-confirm').click();
  await expect(confirm.getByRole('alert')).toHaveText('Seats of this batch are sold: it cannot be removed');
  await expect(confirm.getByTestId('batch-remove-confirm')).toBeDisabled();
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  // The list is fresh again: one seat sold, and no remove button any more.
  await expect(row.getByTestId('batch-seats-sold')).toHaveText('1 / 2');
  await expect(row.getByTestId('batch-remove')).toHaveCount(0);
  await page.context().close();
});

test('the batches panel and the open-a-batch dialog in German, right to left', async ({ browser, request }) => {
  test.setTimeout(90_000);
  const teacher = await apiLogIn(request, 'teacher@mooz.local');
  const course = await demoCourse(request, teacher);
  const page = await teacherPage(browser, teacher, germanRtl);
  const axe = new AxeReport(germanRtl);

  await page.goto(`/courses/${course.id}`);
  const panel = page.getByTestId('batches-panel');
  await expect(panel.getByRole('heading', { name: /Gruppen/ })).toBeVisible();
  await expect(panel.getByTestId('batch-row')).toHaveCount(course.batches.length);
  await settle(page, germanRtl);
  await axe.scan(page, 'course page: batches panel');
  await shoot(page, 'batches-panel-de-rtl');

  await panel.getByRole('button', { name: /Gruppe eröffnen/ }).click();
  const dialog = page.getByRole('dialog', { name: /Neue Gruppe/ });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('radio', { name: /Wochenende/ }).check();
  await expect(dialog.getByLabel(/Uhrzeit am Samstag/)).toBeVisible();
  await axe.scan(page, 'open a batch dialog');
  await shoot(page, 'open-batch-dialog-de-rtl');
  await axe.expectClean();
  await page.context().close();
});

test("the course editor sets the course's time zone and says each time in it and in the teacher's own", async ({
  browser,
  request,
}) => {
  test.setTimeout(90_000);
  const teacher = await apiLogIn(request, 'teacher@mooz.local');
  const page = await teacherPage(browser, teacher, english);
  const axe = new AxeReport(english);
  await page.goto('/my-courses/new');
  const editor = page.getByTestId('course-editor');
  const zone = editor.getByRole('textbox', { name: 'Time zone' });
  await expect(zone).toHaveValue('Asia/Kolkata');
  await expect(
    editor.getByText(/Each date names a week: its weekday batches start on that week's Monday/),
  ).toBeVisible();

  const name = `Calligraphy ${Date.now()}`;
  await editor.getByLabel('Name').fill(name);
  await editor.getByLabel('Description').fill('Ink, brush and patience.');
  await editor.getByLabel('Price').fill('1200');
  await editor.getByLabel('Length in weeks').fill('4');
  const monday = mondayAfter(saturdayIn(2));
  await editor.getByRole('textbox', { name: 'Add to Batch start dates' }).fill(monday);
  await editor.getByRole('textbox', { name: 'Add to Batch start dates' }).press('Enter');
  await editor.getByRole('textbox', { name: 'Add to Weekday class times' }).fill('09:00');
  await editor.getByRole('textbox', { name: 'Add to Weekday class times' }).press('Enter');
  // India's 09:00 is 19:30 the evening before in Los Angeles.
  await expect(editor.getByText(/^\W*09:00\W+AM\W* \(your time \W*07:30\W+PM PST\W*\)$/)).toBeVisible();
  await expect(
    editor.getByText('Clock times in Asia/Kolkata; students see them in their own time zone').first(),
  ).toBeVisible();

  // Another zone, found by typing part of its name.
  await zone.fill('Los_Ang');
  await page.getByRole('option', { name: 'America/Los_Angeles' }).click();
  await expect(zone).toHaveValue('America/Los_Angeles');
  await expect(
    editor.getByText('Clock times in America/Los_Angeles; students see them in their own time zone').first(),
  ).toBeVisible();
  // The teacher's own zone: the time is said once.
  await expect(editor.getByText(/^\W*09:00\W+AM\W*$/)).toBeVisible();
  await axe.scan(page, 'course editor with a time zone');
  await shoot(page, 'course-editor-time-zone');

  await editor.getByTestId('course-save').click();
  await expect(page.getByText('Course created')).toBeVisible();
  const mine = (await (await request.get(apiRoutes.courses.mine.path, { headers: auth(teacher) })).json())
    .data as Course[];
  const created = mine.find((course) => course.name === name);
  expect(created).toMatchObject({ time_zone: 'America/Los_Angeles', weekday_times: ['09:00'] });
  // The week's Monday opened a weekday batch at 09:00 Los Angeles time.
  expect(created!.batches).toEqual([
    expect.objectContaining({ kind: 'weekdays', start_date: monday, time: '09:00', time_zone: 'America/Los_Angeles' }),
  ]);
  await axe.expectClean();
  await page.context().close();
});
