// How the pages arrive: the app's files compressed as the build wrote them, and the API docs under a
// policy that lets Swagger UI run without a console error.
import { expect, test } from '@playwright/test';
import { apiDocsPath } from '@mooz/contract/api-routes';

test('a first visit gets its scripts, stylesheets and translations in brotli', async ({ page }) => {
  const served: { url: string; encoding?: string; type?: string }[] = [];
  page.on('response', (response) => {
    const headers = response.headers();
    served.push({
      url: new URL(response.url()).pathname,
      encoding: headers['content-encoding'],
      type: headers['content-type'],
    });
  });
  await page.goto('/login');
  await expect(page.getByTestId('login-form')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();

  const files = served.filter(({ url }) => /\.(js|css|json)$/.test(url) || url === '/login');
  expect(files.some(({ url }) => url.endsWith('.js'))).toBe(true);
  expect(files.some(({ url }) => url.endsWith('.css'))).toBe(true);
  expect(files.some(({ url }) => url.startsWith('/locales/'))).toBe(true);
  for (const file of files) {
    expect(file.encoding, file.url).toBe('br');
    if (file.url.endsWith('.js')) expect(file.type, file.url).toContain('javascript');
    if (file.url.endsWith('.css')) expect(file.type, file.url).toContain('text/css');
  }
});

test('the API docs show the operations with no policy error in the console', async ({ page }) => {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(apiDocsPath);
  await expect(page.locator('.swagger-ui .opblock').first()).toBeVisible();
  await expect(page.locator('.swagger-ui .topbar svg')).toBeVisible();
  expect(problems).toEqual([]);
});
