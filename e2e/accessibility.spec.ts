// Accessibility: axe scans every page and every dialog, and fails on any critical or serious violation.
//
// The matrix: every screen in four looks, which between them cover each language, each skin and
// each direction (all 16 combinations would only repeat the same checks four times over):
//
//   | look            | language | skin  | direction |
//   | en light ltr    | en       | light | ltr       |
//   | fr dark rtl     | fr       | dark  | rtl       |
//   | de light rtl    | de       | light | rtl       |
//   | pt dark ltr     | pt       | dark  | ltr       |
//
// Screens: public (login and its language menu, register, verify with the code boxes, forgot password
// and its code step, a course for visitors, not found, not authorized); a student (dashboard, search,
// settings drawer, user menu, courses, a course, the enroll dialog and its date list, the sandbox
// checkout dialog, my courses, sessions, recordings, profile, change password, meeting lobby, not found,
// not authorized); a teacher (my courses, new and edited course, sessions, the schedule and upload
// recording dialogs); a meeting (the lobby with the create form, the room with the invite popover, the side panel's chats,
// the floating chat, a refused room). The students are new ones, so other specs find the demo
// student untouched.
import { expect, test, type Page } from '@playwright/test';
import { fakeMediaBrowser } from './support/fake-camera';
import { apiLogIn, AxeReport, look, newStudent, prepare, type Look } from './support/a11y';

// A scan takes a few seconds on a busy two-core machine, and each test makes a dozen or more.
test.describe.configure({ timeout: 240_000 });

const looks: Look[] = [look('en', 'light', false), look('fr', 'dark', true), look('de', 'light', true), look('pt', 'dark', false)];

const dialog = (page: Page) => page.getByRole('dialog');

async function visit(page: Page, path: string, testId: string) {
  await page.goto(path);
  await expect(page.getByTestId(testId).first()).toBeVisible();
}

/** Visits and scans each page: its path, the test id that says it has loaded, its name in the report. */
async function scanPages(page: Page, axe: AxeReport, pages: [path: string, testId: string, name: string][]) {
  for (const [path, testId, name] of pages) {
    await visit(page, path, testId);
    await axe.scan(page, name);
  }
}

for (const view of looks) {
  test.describe(view.name, () => {
    test(`public pages [${view.name}]`, async ({ page, context }) => {
      const axe = new AxeReport(view);
      await prepare(context, view);

      await visit(page, '/login', 'login-form');
      await axe.scan(page, 'login');
      await page.getByTestId('language-switcher').click();
      await expect(page.getByRole('menu')).toBeVisible();
      await axe.scan(page, 'login: language menu');
      await page.keyboard.press('Escape');

      await visit(page, '/register', 'register-form');
      await axe.scan(page, 'register');

      await visit(page, `/verify?email=${encodeURIComponent('someone@example.test')}`, 'otp-input');
      await axe.scan(page, 'verify (code boxes)');

      await visit(page, '/forgot-password', 'forgot-form');
      await axe.scan(page, 'forgot password');
      await page.getByTestId('forgot-form').getByRole('textbox').first().fill(`nobody-${Date.now()}@example.test`);
      await page.getByTestId('forgot-submit').click();
      await expect(page.getByTestId('otp-input')).toBeVisible();
      await axe.scan(page, 'forgot password: code step');

      await scanPages(page, axe, [
        ['/courses/1', 'course-login-required', 'course, signed out'],
        ['/no/such/page', 'not-found', 'not found, signed out'],
        ['/not-authorized', 'not-authorized', 'not authorized, signed out'],
      ]);

      await axe.expectClean();
    });

    test(`student pages and dialogs [${view.name}]`, async ({ page, context, request }) => {
      const axe = new AxeReport(view);
      const { session } = await newStudent(request, 'Ally');
      await prepare(context, view, session);

      await visit(page, '/dashboard', 'dashboard');
      await axe.scan(page, 'dashboard');

      await page.getByTestId('search').click();
      await expect(dialog(page)).toBeVisible();
      await axe.scan(page, 'search');
      await page.keyboard.press('Escape');
      await expect(dialog(page)).toBeHidden();

      await page.getByTestId('settings-button').click();
      await expect(page.getByTestId('settings-panel').getByRole('dialog')).toBeVisible();
      await axe.scan(page, 'settings drawer');
      await page.keyboard.press('Escape');
      await expect(dialog(page)).toBeHidden();

      await page.getByTestId('user-menu').click();
      await expect(page.getByRole('menu')).toBeVisible();
      await axe.scan(page, 'user menu');
      await page.keyboard.press('Escape');

      await visit(page, '/courses', 'courses-page');
      await expect(page.getByTestId('course-card')).toHaveCount(3);
      await axe.scan(page, 'courses');

      await visit(page, '/courses/2', 'course-details');
      await axe.scan(page, 'a course');
      await page.getByTestId('enroll-button').click();
      const enroll = page.getByTestId('enroll-modal').getByRole('dialog');
      await expect(enroll).toBeVisible();
      await expect(enroll.getByTestId('enroll-end-date')).not.toHaveText('—');
      await axe.scan(page, 'enroll dialog');
      await enroll.getByTestId('enroll-start-date').click();
      await expect(page.getByRole('listbox')).toBeVisible();
      await axe.scan(page, 'enroll dialog: start dates');
      await enroll.getByTestId('enroll-start-date').click();
      await expect(page.getByRole('listbox')).toBeHidden();
      await enroll.getByTestId('enroll-submit').click();
      const checkout = page.getByTestId('sandbox-checkout').getByRole('dialog');
      await expect(checkout).toBeVisible();
      await axe.scan(page, 'checkout dialog');
      await checkout.getByTestId('sandbox-pay').click();
      await expect(checkout).toBeHidden();
      // Bought: the course now links to My courses (beside its recordings).
      await expect(page.getByTestId('course-details').locator('a[href="/my-courses"]')).toBeVisible();
      await axe.scan(page, 'a course, enrolled');

      await visit(page, '/my-courses', 'my-courses-page');
      await expect(page.getByTestId('enrollment-details')).toBeVisible();
      await axe.scan(page, 'my courses');
      await visit(page, '/sessions', 'sessions-page');
      await expect(page.getByTestId('session-row').first()).toBeVisible();
      await axe.scan(page, 'sessions');
      await visit(page, '/recordings', 'recordings-page');
      await expect(page.getByTestId('recordings-empty').or(page.getByTestId('recording-courses'))).toBeVisible();
      await axe.scan(page, 'recordings');
      await scanPages(page, axe, [
        ['/profile', 'profile-form', 'profile'],
        ['/change-password', 'change-password-form', 'change password'],
        ['/meeting', 'meeting-lobby', 'meeting lobby (join only)'],
        ['/no/such/page', 'not-found', 'not found, signed in'],
      ]);
      // A student may not write courses: the guard sends them to the not-authorized page.
      await page.goto('/my-courses/new');
      await expect(page.getByTestId('not-authorized')).toBeVisible();
      await axe.scan(page, 'not authorized, signed in');

      await axe.expectClean();
    });

    test(`teacher pages and dialogs [${view.name}]`, async ({ page, context, request }) => {
      const axe = new AxeReport(view);
      await prepare(context, view, await apiLogIn(request, 'teacher@mooz.local'));

      await visit(page, '/dashboard', 'dashboard');
      await axe.scan(page, 'teacher dashboard');
      await visit(page, '/my-courses', 'my-courses-page');
      await expect(page.getByTestId('course-card').first()).toBeVisible();
      await axe.scan(page, 'teacher: my courses');
      await visit(page, '/my-courses/new', 'course-editor');
      await axe.scan(page, 'course editor, new');
      await visit(page, '/my-courses/1/edit', 'course-editor');
      await expect(page.getByTestId('course-name')).not.toHaveValue('');
      await axe.scan(page, 'course editor, editing');

      await visit(page, '/sessions', 'sessions-page');
      await expect(page.getByTestId('session-row').first()).toBeVisible();
      await axe.scan(page, 'teacher: sessions');
      await page.getByTestId('schedule-session-button').first().click();
      await expect(page.getByTestId('schedule-session').getByRole('dialog')).toBeVisible();
      await axe.scan(page, 'schedule session dialog');
      await page.keyboard.press('Escape');
      await expect(dialog(page)).toBeHidden();
      await page.getByTestId('upload-recording-button').first().click();
      await expect(page.getByTestId('upload-recording').getByRole('dialog')).toBeVisible();
      await axe.scan(page, 'upload recording dialog');
      await page.keyboard.press('Escape');
      await expect(dialog(page)).toBeHidden();

      await axe.expectClean();
    });
  });
}

