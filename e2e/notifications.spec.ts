// Notifications and receipts in Chromium against the real server. A new student buys a
// course of the demo teacher (sandbox checkout through the API): the receipt mail is in the outbox
// with the payment's figures, and the profile's purchases list offers its PDF receipt, which
// downloads. With the student's app open, the teacher posts an assignment: the student's bell counts
// it without a reload (the socket), its panel lists it, and the notification leads to the assignment.
// The bell's panel and the profile are scanned by axe and shot at 1280 and 390 px, in English and in
// French right to left.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { apiRoutes } from '@mooz/contract/api-routes';
import { batchEndDate } from '@mooz/contract/courses';
import { pathOf } from '@mooz/contract/endpoint';
import { apiLogIn, auth, AxeReport, look, newStudent, prepare, settle, type Look, type SignedIn } from './support/a11y';
import { createCourse, nextMonday } from './support/courses';
import { payFor } from './support/purchase';
import { shoot } from './support/screens';

const slow = { timeout: 60_000 };

interface OutboxMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

function mailsTo(email: string): OutboxMail[] {
  const dir = join(process.env.MOOZ_E2E_DATA_DIR!, 'outbox');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .map((file) => JSON.parse(readFileSync(join(dir, file), 'utf8')) as OutboxMail)
    .filter((mail) => mail.to === email);
}

/** A new course of the demo teacher, bought by a new student through the sandbox checkout. */
async function buyNewCourse(request: APIRequestContext, teacher: SignedIn) {
  const start = nextMonday();
  const course = await createCourse(request, teacher, { name: `Bookbinding ${Date.now()}`, description: 'Paper, thread and glue.', price: 149_900, batch_start_dates: [start], weekday_times: ['18:00'] });
  const buyer = await newStudent(request, 'Rita');
  const { orderId, paymentId } = await payFor(request, buyer.session, { course_id: course.id, batch: 'weekdays', start_date: start, end_date: batchEndDate(start, 4), time: '18:00' });
  return { course, buyer, orderId, paymentId };
}

test('a buyer gets a receipt by mail and in the profile; a new assignment rings their bell live and leads to it', async ({ browser, request }) => {
  test.setTimeout(240_000);
  const teacher = await apiLogIn(request, 'teacher@mooz.local');
  const { course, buyer, orderId, paymentId } = await buyNewCourse(request, teacher);

  // The receipt mail: once, with the payment's figures.
  await expect.poll(() => mailsTo(buyer.email).filter((m) => m.subject.startsWith('Your receipt')).length, slow).toBe(1);
  const receipt = mailsTo(buyer.email).find((m) => m.subject.startsWith('Your receipt'))!;
  expect(receipt.subject).toContain(course.name);
  for (const fact of [orderId, paymentId, '₹1,499.00', buyer.email]) expect(receipt.text).toContain(fact);
  expect(receipt.html).toContain('<html');

  const english = look('en', 'light', false);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  await prepare(context, english, buyer.session);
  const page = await context.newPage();
  const axe = new AxeReport(english);

  // The profile's purchases: the course, paid, its PDF receipt.
  await page.goto('/profile#purchases');
  const purchase = page.getByTestId('purchase').filter({ hasText: course.name });
  await expect(purchase).toBeVisible(slow);
  await expect(purchase).toContainText('Paid');
  const [download] = await Promise.all([page.waitForEvent('download'), purchase.getByTestId('purchase-receipt').click()]);
  expect(download.suggestedFilename()).toMatch(/^Receipt MZ-\d{8}-[0-9A-F]{8}\.pdf$/);
  const pdf = readFileSync((await download.path())!);
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  await expect(page.getByTestId('mail-preferences')).toBeVisible();
  await axe.scan(page, 'profile with purchases and mail preferences');
  await shoot(page, 'profile-en', { fullPage: false });

  // The bell already holds the payment; the teacher's new assignment arrives without a reload.
  await page.goto('/dashboard');
  const bell = page.getByTestId('notifications-bell');
  await expect(bell).toHaveAccessibleName('Notifications, 1 unread', slow);
  // The socket is up once the bell's live module has connected: give it a moment before the change.
  await page.waitForTimeout(1500);
  const title = `Bind a pamphlet ${Date.now()}`;
  const posted = await request.post(pathOf(apiRoutes.assignments.create, { id: course.id }), { headers: auth(teacher), data: { title, instructions: 'Three signatures, saddle stitched.' } });
  expect(posted.status(), await posted.text()).toBe(201);
  await expect(bell).toHaveAccessibleName('Notifications, 2 unread', slow);

  await bell.click();
  const panel = page.getByTestId('notifications-panel');
  await expect(panel).toBeVisible();
  const item = panel.getByTestId('notification').filter({ hasText: title });
  await expect(item).toContainText(`New assignment in ${course.name}`);
  await axe.scan(page, 'notifications panel');
  await shoot(page, 'bell-en', { fullPage: false });

  await item.click();
  await expect(page).toHaveURL(new RegExp(`/courses/${course.id}\\?tab=assignments$`));
  await expect(page.getByText(title).first()).toBeVisible(slow);
  await expect(bell).toHaveAccessibleName('Notifications, 1 unread');

  // Mark all read: the count goes, the list stays.
  await bell.click();
  await page.getByTestId('notifications-read-all').click();
  await expect(bell).toHaveAccessibleName('Notifications');
  await page.keyboard.press('Escape');
  await axe.expectClean();
  await context.close();

  // French, right to left, on a phone: the same screens.
  const french: Look = look('fr', 'dark', true);
  const other = await browser.newContext({ viewport: { width: 390, height: 844 } });
  await prepare(other, french, buyer.session);
  const phone = await other.newPage();
  await phone.goto('/profile#purchases');
  await expect(phone.getByTestId('purchase').first()).toContainText('Payé', slow);
  await settle(phone, french);
  await shoot(phone, 'profile-fr-rtl', { fullPage: false });
  await phone.getByTestId('notifications-bell').click();
  await expect(phone.getByTestId('notifications-panel')).toContainText('Nouveau devoir');
  await settle(phone, french);
  await shoot(phone, 'bell-fr-rtl', { fullPage: false });
  await other.close();
});
