// Assignments and certificates in Chromium. The demo teacher (in Kolkata) sets an assignment
// with a file in a new course of theirs; its student (in New York) sees the due date on their own
// clocks, answers with a text and a small file; the teacher reviews it and the student reads the grade
// and feedback. Both dashboards' figures move at each step. The batch has not ended, so the teacher is
// offered no certificate (the server refuses one, 409); an admin awards it early with a reason; its PDF downloads (%PDF, application/pdf, the student's
// name in its text, its first page rendered with pdftoppm) and its public page, opened logged out,
// says it is genuine; a made-up id says not found. axe scans the tab (both sides) and the verification
// page; the screens are shot at 1280 and 390 px in French and German, dark, right to left.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { apiRoutes } from '@mooz/contract/api-routes';
import { batchEndDate } from '@mooz/contract/courses';
import { pathOf } from '@mooz/contract/endpoint';
import { apiLogIn, auth, AxeReport, look, newStudent, prepare, settle, type Look, type SignedIn } from './support/a11y';
import { createCourse, nextMonday } from './support/courses';
import { payFor } from './support/purchase';
import { shoot } from './support/screens';

const english = look('en', 'light', false);
const DAY = 86_400_000;
// A 1×1 PNG: the server recognises answers' files by their bytes.
const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** A new course of the demo teacher, bought by a new student through the sandbox checkout. */
async function boughtCourse(request: APIRequestContext, teacher: SignedIn, firstName: string) {
  const start = nextMonday();
  const course = await createCourse(request, teacher, { name: `Pottery ${Date.now()}`, description: 'Wheel, glaze and kiln.', price: 120_000, batch_start_dates: [start] });
  const buyer = await newStudent(request, firstName);
  await payFor(request, buyer.session, { course_id: course.id, batch: 'weekdays', start_date: start, end_date: batchEndDate(start, 4), time: '09:00' });
  const me = (await (await request.get(apiRoutes.auth.profile.path, { headers: auth(buyer.session) })).json()).data as {
    id: number;
    first_name?: string;
    last_name?: string;
  };
  return { course, student: buyer.session, studentId: me.id, studentName: `${firstName} Student` };
}

async function openWindow(
  browser: Browser,
  who: SignedIn | null,
  view: Look,
  timezoneId: string,
  width = 1280,
): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 900 }, timezoneId, acceptDownloads: true });
  await prepare(context, view, who ?? undefined);
  return context.newPage();
}

/**
 * Opens `path` in the app already loaded (the router follows a popstate, as after Back), so a step does
 * not reload the whole app; the first visit loads it. The machine is shared: first paint may be slow.
 */
async function visit(page: Page, path: string) {
  if (page.url() === 'about:blank') await page.goto(path);
  else {
    await page.evaluate((to) => {
      window.history.pushState(window.history.state, '', to);
      window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }));
    }, path);
    await expect(page).toHaveURL(new RegExp(`${path.replace(/[?]/g, '\\?')}$`));
  }
}

const slow = { timeout: 60_000 };

/** The calendar day `days` from now on `zone`'s clocks, as a datetime-local input wants it. */
function dayIn(zone: string, days: number): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(Date.now() + days * DAY),
  );
}

/** The student dashboard's "x/y" assignments figure, as it shows now (none yet for a brand-new student: 0/0). */
async function studentFigure(page: Page): Promise<[number, number]> {
  const figure = page.getByTestId('stat-assignments-value');
  await expect(figure.or(page.getByTestId('student-dashboard-empty'))).toBeVisible(slow);
  if (!(await figure.count())) return [0, 0];
  const numbers = ((await figure.textContent()) ?? '').match(/\d+/g)?.map(Number) ?? [];
  expect(numbers, 'the assignments figure holds two numbers').toHaveLength(2);
  return numbers as [number, number];
}

/**
 * Opens the student dashboard and waits for its figure to read `expected`. After the window's own
 * change the app refreshes it (navigating in the app); after someone else's, the page is loaded anew.
 */
async function expectStudentFigure(page: Page, expected: [number, number], reload = false) {
  if (reload) await page.goto('/dashboard');
  else await visit(page, '/dashboard');
  await expect.poll(() => studentFigure(page), slow).toEqual(expected);
}

