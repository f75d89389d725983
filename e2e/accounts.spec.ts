// The account life of a real user, in Chromium against the real server.
import { expect, test, type Page } from '@playwright/test';
import { apiRoutes } from '@mooz/contract/api-routes';
import { latestCodeFor, waitForCode } from './support/outbox';

const unique = () => `e2e-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.test`;

async function fillCode(page: Page, code: string) {
  // The code boxes take a paste-like fill of the whole code into the first one.
  await page.getByTestId('otp-input').locator('input').first().click();
  await page.keyboard.type(code);
}

async function logIn(page: Page, email: string, password: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

test('signs up on the way to a page, is signed in by the mailed code and lands there, edits the profile, survives a reload and logs out', async ({ page }) => {
  const email = unique();
  const password = 'learning-is-fun';

  // On the way to their courses, a visitor is asked to log in, and signs up instead.
  await page.goto('/my-courses');
  await expect(page).toHaveURL(/\/login\?next=%2Fmy-courses$/);
  await page.getByRole('link', { name: 'Create an account' }).click();
  await expect(page).toHaveURL(/\/register\?next=%2Fmy-courses$/);
  await page.getByLabel('First name').fill('Ada');
  await page.getByLabel('Last name').fill('Lovelace');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Repeat the password').fill(password);
  await page.getByRole('button', { name: 'Create account' }).click();

  await expect(page).toHaveURL(/\/verify\?email=.+&next=%2Fmy-courses$/);
  await expect(page.getByText(`We sent a 6-digit code to ${email}.`)).toBeVisible();
  await expect(page.getByText(/You can ask for a new code in \d+ s/)).toBeVisible();

  // The sixth digit signs them in (no password again) and takes them where they were going.
  const code = await waitForCode(email);
  await fillCode(page, code);
  await expect(page).toHaveURL(/\/my-courses$/);
  await expect(page.getByText('Email verified. Welcome to Mooz!')).toBeVisible();
  await expect(page.getByTestId('trial-badge')).toContainText('Trial: 6 days');

  await page.goto('/profile');
  await expect(page.getByTestId('profile-name')).toHaveText('Ada Lovelace');
  await page.getByLabel('First name').fill('Augusta Ada');
  await page.getByTestId('profile-save').click();
  await expect(page.getByTestId('profile-name')).toHaveText('Augusta Ada Lovelace');

  await page.reload();
  await expect(page.getByTestId('profile-name')).toHaveText('Augusta Ada Lovelace');
  await expect(page.getByLabel('First name')).toHaveValue('Augusta Ada');

  await page.getByTestId('user-menu').click();
  await page.getByTestId('logout').click();
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => [localStorage.getItem('accessToken'), localStorage.getItem('userData')])).toEqual([null, null]);
  await page.goto('/profile');
  await expect(page).toHaveURL(/\/login\?next=%2Fprofile$/);
});

test('shows the server’s messages: a taken email, a login before verification', async ({ page }) => {
  await page.goto('/register');
  await page.getByLabel('First name').fill('Sam');
  await page.getByLabel('Last name').fill('Again');
  await page.getByLabel('Email').fill('student@mooz.local');
  await page.getByLabel('Password', { exact: true }).fill('whatever-123');
  await page.getByLabel('Repeat the password').fill('whatever-123');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('alert')).toContainText('An account with this email already exists');

  const email = unique();
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/verify/);
  await page.goto('/login');
  await logIn(page, email, 'whatever-123');
  await expect(page.getByTestId('login-error')).toContainText('Email not verified');
  await expect(page.getByRole('link', { name: 'Verify your email' })).toBeVisible();
});

test('resets a forgotten password with a mailed code, then logs in with the new one', async ({ page, request }) => {
  const email = unique();
  const admin = await request.post(apiRoutes.auth.login.path, { data: { email: 'admin@mooz.local', password: 'mooz-demo-123' } });
  const adminToken = (await admin.json()).data.access;
  const made = await request.post(apiRoutes.admin.createUser.path, {
    headers: { authorization: `Bearer ${adminToken}` },
    data: { email, password: 'the-old-password', first_name: 'Rita', last_name: 'Reset', user_type: 'student' },
  });
  expect(made.status()).toBe(201);

  await page.goto('/login');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  // The login page stays on screen while the reset page loads, with an Email field of its own.
  await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send code' }).click();
  const code = await waitForCode(email);
  await fillCode(page, code);
  await page.getByLabel('New password').fill('a-fresh-start');
  await page.getByLabel('Repeat the password').fill('a-fresh-start');
  await page.getByRole('button', { name: 'Set new password' }).click();

  await expect(page).toHaveURL(/\/login\?email=/);
  await page.getByLabel('Password', { exact: true }).fill('a-fresh-start');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  expect(latestCodeFor(email)).toBe(code);
});

test('keeps working across access-token expiry by refreshing silently', async ({ page }) => {
  // This server's access tokens live 2 seconds.
  const base = process.env.MOOZ_E2E_SHORT_BASE_URL!;
  await page.goto(`${base}/login`);
  await logIn(page, 'student@mooz.local', 'mooz-demo-123');
  await expect(page).toHaveURL(/\/dashboard$/);
  const firstRefresh = await page.evaluate(() => localStorage.getItem('refreshToken'));

  await page.waitForTimeout(2500);
  await page.goto(`${base}/profile`);
  await expect(page.getByTestId('profile-name')).toHaveText('Sam Student');
  await page.getByLabel('Phone').fill('+91 98765 43210');
  await page.waitForTimeout(2500);
  await page.getByTestId('profile-save').click();
  await expect(page.getByText('Profile saved')).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('refreshToken'))).not.toBe(firstRefresh);
  await expect(page).toHaveURL(/\/profile$/);
});
