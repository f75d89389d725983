// Mooz opened on plain http at an address other than localhost (a LAN address, say), where the page is
// not a secure context: the browser gives it no camera, microphone or screen capture, nor
// crypto.randomUUID. The meetings page says so, in the user's language, before anyone fills in a form
// (it used to show "crypto.randomUUID is not a function" under the meeting's name), and a meeting link
// opened there says the same. The host name below is mapped to this machine by Chromium itself.
import { chromium, expect, test, type Browser } from '@playwright/test';
import { apiLogIn, AxeReport, look, prepare } from './support/a11y';

const lanHost = 'mooz-lan.test';
let browser: Browser;

test.beforeAll(async () => {
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', `--host-resolver-rules=MAP ${lanHost} 127.0.0.1`],
  });
});
test.afterAll(async () => {
  await browser?.close();
});

test('on plain http over the LAN, meetings ask for https instead of failing', async ({ request, baseURL }) => {
  const lanOrigin = baseURL!.replace('127.0.0.1', lanHost);
  const view = look('fr', 'light', false);
  const context = await browser.newContext({ baseURL: lanOrigin });
  try {
    await prepare(context, view, await apiLogIn(request, 'teacher@mooz.local'), 'Tess');
    const page = await context.newPage();
    await page.goto('/meeting');
    expect(await page.evaluate(() => window.isSecureContext)).toBe(false);

    const notice = page.getByTestId('meeting-blocked');
    await expect(notice).toContainText('connexion sécurisée (https)');
    await expect(page.getByRole('alert')).toContainText('Les réunions ne peuvent pas démarrer sur cette page');
    await expect(page.getByTestId('create-meeting')).toBeDisabled();
    await expect(page.getByTestId('join-meeting')).toBeDisabled();
    const axe = new AxeReport(view);
    await axe.scan(page, 'meetings page on plain http');
    await axe.expectClean();

    // An invite link opened there: the same reason, then back to the meetings page.
    const said = new Promise<string>((resolve) => page.once('dialog', (dialog) => (resolve(dialog.message()), void dialog.accept())));
    await page.goto('/meeting/any-room');
    expect(await said).toContain('connexion sécurisée (https)');
    await expect(page).toHaveURL(/\/meeting$/);
    await expect(notice).toBeVisible();
  } finally {
    await context.close();
  }
});
