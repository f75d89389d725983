// People in a live class, each in a window of one Chromium with the small fake camera (fake-camera.ts)
// launched for the spec: a signed-in window per person in a given look and width, a class
// session starting in a few minutes (its room is open now), and the wait until everyone is linked.
import { expect, test, type APIRequestContext, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { look, prepare, type Look, type SignedIn } from './a11y';
import { cameraBrowser } from './fake-camera';
import { installMeetingProbe } from './meeting-probe';
import { startSignedIn } from './signed-in';

export const english = look('en', 'light', false);
export const frenchRtl = look('fr', 'dark', true);
export const bearer = (who: SignedIn) => ({ Authorization: `Bearer ${who.access}` });
const DAY = 86_400_000;

/**
 * The spec's camera browser (launched before its tests, closed after), and `open` for a person's
 * window in it; the windows are closed after each test. `init` runs on the window's context
 * before its page opens (a spec's own probe).
 */
export function meetingWindows() {
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];
  test.beforeAll(async () => {
    browser = await cameraBrowser();
  });
  test.afterEach(async () => {
    await Promise.all(contexts.splice(0).map((context) => context.close()));
  });
  test.afterAll(async () => {
    await browser?.close();
  });
  return {
    async open(baseURL: string, who: SignedIn, name: string, view: Look = english, width = 1280, init?: (context: BrowserContext) => Promise<void>): Promise<Page> {
      const context = await browser!.newContext({ baseURL, viewport: { width, height: 800 } });
      contexts.push(context);
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

function nextMonday(): string {
  const day = new Date(Date.now() + 7 * DAY);
  while (day.getUTCDay() !== 1) day.setTime(day.getTime() + DAY);
  return day.toISOString().slice(0, 10);
}

/** A new course of `teacher` with a class starting in a few minutes (its room is open now, to students in trial too). */
export async function classSession(request: APIRequestContext, teacher: SignedIn, topic = 'Geometry') {
  const created = await request.post('/api/courses/', {
    headers: bearer(teacher),
    data: {
      name: `${topic} ${Date.now()}`,
      description: 'A class to try things in.',
      price: 50_000,
      duration_weeks: 4,
      batch_start_dates: [nextMonday()],
      weekday_times: ['09:00'],
      weekend_times: [],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const course = (await created.json()).data as { id: number };
  const scheduled = await request.post('/api/classes/sessions/', {
    headers: bearer(teacher),
    data: { course_id: course.id, title: `${topic} live ${Date.now()}`, starts_at: new Date(Date.now() + 5 * 60_000).toISOString(), duration_minutes: 60 },
  });
  expect(scheduled.status(), await scheduled.text()).toBe(201);
  return (await scheduled.json()).data as { id: number; title: string; room_id: string };
}