/** The teacher dashboard's answers waiting for review, as it shows now (the badge shows only above 0). */
async function waitingNow(page: Page): Promise<number> {
  await expect(page.getByTestId('pending-reviews')).toBeVisible(slow);
  const badge = page.getByTestId('pending-reviews-total');
  return (await badge.count()) ? Number(((await badge.textContent()) ?? '').replace(/\D/g, '')) : 0;
}

async function expectWaiting(page: Page, expected: number, reload = false) {
  if (reload) await page.goto('/dashboard');
  else await visit(page, '/dashboard');
  await expect.poll(() => waitingNow(page), slow).toBe(expected);
}

/** The text of a PDF: pdftotext when the machine has it, else the inflated content streams' strings. */
function pdfText(path: string): string {
  if (existsSync('/usr/bin/pdftotext'))
    return execFileSync('/usr/bin/pdftotext', ['-layout', path, '-'], { encoding: 'utf8' });
  const bytes = readFileSync(path);
  const parts: string[] = [];
  for (let at = bytes.indexOf('stream'); at >= 0; at = bytes.indexOf('stream', at + 6)) {
    const start = at + (bytes[at + 6] === 0x0d ? 8 : 7);
    const end = bytes.indexOf('endstream', start);
    try {
      const text = inflateSync(bytes.subarray(start, end)).toString('latin1');
      parts.push(text.replace(/<([0-9A-Fa-f]+)>/g, (_, hex: string) => Buffer.from(hex, 'hex').toString('latin1')));
    } catch {
      // Not a compressed stream (an image, a font): nothing to read.
    }
  }
  return parts.join('\n');
}

