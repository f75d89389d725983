// Recordings in Chromium ("Uploading a file" and "Watching"): the demo teacher cancels an
// upload, then uploads a WebM file from disk on a session and watches the progress bar reach the end
// and the success toast; a student who bought the course finds it under Recordings → the course → the
// player, where the video really plays (time advances, frames have a size, the duration is the
// recorded one), at 2× and back from the keyboard, and a reload resumes where they were; a student of
// another course is told the recording does not exist; the teacher deletes it. A list that fails to
// load says so and tries again. The pages and dialogs are scanned with axe, and shot at 1280 and
// 390 px, in English and in French, dark, right to left.
import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { apiRoutes } from '@mooz/contract/api-routes';
import { pathOf } from '@mooz/contract/endpoint';
import { apiLogIn, auth, AxeReport, look, newStudent, prepare, type Look, type SignedIn } from './support/a11y';
import { createCourse, nextMonday, scheduleClass } from './support/courses';
import { buyWeekdayBatch } from './support/purchase';

const english = look('en', 'light', false);
const frenchDarkRtl = look('fr', 'dark', true);

async function signedInPage(browser: Browser, who: SignedIn, view: Look = english, width = 1280): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  await prepare(context, view, who);
  return context.newPage();
}

async function shoot(page: Page, name: string) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    // The whole page, but no taller than two screens (a long list says enough in its first rows).
    const height = Math.min(await page.evaluate(() => document.documentElement.scrollHeight), 1800);
    await page.screenshot({ path: test.info().outputPath(`${name}-${width}.png`), fullPage: true, clip: { x: 0, y: 0, width, height } });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** A new published course of the demo teacher, with a class scheduled soon. */
async function courseWithSession(request: APIRequestContext, teacher: SignedIn) {
  const start = nextMonday();
  const name = `Bookbinding ${Date.now()}`;
  const course = await createCourse(request, teacher, { name, description: 'Folding, sewing and casing in.', price: 90_000, batch_start_dates: [start] });
  const title = `Coptic stitch ${Date.now()}`;
  // Soon, so it is near the top of the teacher's list.
  return { course, session: await scheduleClass(request, teacher, course.id, title, 30 * 60_000) };
}

/**
 * A real WebM made the way a browser records one: MediaRecorder on a canvas that animates for `seconds`.
 * Returns the bytes and the length actually recorded.
 */
async function recordWebm(browser: Browser, seconds: number): Promise<{ buffer: Buffer; recordedSeconds: number }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.setContent('<canvas width="640" height="360"></canvas>');
  const result = await page.evaluate(async (ms) => {
    const canvas = document.querySelector('canvas')!;
    const g = canvas.getContext('2d')!;
    let frame = 0;
    const draw = () => {
      frame++;
      g.fillStyle = `hsl(${(frame * 3) % 360} 60% 40%)`;
      g.fillRect(0, 0, 640, 360);
      g.fillStyle = '#fff';
      g.fillRect((frame * 8) % 640, 150, 60, 60);
      g.font = '48px sans-serif';
      g.fillText(`frame ${frame}`, 40, 80);
    };
    draw();
    const timer = setInterval(draw, 1000 / 30);
    const recorder = new MediaRecorder(canvas.captureStream(30), { mimeType: 'video/webm;codecs=vp8' });
    const chunks: Blob[] = [];
    recorder.ondataavailable = (event) => chunks.push(event.data);
    const stopped = new Promise((resolve) => (recorder.onstop = resolve));
    const started = performance.now();
    recorder.start(1000);
    await new Promise((resolve) => setTimeout(resolve, ms));
    recorder.stop();
    await stopped;
    clearInterval(timer);
    const bytes = new Uint8Array(await new Blob(chunks, { type: 'video/webm' }).arrayBuffer());
    let binary = '';
    for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return { base64: btoa(binary), recordedSeconds: (performance.now() - started) / 1000 };
  }, seconds * 1000);
  await context.close();
  return { buffer: Buffer.from(result.base64, 'base64'), recordedSeconds: result.recordedSeconds };
}

