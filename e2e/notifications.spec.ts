// Notifications and receipts in Chromium against the real server. A new student buys a
// course of the demo teacher (sandbox checkout through the API): the receipt mail is in the outbox
// with the payment's figures, and the profile's purchases list offers its PDF receipt, which
// downloads. With the student's app open, the teacher posts an assignment: the student's bell counts
// it without a reload (the socket), its panel lists it, and the notification leads to the assignment.
// The bell's panel and the profile are scanned by axe and shot at 1280 and 390 px, in English and in
// French right to left.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { batchEndDate } from '@mooz/contract/courses';
import { apiLogIn, AxeReport, look, newStudent, prepare, settle, type Look, type SignedIn } from './support/a11y';

const DAY = 86_400_000;
const slow = { timeout: 60_000 };
const auth = (who: SignedIn) => ({ Authorization: `Bearer ${who.access}` });

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

function nextMonday(): string {
  const day = new Date(Date.now() + 7 * DAY);
  while (day.getUTCDay() !== 1) day.setTime(day.getTime() + DAY);
  return day.toISOString().slice(0, 10);
}

/** A new course of the demo teacher, bought by a new student through the sandbox checkout. */
async function buyNewCourse(request: APIRequestContext, teacher: SignedIn) {
  const start = nextMonday();
  const created = await request.post('/api/courses/', {
    headers: auth(teacher),
    data: { name: `Bookbinding ${Date.now()}`, description: 'Paper, thread and glue.', price: 149_900, duration_weeks: 4, batch_start_dates: [start], weekday_times: ['18:00'], weekend_times: [] },
  });
  expect(created.status(), await created.text()).toBe(201);
  const course = (await created.json()).data as { id: number; name: string };
  const buyer = await newStudent(request, 'Rita');
  const order = await request.post('/api/payments/create_order/', {
    headers: auth(buyer.session),
    data: { course_id: course.id, batch: 'weekdays', start_date: start, end_date: batchEndDate(start, 4), time: '18:00' },
  });
  expect(order.status(), await order.text()).toBe(200);
  const { order_id, subscription_id } = (await order.json()).data as { order_id: string; subscription_id: string };
  const paid = await request.post('/api/payments/sandbox/pay/', { headers: auth(buyer.session), data: { order_id } });
  expect(paid.status(), await paid.text()).toBe(200);
  const payment = (await paid.json()).data as { razorpay_payment_id: string };
  const verified = await request.post('/api/payments/verify_payment/', { headers: auth(buyer.session), data: { ...payment, subscription_id } });
  expect(verified.status(), await verified.text()).toBe(200);
  return { course, buyer, orderId: order_id, paymentId: payment.razorpay_payment_id };
}

async function shoot(page: Page, name: string) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    await page.screenshot({ path: test.info().outputPath(`${name}-${width}.png`) });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
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
  await shoot(page, 'profile-en');

  // The bell already holds the payment; the teacher's new assignment arrives without a reload.
  await page.goto('/dashboard');
  const bell = page.getByTestId('notifications-bell');
  await expect(bell).toHaveAccessibleName('Notifications, 1 unread', slow);
  // The socket is up once the bell's live module has connected: give it a moment before the change.
  await page.waitForTimeout(1500);
  const title = `Bind a pamphlet ${Date.now()}`;
  const posted = await request.post(`/api/courses/${course.id}/assignments/`, { headers: auth(teacher), data: { title, instructions: 'Three signatures, saddle stitched.' } });
  expect(posted.status(), await posted.text()).toBe(201);
  await expect(bell).toHaveAccessibleName('Notifications, 2 unread', slow);

  await bell.click();
  const panel = page.getByTestId('notifications-panel');
  await expect(panel).toBeVisible();
  const item = panel.getByTestId('notification').filter({ hasText: title });
  await expect(item).toContainText(`New assignment in ${course.name}`);
  await axe.scan(page, 'notifications panel');
  await shoot(page, 'bell-en');

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
  await shoot(phone, 'profile-fr-rtl');
  await phone.getByTestId('notifications-bell').click();
  await expect(phone.getByTestId('notifications-panel')).toContainText('Nouveau devoir');
  await settle(phone, french);
  await shoot(phone, 'bell-fr-rtl');
  await other.close();
});
