// Running a class in Chromium with fake cameras and microphones, each person in their own
// browser: in a class session a student raises a hand, the teacher sees it and turns the student's
// microphone off, the student sees it off; the teacher removes another student, who cannot come back;
// the host menu passes axe. Then an ad hoc room with the lobby on: a newcomer waits and is admitted.
import { expect, test, type Page } from '@playwright/test';
import { AxeReport, newStudent } from './support/a11y';
import { toastsShown } from './support/meeting-probe';
import { classOfThree, english, joined, meetingWindows } from './support/meeting-windows';

const windows = meetingWindows();

test.describe.configure({ mode: 'serial' });

/** The People tab's row of `name`, with the host's menu. */
const personRow = (page: Page, name: string) => page.getByTestId('person').filter({ hasText: name });

test('a student raises a hand and is muted by the teacher; a removed student cannot come back', async ({ request, baseURL }) => {
  test.setTimeout(240_000);
  const { tess, samiPage, linaPage, room } = await classOfThree(request, baseURL!, windows.open, { topic: 'Rhetoric' });
  // Students have no host controls; the teacher does.
  await expect(samiPage.getByTestId('host-menu')).toHaveCount(0);
  await expect(tess.getByTestId('host-menu')).toBeVisible();

  // Sami raises a hand (the H key); the teacher sees it on the tile and first in the People tab.
  await expect(samiPage.getByTestId('toggle-mic')).toHaveAttribute('aria-label', 'Mute microphone');
  await samiPage.keyboard.press('h');
  await expect(samiPage.getByTestId('toggle-hand')).toHaveAttribute('aria-label', 'Lower hand');
  const samiTile = tess.getByTestId('remote-tile').filter({ hasText: 'Sami Student' });
  await expect(samiTile.getByTestId('hand-badge')).toHaveAttribute('data-place', '1');
  await linaPage.getByTestId('toggle-hand').click();
  await tess.getByTestId('toggle-panel').click();
  await expect(tess.getByTestId('hand-entry')).toHaveText([/Sami Student/, /Lina Student/]);

  // The teacher turns Sami's microphone off: Sami's client turns it off and says who did.
  await personRow(tess, 'Sami Student').getByTestId('person-menu').click();
  await tess.getByTestId('person-mute').click();
  await expect(samiPage.getByTestId('toggle-mic')).toHaveAttribute('aria-label', 'Turn microphone on');
  await expect(samiPage.getByTestId('local-tile').getByLabel('Microphone off')).toBeVisible();
  await expect.poll(() => toastsShown(samiPage)).toContain('Tess Teacher turned your microphone off');
  // Lock: Sami cannot turn it back on, and the button says why.
  await tess.getByTestId('host-menu').click();
  await tess.getByTestId('host-lock').click();
  await expect(samiPage.getByTestId('mics-locked')).toBeVisible();
  await expect(samiPage.getByTestId('toggle-mic')).toHaveAttribute('aria-label', 'Microphone locked by the host');
  await samiPage.getByTestId('toggle-mic').click();
  await expect(samiPage.getByTestId('toggle-mic')).toHaveAttribute('aria-label', 'Microphone locked by the host');
  // The teacher's own microphone is never locked.
  await expect(tess.getByTestId('toggle-mic')).toHaveAttribute('aria-label', 'Mute microphone');

  // The host menu passes axe, open.
  const axe = new AxeReport(english);
  await tess.getByTestId('host-menu').click();
  await expect(tess.getByTestId('host-end-class')).toBeVisible();
  await axe.scan(tess, 'meeting room, host menu open');
  await tess.keyboard.press('Escape');
  await personRow(tess, 'Lina Student').getByTestId('person-menu').click();
  await expect(tess.getByTestId('person-remove')).toBeVisible();
  await axe.scan(tess, 'meeting room, person menu open');

  // The teacher removes Lina (after confirming): she sees why, the others lose her tile.
  await tess.getByTestId('person-remove').click();
  await tess.getByTestId('confirm-remove-yes').click();
  await expect(linaPage.getByTestId('room-removed')).toBeVisible();
  await expect(linaPage.getByTestId('room-closed-reason')).toHaveText('You were removed from this class by Tess Teacher');
  await expect(tess.getByTestId('remote-tile')).toHaveCount(1);
  await expect(samiPage.getByTestId('remote-tile')).toHaveCount(1);
  // Coming back (a new page, so a new peer id) is refused.
  // (A fresh load of the meeting page: its chunk, the camera and the socket, so a loaded machine's patience.)
  await linaPage.goto(room);
  await expect(linaPage.getByTestId('meeting-failure')).toHaveText('You were removed from this class by Tess Teacher', { timeout: 30_000 });
  await axe.expectClean();
});

test('an ad hoc room with the lobby on: a newcomer waits and the host admits them', async ({ request, baseURL }) => {
  test.setTimeout(180_000);
  const owner = (await newStudent(request, 'Omar')).session;
  const guest = (await newStudent(request, 'Gina')).session;
  const [omarPage, ginaPage] = await Promise.all([
    windows.open(baseURL!, owner, 'Omar Owner'),
    windows.open(baseURL!, guest, 'Gina Guest'),
  ]);
  await omarPage.goto('/meeting');
  await omarPage.getByTestId('create-meeting').click();
  await expect(omarPage).toHaveURL(/\/meeting\/[\w-]+$/);
  await joined(omarPage, 0);
  await omarPage.keyboard.press('Escape');
  await omarPage.getByTestId('host-menu').click();
  await omarPage.getByTestId('host-lobby').click();
  // The menu says it is on now.
  await omarPage.getByTestId('host-menu').click();
  await expect(omarPage.getByTestId('host-lobby')).toHaveText('Turn the lobby off');
  await omarPage.keyboard.press('Escape');

  await ginaPage.goto(omarPage.url());
  await expect(ginaPage.getByTestId('lobby-screen')).toBeVisible({ timeout: 60_000 });
  await expect(ginaPage.getByTestId('lobby-waiting')).toHaveText('Waiting for the host to let you in');
  await expect.poll(() => toastsShown(omarPage)).toContain('Gina Guest is waiting to join');
  await omarPage.getByTestId('toggle-panel').click();
  await expect(omarPage.getByTestId('lobby-entry')).toHaveText(/Gina Guest/);
  await omarPage.getByRole('button', { name: 'Admit Gina Guest' }).click();
  await joined(ginaPage, 1);
  await joined(omarPage, 1);
  await expect(omarPage.getByTestId('lobby-entry')).toHaveCount(0);
});
