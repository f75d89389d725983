// Buying a course: the demo student picks a batch, pays in the sandbox checkout, and finds the course
// in My courses and its sessions in the sessions list; a failed or closed checkout buys nothing.
// The failure runs first, so "nothing bought" is checked on the untouched demo student.
import { expect, test, type Page } from '@playwright/test';

const failedCourse = 'UI/UX Design Foundations';
const boughtCourse = 'Data Science with Python';

async function logInAsDemoStudent(page: Page) {
  await page.goto('/login');
  await page.getByLabel('Email').fill('student@mooz.local');
  await page.getByLabel('Password').fill('mooz-demo-123');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

const courseCard = (page: Page, name: string) => page.getByTestId('course-card').filter({ hasText: name });

/** Opens the enrollment form for a course and sends the default schedule choice to checkout. */
async function checkoutCourse(page: Page, name: string) {
  await page.getByTestId('menu-courses').click();
  await expect(page).toHaveURL(/\/courses$/);
  await courseCard(page, name).getByTestId('enroll-button').click();
  const form = page.getByTestId('enroll-modal');
  await expect(form.getByRole('dialog')).toBeVisible();
  await expect(form.getByTestId('enroll-end-date')).not.toHaveText('—');
  await form.getByTestId('enroll-submit').click();
  const checkout = page.getByTestId('sandbox-checkout').getByRole('dialog');
  await expect(checkout).toBeVisible();
  await expect(checkout).toContainText(name);
  return checkout;
}

test.describe.configure({ mode: 'serial' });

test('a failed or closed sandbox payment leaves nothing bought', async ({ page }) => {
  await logInAsDemoStudent(page);

  let checkout = await checkoutCourse(page, failedCourse);
  await checkout.getByTestId('sandbox-fail').click();
  await expect(page.getByText('Payment verification failed')).toBeVisible();
  await expect(checkout).toBeHidden();

  checkout = await checkoutCourse(page, failedCourse);
  await checkout.getByTestId('sandbox-close').click();
  await expect(page.getByText('Payment cancelled. Nothing was charged.')).toBeVisible();

  await expect(courseCard(page, failedCourse).getByTestId('enroll-button')).toBeVisible();
  await page.getByTestId('menu-my-courses').click();
  await expect(page.getByTestId('my-courses-empty')).toBeVisible();
  const trial = await page.evaluate(async () => {
    const response = await fetch('/api/auth/trial-status/', { headers: { Authorization: `Bearer ${localStorage.getItem('accessToken')}` } });
    return (await response.json()).data;
  });
  expect(trial).toMatchObject({ has_purchased: false, is_trial: true });
});

test('the demo student buys a course and sees it in My courses and its sessions in the sessions list', async ({ page }) => {
  await logInAsDemoStudent(page);
  // In trial, every course's sessions are listed.
  await page.getByTestId('menu-sessions').click();
  await expect(page.getByTestId('session-row')).toHaveCount(7);

  const checkout = await checkoutCourse(page, boughtCourse);
  await expect(checkout.getByTestId('sandbox-amount')).toHaveText(/12,999\.00/);
  await checkout.getByTestId('sandbox-pay').click();
  await expect(page.getByText('Payment verified successfully!')).toBeVisible();
  await expect(courseCard(page, boughtCourse)).toContainText('Enrolled');
  // The profile was fetched again: the stored user now has purchased.
  await expect.poll(() => page.evaluate(() => JSON.parse(localStorage.getItem('userData') ?? '{}').has_purchased)).toBe(true);

  await page.getByTestId('menu-my-courses').click();
  const mine = page.getByTestId('course-card');
  await expect(mine).toHaveCount(1);
  await expect(mine).toContainText(boughtCourse);
  await expect(mine.getByTestId('enrollment-details')).toContainText('Weekday batch');

  // Buying ends the trial: now only the bought course's sessions are listed.
  await page.getByTestId('menu-sessions').click();
  const rows = page.getByTestId('session-row');
  await expect(rows).toHaveCount(2);
  for (const name of await rows.getByTestId('session-course-name').allTextContents()) expect(name).toBe(boughtCourse);
  await expect(rows.first().getByTestId('session-status')).toHaveText('Scheduled');
});