const videoState = (page: Page) =>
  page.getByTestId('recording-video').evaluate((video: HTMLVideoElement) => ({
    currentTime: video.currentTime,
    duration: video.duration,
    videoWidth: video.videoWidth,
    paused: video.paused,
    playbackRate: video.playbackRate,
  }));

/** What the steps below share: made once, used in order (a step needs the ones before it). */
interface Story {
  teacher: SignedIn;
  buyer: SignedIn;
  outsider: SignedIn;
  course: { id: number; name: string };
  session: { id: number; title: string; room_id: string };
  webm: { buffer: Buffer; recordedSeconds: number };
  playerPath?: string;
}

test.describe.serial('a recording uploaded from disk and watched', () => {
  // A busy two-core machine loads a screen in seconds, and each step scans and shoots several.
  test.describe.configure({ timeout: 180_000 });
  let story: Story;

  test.beforeAll(async ({ browser, request }) => {
    test.setTimeout(180_000);
    const teacher = await apiLogIn(request, 'teacher@mooz.local');
    const { course, session } = await courseWithSession(request, teacher);
    const buyer = await newStudent(request, 'Binder');
    await buyWeekdayBatch(request, buyer.session, course.id);
    // A student of another course (one of the demo catalogue's), past their trial because they bought it.
    const outsider = await newStudent(request, 'Outsider');
    const catalogue = (await (await request.get(apiRoutes.courses.catalogue.path, { headers: auth(outsider.session) })).json()).data as { id: number; name: string }[];
    await buyWeekdayBatch(request, outsider.session, catalogue.find((c) => c.name === 'UI/UX Design Foundations')!.id);
    // Long enough that a resume point after a few seconds at 2× is not near its end (where the player starts over).
    const webm = await recordWebm(browser, 20);
    expect(webm.buffer.subarray(0, 4).toString('hex'), 'an EBML header').toBe('1a45dfa3');
    story = { teacher, buyer: buyer.session, outsider: outsider.session, course, session, webm };
  });

  test('the teacher cancels an upload, then uploads it on the session and sees the bar reach the end and the success toast', async ({ browser }) => {
    const { teacher, session, webm } = story;
    const axe = new AxeReport(english);
    const page = await signedInPage(browser, teacher);
    // Notes the file names forms are given (the request body of a large upload is not kept by the browser's tools).
    await page.addInitScript(() => {
      const names: string[] = ((window as unknown as { __fileNames: string[] }).__fileNames = []);
      const append = FormData.prototype.append;
      FormData.prototype.append = function (this: FormData, ...args: [string, string | Blob, string?]) {
        if (args[2]) names.push(`${args[0]}:${args[2]}`);
        return append.apply(this, args as Parameters<FormData['append']>);
      };
    });
    await page.goto('/sessions');
    const row = page.getByTestId('session-row').filter({ hasText: session.title });
    await expect(row).toBeVisible({ timeout: 60_000 });
    await row.getByTestId('upload-recording-button').click();
    const dialog = page.getByRole('dialog', { name: `Upload a recording of “${session.title}”` });
    await expect(dialog).toBeVisible();
    // Zeros named .webm: the browser reads the first bytes, says it is no WebM, and sends nothing.
    await dialog.getByTestId('upload-file-input').setInputFiles({ name: 'zeros.webm', mimeType: 'video/webm', buffer: Buffer.alloc(256 * 1024) });
    await expect(dialog.getByText('This file is named like a WebM video but is not one inside. Choose the recording itself.')).toBeVisible();
    await expect(dialog.getByTestId('upload-submit')).toBeDisabled();
    await dialog.getByTestId('upload-file-input').setInputFiles({ name: 'my-class.webm', mimeType: 'video/webm', buffer: webm.buffer });
    await expect(dialog.getByTestId('upload-file-name')).toHaveText('my-class.webm');
    await expect(dialog.getByTestId('upload-submit')).toBeEnabled();
    await axe.scan(page, 'upload dialog');
    await shoot(page, 'upload-dialog');

    // Cancel stops an upload under way: the dialog is ready again, with no error and nothing said failed.
    const uploadUrl = new RegExp(`${pathOf(apiRoutes.recordings.upload, { roomId: session.room_id })}$`);
    await page.route(uploadUrl, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 5000));
      await route.continue().catch(() => undefined);
    });
    await dialog.getByTestId('upload-submit').click();
    await expect(dialog.getByTestId('upload-progress')).toBeVisible();
    await dialog.getByTestId('upload-cancel').click();
    await expect(dialog.getByTestId('upload-submit')).toBeVisible();
    await expect(dialog.getByTestId('upload-error')).toHaveCount(0);
    await expect(page.getByText('Failed to upload recording')).toHaveCount(0);
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    await dialog.getByTestId('upload-file-input').setInputFiles({ name: 'my-class.webm', mimeType: 'video/webm', buffer: webm.buffer });

    const uploaded = page.waitForResponse((response) => response.url().includes(`/sessions/${session.room_id}/upload-recording/`));
    await dialog.getByTestId('upload-submit').click();
    const response = await uploaded;
    expect(response.status()).toBe(201);
    // The file went as the spec names it (both times: the cancelled upload and this one).
    const names = await page.evaluate(() => (window as unknown as { __fileNames: string[] }).__fileNames);
    expect(new Set(names)).toEqual(new Set([`recording:${session.room_id}-${(teacher.user as { id: number }).id}.webm`]));
    // The success toast shows for 2 s: look for it first.
    await expect(page.getByText('Recording uploaded successfully')).toBeVisible();
    await expect(dialog.getByTestId('upload-success')).toBeVisible();
    await expect(dialog.getByTestId('upload-progress')).toHaveAttribute('data-percent', '100');
    await expect(dialog.getByTestId('upload-percent')).toHaveText('100%');
    await shoot(page, 'upload-done');
    await page.context().close();
    await axe.expectClean();
  });

  test('a buyer finds it under Recordings → the course, and it plays, at 2× from the keyboard', async ({ browser }) => {
    const { buyer, course, session, webm } = story;
    const axe = new AxeReport(english);
    const page = await signedInPage(browser, buyer);
    // The course's page leads to its recordings; so does Recordings in the menu.
    await page.goto(`/courses/${course.id}`);
    await expect(page.getByTestId('course-recordings-link')).toHaveAttribute('href', `/recordings/course/${course.id}`, { timeout: 60_000 });
    await page.goto('/dashboard');
    await page.getByTestId('menu-recordings').click();
    await expect(page).toHaveURL(/\/recordings$/);
    const card = page.getByTestId('recording-course-card').filter({ hasText: course.name });
    await expect(card.getByTestId('recording-course-count')).toHaveText('1 recording');
    await axe.scan(page, 'recordings');
    await shoot(page, 'recordings');
    await card.click();
    await expect(page).toHaveURL(new RegExp(`/recordings/course/${course.id}$`));
    const recordingRow = page.getByTestId('recording-row');
    await expect(recordingRow).toHaveCount(1);
    await expect(recordingRow).toContainText(session.title);
    await axe.scan(page, 'course recordings');
    await shoot(page, 'course-recordings');
    await recordingRow.getByTestId('recording-link').click();
    await expect(page).toHaveURL(/\/recordings\/\d+$/);
    story.playerPath = new URL(page.url()).pathname;
    await expect.poll(async () => (await videoState(page)).duration, { message: 'the video has loaded its length' }).toBeGreaterThan(0);

    // Plays from the keyboard (k), then twice as fast (> four times from 1×: 1.25, 1.5, 1.75, 2), and back.
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('k');
    await expect.poll(async () => (await videoState(page)).currentTime).toBeGreaterThan(1);
    for (let i = 0; i < 4; i++) await page.keyboard.press('>');
    await expect(page.getByTestId('speed-control').getByRole('radio', { name: '2×' })).toBeChecked();
    const playing = await videoState(page);
    expect(playing.playbackRate).toBe(2);
    expect(playing.paused).toBe(false);
    expect(playing.videoWidth).toBeGreaterThan(0);
    // The stored file carries its length (the server makes MediaRecorder's WebM seekable): the player
    // knows it, and it is the length recorded.
    expect(Number.isFinite(playing.duration), `duration ${playing.duration}`).toBe(true);
    expect(Math.abs(playing.duration - webm.recordedSeconds)).toBeLessThan(1);
    for (let i = 0; i < 4; i++) await page.keyboard.press('<');
    await expect(page.getByTestId('speed-control').getByRole('radio', { name: '1×' })).toBeChecked();
    await expect.poll(async () => (await videoState(page)).currentTime, { timeout: 30_000 }).toBeGreaterThan(6);

    // Paused (k), back to the start (j twice: 10 s each, no further than 0) and on 10 s (l).
    await page.keyboard.press('k');
    await expect.poll(async () => (await videoState(page)).paused).toBe(true);
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    await expect.poll(async () => (await videoState(page)).currentTime).toBe(0);
    await page.keyboard.press('l');
    await expect.poll(async () => (await videoState(page)).currentTime).toBe(10);

    // A reload (the report goes out as the page is left) comes back at the same moment.
    const progress = page.waitForRequest((r) => r.method() === 'POST' && /\/recordings\/\d+\/progress\/$/.test(r.url()));
    await page.reload();
    const sent = (await progress).postDataJSON() as { position_seconds: number; spans: [number, number][] };
    expect(sent.position_seconds).toBe(10);
    await expect(page.getByTestId('resume-notice')).toBeVisible({ timeout: 60_000 });
    await expect(page.getByTestId('resume-notice')).toContainText('0:10');
    expect((await videoState(page)).currentTime).toBe(10);
    await page.getByTestId('shortcuts-button').click();
    await expect(page.getByTestId('shortcuts-help')).toBeVisible();
    await axe.scan(page, 'player with the shortcuts');
    await page.keyboard.press('Escape');
    await shoot(page, 'player');
    await page.context().close();
    await axe.expectClean();
  });

  test('the server counted what was played, once', async ({ request }) => {
    const { buyer, webm, playerPath } = story;
    const id = Number(playerPath!.split('/').pop());
    const stored = (await (await request.get(pathOf(apiRoutes.recordings.get, { id }), { headers: auth(buyer) })).json()).data as {
      position_seconds: number;
      watched_seconds: number;
    };
    expect(stored.position_seconds).toBeGreaterThan(5);
    expect(stored.watched_seconds).toBeGreaterThan(5);
    expect(stored.watched_seconds).toBeLessThanOrEqual(webm.recordedSeconds + 0.5);
  });

  test("another course's student gets the not-found page at the player's address", async ({ browser }) => {
    const page = await signedInPage(browser, story.outsider);
    await page.goto(story.playerPath!);
    await expect(page.getByTestId('not-found')).toBeVisible({ timeout: 60_000 });
    await expect(page.getByTestId('recording-video')).toHaveCount(0);
    await page.context().close();
  });

  test('the same pages in French, dark, right to left', async ({ browser }) => {
    const { buyer, course, playerPath } = story;
    const axe = new AxeReport(frenchDarkRtl);
    const page = await signedInPage(browser, buyer, frenchDarkRtl);
    await page.goto('/recordings');
    await expect(page.getByTestId('recording-course-card').first()).toBeVisible({ timeout: 60_000 });
    // Right to left, each translated run is wrapped in Unicode isolates (lib/bidi.ts).
    await expect(page.getByTestId('recording-course-count').first()).toHaveText(/^\u2068?1 enregistrement\u2069?$/);
    await axe.scan(page, 'recordings');
    await shoot(page, 'fr-rtl-dark-recordings');
    await page.goto(`/recordings/course/${course.id}`);
    await expect(page.getByTestId('recording-row')).toHaveCount(1, { timeout: 60_000 });
    await axe.scan(page, 'course recordings');
    await shoot(page, 'fr-rtl-dark-course-recordings');
    await page.goto(playerPath!);
    await expect.poll(async () => (await videoState(page)).duration, { timeout: 60_000 }).toBeGreaterThan(0);
    await axe.scan(page, 'player');
    await shoot(page, 'fr-rtl-dark-player');
    await page.context().close();
    await axe.expectClean();
  });

  test("the teacher's dialogs in French, dark, right to left; deleting empties the course's list", async ({ browser }) => {
    const { teacher, course, session, webm } = story;
    const axe = new AxeReport(frenchDarkRtl);
    const page = await signedInPage(browser, teacher, frenchDarkRtl);
    await page.goto('/sessions');
    const row = page.getByTestId('session-row').filter({ hasText: session.title });
    await expect(row).toBeVisible({ timeout: 60_000 });
    await row.getByTestId('upload-recording-button').click();
    const upload = page.getByTestId('upload-recording');
    await upload.getByTestId('upload-file-input').setInputFiles({ name: 'cours.webm', mimeType: 'video/webm', buffer: webm.buffer });
    await expect(upload.getByTestId('upload-file-name')).toHaveText('cours.webm');
    await axe.scan(page, 'upload dialog');
    await shoot(page, 'fr-rtl-dark-upload-dialog');
    await page.keyboard.press('Escape');
    await expect(upload).toBeHidden();

    await page.goto(`/recordings/course/${course.id}`);
    await page.getByTestId('delete-recording-button').click();
    const confirm = page.getByRole('dialog', { name: /^\u2068?Supprimer « Coptic stitch/ });
    await expect(confirm).toBeVisible({ timeout: 60_000 });
    await axe.scan(page, 'delete dialog');
    await shoot(page, 'fr-rtl-dark-delete-dialog');
    await confirm.getByTestId('delete-recording-confirm').click();
    await expect(page.getByText('Enregistrement supprimé')).toBeVisible();
    await expect(page.getByTestId('course-recordings-empty')).toBeVisible();
    await page.context().close();
    await axe.expectClean();
  });
});

