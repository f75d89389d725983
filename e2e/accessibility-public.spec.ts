// Accessibility of the public screens: axe scans each in the four looks of support/a11y.ts and fails
// on any critical or serious violation. Screens: login and its language menu, register, verify with
// the code boxes, forgot password and its code step, a course for visitors, not found, not authorized.
// And the scans themselves: they run every WCAG 2.x A and AA rule of the installed axe-core.
import { expect, test } from '@playwright/test';
import { AxeReport, axeViolations, looks, prepare, scanPages, visit, wcagRules } from './support/a11y';

// A scan takes a few seconds on a busy two-core machine, and each test makes several.
test.describe.configure({ timeout: 240_000 });

test('the scans run every WCAG 2.x A and AA rule, those axe leaves out by default included', async ({ page }) => {
  expect(wcagRules).toEqual(expect.arrayContaining(['label-content-name-mismatch', 'target-size', 'p-as-heading', 'color-contrast']));
  // A button whose name leaves out the words it shows (2.5.3), two targets too small and too close
  // (2.5.8, off by default) and a paragraph styled as a heading (1.3.1, experimental).
  await page.setContent(`<!doctype html><html lang="en"><head><title>Probe</title></head><body><main><h1>Probe</h1>
    <button aria-label="Open the finder">Search</button>
    <div><button style="all: unset; display: inline-block; width: 10px; height: 10px">a</button><button style="all: unset; display: inline-block; width: 10px; height: 10px">b</button></div>
    <div><p style="font-weight: bold; font-size: 2rem">Overview</p><p>${'A paragraph under it, long enough to be read as body text. '.repeat(3)}</p></div>
    </main></body></html>`);
  const found = (await axeViolations(page)).map((violation) => violation.id);
  expect(found).toEqual(expect.arrayContaining(['label-content-name-mismatch', 'target-size', 'p-as-heading']));
});

for (const view of looks) {
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
}
