// A teacher's tools in Chromium: the demo teacher cancels a session with a reason and a
// student's open sessions list loses it without a reload; the teacher opens a course's students and
// downloads them as CSV; a board the teacher saved during a class is opened by the course's buyer
// from the course page's Boards tab. The cancel dialog, the students page and the Boards tab are
// scanned with axe, and shot at 1280 and 390 px.
import { readFileSync } from 'node:fs';
import { crc32, deflateSync } from 'node:zlib';
import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { apiRoutes } from '@mooz/contract/api-routes';
import { batchEndDate } from '@mooz/contract/courses';
import { pathOf } from '@mooz/contract/endpoint';
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
async function boughtCourse(request: APIRequestContext, teacher: SignedIn, buyerName = 'Csvbuyer') {
  const start = nextMonday();
  const course = await createCourse(request, teacher, { name: `Ceramics ${Date.now()}`, description: 'Throwing, glazing and firing.', price: 150_000, batch_start_dates: [start] });
  const buyer = await newStudent(request, buyerName);
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

/** A saved board page as the teacher's tab sends it (base64 PNG): 640×400, white, with a blue stroke across. */
function boardPage(width = 640, height = 400): string {
  const rows = Array.from({ length: height }, (_, y) => {
    const row = Buffer.alloc(1 + width * 3, 0xff);
    row[0] = 0; // no filter
    for (let x = Math.round(width * 0.1); x < width * 0.9; x += 1) {
      if (Math.abs(y - height * (0.2 + (0.6 * x) / width)) < 6) row.set([0x4c, 0x6e, 0xf5], 1 + x * 3);
    }
    return row;
  });
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const framing = Buffer.alloc(8);
    framing.writeUInt32BE(data.length, 0);
    framing.writeUInt32BE(crc32(body), 4);
    return Buffer.concat([framing.subarray(0, 4), body, framing.subarray(4)]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2], 8); // 8 bits per channel, RGB
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', deflateSync(Buffer.concat(rows))), chunk('IEND', Buffer.alloc(0))]).toString('base64');
}

test("a course's buyer opens the board the teacher saved during a class from the course page's Boards tab", async ({ browser, request }) => {
  test.setTimeout(90_000);
  const teacher = await apiLogIn(request, 'teacher@mooz.local');
  const { course, buyer } = await boughtCourse(request, teacher, 'Boardviewer');
  const title = `Glazing ${Date.now()}`;
  const session = await scheduleClass(request, teacher, course.id, title);
  // The teacher's tab saves each page it draws on as the class goes (whiteboard.spec.ts draws one).
  const saved = await request.post(pathOf(apiRoutes.sessions.saveWhiteboardImage, { roomId: session.room_id, page: 0 }), { headers: auth(teacher), data: { png: boardPage() } });
  expect(saved.status(), await saved.text()).toBe(200);

  const page = await signedInPage(browser, buyer.session);
  await page.goto(`/courses/${course.id}`);
  // By keyboard: the tabs are one stop, End reaches the last, Enter opens it.
  await page.getByTestId('course-tab-overview').focus();
  await page.keyboard.press('End');
  await expect(page.getByTestId('course-tab-boards')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('course-tab-boards')).toHaveAttribute('aria-selected', 'true');
  await expect(page).toHaveURL(new RegExp(`/courses/${course.id}\\?tab=boards$`));

  const board = page.getByRole('region', { name: title });
  await expect(board.getByRole('heading', { name: title })).toBeVisible();
  const picture = board.getByRole('img', { name: `Page 1 of ${title}` });
  await expect(picture).toBeVisible();
  // The very picture saved, decoded from the server's PNG, shown as a thumbnail.
  await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(640);
  expect((await picture.boundingBox())!.width).toBeLessThan(640);
  const axe = new AxeReport(view);
  await axe.scan(page, 'course boards');
  await shoot(page, 'course-boards');
  // At 390 px nothing runs off the side.
  await page.setViewportSize({ width: 390, height: 900 });
  await expect(picture).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.setViewportSize({ width: 1280, height: 900 });

  // The picture opens the full PNG in a new tab; the page downloads as the file the server names.
  const [full] = await Promise.all([page.waitForEvent('popup'), board.getByTestId('board-page-full').click()]);
  await full.waitForLoadState();
  expect(full.url()).toMatch(/^blob:/);
  await expect.poll(() => full.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(640);
  await full.close();
  const [download] = await Promise.all([page.waitForEvent('download'), board.getByRole('button', { name: `Download Page 1 of ${title} as PNG` }).click()]);
  expect(download.suggestedFilename()).toBe(`${title} - whiteboard 1.png`);
  await axe.expectClean();
});
