// Words and layout: every page names itself in the browser tab, in the user's language, and has one
// h1; a right-to-left layout keeps mixed text readable; the words fit the user's role and moment;
// and a phone can read what a desktop can.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { newStudent } from './support/a11y';

const password = 'mooz-demo-123';

async function logIn(page: Page, email: string) {
  await page.goto('/login');
  await page.getByTestId('login-form').getByRole('textbox').first().fill(email);
  await page.locator('input[type=password]').fill(password);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/dashboard$/);
}

/** Stored layout preferences, as the settings drawer would leave them, before the app loads. */
async function preferences(page: Page, state: { rtl?: boolean }, language = 'en') {
  await page.addInitScript(
    ([layout, lng]) => {
      localStorage.setItem('layout', layout);
      localStorage.setItem('i18nextLng', lng);
    },
    [JSON.stringify({ state, version: 1 }), language] as const,
  );
}

async function expectPage(page: Page, path: string, tabTitle: string | RegExp) {
  await page.goto(path);
  await expect(page).toHaveTitle(tabTitle);
  await expect(page.locator('h1')).toHaveCount(1);
}

/**
 * Where the first and the last visible character of an element's text are drawn: in a run that
 * reads left to right, the last one is right of the first ("Welcome, Sam!", not "!Welcome, Sam").
 */
async function edgeCharacters(locator: Locator) {
  return locator.evaluate((element) => {
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    const spots: { node: Text; index: number }[] = [];
    for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
      for (let index = 0; index < node.data.length; index++) {
        if (/[^\s\u2066-\u2069]/.test(node.data[index]!)) spots.push({ node, index });
      }
    }
    const x = ({ node, index }: { node: Text; index: number }) => {
      const range = document.createRange();
      range.setStart(node, index);
      range.setEnd(node, index + 1);
      return range.getBoundingClientRect().x;
    };
    return { first: x(spots[0]!), last: x(spots.at(-1)!), text: element.textContent };
  });
}

test('every page names itself in the tab and has one h1, in English and in French', async ({ page }) => {
  // Seventeen pages in one journey: more than the default time on a busy machine.
  test.slow();
  await expectPage(page, '/login', 'Log in · Mooz');
  await expectPage(page, '/register', 'Sign up · Mooz');
  await expectPage(page, '/forgot-password', 'Reset your password · Mooz');
  await expectPage(page, '/verify?email=someone%40example.com', 'Verify your email · Mooz');

  await logIn(page, 'student@mooz.local');
  await expectPage(page, '/dashboard', 'Dashboard · Mooz');
  await expectPage(page, '/courses', 'Courses · Mooz');
  await expectPage(page, '/my-courses', 'My courses · Mooz');
  await expectPage(page, '/sessions', 'Sessions · Mooz');
  await expectPage(page, '/profile', 'Profile · Mooz');
  await expectPage(page, '/change-password', 'Change password · Mooz');
  await expectPage(page, '/meeting', 'Meetings · Mooz');
  await expectPage(page, '/not-authorized', 'Not authorized · Mooz');
  await expectPage(page, '/no-such-page', 'Page not found · Mooz');
  // A course's page is named after the course once it has loaded.
  await page.goto('/courses');
  const firstCourse = page.getByTestId('course-card').first();
  const courseName = (await firstCourse.getByRole('heading').textContent())!.trim();
  await page.goto((await firstCourse.getByRole('link').first().getAttribute('href'))!);
  await expect(page).toHaveTitle(`${courseName} · Mooz`);
  await expect(page.locator('h1')).toHaveCount(1);

  await page.goto('/courses?lng=fr');
  await expect(page).toHaveTitle('Cours · Mooz');
  await page.goto('/sessions');
  await expect(page).toHaveTitle('Séances · Mooz');
});

test('a teacher’s pages have one h1 too, and the editor names itself', async ({ page }) => {
  await logIn(page, 'teacher@mooz.local');
  await expectPage(page, '/my-courses/new', 'New course · Mooz');
  await expectPage(page, '/my-courses', 'My courses · Mooz');
});

test('right to left keeps greetings, times and footers reading in their own direction', async ({ page }) => {
  await preferences(page, { rtl: true });
  await logIn(page, 'student@mooz.local');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');

  const greeting = await edgeCharacters(page.getByTestId('greeting'));
  expect(greeting.text).toContain('Sam!');
  expect(greeting.last, `"!" of "${greeting.text}" is drawn after the name`).toBeGreaterThan(greeting.first);

  await page.goto('/sessions');
  const time = await edgeCharacters(page.getByTestId('session-time').first());
  expect(time.last, `"${time.text}" reads from its start time to its zone`).toBeGreaterThan(time.first);
  // The layout itself is still mirrored: the time sits right of the session's title block's start.
  const footer = await edgeCharacters(page.locator('footer').getByText(/©/));
  expect(footer.last, `"${footer.text}" reads from © to its end`).toBeGreaterThan(footer.first);

  await page.goto('/courses');
  const weeks = await edgeCharacters(page.getByTestId('course-duration').first());
  expect(weeks.last, `"${weeks.text}" keeps its number first`).toBeGreaterThan(weeks.first);
});

test('a new account is welcomed, not welcomed back, and staff areas speak to staff', async ({ page }) => {
  // The demo accounts were made when this server started: they are new.
  await logIn(page, 'student@mooz.local');
  await expect(page.getByTestId('greeting')).toHaveText('Welcome, Sam!');
  await expect(page.getByTestId('area-my-courses')).toContainText('The courses you have joined');

  await page.getByTestId('user-menu').click();
  await page.getByTestId('logout').click();
  await expect(page).toHaveURL(/\/login$/);
  // The login page offers what exists: no recordings, certificates or progress charts yet.
  await expect(page.locator('body')).not.toContainText(/record|certificate|progress/i);

  await logIn(page, 'teacher@mooz.local');
  const areas = page.getByTestId('dashboard');
  await expect(areas.getByTestId('area-my-courses')).toContainText('The courses you teach');
  await expect(areas).not.toContainText(/you have joined|enrol in a batch/i);
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the trial countdown shows and every session title can be read whole', async ({ page, request }) => {
    // A student still in trial: the demo student may have bought a course in another spec.
    const { email } = await newStudent(request, 'Pia');
    await logIn(page, email);
    await expect(page.getByTestId('trial-badge-short')).toBeVisible();
    await expect(page.getByTestId('trial-badge-short')).toHaveText(/^\d+ d$/);
    await expect(page.getByTestId('trial-badge')).toHaveAccessibleName(/Trial: \d+ days/);
    // Nothing in the bar is pushed off the screen to make room for it.
    await expect(page.getByTestId('user-menu')).toBeInViewport({ ratio: 1 });

    await page.goto('/sessions');
    const titles = page.getByTestId('session-title');
    await expect(titles.first()).toBeVisible();
    for (const title of await titles.all()) {
      const clipped = await title.evaluate((el) => el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1);
      expect(clipped, `"${await title.textContent()}" is shown whole`).toBe(false);
    }
  });
});
