// People in a live class, each in a window of one Chromium with the small fake camera (fake-camera.ts)
// launched for the spec: a signed-in window per person in a given look and width, a class
// session starting in a few minutes (its room is open now), and the wait until everyone is linked.
import { expect, type APIRequestContext, type BrowserContext, type Page } from '@playwright/test';
import { apiLogIn, look, newStudent, prepare, type Look, type SignedIn } from './a11y';
import { createCourse, scheduleClass } from './courses';
import { cameraWindows } from './fake-camera';
import { installMeetingProbe } from './meeting-probe';
import { startSignedIn } from './signed-in';

export const english = look('en', 'light', false);
export const frenchRtl = look('fr', 'dark', true);

type OpenWindow = (baseURL: string, who: SignedIn, name: string, view?: Look, width?: number) => Promise<Page>;

/**
 * The spec's camera windows (cameraWindows) and `open` for a person's window, signed in, in `view`,
 * with the meeting probe (meeting-probe.ts). `init` runs on the window's context before its page
 * opens (a spec's own probe).
 */
export function meetingWindows() {
  const windows = cameraWindows();
  return {
    async open(baseURL: string, who: SignedIn, name: string, view: Look = english, width = 1280, init?: (context: BrowserContext) => Promise<void>): Promise<Page> {
      const context = await windows.newWindow({ baseURL, viewport: { width, height: 800 } });
      await startSignedIn(context, { access: who.access, refresh: who.refresh, user: who.user }, name);
      await prepare(context, view);
      await installMeetingProbe(context);
      await init?.(context);
      return context.newPage();
    },
  };
}

/** In the room, linked to `others` people. */
export async function joined(page: Page, others: number) {
  await expect(page.getByTestId('meeting-room')).toHaveAttribute('data-phase', 'joined', { timeout: 60_000 });
  await expect(page.getByTestId('remote-tile')).toHaveCount(others, { timeout: 60_000 });
}

/** A new course of `teacher` with a class starting in a few minutes (its room is open now, to students in trial too). */
async function classSession(request: APIRequestContext, teacher: SignedIn, topic = 'Geometry') {
  const course = await createCourse(request, teacher, { name: `${topic} ${Date.now()}`, description: 'A class to try things in.', price: 50_000 });
  return scheduleClass(request, teacher, course.id, `${topic} live ${Date.now()}`);
}

/**
 * A class of the demo teacher with two new students, Sami and Lina (Lina in `linaView` at `linaWidth`),
 * each in a window `open` gives: the teacher comes in first, then the students, and all three are linked.
 */
export async function classOfThree(request: APIRequestContext, baseURL: string, open: OpenWindow, options: { topic?: string; linaView?: Look; linaWidth?: number } = {}) {
  const teacher = await apiLogIn(request, 'teacher@mooz.local');
  const session = await classSession(request, teacher, options.topic);
  const sami = (await newStudent(request, 'Sami')).session;
  const lina = (await newStudent(request, 'Lina')).session;
  const [tess, samiPage, linaPage] = await Promise.all([
    open(baseURL, teacher, 'Tess Teacher'),
    open(baseURL, sami, 'Sami Student'),
    open(baseURL, lina, 'Lina Student', options.linaView, options.linaWidth),
  ]);
  const room = `/meeting/${session.room_id}`;
  await tess.goto(room);
  await joined(tess, 0);
  await samiPage.goto(room);
  await linaPage.goto(room);
  await Promise.all([joined(tess, 2), joined(samiPage, 2), joined(linaPage, 2)]);
  return { teacher, session, sami, lina, tess, samiPage, linaPage, room };
}
