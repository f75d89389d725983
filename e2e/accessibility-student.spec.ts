// Accessibility of a student's screens: axe scans each in the four looks of support/a11y.ts and fails
// on any critical or serious violation. Screens: dashboard, search, settings drawer, user menu, courses,
// a course, the enroll dialog and its date list, the sandbox checkout dialog, a bought course, my
// courses, sessions, recordings, profile, change password, meeting lobby, not found, not authorized.
// The students are new ones, so other specs find the demo student untouched.
import { expect, test, type Page } from '@playwright/test';
import { AxeReport, looks, newStudent, prepare, scanPages, visit } from './support/a11y';

// A scan takes a few seconds on a busy two-core machine, and each test makes a dozen or more.
test.describe.configure({ timeout: 240_000 });

const dialog = (page: Page) => page.getByRole('dialog');

for (const view of looks) {
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
}
