// Finding things: the search dialog from the keyboard, bookmarks starred on a course page and
// listed in the navbar (kept across reloads, reordered by keyboard), and the layout settings that
// change the frame (top menu, navbar and footer types), in English, in German and right to left, with
// axe scans of the open search and of the horizontal layout.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { AxeReport, look, newStudent, prepare, type Look } from './support/a11y';

const english = look('en', 'light', false);
const germanRtl = look('de', 'dark', true);

/** The words each look's checks need, as its translation has them. */
const words = {
  en: {
    sessions: 'Sessions',
    courses: 'Courses',
    noResults: 'No results for “zzqxv”',
    top: 'Top',
    floating: 'Floating',
    sticky: 'Sticky (stays on top)',
    hidden: 'Hidden',
  },
  de: {
    sessions: 'Sitzungen',
    courses: 'Kurse',
    noResults: 'Keine Ergebnisse für „zzqxv“',
    top: 'Oben',
    floating: 'Schwebend',
    sticky: 'Fixiert (bleibt oben)',
    hidden: 'Ausgeblendet',
  },
} as const;

const searchInput = (page: Page) => page.getByTestId('search-input');
const activeOption = (page: Page) => page.locator('[role=option][aria-selected=true]');

/** Presses `key` until the active option is `target`; the list is walked from the keyboard only. */
async function arrowTo(page: Page, target: Locator, key = 'ArrowDown', max = 20) {
  const targetId = await target.getAttribute('id');
  for (let presses = 0; presses <= max; presses++) {
    if ((await searchInput(page).getAttribute('aria-activedescendant')) === targetId) return;
    await page.keyboard.press(key);
  }
  throw new Error(`${target} not reached with ${max} × ${key}`);
}

/** Opens the search with Ctrl+K and types `query` at once: keys typed while the dialog opens are kept. */
async function searchFor(page: Page, query: string) {
  await page.locator('body').press('ControlOrMeta+k');
  await page.keyboard.type(query);
  await expect(page.getByTestId('search-dialog').getByRole('dialog')).toBeVisible();
  await expect(searchInput(page)).toBeFocused();
  await expect(searchInput(page)).toHaveValue(query);
}

async function setLayout(page: Page, view: Look, choices: { top: boolean; navbar: string; footer: string }) {
  const w = words[view.lng as 'en' | 'de'];
  await page.getByTestId('settings-button').click();
  const drawer = page.getByTestId('settings-panel').getByRole('dialog');
  await expect(drawer).toBeVisible();
  // Substring matches: right to left, each translation is wrapped in bidi isolates.
  if (choices.top) await drawer.getByTestId('setting-layout').locator('label').filter({ hasText: w.top }).click();
  for (const [testId, option] of [
    ['setting-navbar-type', choices.navbar],
    ['setting-footer-type', choices.footer],
  ] as const) {
    await drawer.getByTestId(testId).click();
    await drawer.getByRole('option', { name: option }).click();
  }
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();
}