test.describe('meetings', () => {
  // The room needs a camera and a microphone: Chromium's fake ones, allowed without asking.
  const browser = fakeMediaBrowser();

  for (const view of looks) {
    test(`meeting lobby and room [${view.name}]`, async ({ request, baseURL }) => {
      const axe = new AxeReport(view);
      const [host, guest] = await Promise.all([0, 1].map(() => browser().newContext({ baseURL, viewport: { width: 1280, height: 800 } })));
      try {
        await prepare(host!, view, await apiLogIn(request, 'teacher@mooz.local'), 'Tara Teacher');
        await prepare(guest!, view, (await newStudent(request, 'Guest')).session, 'Gil Guest');
        const page = await host!.newPage();

        await visit(page, '/meeting', 'meeting-lobby');
        await axe.scan(page, 'meeting lobby (create and join)');
        await page.getByTestId('create-meeting').click();
        await expect(page).toHaveURL(/\/meeting\/[\w-]+$/);
        await expect(page.getByTestId('invite-coachmark')).toBeVisible();
        await expect(page.getByTestId('local-tile')).toHaveAttribute('data-has-video', 'true');
        await axe.scan(page, 'meeting room with the invite popover');

        // Chat opens when someone else is there.
        const other = await guest!.newPage();
        await other.goto(page.url());
        await expect(page.locator('[data-testid="remote-tile"][data-has-video]')).toHaveCount(1, { timeout: 30_000 });
        await expect(page.getByTestId('invite-coachmark')).toBeHidden();
        await page.getByTestId('toggle-panel').click();
        await page.getByTestId('tab-chats').click();
        await page.getByTestId('panel-chat').getByTestId('chat-input').fill('Good morning, everyone');
        await page.getByTestId('panel-chat').getByTestId('chat-send').click();
        await expect(page.getByTestId('panel-chat').getByTestId('chat-message')).toHaveCount(1);
        await axe.scan(page, 'meeting room, side panel chats');

        await page.getByTestId('toggle-floating-chat').click();
        await expect(page.getByTestId('floating-chat')).toBeVisible();
        await axe.scan(page, 'meeting room, floating chat');
        await page.getByTestId('leave-meeting').click();
        await expect(page).toHaveURL(/\/meeting$/);

        await page.goto('/meeting/no-such-room');
        await expect(page.getByTestId('meeting-failed')).toBeVisible();
        await axe.scan(page, 'meeting refused');
      } finally {
        await Promise.all([host!.close(), guest!.close()]);
      }
      await axe.expectClean();
    });
  }
});
