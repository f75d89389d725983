// The app shell: first screen, languages, direction, skin, deep links, and a failed language file.
import { expect, test, type Page } from '@playwright/test';

const loginForm = (page: Page) => page.getByTestId('login-form');

test('loads and shows the login screen first', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/login$/);
  await expect(loginForm(page)).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
  await expect(page.getByLabel('Email')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Create an account' })).toHaveAttribute('href', '/register');
  await expect(page.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute('href', '/forgot-password');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
});

test('validates the login form before sending it', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByText('Required')).toHaveCount(2);
  // An empty field in error keeps a grey placeholder, not the red of its border: in red it read like a
  // typed value.
  const colours = await page
    .getByLabel('Email')
    .evaluate((input) => [getComputedStyle(input, '::placeholder').color, getComputedStyle(input).borderColor]);
  expect(colours[0]).not.toBe(colours[1]);
  await page.getByLabel('Email').fill('not-an-email');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByText('Enter a valid email address')).toBeVisible();
});

test('?lng=fr shows French and keeps it after a reload', async ({ page }) => {
  await page.goto('/login?lng=fr');
  await expect(page.getByRole('button', { name: 'Se connecter' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
  await page.goto('/login');
  await page.reload();
  await expect(page.getByRole('button', { name: 'Se connecter' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('i18nextLng'))).toBe('fr');
});

test('the language switcher changes the interface language', async ({ page }) => {
  await page.goto('/login');
  await page.getByTestId('language-switcher').click();
  await page.getByRole('menuitem', { name: 'Deutsch' }).click();
  await expect(page.getByRole('button', { name: 'Anmelden' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
});

test('right-to-left in the settings mirrors the page', async ({ page }) => {
  await page.goto('/login');
  await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
  await page.getByTestId('settings-button').click();
  await page.getByRole('switch', { name: 'Right-to-left' }).check({ force: true });
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await page.reload();
  await expect(loginForm(page)).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
});

test('dark skin persists across a reload', async ({ page }) => {
  await page.goto('/login');
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'light');
  await page.getByTestId('skin-toggle').click();
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await page.reload();
  await expect(loginForm(page)).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(background).not.toBe('rgb(248, 247, 250)');
});

test('a deep link to a course loads the app', async ({ page }) => {
  await page.goto('/courses/3');
  await expect(page).toHaveURL(/\/courses\/3$/);
  await expect(page.getByTestId('course-login-required')).toBeVisible();
  await page.getByRole('link', { name: 'Log in to continue' }).click();
  await expect(page).toHaveURL(/\/login\?next=%2Fcourses%2F3$/);
  await expect(loginForm(page)).toBeVisible();
});

test('signed-in-only pages send visitors to the login with a way back', async ({ page }) => {
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/login\?next=%2Fdashboard$/);
  await expect(loginForm(page)).toBeVisible();
});

test('an unknown path shows the not-found page', async ({ page }) => {
  await page.goto('/this/does/not/exist');
  await expect(page.getByTestId('not-found')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
});

test('a path whose id cannot exist draws the not-found page, from the error page fetched when the page was idle', async ({
  page,
}) => {
  const fetched: string[] = [];
  page.on('request', (request) => fetched.push(new URL(request.url()).pathname));
  await page.goto('/login');
  await expect(loginForm(page)).toBeVisible();
  // Fetched after the first screen, not with it.
  await expect.poll(() => fetched.some((path) => /^\/assets\/error-page-/.test(path))).toBe(true);
  await page.goto('/courses/not-a-number');
  await expect(page.getByTestId('not-found')).toBeVisible();
});

test('a screen whose file cannot be fetched (offline, or after a deploy) shows the error page with a way out', async ({
  page,
}) => {
  const fetched: string[] = [];
  page.on('requestfinished', (request) => fetched.push(new URL(request.url()).pathname));
  await page.goto('/login');
  await expect(loginForm(page)).toBeVisible();
  await expect.poll(() => fetched.some((path) => /^\/assets\/error-page-/.test(path))).toBe(true);
  await page.waitForLoadState('networkidle');
  // From now on no file of the build can be fetched.
  await page.route('**/assets/**', (route) => route.abort());
  await page.getByRole('link', { name: 'Create an account' }).click();
  await expect(page.getByTestId('error-page')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Reload' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back to home' })).toHaveAttribute('href', '/');
});

test('when not even the error page can be fetched, a plain page in the same language says so', async ({ page }) => {
  await page.route(/\/assets\/error-page-/, (route) => route.abort());
  await page.goto('/courses/not-a-number?lng=fr');
  const unreachable = page.getByTestId('error-page-unreachable');
  await expect(unreachable).toBeVisible();
  await expect(unreachable.getByRole('heading', { name: 'Une erreur est survenue' })).toBeVisible();
  await expect(unreachable.getByRole('button', { name: 'Recharger' })).toBeVisible();
});

test('a language file that fails to load leaves the app usable', async ({ page }) => {
  const warnings: string[] = [];
  const crashes: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'warning') warnings.push(message.text());
  });
  page.on('pageerror', (error) => crashes.push(error.message));
  await page.route('**/locales/de/**', (route) => route.abort());
  await page.goto('/login?lng=de');
  await expect(loginForm(page)).toBeVisible();
  // English is the fallback while German is unavailable.
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
  await page.getByLabel('Email').fill('student@mooz.local');
  await expect(page.getByLabel('Email')).toHaveValue('student@mooz.local');
  // i18next retries 5 times with doubling delays (350 ms … 5.6 s) before it gives up with a warning.
  await expect.poll(() => warnings.some((text) => text.includes('"de"')), { timeout: 20_000 }).toBe(true);
  expect(crashes).toEqual([]);
});

test('a demo student logs in, sees the menu their rules allow, and logs out', async ({ page }) => {
  await page.goto('/courses/1');
  await page.getByRole('link', { name: 'Log in to continue' }).click();
  await page.getByLabel('Email').fill('student@mooz.local');
  await page.getByLabel('Password').fill('mooz-demo-123');
  await page.getByRole('button', { name: 'Log in' }).click();
  // Back to the deep link, now inside the signed-in layout.
  await expect(page).toHaveURL(/\/courses\/1$/);
  await expect(page.getByTestId('app-layout')).toBeVisible();
  await expect(page.getByTestId('course-details')).toBeVisible();
  await expect(page.getByTestId('menu-dashboard')).toBeVisible();
  await expect(page.getByTestId('menu-sessions')).toBeVisible();
  const ability = await page.evaluate(() => JSON.parse(localStorage.getItem('userData') ?? '{}').ability);
  expect(Array.isArray(ability)).toBe(true);

  await page.goto('/login');
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.getByTestId('user-menu').click();
  await page.getByTestId('logout').click();
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => localStorage.getItem('accessToken'))).toBeNull();
});

test('wrong credentials show the server message on the form', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('Email').fill('student@mooz.local');
  await page.getByLabel('Password').fill('wrong-password');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByTestId('login-error')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
});
