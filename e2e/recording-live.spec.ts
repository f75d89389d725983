// Recording a class live ("Recording in the meeting") in Chromium with fake cameras and
// microphones, each person in their own browser: the teacher of a course records its session with a
// student who bought it present; an admin who joins later sees who is recording; the teacher stops,
// and the recording is listed for the course and plays (time advances, the picture has a size, the
// duration is the recorded one). A second class is recorded and the teacher's tab is closed mid-way:
// what was already sent becomes a recording all the same. A third is recorded through a stall and a
// reload of the teacher's page: what the page kept in IndexedDB is sent by the next one.
import { expect, test, type APIRequestContext, type BrowserContext, type Page } from '@playwright/test';
import { apiRoutes } from '@mooz/contract/api-routes';
import { pathOf } from '@mooz/contract/endpoint';
import type { LiveRecording, Recording } from '@mooz/contract/recordings';
import { apiLogIn, auth, AxeReport, look, newStudent, type Look, type SignedIn } from './support/a11y';
import { createCourse, scheduleClass } from './support/courses';
import { toastsShown } from './support/meeting-probe';
import { english, meetingWindows } from './support/meeting-windows';
import { buyWeekdayBatch } from './support/purchase';

const frenchDarkRtl = look('fr', 'dark', true);
const nameOf = (who: SignedIn) => `${who.user.first_name} ${who.user.last_name}`;

const windows = meetingWindows();

test.describe.configure({ mode: 'serial' });

/** A new course of the demo teacher, bought by a new student, with a class that starts in a few minutes (its room is open now). */
async function classToRecord(request: APIRequestContext, teacher: SignedIn) {
  const course = await createCourse(request, teacher, { name: `Calligraphy ${Date.now()}`, description: 'Broad-edged pens, ink and paper.', price: 80_000 });
  const session = await scheduleClass(request, teacher, course.id, `Italic hand ${Date.now()}`);
  const student = (await newStudent(request, 'Sami')).session;
  await buyWeekdayBatch(request, student, course.id);
  return { course, session, student };
}

/**
 * A window signed in as `who` with their name as the meeting name. The page notes when each
 * MediaRecorder is started and stopped (performance.now()), to know how long the recording really is.
 * With `lateFrames`, its animation frames come late, as on a busy machine.
 */
function openWindow(baseURL: string, who: SignedIn, view: Look = english, lateFrames = false): Promise<Page> {
  return windows.open(baseURL, who, nameOf(who), view, 1280, (context) => noteRecorders(context, lateFrames));
}

async function noteRecorders(context: BrowserContext, lateFrames: boolean) {
  if (lateFrames) {
    // A busy machine's animation frames, made on purpose: each comes 0.7 s late.
    await context.addInitScript(() => {
      window.requestAnimationFrame = (callback) => setTimeout(() => callback(performance.now()), 700) as unknown as number;
      window.cancelAnimationFrame = (id) => clearTimeout(id);
    });
  }
  await context.addInitScript(() => {
    const times: { started?: number; stopped?: number }[] = [];
    (window as unknown as { __recorders: typeof times }).__recorders = times;
    // The calls, not the events: on a busy machine the events come seconds late, the media's clock does not.
    const { start, stop } = MediaRecorder.prototype;
    const entries = new WeakMap<MediaRecorder, (typeof times)[number]>();
    // Every chunk too, to measure what the browser recorded, as it recorded it.
    const chunks: Blob[] = [];
    (window as unknown as { __chunks: Blob[] }).__chunks = chunks;
    MediaRecorder.prototype.start = function (this: MediaRecorder, timeslice?: number) {
      const entry: (typeof times)[number] = { started: performance.now() };
      times.push(entry);
      entries.set(this, entry);
      this.addEventListener('dataavailable', (event) => chunks.push(event.data));
      return start.call(this, timeslice);
    };
    MediaRecorder.prototype.stop = function (this: MediaRecorder) {
      const entry = entries.get(this);
      if (entry && entry.stopped === undefined) entry.stopped = performance.now();
      return stop.call(this);
    };
  });
}

async function joinRoom(page: Page, roomId: string, others: number) {
  await page.goto(`/meeting/${roomId}`);
  // Generous: two cores run three windows, one of them encoding the recording.
  await expect(page.getByTestId('meeting-room')).toHaveAttribute('data-phase', 'joined', { timeout: 90_000 });
  await expect(page.locator('[data-testid="remote-tile"][data-has-video]')).toHaveCount(others, { timeout: 90_000 });
}

