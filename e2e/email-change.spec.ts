// Changing one's email in Chromium against the real server: from the profile, the new address and the
// password, then the code read from the outbox's mail to the new address; the profile shows the new
// address, the previous one is told once (in the outbox), and only the new address signs in. The
// dialog is scanned by axe and shot at 1280 px in English and at 390 px in French right to left.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { apiRoutes } from '@mooz/contract/api-routes';
import { AxeReport, demoPassword, look, newStudent, prepare, settle, uniqueEmail, type Look } from './support/a11y';

const slow = { timeout: 60_000 };

function mailsTo(email: string): { to: string; subject: string; text: string }[] {
  const dir = join(process.env.MOOZ_E2E_DATA_DIR!, 'outbox');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .map((file) => JSON.parse(readFileSync(join(dir, file), 'utf8')) as { to: string; subject: string; text: string })
    .filter((mail) => mail.to === email);
}

async function codeMailedTo(email: string): Promise<string> {
  await expect.poll(() => mailsTo(email).length, slow).toBeGreaterThan(0);
  return /\b(\d{6})\b/.exec(mailsTo(email).at(-1)!.text)![1]!;
}

async function shoot(page: Page, view: Look, name: string) {
  await settle(page, view);
  await page.screenshot({ path: test.info().outputPath(`${name}.png`) });
}

test('a student changes their email from the profile with a code mailed to the new address; the previous one is told', async ({ browser, request }) => {
  test.setTimeout(180_000);
  const { email: previous, session } = await newStudent(request, 'Emil');
  const next = uniqueEmail('emil-new');
  const english = look('en', 'light', false);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await prepare(context, english, session);
  const page = await context.newPage();
  const axe = new AxeReport(english);

  await page.goto('/profile');
  await expect(page.getByTestId('profile-email')).toHaveText(previous, slow);
  await page.getByTestId('change-email').click();
  const dialog = page.getByRole('dialog', { name: 'Change your email' });
  await expect(dialog).toBeVisible();
  // Keyboard only: the new address has the focus, Tab reaches the password, Enter sends.
  await expect(dialog.getByLabel('New email')).toBeFocused();
  await page.keyboard.type(next);
  await page.keyboard.press('Tab');
  await expect(dialog.getByLabel('Current password')).toBeFocused();
  await page.keyboard.type(demoPassword);
  await axe.scan(page, 'change email dialog');
  await shoot(page, english, 'change-email-en');
  await page.keyboard.press('Enter');
  await expect(dialog.getByTestId('change-email-sent')).toHaveText(`We sent a code to ${next}. Enter it to confirm the new address.`, slow);

  await dialog.getByRole('textbox', { name: 'Digit 1 of 6' }).focus();
  await page.keyboard.type(await codeMailedTo(next));
  await axe.scan(page, 'change email dialog, code');
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(dialog).toBeHidden(slow);
  await expect(page.getByTestId('profile-email')).toHaveText(next);
  await axe.expectClean();
  await context.close();

  // The previous address is told once, naming the new one only partly; the new one got only its code.
  await expect.poll(() => mailsTo(previous).filter((m) => m.subject === 'Your Mooz email address was changed').length, slow).toBe(1);
  const notice = mailsTo(previous).find((m) => m.subject === 'Your Mooz email address was changed')!;
  expect(notice.text).toContain(`from ${previous} to em•••@example.test`);
  expect(mailsTo(next).map((m) => m.subject)).toEqual(['Your Mooz code to confirm this email address']);
  expect((await request.post(apiRoutes.auth.login.path, { data: { email: next, password: demoPassword } })).status()).toBe(200);
  expect((await request.post(apiRoutes.auth.login.path, { data: { email: previous, password: demoPassword } })).status()).toBe(401);

  // French, right to left, on a phone: the dialog's two steps.
  const french = look('fr', 'dark', true);
  const other = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const signedInAgain = await request.post(apiRoutes.auth.login.path, { data: { email: next, password: demoPassword } });
  const { access, refresh, user, ...summary } = (await signedInAgain.json()).data;
  await prepare(other, french, { access, refresh, user: { ...summary, ...user } });
  const phone = await other.newPage();
  await phone.goto('/profile');
  await phone.getByTestId('change-email').click();
  const frDialog = phone.getByRole('dialog', { name: 'Changer votre adresse e-mail' });
  await frDialog.getByLabel('Nouvelle adresse e-mail').fill(uniqueEmail('emil-encore-une-adresse-assez-longue'));
  await frDialog.getByLabel('Mot de passe actuel').fill(demoPassword);
  await shoot(phone, french, 'change-email-fr-rtl-390');
  await frDialog.getByTestId('change-email-submit').click();
  await expect(frDialog.getByTestId('change-email-sent')).toContainText('Nous avons envoyé un code', slow);
  await shoot(phone, french, 'change-email-code-fr-rtl-390');
  await other.close();
});
