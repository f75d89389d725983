// Calendars in Chromium: the demo teacher makes a calendar feed on the profile page, the
// address it shows answers an iCalendar feed of the demo sessions, and turning it off (after a
// confirmation) makes that address 404; a student's "Add to calendar" downloads the session's .ics.
// The card is scanned with axe and shot at 1280 and 390 px, in English light and French dark right-to-left;
// the sessions page with its buttons in English and German dark right-to-left.
import { readFileSync } from 'node:fs';
import ICAL from 'ical.js';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { apiLogIn, AxeReport, look, newStudent, prepare, settle, type Look, type SignedIn } from './support/a11y';
import { shoot } from './support/screens';

async function signedInPage(browser: Browser, who: SignedIn, view: Look): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  await prepare(context, view, who);
  return context.newPage();
}

const summaries = (body: string) =>
  new ICAL.Component(ICAL.parse(body)).getAllSubcomponents('vevent').map((event) => String(event.getFirstPropertyValue('summary')));

test('the profile makes a calendar feed of the user’s sessions, and turning it off makes it 404', async ({ browser, request }) => {
  test.setTimeout(90_000);
  const view = look('en', 'light', false);
  const teacher = await apiLogIn(request, 'teacher@mooz.local');
  const page = await signedInPage(browser, teacher, view);
  await page.goto('/profile');
  const card = page.getByTestId('calendar-feed-card');
  await expect(card.getByRole('heading', { name: 'Calendar feed' })).toBeVisible({ timeout: 30_000 });
  // Loaded: either a feed another run left on (turned off first, so the card starts empty) or none.
  await expect(card.getByTestId('calendar-feed-create').or(card.getByTestId('calendar-feed-revoke'))).toBeVisible({ timeout: 30_000 });
  if (await card.getByTestId('calendar-feed-revoke').isVisible()) {
    await card.getByTestId('calendar-feed-revoke').click();
    await page.getByTestId('calendar-feed-revoke-confirm').click();
  }
  await card.getByTestId('calendar-feed-create').click();
  const https = card.getByTestId('calendar-feed-url');
  await expect(https).toHaveValue(/^http:\/\/127\.0\.0\.1:\d+\/api\/calendar\/\d+-[A-Za-z0-9_-]{32}\.ics$/);
  const url = await https.inputValue();
  await expect(card.getByTestId('calendar-feed-webcal')).toHaveValue(url.replace(/^http:/, 'webcal:'));

  const feed = await request.get(url);
  expect(feed.status()).toBe(200);
  expect(feed.headers()['content-type']).toBe('text/calendar; charset=utf-8');
  const titles = summaries(await feed.text());
  // The demo teacher's sessions: each course's orientation and workshop, and the live office hours.
  expect(titles.filter((t) => t.includes(': orientation')).length).toBeGreaterThanOrEqual(3);
  expect(titles.some((t) => t.includes(': open office hours'))).toBe(true);

  const axe = new AxeReport(view);
  await settle(page, view);
  await axe.scan(page, 'calendar feed card');
  await shoot(page, 'calendar-card');

  // Turning it off asks first; Cancel keeps it.
  await card.getByTestId('calendar-feed-revoke').click();
  const dialog = page.getByRole('dialog', { name: 'Turn off the calendar feed?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  expect((await request.get(url)).status()).toBe(200);
  await card.getByTestId('calendar-feed-revoke').click();
  await page.getByTestId('calendar-feed-revoke-confirm').click();
  await expect(card.getByTestId('calendar-feed-create')).toBeVisible();
  const gone = await request.get(url);
  expect(gone.status()).toBe(404);
  await axe.expectClean();
});

test('the card reads in French, dark, right to left, on a phone', async ({ browser, request }) => {
  test.setTimeout(90_000);
  const view = look('fr', 'dark', true);
  const student = await newStudent(request, 'Agenda');
  const page = await signedInPage(browser, student.session, view);
  await page.goto('/profile');
  const card = page.getByTestId('calendar-feed-card');
  await expect(card.getByRole('heading', { name: 'Flux d’agenda' })).toBeVisible({ timeout: 30_000 });
  await card.getByTestId('calendar-feed-create').click();
  await expect(card.getByTestId('calendar-feed-url')).toHaveValue(/\.ics$/);
  // Its copy button is a labelled button inside the field, reached by the keyboard.
  await card.getByTestId('calendar-feed-url').focus();
  await page.keyboard.press('Tab');
  await expect(card.getByTestId('calendar-feed-url-copy')).toBeFocused();
  await expect(card.getByTestId('calendar-feed-url-copy')).toHaveAccessibleName(/Copier : .*Adresse web \(https:\/\/\)/);
  await settle(page, view);
  const axe = new AxeReport(view);
  await axe.scan(page, 'calendar feed card');
  await shoot(page, 'calendar-card-fr-dark-rtl');
  // A student with nothing bought has an empty, valid feed.
  const feed = await request.get(await card.getByTestId('calendar-feed-url').inputValue());
  expect(feed.status()).toBe(200);
  expect(summaries(await feed.text())).toEqual([]);
  await axe.expectClean();
});

test('“Add to calendar” downloads the session as an .ics file', async ({ browser, request }) => {
  test.setTimeout(90_000);
  const view = look('en', 'light', false);
  // A student in trial sees the demo sessions.
  const student = await newStudent(request, 'Icsfan');
  const page = await signedInPage(browser, student.session, view);
  await page.goto('/sessions');
  const row = page.getByTestId('session-row').filter({ hasText: ': orientation' }).first();
  const title = (await row.getByTestId('session-title').textContent())!;
  const [download] = await Promise.all([page.waitForEvent('download'), row.getByTestId('add-to-calendar').click()]);
  expect(download.suggestedFilename()).toMatch(/orientation\.ics$/);
  const body = readFileSync((await download.path())!, 'utf8');
  expect(body).toContain('METHOD:PUBLISH');
  const [summary, ...rest] = summaries(body);
  expect(rest).toEqual([]);
  expect(summary).toContain(title);
  // A labelled button the keyboard reaches: Enter downloads too.
  await expect(row.getByTestId('add-to-calendar')).toHaveAccessibleName(`Add to calendar: “${title}”`);
  await row.getByTestId('add-to-calendar').focus();
  const [again] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
  expect(again.suggestedFilename()).toBe(download.suggestedFilename());
  await shoot(page, 'sessions-add-to-calendar');
});

test('“Add to calendar” reads in German, dark, right to left', async ({ browser, request }) => {
  test.setTimeout(90_000);
  const view = look('de', 'dark', true);
  const student = await newStudent(request, 'Kalender');
  const page = await signedInPage(browser, student.session, view);
  await page.goto('/sessions');
  const row = page.getByTestId('session-row').filter({ hasText: ': orientation' }).first();
  // The first list of a fresh student takes a while on a busy machine.
  await expect(row.getByTestId('add-to-calendar')).toContainText('Zum Kalender hinzufügen', { timeout: 60_000 });
  await settle(page, view);
  // (The whole sessions page is scanned with axe by accessibility-student.spec.ts; here, the button's own name.)
  await expect(row.getByTestId('add-to-calendar')).toHaveAccessibleName(/Zum Kalender hinzufügen: „.*: orientation“/);
  await shoot(page, 'sessions-de-dark-rtl');
});