/**
 * The demo teacher's class to record (classToRecord), the teacher and the student in it, and the
 * recording the teacher started there: its id, as the student's notice gives it.
 */
async function recordingStarted(request: APIRequestContext, baseURL: string) {
  const teacher = await apiLogIn(request, 'teacher@mooz.local');
  const { course, session, student } = await classToRecord(request, teacher);
  const [teacherPage, studentPage] = await Promise.all([openWindow(baseURL, teacher), openWindow(baseURL, student)]);
  await teacherPage.goto(`/meeting/${session.room_id}`);
  await expect(teacherPage.getByTestId('meeting-room')).toHaveAttribute('data-phase', 'joined', { timeout: 90_000 });
  await joinRoom(studentPage, session.room_id, 1);

  await teacherPage.getByTestId('start-recording').click();
  await expect(studentPage.getByTestId('recording-notice')).toBeVisible();
  const id = Number(await studentPage.getByTestId('recording-notice').getAttribute('data-recording-id'));
  return { teacher, course, student, teacherPage, studentPage, id };
}

/** The live recording `id` as its teacher's API gives it (upload_offset: the bytes the server holds). */
async function liveStatus(request: APIRequestContext, teacher: SignedIn, id: number) {
  return (await (await request.get(pathOf(apiRoutes.recordings.liveStatus, { id }), { headers: auth(teacher) })).json()).data as LiveRecording;
}

/** The course's recordings as `who` sees them through the API. */
async function recordingsOf(request: APIRequestContext, who: SignedIn, courseId: number): Promise<Recording[]> {
  const response = await request.get(`${apiRoutes.recordings.list.path}?course_id=${courseId}`, { headers: auth(who) });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()).data as Recording[];
}

/**
 * How long what the page's MediaRecorder wrote plays, as the browser measures it: MediaRecorder's WebM
 * says no duration, so the player is sent past the end, where it learns it.
 */
function rawRecordingSeconds(page: Page, firstChunks?: number): Promise<number> {
  return page.evaluate(async (count) => {
    const chunks = (window as unknown as { __chunks: Blob[] }).__chunks.slice(0, count ?? undefined);
    const video = document.createElement('video');
    video.muted = true;
    video.src = URL.createObjectURL(new Blob(chunks, { type: 'video/webm' }));
    await new Promise((resolve) => (video.onloadedmetadata = resolve));
    if (!Number.isFinite(video.duration)) {
      const known = new Promise((resolve) => (video.ondurationchange = () => Number.isFinite(video.duration) && resolve(null)));
      video.currentTime = 1e101;
      await known;
    }
    return video.duration;
  }, firstChunks ?? null);
}

const chunkSizes = (page: Page) => page.evaluate(() => (window as unknown as { __chunks: Blob[] }).__chunks.map((chunk) => chunk.size));

/** The colour (r, g, b, averaged over 9×9 pixels) at each point of the recording's picture at `seconds`. */
function colorsAt(page: Page, url: string, seconds: number, points: [number, number][]) {
  return page.evaluate(
    async ({ src, seconds, points }) => {
      const video = document.createElement('video');
      video.muted = true;
      video.src = src;
      await new Promise((resolve) => (video.onloadedmetadata = resolve));
      video.currentTime = seconds;
      await new Promise((resolve) => (video.onseeked = resolve));
      const canvas = document.createElement('canvas');
      [canvas.width, canvas.height] = [video.videoWidth, video.videoHeight];
      const context = canvas.getContext('2d')!;
      context.drawImage(video, 0, 0);
      return points.map(([x, y]) => {
        const { data } = context.getImageData(x - 4, y - 4, 9, 9);
        const sum = [0, 0, 0];
        for (let i = 0; i < data.length; i += 4) for (const c of [0, 1, 2]) sum[c]! += data[i + c]!;
        return sum.map((value) => Math.round(value / 81));
      });
    },
    { src: url, seconds, points },
  );
}

/** Plays `url` in a <video> of `page` and reports what the browser makes of it. */
async function playIn(page: Page, url: string) {
  return page.evaluate(async (src) => {
    const video = document.createElement('video');
    video.muted = true;
    video.src = src;
    document.body.append(video);
    await new Promise<void>((resolve, reject) => {
      video.onloadedmetadata = () => resolve();
      video.onerror = () => reject(new Error(`the video did not load: ${video.error?.message}`));
    });
    const duration = video.duration;
    await video.play();
    const from = video.currentTime;
    await new Promise<void>((resolve) => {
      const check = () => (video.currentTime > from + 0.5 ? resolve() : requestAnimationFrame(check));
      check();
    });
    return { duration, videoWidth: video.videoWidth, videoHeight: video.videoHeight, from, to: video.currentTime };
  }, url);
}