for (const view of [english, germanRtl]) {
  const w = words[view.lng as 'en' | 'de'];

  test.describe(`[${view.name}]`, () => {
    test('searches "python" from the keyboard and opens the course', async ({ page, context, request }) => {
      const { session } = await newStudent(request, 'Seeker');
      await prepare(context, view, session);
      await page.goto('/dashboard');
      await expect(page.getByTestId('dashboard')).toBeVisible();

      await searchFor(page, 'python');
      const courses = page.getByTestId('search-group-course');
      await expect(page.getByRole('group', { name: w.courses })).toBeVisible();
      const python = courses.getByRole('option', { name: /Data Science with Python/ });
      await expect(python).toBeVisible();
      // The matched word is marked from the server's spans.
      await expect(python.locator('mark').first()).toHaveText(/python/i);
      await arrowTo(page, python);
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowUp');
      await arrowTo(page, python, 'ArrowUp');
      await expect(activeOption(page)).toHaveCount(1);
      await page.keyboard.press('Enter');

      await expect(page).toHaveURL(/\/courses\/\d+$/);
      await expect(page.getByTestId('course-details')).toContainText('Data Science with Python');
      // The query lives in the layout state: it is still there after the navigation.
      await expect(page.getByTestId('search')).toContainText('python');

      // Nothing found reads well, and Escape closes the dialog.
      await page.locator('body').press('ControlOrMeta+k');
      await searchInput(page).fill('zzqxv');
      await expect(page.getByTestId('search-status')).toContainText(w.noResults);

      // A page found by its translated name is starred with Ctrl+B and joins the navbar's bookmarks.
      await searchInput(page).fill(w.sessions.toLowerCase());
      const sessionsPage = page.getByTestId('search-group-page').getByRole('option', { name: new RegExp(w.sessions) });
      await arrowTo(page, sessionsPage);
      await page.keyboard.press('ControlOrMeta+b');
      await expect(sessionsPage.getByTestId('search-star')).toHaveAttribute('data-starred', 'true');
      await expect(page.getByTestId('bookmarks-menu').getByTestId('bookmark-link')).toHaveText([w.sessions]);
      await page.keyboard.press('Escape');
      await expect(page.getByTestId('search-dialog').getByRole('dialog')).toBeHidden();
    });

    test('stars courses, finds them in the navbar after a reload, and reorders them by keyboard', async ({
      page,
      context,
      request,
    }) => {
      const { session } = await newStudent(request, 'Starry');
      await prepare(context, view, session);

      for (const name of ['Data Science with Python', 'Full-Stack Web Development']) {
        await page.goto('/courses');
        await page.getByRole('link', { name }).first().click();
        await expect(page.getByTestId('course-details')).toContainText(name);
        const star = page.getByTestId('bookmark-star');
        await expect(star).toHaveAttribute('aria-pressed', 'false');
        await star.click();
        // Flipped once the server confirmed.
        await expect(star).toHaveAttribute('aria-pressed', 'true');
      }

      await page.reload();
      const bookmarks = page.getByTestId('bookmarks-menu').getByTestId('bookmark-link');
      await expect(bookmarks).toHaveText(['Data Science with Python', 'Full-Stack Web Development']);
      await expect(page.getByTestId('bookmark-star')).toHaveAttribute('aria-pressed', 'true');

      // The second one moves up with Alt+↑ while it has focus; the move is announced and saved.
      await bookmarks.nth(1).focus();
      await page.keyboard.press('Alt+ArrowUp');
      await expect(bookmarks).toHaveText(['Full-Stack Web Development', 'Data Science with Python']);
      await expect(bookmarks.first()).toBeFocused();
      await expect(page.getByTestId('bookmarks-announcement')).toContainText('Full-Stack Web Development');
      await page.reload();
      await expect(bookmarks).toHaveText(['Full-Stack Web Development', 'Data Science with Python']);

      // Unstarring (this page is the last course starred) takes it out of the navbar.
      await expect(page.getByTestId('course-details')).toContainText('Full-Stack Web Development');
      await page.getByTestId('bookmark-star').click();
      await expect(page.getByTestId('bookmark-star')).toHaveAttribute('aria-pressed', 'false');
      await expect(bookmarks).toHaveText(['Data Science with Python']);
    });

    test('switches to the top menu with a hidden footer and a floating navbar, and keeps it after a reload', async ({
      page,
      context,
      request,
    }) => {
      const { session } = await newStudent(request, 'Layla');
      await prepare(context, view, session);
      await page.goto('/dashboard');
      await expect(page.getByTestId('dashboard')).toBeVisible();
      await expect(page.locator('footer')).toBeVisible();

      // Sticky first, to see the navbar type change, then floating.
      await setLayout(page, view, { top: true, navbar: w.sticky, footer: w.hidden });
      await expect(page.getByTestId('navbar')).toHaveAttribute('data-navbar-type', 'sticky');
      await setLayout(page, view, { top: false, navbar: w.floating, footer: w.hidden });

      const expectChosenLayout = async () => {
        await expect(page.getByTestId('top-menu')).toBeVisible();
        await expect(page.getByTestId('side-menu')).toHaveCount(0);
        await expect(page.getByTestId('navbar')).toHaveAttribute('data-navbar-type', 'floating');
        await expect(page.locator('footer')).toHaveCount(0);
        await expect(page.locator('html')).toHaveAttribute('dir', view.rtl ? 'rtl' : 'ltr');
      };
      await expectChosenLayout();
      await page.getByTestId('menu-courses').click();
      await expect(page).toHaveURL(/\/courses$/);
      await page.reload();
      await expectChosenLayout();

      // A phone keeps its menu drawer whatever the layout.
      await page.setViewportSize({ width: 390, height: 800 });
      await expect(page.getByTestId('top-menu')).toHaveCount(0);
      await page
        .getByRole('button', { name: view.lng === 'de' ? 'Menü öffnen oder schließen' : 'Open or close the menu' })
        .first()
        .click();
      await expect(page.getByTestId('side-menu')).toBeVisible();
    });

    test('the open search and the top menu pass axe', async ({ page, context, request }) => {
      const axe = new AxeReport(view);
      const { session } = await newStudent(request, 'Axel');
      await prepare(context, view, session);
      await page.goto('/courses');
      await page.getByRole('link', { name: 'UI/UX Design Foundations' }).first().click();
      await page.getByTestId('bookmark-star').click();
      await expect(page.getByTestId('bookmark-star')).toHaveAttribute('aria-pressed', 'true');

      await searchFor(page, 'design');
      await expect(page.getByTestId('search-group-course').getByRole('option').first()).toBeVisible();
      await axe.scan(page, 'search with results');
      await page.keyboard.press('Escape');

      await setLayout(page, view, { top: true, navbar: w.floating, footer: w.hidden });
      await expect(page.getByTestId('top-menu').getByTestId('bookmark-link')).toHaveCount(1);
      await axe.scan(page, 'top menu with a bookmark');
      await axe.expectClean();
    });
  });
}