test('a student with no recordings is invited to the sessions and the courses', async ({ browser, request }) => {
  test.setTimeout(120_000);
  // Past the trial (which would show the open classes of every course), with a course nobody records.
  const student = await newStudent(request, 'Empty');
  const catalogue = (await (await request.get(apiRoutes.courses.catalogue.path, { headers: auth(student.session) })).json()).data as { id: number; name: string }[];
  await buyWeekdayBatch(request, student.session, catalogue.find((c) => c.name === 'Data Science with Python')!.id);
  const page = await signedInPage(browser, student.session);
  // First the list fails (a server error without a message): the spec's toast, and a way to try again.
  await page.route(new RegExp(`${apiRoutes.recordings.list.path}(\\?.*)?$`), (route) => route.fulfill({ status: 500, body: '' }));
  await page.goto('/recordings');
  await expect(page.getByTestId('recordings-error')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole('status').filter({ hasText: 'Failed to fetch recorded videos' }).first()).toBeVisible();
  await page.unrouteAll();
  await page.getByTestId('recordings-error').getByRole('button', { name: 'Try again' }).click();
  const empty = page.getByTestId('recordings-empty');
  await expect(empty).toBeVisible({ timeout: 60_000 });
  await expect(empty.getByRole('link', { name: 'Go to sessions' })).toHaveAttribute('href', '/sessions');
  await expect(empty.getByRole('link', { name: 'Browse courses' })).toHaveAttribute('href', '/courses');
  const axe = new AxeReport(english);
  await axe.scan(page, 'recordings, empty');
  await shoot(page, 'recordings-empty');
  await page.context().close();
  await axe.expectClean();
});