test('the teacher records a class: everyone is told who records, and the recording is listed and plays', async ({ request, baseURL }) => {
  test.setTimeout(420_000);
  const teacher = await apiLogIn(request, 'teacher@mooz.local');
  const admin = await apiLogIn(request, 'admin@mooz.local');
  const { course, session, student } = await classToRecord(request, teacher);
  // The student's window is in French, dark, right to left.
  // The teacher's animation frames come late, as on a busy machine, where the recording once opened on
  // the placeholders painted before the cameras' first frames (its first frame is checked at the end).
  const [teacherPage, studentPage, adminPage] = await Promise.all([
    openWindow(baseURL!, teacher, english, true),
    openWindow(baseURL!, student, frenchDarkRtl),
    openWindow(baseURL!, admin),
  ]);

  await teacherPage.goto(`/meeting/${session.room_id}`);
  await expect(teacherPage.getByTestId('meeting-room')).toHaveAttribute('data-phase', 'joined', { timeout: 90_000 });
  await joinRoom(studentPage, session.room_id, 1);
  await expect(teacherPage.locator('[data-testid="remote-tile"][data-has-video]')).toHaveCount(1, { timeout: 90_000 });

  // Only the host is offered the button.
  await expect(studentPage.getByTestId('start-recording')).toHaveCount(0);
  const record = teacherPage.getByTestId('start-recording');
  await expect(record).toHaveAccessibleName('Start recording');
  await record.focus();
  await teacherPage.keyboard.press('Enter');

  const stop = teacherPage.getByTestId('stop-recording');
  await expect(stop).toBeVisible();
  await expect(stop).toHaveAccessibleName(/^Stop recording \d+:\d\d$/);
  const notice = `Recording — started by ${nameOf(teacher)}`;
  const frenchNotice = `Enregistrement en cours — lancé par ${nameOf(teacher)}`;
  await expect(teacherPage.getByTestId('recording-notice')).toHaveText(notice);
  // In right-to-left layouts the app isolates the text's direction (U+2068 … U+2069 around it).
  await expect(studentPage.getByTestId('recording-notice')).toContainText(frenchNotice);
  await expect(studentPage.getByRole('status').filter({ hasText: frenchNotice })).toBeVisible();
  const axe = new AxeReport(english);
  await axe.scan(teacherPage, 'meeting room, recording');
  await teacherPage.screenshot({ path: test.info().outputPath('recording-teacher.png') });
  const axeFrench = new AxeReport(frenchDarkRtl);
  await axeFrench.scan(studentPage, 'meeting room, being recorded');
  await studentPage.screenshot({ path: test.info().outputPath('recording-student-fr-dark-rtl.png') });

  // A late joiner (an admin) learns of the recording on joining (the notice is all it needs to see).
  await adminPage.goto(`/meeting/${session.room_id}`);
  await expect(adminPage.getByTestId('meeting-room')).toHaveAttribute('data-phase', 'joined', { timeout: 90_000 });
  await expect(adminPage.getByTestId('recording-notice')).toHaveText(notice);
  await expect(adminPage.getByRole('status').filter({ hasText: notice })).toBeVisible();
  // Admins may record, but not a room someone is recording already.
  await expect(adminPage.getByTestId('start-recording')).toHaveCount(0);

  // The elapsed time counts up on the Stop button.
  // (Its text holds the name for screen readers too: "Stop recording 0:12".)
  await expect(stop).toHaveText(/^Stop recording \d+:\d\d$/);
  const shown = (await stop.textContent())!;
  await expect(stop).not.toHaveText(shown);
  // The teacher shares a screen and stops again: the picture changes, the recording goes on.
  await teacherPage.getByTestId('toggle-screen').click();
  await expect(studentPage.getByTestId('remote-screen-tile')).toHaveAttribute('data-has-video', 'true', { timeout: 60_000 });
  await teacherPage.waitForTimeout(3_000);
  await teacherPage.getByTestId('toggle-screen').click();
  await expect(studentPage.getByTestId('remote-screen-tile')).toHaveCount(0, { timeout: 60_000 });
  // The class goes on for a few more seconds.
  await teacherPage.waitForTimeout(3_000);
  expect(await teacherPage.evaluate(() => (window as unknown as { __recorders: unknown[] }).__recorders.length), 'one MediaRecorder throughout').toBe(1);
  await stop.click();
  await expect(teacherPage.getByTestId('start-recording')).toBeVisible({ timeout: 60_000 });
  for (const page of [teacherPage, studentPage, adminPage]) await expect(page.getByTestId('recording-notice')).toHaveCount(0);
  await expect
    .poll(() => toastsShown(teacherPage))
    .toContain('Recording saved. You will find it under Recordings.');

  // The recorded length: what MediaRecorder wrote, as the browser plays it. On a loaded machine it is
  // shorter than the wall-clock time between Record and Stop (the media clock falls behind), never longer.
  const [times] = await teacherPage.evaluate(() => (window as unknown as { __recorders: { started: number; stopped: number }[] }).__recorders);
  const wallSeconds = (times!.stopped - times!.started) / 1000;
  const recordedSeconds = await rawRecordingSeconds(teacherPage);
  expect(recordedSeconds).toBeGreaterThan(5);
  expect(recordedSeconds).toBeLessThan(wallSeconds + 1);

  // The student finds it under the course, and it plays with its real length.
  await expect.poll(async () => (await recordingsOf(request, student, course.id)).length, { timeout: 60_000 }).toBe(1);
  const [recording] = await recordingsOf(request, student, course.id);
  expect(recording).toMatchObject({ course_id: course.id, session_id: session.id, room_id: session.room_id, mime_type: expect.stringMatching(/^video\/webm/) });
  expect(recording!.size_bytes).toBeGreaterThan(0);
  expect(Math.abs(recording!.duration_seconds - recordedSeconds), `recorded ${recordedSeconds} s (${wallSeconds} s by the clock), listed ${recording!.duration_seconds} s`).toBeLessThan(1);
  const played = await playIn(studentPage, recording!.url);
  expect(played.videoWidth).toBeGreaterThan(0);
  expect(played.to).toBeGreaterThan(played.from);
  expect(Number.isFinite(played.duration)).toBe(true);
  expect(Math.abs(played.duration - recordedSeconds), `recorded ${recordedSeconds} s, plays ${played.duration} s`).toBeLessThan(1);
  // Its very first frame, the picture a player shows before Play, is the two cameras side by side (the
  // fake camera's brown and orange, not a placeholder's blue-grey): the middle of each half of the
  // 1280×720 picture, above the names.
  const [left, right] = await colorsAt(studentPage, recording!.url, 0, [
    [320, 300],
    [960, 300],
  ]);
  for (const [r, , b] of [left!, right!]) expect(r! - b!, `camera colours ${JSON.stringify([left, right])}`).toBeGreaterThan(40);
  await axe.expectClean();
  await axeFrench.expectClean();
});

