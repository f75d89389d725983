// Keyboard only: signing up with the mailed code, buying a course, and starting and joining a meeting,
// with no mouse at all: Tab and Shift+Tab to move, Enter and Space to press, arrow keys in lists, and
// typing. Every control a step needs must be reachable in the tab order, show where focus is, and a
// dialog must take focus when it opens.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { fakeMediaBrowser } from './support/fake-camera';
import { apiLogIn, newStudent, prepare, look, uniqueEmail } from './support/a11y';
import { waitForCode } from './support/outbox';

test.describe.configure({ timeout: 120_000 });

const english = look('en', 'light', false);

/** Whether focus is on `target` (or inside it, for a widget made of several elements). */
const hasFocus = (target: Locator) =>
  target.evaluate((element) => element === document.activeElement || element.contains(document.activeElement), undefined, { timeout: 2_000 }).catch(() => false);

/** Buttons and links show a focus ring (text fields show theirs with their border). */
async function expectVisibleFocus(page: Page) {
  const focus = await page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body) return { ring: false, what: 'nothing' };
    const style = getComputedStyle(element);
    const field = element.matches('input:not([type=checkbox]):not([type=radio]), textarea, [role=combobox]');
    const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
    return { ring: field || outline || style.boxShadow !== 'none', what: element.outerHTML.slice(0, 160) };
  });
  expect(focus.ring, `a visible focus ring on ${focus.what}`).toBe(true);
}

/** Presses `key` (Tab unless told) until `target` has focus; fails if it is not reached in `max` presses. */
async function moveTo(page: Page, target: Locator, { key = 'Tab', max = 40 }: { key?: string; max?: number } = {}) {
  await target.waitFor({ state: 'attached' });
  for (let presses = 0; presses <= max; presses++) {
    if (await hasFocus(target)) {
      await expectVisibleFocus(page);
      return;
    }
    await page.keyboard.press(key);
  }
  const focused = await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 160));
  throw new Error(`${target} not reached after ${max} × ${key}; focus is on ${focused}`);
}

/** Focus is inside `dialog`: it took focus when it opened. */
async function expectFocusInside(dialog: Locator) {
  await expect.poll(() => hasFocus(dialog), { message: 'focus moved into the dialog' }).toBe(true);
}

test('signs up, enters the mailed code (which signs in) and logs in again, by keyboard alone', async ({ page, context }) => {
  await prepare(context, english);
  const email = uniqueEmail('keyboard');
  const password = 'typed-not-clicked';

  await page.goto('/login');
  await moveTo(page, page.getByRole('link', { name: 'Create an account' }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/register$/);

  await moveTo(page, page.getByLabel('First name'));
  await page.keyboard.type('Kay');
  await moveTo(page, page.getByLabel('Last name'));
  await page.keyboard.type('Board');
  await moveTo(page, page.getByLabel('Email'));
  await page.keyboard.type(email);
  await moveTo(page, page.getByLabel('Password', { exact: true }));
  await page.keyboard.type(password);
  await moveTo(page, page.getByLabel('Repeat the password'));
  await page.keyboard.type(password);
  await moveTo(page, page.getByRole('button', { name: 'Create account' }));
  await page.keyboard.press('Enter');

  // The code page puts focus in the first box; typing the code fills the six and sends it.
  await expect(page).toHaveURL(/\/verify\?email=/);
  const firstDigit = page.getByRole('textbox', { name: 'Digit 1 of 6' });
  await moveTo(page, firstDigit, { max: 20 });
  await page.keyboard.type(await waitForCode(email));
  // The right code signs the new account in and lands on the dashboard.
  await expect(page).toHaveURL(/\/dashboard$/);

  // Signed out, the login form by keyboard too.
  await page.evaluate(() => localStorage.clear());
  await page.goto(`/login?email=${encodeURIComponent(email)}`);
  await expect(page.getByLabel('Email')).toHaveValue(email);
  await moveTo(page, page.getByLabel('Password', { exact: true }));
  await page.keyboard.type(password);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('buys a course by keyboard alone: catalogue, course, enroll, batch, sandbox payment', async ({ page, context, request }) => {
  const { session } = await newStudent(request, 'Keys');
  await prepare(context, english, session);

  await page.goto('/dashboard');
  await expect(page.getByTestId('dashboard')).toBeVisible();
  await moveTo(page, page.getByTestId('menu-courses'));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/courses$/);

  await moveTo(page, page.getByRole('link', { name: 'Data Science with Python' }), { max: 60 });
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/courses\/\d+$/);
  await expect(page.getByTestId('course-details')).toBeVisible();

  await moveTo(page, page.getByTestId('enroll-button'), { max: 60 });
  await page.keyboard.press('Enter');
  const enroll = page.getByTestId('enroll-modal').getByRole('dialog');
  await expect(enroll).toBeVisible();
  await expectFocusInside(enroll);

  // The weekend batch: the batch choice is a radio group, moved with the arrow keys.
  await moveTo(page, enroll.getByRole('radio', { name: 'Weekdays' }));
  await page.keyboard.press(english.rtl ? 'ArrowLeft' : 'ArrowRight');
  await expect(enroll.getByRole('radio', { name: 'Weekends' })).toBeChecked();
  // The second start date, from the list the arrow keys open.
  const startDate = enroll.getByTestId('enroll-start-date');
  const firstDate = await startDate.inputValue();
  await moveTo(page, startDate);
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('listbox')).toBeVisible();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(startDate).not.toHaveValue(firstDate);
  await expect(enroll.getByTestId('enroll-end-date')).not.toHaveText('—');
  await moveTo(page, enroll.getByTestId('enroll-submit'));
  await page.keyboard.press('Enter');

  const checkout = page.getByTestId('sandbox-checkout').getByRole('dialog');
  await expect(checkout).toBeVisible();
  await expectFocusInside(checkout);
  await moveTo(page, checkout.getByTestId('sandbox-pay'));
  await page.keyboard.press('Enter');
  await expect(page.getByText('Payment verified successfully!')).toBeVisible();
  await expect(checkout).toBeHidden();

  // Enrolled: the course now leads to My courses, with the weekend batch.
  await moveTo(page, page.getByRole('link', { name: 'Open in My courses' }), { max: 60 });
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/my-courses$/);
  await expect(page.getByTestId('enrollment-details')).toContainText('Weekend batch');
});

