// Accessibility of a teacher's screens: axe scans each in the four looks of support/a11y.ts and fails
// on any critical or serious violation. Screens: dashboard, my courses, the new and an edited course,
// sessions, the schedule session and upload recording dialogs.
import { expect, test, type Page } from '@playwright/test';
import { apiLogIn, AxeReport, looks, prepare, visit } from './support/a11y';

// A scan takes a few seconds on a busy two-core machine, and each test makes several.
test.describe.configure({ timeout: 240_000 });

const dialog = (page: Page) => page.getByRole('dialog');

for (const view of looks) {
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
}