test('a recording whose tab is closed mid-way keeps what was already sent', async ({ request, baseURL }) => {
  test.setTimeout(420_000);
  const { teacher, course, student, teacherPage, studentPage, id } = await recordingStarted(request, baseURL!);
  // Three chunks are recorded (one every recordingLimits.chunkIntervalMs) and the server holds them...
  await expect.poll(async () => (await chunkSizes(teacherPage)).length, { timeout: 60_000 }).toBeGreaterThanOrEqual(3);
  const sentBytes = (await chunkSizes(teacherPage)).slice(0, 3).reduce((sum, size) => sum + size, 0);
  await expect
    .poll(async () => (await liveStatus(request, teacher, id)).upload_offset, { timeout: 60_000 })
    .toBeGreaterThanOrEqual(sentBytes);
  const sentSeconds = await rawRecordingSeconds(teacherPage, 3);
  const recordedSeconds = await rawRecordingSeconds(teacherPage);
  // How long the recorder has run: the recording cannot hold more than that, whatever it has handed over
  // yet (on a loaded machine its chunks come late, so what it holds can be more than one interval).
  const ranSeconds = await teacherPage.evaluate(() => {
    const started = (window as unknown as { __recorders: { started?: number }[] }).__recorders.at(-1)!.started!;
    return (performance.now() - started) / 1000;
  });
  const measuredAt = Date.now();
  // ...then the tab is gone, without a goodbye. The recorder runs until it is: what it records between
  // the measure above and the close (seconds on a loaded machine) may reach the server too.
  await teacherPage.close();
  const untilClosedSeconds = (Date.now() - measuredAt) / 1000;

  // The server finishes it with what it has (the tab's last word, or the recorder leaving the room); the room is told.
  await expect(studentPage.getByTestId('recording-notice')).toHaveCount(0, { timeout: 60_000 });
  await expect.poll(async () => (await recordingsOf(request, student, course.id)).length, { timeout: 90_000 }).toBe(1);
  const [recording] = await recordingsOf(request, student, course.id);
  expect(recording!.id).toBe(id);
  expect(recording!.size_bytes).toBeGreaterThanOrEqual(sentBytes);
  // All that had reached the server, and no more than the recorder can have recorded before the tab
  // closed (half a second for the media clock's start and last frame).
  const about = `sent ${sentSeconds} s, recorded ${recordedSeconds} s by a recorder running ${ranSeconds} s, ${untilClosedSeconds} s before the tab closed, listed ${recording!.duration_seconds} s`;
  expect(recording!.duration_seconds, about).toBeGreaterThan(sentSeconds - 0.5);
  expect(recording!.duration_seconds, about).toBeLessThan(ranSeconds + untilClosedSeconds + 0.5);
  const played = await playIn(studentPage, recording!.url);
  expect(played.videoWidth).toBeGreaterThan(0);
  expect(Number.isFinite(played.duration)).toBe(true);
  expect(Math.abs(played.duration - recording!.duration_seconds)).toBeLessThan(1);
});