test.describe('meetings', () => {
  const browser = fakeMediaBrowser();

  test('starts a meeting and joins it by keyboard alone, then chats in it', async ({ request, baseURL }) => {
    const [hostContext, guestContext] = await Promise.all([0, 1].map(() => browser().newContext({ baseURL, viewport: { width: 1280, height: 800 } })));
    try {
      await prepare(hostContext!, english, await apiLogIn(request, 'teacher@mooz.local'), 'Tara Teacher');
      await prepare(guestContext!, english, (await newStudent(request, 'Joiner')).session, 'Jo Joiner');
      const host = await hostContext!.newPage();
      const guest = await guestContext!.newPage();

      // The teacher names a new meeting in the lobby and starts it.
      await host.goto('/dashboard');
      await expect(host.getByTestId('dashboard')).toBeVisible();
      await moveTo(host, host.getByTestId('menu-meetings'));
      await host.keyboard.press('Enter');
      await expect(host).toHaveURL(/\/meeting$/);
      await moveTo(host, host.getByTestId('meeting-name'), { max: 60 });
      await host.keyboard.press('ControlOrMeta+A');
      await host.keyboard.type('Keyboard hour');
      await moveTo(host, host.getByTestId('create-meeting'));
      await host.keyboard.press('Enter');
      await expect(host).toHaveURL(/\/meeting\/[\w-]+$/);
      await expect(host.getByTestId('meeting-title')).toHaveText('Keyboard hour');
      const link = host.url();

      // The student pastes the link into the join form and joins.
      await guest.goto('/meeting');
      await expect(guest.getByTestId('meeting-lobby')).toBeVisible();
      await moveTo(guest, guest.getByTestId('join-room-id'), { max: 60 });
      await guest.keyboard.type(link);
      await moveTo(guest, guest.getByTestId('join-meeting'));
      await guest.keyboard.press('Space');
      await expect(guest).toHaveURL(link);
      await expect(guest.getByTestId('participant-count')).toHaveText('2 / 10', { timeout: 30_000 });

      // In the room: the chat button opens the floating chat, whose field takes the message.
      await moveTo(guest, guest.getByTestId('toggle-floating-chat'));
      await expect(guest.getByTestId('toggle-floating-chat')).toHaveAttribute('aria-pressed', 'false');
      await guest.keyboard.press('Enter');
      const chat = guest.getByTestId('floating-chat');
      await expect(chat).toBeVisible();
      await expect(guest.getByTestId('toggle-floating-chat')).toHaveAttribute('aria-pressed', 'true');
      const input = chat.getByTestId('chat-input');
      await expect(input).toBeEnabled({ timeout: 30_000 });
      await moveTo(guest, input);
      await guest.keyboard.type('Typed without a mouse');
      await guest.keyboard.press('Enter');
      await expect(chat.getByTestId('chat-message')).toContainText('Typed without a mouse');
      // It reached the teacher: counted unread on the chat button (its 3 s toast can pass between two looks on a loaded machine).
      await expect(host.getByTestId('toggle-floating-chat')).toHaveAccessibleName(/1 unread message$/, { timeout: 15_000 });
    } finally {
      await Promise.all([hostContext!.close(), guestContext!.close()]);
    }
  });
});
