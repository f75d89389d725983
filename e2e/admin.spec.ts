// The admin area in Chromium: an admin logs in, sees the Admin menu group, finds a fresh student and
// deactivates them, and that student's open window is logged out on its next step; admins are offered
// no Enroll and no trial countdown; the admin pages pass axe; screenshots at 1280 and 390 px.
import { expect, test, type Page } from '@playwright/test';
import { AxeReport, apiLogIn, demoPassword, look, newStudent, prepare } from './support/a11y';
import { buyAnOpenBatch } from './support/purchase';

const english = look('en', 'light', false);
const adminPages = ['/admin', '/admin/users', '/admin/courses', '/admin/payments', '/admin/audit'];
const shots = process.env.MOOZ_E2E_SHOTS;

async function logInWithTheForm(page: Page, email: string) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(demoPassword);
  await page.getByTestId('login-submit').click();
}

test('the admin deactivates a student, whose open window is then logged out', async ({ browser, request }) => {
  const victim = await newStudent(request, 'Victim');
  const victimContext = await browser.newContext();
  await prepare(victimContext, english, victim.session);
  const victimPage = await victimContext.newPage();
  await victimPage.goto('/courses');
  await expect(victimPage.getByTestId('courses-page')).toBeVisible();

  const adminContext = await browser.newContext();
  await prepare(adminContext, english);
  const page = await adminContext.newPage();
  await logInWithTheForm(page, 'admin@mooz.local');
  const adminGroup = page.getByTestId('menu-group-admin');
  await expect(adminGroup).toBeVisible();
  await expect(adminGroup.getByRole('heading').or(adminGroup.getByText('Administration'))).toBeVisible();
  await adminGroup.getByTestId('menu-admin-users').click();
  await expect(page).toHaveURL(/\/admin\/users$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();

  await page.getByTestId('admin-search').fill(victim.email);
  const row = page.getByTestId('admin-users-row').filter({ hasText: victim.email });
  await expect(row).toHaveCount(1);
  await expect(page.getByTestId('admin-users-row')).toHaveCount(1);
  await row.getByTestId('deactivate-user').click();
  const dialog = page.getByRole('dialog', { name: 'Deactivate this account?' });
  await expect(dialog).toContainText(victim.email);
  await dialog.getByTestId('confirm-action').click();
  await expect(dialog).toBeHidden();
  await expect(row.getByTestId('status-deactivated')).toBeVisible();
  await expect(row.getByTestId('reactivate-user')).toBeVisible();

  // The student's window: its next call to the server is refused and the app returns to the login page.
  await victimPage.getByTestId('menu-my-courses').click();
  await expect(victimPage).toHaveURL(/\/login/);
  await victimPage.getByLabel('Email').fill(victim.email);
  await victimPage.getByLabel('Password', { exact: true }).fill(demoPassword);
  await victimPage.getByTestId('login-submit').click();
  await expect(victimPage.getByText('This account has been deactivated')).toBeVisible();

  // The audit log has it, newest first.
  await adminGroup.getByTestId('menu-admin-audit').click();
  await expect(page.getByTestId('admin-audit-row').first()).toContainText('Deactivated an account');
  await expect(page.getByTestId('admin-audit-row').first()).toContainText(victim.email);
  await victimContext.close();
  await adminContext.close();
});

test('an admin is offered no Enroll button, no trial badge, and no admin area is shown to a student', async ({ browser, request }) => {
  const admin = await apiLogIn(request, 'admin@mooz.local');
  const context = await browser.newContext();
  await prepare(context, english, admin);
  const page = await context.newPage();
  await page.goto('/courses');
  await expect(page.getByTestId('course-card').first()).toBeVisible();
  await expect(page.getByTestId('enroll-button')).toHaveCount(0);
  await expect(page.getByTestId('trial-badge')).toHaveCount(0);
  await page.goto('/my-courses');
  await expect(page.getByText('Every course of every teacher.')).toBeVisible();
  await context.close();

  const student = await newStudent(request, 'Curious');
  const studentContext = await browser.newContext();
  await prepare(studentContext, english, student.session);
  const studentPage = await studentContext.newPage();
  await studentPage.goto('/courses');
  await expect(studentPage.getByTestId('trial-badge')).toBeVisible();
  await expect(studentPage.getByTestId('enroll-button').first()).toBeVisible();
  await expect(studentPage.getByTestId('menu-group-admin')).toHaveCount(0);
  await studentPage.goto('/admin/users');
  await expect(studentPage).toHaveURL(/\/not-authorized/);
  await studentContext.close();
});

test('the admin pages pass axe, on a wide screen and on a phone', async ({ browser, request }) => {
  // Ten screens scanned by axe.
  test.setTimeout(120_000);
  const admin = await apiLogIn(request, 'admin@mooz.local');
  // A payment, so the payments page is scanned with its rows and their refund buttons.
  await buyAnOpenBatch(request, (await newStudent(request, 'Payer')).session);
  const report = new AxeReport(english);
  for (const width of [1280, 390]) {
    const context = await browser.newContext({ viewport: { width, height: width > 400 ? 900 : 844 } });
    await prepare(context, english, admin);
    const page = await context.newPage();
    for (const path of adminPages) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
      await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
      await report.scan(page, `${path} ${width}px`);
      if (shots) await page.screenshot({ path: `${shots}/admin${path.replaceAll('/', '-')}-${width}.png`, fullPage: true });
    }
    await context.close();
  }
  await report.expectClean();
});