test('a teacher who reloads the page mid-recording loses nothing that was recorded: the next page sends the rest', async ({ request, baseURL }) => {
  test.setTimeout(420_000);
  const { teacher, course, student, teacherPage, studentPage, id } = await recordingStarted(request, baseURL!);
  // Two chunks reach the server...
  await expect.poll(async () => (await chunkSizes(teacherPage)).length, { timeout: 60_000 }).toBeGreaterThanOrEqual(2);
  const firstBytes = (await chunkSizes(teacherPage)).slice(0, 2).reduce((sum, size) => sum + size, 0);
  await expect.poll(async () => (await liveStatus(request, teacher, id)).upload_offset, { timeout: 60_000 }).toBeGreaterThanOrEqual(firstBytes);

  // ...then the network stalls for the appends, while the class and its recording go on.
  const appends = new RegExp(`${apiRoutes.recordings.appendLive.path.replace(':id', '\\d+')}$`);
  await teacherPage.route(appends, (route) => (route.request().method() === 'PATCH' ? route.abort('connectionreset') : route.continue()));
  const stalledAt = (await chunkSizes(teacherPage)).length;
  await expect.poll(async () => (await chunkSizes(teacherPage)).length, { timeout: 60_000 }).toBeGreaterThanOrEqual(stalledAt + 3);
  const recordedBytes = (await chunkSizes(teacherPage)).reduce((sum, size) => sum + size, 0);
  const recordedSeconds = await rawRecordingSeconds(teacherPage);
  expect((await liveStatus(request, teacher, id)).upload_offset, 'the stall held the chunks back').toBeLessThan(recordedBytes);
  // The page keeps what the server lacks in IndexedDB (written as each chunk comes).
  await expect
    .poll(() =>
      teacherPage.evaluate(
        () =>
          new Promise<number>((resolve) => {
            const open = indexedDB.open('mooz-recording-chunks');
            open.onsuccess = () => {
              const count = open.result.transaction('chunks').objectStore('chunks').count();
              count.onsuccess = () => resolve(count.result);
            };
          }),
      ),
    )
    .toBeGreaterThanOrEqual(3);

  // The teacher reloads (the unload finish goes out; the server makes what it has into a recording).
  await teacherPage.reload();
  await expect.poll(async () => (await liveStatus(request, teacher, id)).status, { timeout: 60_000 }).not.toBe('recording');
  // The network comes back: the new page sends what the old one kept, and finishes.
  await teacherPage.unroute(appends);
  await expect.poll(async () => (await liveStatus(request, teacher, id)).upload_offset, { timeout: 90_000 }).toBeGreaterThanOrEqual(recordedBytes);
  await expect.poll(async () => (await liveStatus(request, teacher, id)).accepts_chunks, { timeout: 60_000 }).toBe(false);

  // One recording, with all that was recorded before the reload, playing.
  await expect.poll(async () => (await recordingsOf(request, student, course.id)).map((r) => r.id), { timeout: 90_000 }).toEqual([id]);
  await expect.poll(async () => (await liveStatus(request, teacher, id)).status, { timeout: 60_000 }).toBe('ready');
  const [recording] = await recordingsOf(request, student, course.id);
  expect(recording!.duration_seconds, `recorded ${recordedSeconds} s before the reload, listed ${recording!.duration_seconds} s`).toBeGreaterThan(recordedSeconds - 0.5);
  const played = await playIn(studentPage, recording!.url);
  expect(played.videoWidth).toBeGreaterThan(0);
  expect(Math.abs(played.duration - recording!.duration_seconds)).toBeLessThan(1);
});