test('an assignment goes from the teacher to the student and back; a certificate before the batch ends is an admin’s, with a reason, and genuine', async ({
  browser,
  request,
}) => {
  test.setTimeout(600_000);
  const teacher = await apiLogIn(request, 'teacher@mooz.local');
  const { course, student, studentId, studentName } = await boughtCourse(request, teacher, 'Nadia');
  const teacherPage = await openWindow(browser, teacher, english, 'Asia/Kolkata');
  const studentPage = await openWindow(browser, student, english, 'America/New_York');

  await visit(studentPage, '/dashboard');
  const [doneBefore, totalBefore] = await studentFigure(studentPage);
  await visit(teacherPage, '/dashboard');
  const waitingBefore = await waitingNow(teacherPage);

  // The teacher sets the work: due in five days at 18:00 in Kolkata, with a brief as a text file.
  await visit(teacherPage, `/courses/${course.id}?tab=assignments`);
  await expect(teacherPage.getByTestId('course-tab-assignments')).toHaveAttribute('aria-selected', 'true', slow);
  await expect(teacherPage.getByTestId('assignments-empty')).toBeVisible();
  await teacherPage.getByTestId('assignment-new').click();
  // Mantine gives the modal's test id to a root without a box of its own: its dialog is what shows.
  const editor = teacherPage.getByRole('dialog', { name: 'New assignment' });
  await expect(editor).toBeVisible();
  // Nothing typed: the title is asked for, and nothing is sent.
  await editor.getByTestId('assignment-save').click();
  await expect(editor.getByText('Give the assignment a title')).toBeVisible();
  await editor.getByTestId('assignment-title').fill('Glaze test tiles');
  await editor.getByTestId('assignment-instructions').fill('Fire three tiles and photograph them.');
  const dueDay = dayIn('Asia/Kolkata', 5);
  // A moment already past is refused before sending.
  await editor.getByTestId('assignment-due-input').fill(`${dayIn('Asia/Kolkata', -1)}T18:00`);
  await editor.getByTestId('assignment-save').click();
  await expect(editor.getByText('This moment has passed: pick one in the future')).toBeVisible();
  await editor.getByTestId('assignment-due-input').fill(`${dueDay}T18:00`);
  await editor
    .getByTestId('assignment-file-input')
    .setInputFiles({ name: 'brief.txt', mimeType: 'text/plain', buffer: Buffer.from('Three tiles, cone 6.\n') });
  await editor.getByTestId('assignment-save').click();
  await expect(teacherPage.getByText('Assignment created')).toBeVisible();
  await expect(editor).toBeHidden();
  const card = teacherPage.getByTestId('assignment-card');
  await expect(card).toHaveCount(1);
  await expect(card.getByTestId('assignment-title-text')).toHaveText('Glaze test tiles');
  await expect(card.getByTestId('assignment-due')).toContainText(/06:00\s?PM/);
  await expect(card.getByTestId('assignment-attachment')).toContainText('brief.txt');

  // Sent as the instant 18:00 names in Kolkata (12:30 UTC).
  const listed = (
    await (await request.get(pathOf(apiRoutes.assignments.list, { id: course.id }), { headers: auth(teacher) })).json()
  ).data as { id: number; due_at: string }[];
  expect(listed).toHaveLength(1);
  expect(new Date(listed[0]!.due_at).toISOString()).toBe(`${dueDay}T12:30:00.000Z`);

  // The student, in New York, reads the same moment on their clocks (07:30 AM) with the time left.
  await visit(studentPage, `/courses/${course.id}?tab=assignments`);
  const studentCard = studentPage.getByTestId('assignment-card');
  await expect(studentCard.getByTestId('assignment-due')).toContainText(/07:30\s?AM/, slow);
  await expect(studentCard.getByTestId('assignment-time-left')).toHaveText(/Due in [45] days/);
  const attachment = studentCard.getByTestId('assignment-attachment');
  const attachmentBody = await studentPage.request.get((await attachment.getAttribute('href'))!);
  expect(attachmentBody.status()).toBe(200);
  expect(await attachmentBody.text()).toBe('Three tiles, cone 6.\n');
  await expectStudentFigure(studentPage, [doneBefore, totalBefore + 1], true);

  // The student answers with a text and a picture.
  await visit(studentPage, `/courses/${course.id}?tab=assignments`);
  await studentPage.getByTestId('answer-open').click(slow);
  const answer = studentPage.getByRole('dialog', { name: 'Your answer to “Glaze test tiles”' });
  await expect(answer).toBeVisible();
  await answer.getByTestId('answer-send').click();
  await expect(answer.getByText('Write an answer or attach a file')).toBeVisible();
  await answer.getByTestId('answer-text').fill('Tiles fired at cone 6; the celadon crazed.');
  await answer
    .getByTestId('answer-file-input')
    .setInputFiles({ name: 'tiles.png', mimeType: 'image/png', buffer: png });
  await answer.getByTestId('answer-send').click();
  await expect(studentPage.getByText('Answer submitted')).toBeVisible();
  await expect(answer).toBeHidden();
  const mine = studentPage.getByTestId('my-submission');
  await expect(mine.getByTestId('submission-status')).toHaveText('Submitted');
  await expect(mine.getByTestId('my-submission-text')).toHaveText('Tiles fired at cone 6; the celadon crazed.');
  await expect(mine.getByTestId('my-submission-file')).toContainText('tiles.png');
  await expectStudentFigure(studentPage, [doneBefore + 1, totalBefore + 1]);
  await expectWaiting(teacherPage, waitingBefore + 1, true);

  // The teacher reads it and reviews it: the form wants a grade or a pass first.
  await visit(teacherPage, `/courses/${course.id}?tab=assignments`);
  await expect(teacherPage.getByTestId('assignment-waiting-count')).toHaveText('1 waiting for review', slow);
  await teacherPage.getByTestId('assignment-answers-toggle').click();
  const submission = teacherPage.getByTestId('submission');
  await expect(submission).toHaveAttribute('data-student', studentName);
  await expect(submission.getByTestId('submission-text')).toHaveText('Tiles fired at cone 6; the celadon crazed.');
  const answerFile = await teacherPage.request.get(
    (await submission.getByTestId('submission-file').getAttribute('href'))!,
  );
  expect(Buffer.from(await answerFile.body()).equals(png)).toBe(true);
  await submission.getByTestId('review-save').click();
  await expect(submission.getByText('Give a grade, or say pass or fail')).toBeVisible();
  await submission.getByTestId('review-grade').fill('87');
  await submission.getByTestId('review-passed').getByText('Pass').click();
  await submission.getByTestId('review-feedback').fill('Even glaze; try a slower cool.');
  await submission.getByTestId('review-save').click();
  await expect(teacherPage.getByText('Review saved')).toBeVisible();
  await expect(submission.getByTestId('submission-status')).toHaveText('Reviewed');
  await expectWaiting(teacherPage, waitingBefore);

  // The student sees the grade and the feedback, and can no longer replace the answer.
  await visit(studentPage, `/courses/${course.id}?tab=assignments`);
  const review = studentPage.getByTestId('my-review');
  await expect(review.getByTestId('my-grade')).toHaveText('87 / 100', slow);
  await expect(review.getByTestId('my-passed')).toHaveText('Pass');
  await expect(review.getByTestId('my-feedback')).toHaveText('Even glaze; try a slower cool.');
  await expect(studentPage.getByTestId('answer-open')).toHaveCount(0);
  await expectStudentFigure(studentPage, [doneBefore + 1, totalBefore + 1]);

  // The batch has not ended: the teacher is offered no award, and the server refuses one (409).
  await visit(teacherPage, `/my-courses/${course.id}/students`);
  await expect(teacherPage.getByTestId('certificate-not-yet')).toBeVisible(slow);
  await expect(teacherPage.getByTestId('award-certificate')).toHaveCount(0);
  const early = await request.post(pathOf(apiRoutes.certificates.award, { id: course.id }), { headers: auth(teacher), data: { student_id: studentId } });
  expect(early.status()).toBe(409);
  expect((await early.json()).message).toMatch(/^This student's batch ends on \d{4}-\d\d-\d\d: a certificate can be awarded once it has ended$/);

  // An admin awards it early, with a reason.
  const admin = await apiLogIn(request, 'admin@mooz.local');
  const adminPage = await openWindow(browser, admin, english, 'UTC');
  await visit(adminPage, `/my-courses/${course.id}/students`);
  await adminPage.getByTestId('award-certificate-early').click(slow);
  await adminPage.getByTestId('award-certificate-confirm').click();
  await expect(adminPage.getByText('Say why the certificate is awarded before the batch ends')).toBeVisible();
  await adminPage.getByTestId('award-certificate-reason').fill('Moves abroad; finished every module');
  await adminPage.getByTestId('award-certificate-confirm').click();
  await expect(adminPage.getByText('Certificate awarded')).toBeVisible();
  const href = (await adminPage.getByTestId('certificate-awarded-link').getAttribute('href'))!;
  const certificateId = decodeURIComponent(href.split('/').pop()!);
  await adminPage.context().close();
  // The teacher's page now links it: no second award is offered.
  await teacherPage.reload();
  await expect(teacherPage.getByTestId('certificate-awarded-link')).toHaveAttribute('href', href, slow);
  await expect(teacherPage.getByTestId('award-certificate')).toHaveCount(0);

  // Logged out, its page says it is genuine, and its PDF downloads.
  const visitor = await openWindow(browser, null, english, 'UTC');
  await visitor.goto(`/certificates/${certificateId}`);
  await expect(visitor.getByTestId('certificate-genuine')).toHaveText('Genuine certificate', slow);
  await expect(visitor.getByTestId('certificate-student')).toHaveText(studentName);
  await expect(visitor.getByTestId('certificate-course')).toHaveText(course.name);
  await expect(visitor.getByTestId('certificate-teacher')).toHaveText('Tara Teacher');
  await expect(visitor.getByTestId('certificate-dates')).toContainText(/\d{4}.+–.+\d{4}/);
  await expect(visitor.getByTestId('certificate-id')).toHaveText(certificateId);
  expect(
    await visitor.evaluate(
      () => localStorage.length === 0 || !Object.keys(localStorage).some((key) => /access/i.test(key)),
    ),
  ).toBe(true);
  const [download] = await Promise.all([
    visitor.waitForEvent('download'),
    visitor.getByTestId('certificate-download').click(),
  ]);
  const pdfPath = test.info().outputPath('certificate.pdf');
  await download.saveAs(pdfPath);
  expect(readFileSync(pdfPath).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  const pdf = await request.get((await visitor.getByTestId('certificate-download').getAttribute('href'))!);
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()['content-type']).toMatch(/^application\/pdf/);
  expect(pdfText(pdfPath)).toContain(studentName);
  if (existsSync('/usr/bin/pdftoppm')) {
    const prefix = test.info().outputPath('certificate-page');
    execFileSync('/usr/bin/pdftoppm', ['-png', '-r', '50', '-f', '1', '-l', '1', '-singlefile', pdfPath, prefix]);
    const rendered = readFileSync(`${prefix}.png`);
    expect(rendered.subarray(1, 4).toString('latin1')).toBe('PNG');
    await test.info().attach('certificate-page-1.png', { body: rendered, contentType: 'image/png' });
  }

  // A made-up id is not found.
  await visit(visitor, '/certificates/ZZZZZZZZZZZZZZZZ');
  await expect(visitor.getByTestId('certificate-not-found')).toContainText('No certificate with this id', slow);
});

test('the assignments tab and the verification page read well and pass axe in French and German, dark, right to left', async ({
  browser,
  request,
}) => {
  test.setTimeout(600_000);
  const teacher = await apiLogIn(request, 'teacher@mooz.local');
  const { course, student, studentId } = await boughtCourse(request, teacher, 'Lotte');
  const created = await request.post(pathOf(apiRoutes.assignments.create, { id: course.id }), {
    headers: auth(teacher),
    data: {
      title: 'Carnet de croquis',
      instructions: 'Dix croquis de bols,\nau crayon.',
      due_at: new Date(Date.now() + 3 * DAY + 3_600_000).toISOString(),
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const assignmentId = (await created.json()).data.id as number;
  await request.post(pathOf(apiRoutes.assignments.create, { id: course.id }), {
    headers: auth(teacher),
    data: { title: 'Retour sur la cuisson', instructions: '', due_at: null },
  });
  const submitted = await request.post(pathOf(apiRoutes.assignments.submit, { id: assignmentId }), {
    headers: auth(student),
    multipart: { text: 'Voici mes croquis.', file: { name: 'croquis.png', mimeType: 'image/png', buffer: png } },
  });
  expect(submitted.status(), await submitted.text()).toBe(200);
  // The batch has not begun: only an admin may award it now, with a reason.
  const admin = await apiLogIn(request, 'admin@mooz.local');
  const awarded = await request.post(pathOf(apiRoutes.certificates.award, { id: course.id }), {
    headers: auth(admin),
    data: { student_id: studentId, reason: 'Screens of the verification page' },
  });
  expect(awarded.status(), await awarded.text()).toBe(201);
  const certificateId = (await awarded.json()).data.id as string;

  for (const view of [look('fr', 'dark', true), look('de', 'dark', true)]) {
    const report = new AxeReport(view);
    const teacherPage = await openWindow(browser, teacher, view, 'Europe/Paris');
    await teacherPage.goto(`/courses/${course.id}?tab=assignments`);
    await expect(teacherPage.getByTestId('assignment-card')).toHaveCount(2, slow);
    await teacherPage.getByTestId('assignment-answers-toggle').first().click();
    await expect(teacherPage.getByTestId('review-form')).toBeVisible();
    await report.scan(teacherPage, 'assignments tab (teacher)');
    await shoot(teacherPage, `assignments-teacher-${view.lng}`);
    await teacherPage.getByTestId('assignment-new').click();
    await expect(teacherPage.getByRole('dialog')).toBeVisible();
    await report.scan(teacherPage, 'assignment editor');
    await shoot(teacherPage, `assignment-editor-${view.lng}`);

    const studentPage = await openWindow(browser, student, view, 'Europe/Berlin');
    await studentPage.goto(`/courses/${course.id}?tab=assignments`);
    await expect(studentPage.getByTestId('my-submission')).toBeVisible(slow);
    await report.scan(studentPage, 'assignments tab (student)');
    await shoot(studentPage, `assignments-student-${view.lng}`);
    await studentPage.getByTestId('answer-open').first().click();
    await expect(studentPage.getByRole('dialog')).toBeVisible();
    await report.scan(studentPage, 'answer form');
    await shoot(studentPage, `answer-form-${view.lng}`);

    const visitor = await openWindow(browser, null, view, 'UTC');
    await visitor.goto(`/certificates/${certificateId}`);
    await expect(visitor.getByTestId('certificate-card')).toHaveAttribute('data-state', 'genuine', slow);
    await report.scan(visitor, 'certificate verification');
    await shoot(visitor, `certificate-${view.lng}`);
    await visit(visitor, '/certificates/NOPE');
    await expect(visitor.getByTestId('certificate-not-found')).toBeVisible(slow);
    await settle(visitor, view);
    await shoot(visitor, `certificate-missing-${view.lng}`);
    await report.expectClean();
    for (const page of [teacherPage, studentPage, visitor]) await page.context().close();
  }
});
