// The tools of a live class in Chromium, each person in their own browser: the teacher draws on the
// board and both students see it; a reaction floats over its sender's tile for everyone; a private
// message reaches the one it is for and not the third person, and the teacher can keep students from
// writing to each other; a graded poll is answered, its results shown to the class, and its answers
// downloaded as CSV; the class splits into two breakout groups, hears the teacher in each, and comes
// back. The poll, the reactions and the groups are scanned by axe and written to the output folder at
// 1280 px and at 390 px in French right-to-left.
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { AxeReport } from './support/a11y';
import { toastsShown } from './support/meeting-probe';
import { classOfThree, english, frenchRtl, joined, meetingWindows } from './support/meeting-windows';

const windows = meetingWindows();

test.describe.configure({ mode: 'serial' });

const tileOf = (page: Page, name: string) => page.locator('[data-testid="remote-tile"]', { hasText: name });
const chats = (page: Page) => page.getByTestId('panel-chat').getByTestId('chat-message');

async function openChats(page: Page) {
  if (!(await page.getByTestId('side-panel').isVisible())) await page.getByTestId('toggle-panel').click();
  await page.getByTestId('tab-chats').click();
}

test('the board, a reaction, a private message the third person does not get, and a graded poll', async ({ request, baseURL }, testInfo) => {
  // Three windows with cameras and the board editor on two cores: minutes, not seconds.
  test.setTimeout(600_000);
  const { tess, samiPage, linaPage, session } = await classOfThree(request, baseURL!, windows.open, { topic: 'Optics', linaView: frenchRtl, linaWidth: 390 });
  const teacherAxe = new AxeReport(english);
  const linaAxe = new AxeReport(frenchRtl);

  // The board: the teacher shows it and draws a stroke; both students see it.
  await tess.getByTestId('toggle-whiteboard').click();
  for (const page of [tess, samiPage, linaPage]) await expect(page.getByTestId('whiteboard')).toBeVisible({ timeout: 30_000 });
  const canvas = tess.getByTestId('whiteboard').locator('canvas.interactive');
  await expect(canvas).toBeVisible({ timeout: 60_000 });
  await tess.getByTestId('whiteboard').getByTestId('toolbar-freedraw').click({ force: true });
  const box = (await canvas.boundingBox())!;
  await tess.mouse.move(box.x + 300, box.y + 150);
  await tess.mouse.down();
  for (let step = 1; step <= 8; step += 1) await tess.mouse.move(box.x + 300 + step * 25, box.y + 150 + step * 8);
  await tess.mouse.up();
  for (const page of [samiPage, linaPage]) await expect(page.getByTestId('whiteboard')).toHaveAttribute('data-elements', '1', { timeout: 30_000 });
  await tess.getByTestId('toggle-whiteboard').click();
  for (const page of [samiPage, linaPage]) await expect(page.getByTestId('whiteboard')).toHaveCount(0);

  // A reaction: Sami claps; it floats over his tile for the others, and over his own.
  await samiPage.getByTestId('reactions-button').click();
  await expect(samiPage.getByTestId('reaction-choice')).toHaveCount(6);
  await samiPage.locator('[data-testid="reaction-choice"][data-reaction="👏"]').click();
  // Looked for on the three screens at once: it floats for four seconds.
  await Promise.all([
    expect(samiPage.getByTestId('local-tile').getByTestId('tile-reaction')).toHaveAttribute('data-reaction', '👏'),
    expect(tileOf(tess, 'Sami Student').getByTestId('tile-reaction'))
      .toHaveAttribute('data-reaction', '👏')
      .then(() => tess.screenshot({ path: testInfo.outputPath('reaction-teacher-1280.png') })),
    expect(tileOf(linaPage, 'Sami Student').getByTestId('tile-reaction')).toHaveAttribute('aria-label', /Sami Student/),
  ]);
  // It goes after a few seconds.
  await expect(tileOf(tess, 'Sami Student').getByTestId('tile-reaction')).toHaveCount(0, { timeout: 10_000 });

  // A private message from Sami to Lina (from the People list): Lina gets it, marked private; Tess does not.
  await samiPage.getByTestId('toggle-panel').click();
  await samiPage.getByTestId('tab-people').click();
  await samiPage.getByTestId('person').filter({ hasText: 'Lina Student' }).getByTestId('person-private-message').click();
  await expect(samiPage.getByTestId('chat-to')).toHaveValue(/.+/);
  await samiPage.getByTestId('panel-chat').getByTestId('chat-input').fill('Psst, page 12');
  await samiPage.getByTestId('panel-chat').getByTestId('chat-input').press('Enter');
  await openChats(linaPage);
  await expect(chats(linaPage)).toHaveCount(1);
  await expect(chats(linaPage).first()).toHaveAttribute('data-private', 'true');
  await expect(chats(linaPage).first()).toContainText('Psst, page 12');
  // Then a message to everyone: it reaches Tess, and the private one before it never did.
  await samiPage.getByTestId('chat-to').selectOption('');
  await samiPage.getByTestId('panel-chat').getByTestId('chat-input').fill('Hello everyone');
  await samiPage.getByTestId('panel-chat').getByTestId('chat-input').press('Enter');
  await openChats(tess);
  await expect(chats(tess)).toHaveCount(1);
  await expect(chats(tess).first()).toContainText('Hello everyone');
  await expect(chats(linaPage)).toHaveCount(2);
  await linaPage.screenshot({ path: testInfo.outputPath('private-message-390-fr-rtl.png') });
  await linaAxe.scan(linaPage, 'meeting chats with a private message');
  // On a phone the panel covers the room: Lina closes it.
  await linaPage.keyboard.press('Escape');
  await expect(linaPage.getByTestId('side-panel')).toBeHidden();

  // The teacher keeps students from writing to each other: Sami may write to the teacher only.
  await tess.getByTestId('host-menu').click();
  await tess.getByTestId('host-private-chat').click();
  await expect(samiPage.getByTestId('chat-to').locator('option')).toHaveCount(2);
  await expect(samiPage.getByTestId('chat-to').locator('option').nth(1)).toContainText('Tess Teacher');
  await samiPage.getByTestId('chat-to').selectOption({ index: 1 });
  await samiPage.getByTestId('panel-chat').getByTestId('chat-input').fill('May I ask something?');
  await samiPage.getByTestId('panel-chat').getByTestId('chat-input').press('Enter');
  await expect(chats(tess)).toHaveCount(2);
  await expect(chats(tess).nth(1)).toHaveAttribute('data-private', 'true');
  // Lina, her chats closed, was not told of it either.
  expect((await toastsShown(linaPage)).join(' | ')).not.toContain('May I ask');
  await samiPage.getByTestId('toggle-panel').click();

  // A graded poll: the teacher asks, each student answers once, the teacher sees the answers come in.
  await tess.getByTestId('host-menu').click();
  await tess.getByTestId('host-new-poll').click();
  const form = tess.getByTestId('poll-form');
  await form.getByTestId('poll-question').fill('Which lens makes light converge?');
  await form.getByTestId('poll-option').nth(0).fill('Concave');
  await form.getByTestId('poll-option').nth(1).fill('Convex');
  await form.getByTestId('poll-add-option').click();
  await form.getByTestId('poll-option').nth(2).fill('Flat glass');
  await form.getByTestId('poll-graded').click();
  await form.getByTestId('poll-ask').click();
  await expect(form.getByTestId('poll-form-error')).toBeVisible();
  await form.getByTestId('poll-correct').nth(1).click();
  await form.getByTestId('poll-ask').click();
  await expect(form).toBeHidden();
  for (const page of [samiPage, linaPage]) await expect(page.getByTestId('poll-question-text')).toHaveText('Which lens makes light converge?');
  await expect(samiPage.getByTestId('poll-submit')).toBeDisabled();
  await samiPage.getByTestId('poll-choice').nth(1).click();
  await samiPage.getByTestId('poll-submit').click();
  await expect(samiPage.getByTestId('poll-mine')).toContainText('Convex');
  await linaAxe.scan(linaPage, 'meeting with a poll to answer');
  await linaPage.screenshot({ path: testInfo.outputPath('poll-answer-390-fr-rtl.png') });
  await linaPage.getByTestId('poll-choice').nth(0).click();
  await linaPage.getByTestId('poll-submit').click();
  await expect(tess.getByTestId('poll-results')).toContainText('2');
  await expect(tess.getByTestId('poll-result').nth(0)).toHaveAttribute('data-count', '1');
  await expect(tess.getByTestId('poll-result').nth(1)).toHaveAttribute('data-count', '1');
  // The students do not see the results until the teacher shows them.
  await expect(samiPage.getByTestId('poll-results')).toHaveCount(0);
  await teacherAxe.scan(tess, 'meeting with the poll results (host)');

  // Closed and shown: everyone sees the counts and the right answer.
  await tess.getByTestId('poll-close').click();
  await tess.getByTestId('poll-reveal').click();
  for (const page of [samiPage, linaPage]) {
    await expect(page.getByTestId('poll-closed')).toBeVisible();
    await expect(page.getByTestId('poll-result').nth(1)).toHaveAttribute('data-count', '1');
    await expect(page.getByTestId('poll-result').nth(1).locator('svg[aria-label]')).toHaveCount(1);
  }
  await samiPage.screenshot({ path: testInfo.outputPath('poll-results-1280.png') });
  await linaPage.screenshot({ path: testInfo.outputPath('poll-results-390-fr-rtl.png') });
  await linaAxe.scan(linaPage, 'meeting with the poll results');

  // Every answer, downloaded by the teacher as CSV (an anonymous poll: no names).
  const [download] = await Promise.all([tess.waitForEvent('download'), tess.getByTestId('poll-download').click()]);
  expect(download.suggestedFilename()).toMatch(/^poll-answers-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = readFileSync(await download.path(), 'utf8');
  const rows = csv.replace(/^\uFEFF/, '').trim().split('\r\n');
  expect(rows[0]).toBe('Poll,Question,Kind,Name,Email,Answer,Correct,Answered (UTC)');
  expect(rows.slice(1).map((row) => row.split(',').slice(3, 7).join(',')).sort()).toEqual([',,Concave,no', ',,Convex,yes']);

  // A student who reloads finds the poll with the answer they gave.
  await samiPage.reload();
  await joined(samiPage, 2);
  await expect(samiPage.getByTestId('poll-mine')).toContainText('Convex');

  // Breakout rooms, split by hand: Sami in the first group, Lina in the second. Each lands in their
  // group's own room, without the teacher.
  await tess.getByTestId('host-menu').click();
  await tess.getByTestId('host-breakouts').click();
  const split = tess.getByTestId('breakout-form');
  await split.getByTestId('breakout-mode').getByLabel('By hand').check();
  await expect(split.getByTestId('breakout-person-group')).toHaveCount(2);
  for (const [name, group] of [
    ['Sami Student', 'Group 1'],
    ['Lina Student', 'Group 2'],
  ]) {
    await split.locator(`[data-testid="breakout-person-group"][data-name="${name}"]`).click();
    await tess.getByRole('option', { name: group }).click();
  }
  await split.getByTestId('breakout-open').click();
  await expect(split).toBeHidden();
  const mainRoom = `/meeting/${session.room_id}`;
  await expect(samiPage).toHaveURL(new RegExp(`${mainRoom}~b\\d+g1$`), { timeout: 30_000 });
  await expect(linaPage).toHaveURL(new RegExp(`${mainRoom}~b\\d+g2$`), { timeout: 30_000 });
  await Promise.all([joined(samiPage, 0), joined(linaPage, 0), joined(tess, 0)]);
  // The teacher is told where they went, not that they left.
  await expect.poll(() => toastsShown(tess)).toContain('Sami Student went to Group 1');
  expect(await toastsShown(tess)).not.toContain('Lina Student left the meeting');
  await expect(linaPage.getByTestId('breakout-badge')).toContainText('Groupe 2');
  // A group runs its own board: Lina may open it there, as only the teacher could in the class.
  await expect(linaPage.getByTestId('toggle-whiteboard')).toBeVisible();
  await linaPage.screenshot({ path: testInfo.outputPath('breakout-group-390-fr-rtl.png') });
  await linaAxe.scan(linaPage, 'meeting in a breakout group');

  // The teacher writes to every group at once, then visits Sami's.
  const rooms = tess.getByTestId('breakouts-card');
  await expect(rooms.getByTestId('breakout-group')).toHaveCount(2);
  await expect(rooms.getByTestId('breakout-group').nth(0)).toContainText('Sami Student');
  await rooms.getByTestId('breakouts-broadcast-input').fill('Two minutes left');
  await rooms.getByTestId('breakouts-broadcast-send').click();
  for (const page of [samiPage, linaPage]) await expect(page.getByTestId('meeting-toast').filter({ hasText: 'Two minutes left' })).toBeVisible();
  await tess.screenshot({ path: testInfo.outputPath('breakout-host-1280.png') });
  await teacherAxe.scan(tess, 'meeting with breakout rooms (host)');
  await rooms.getByTestId('breakout-visit').first().click();
  await expect(tess).toHaveURL(/g1$/);
  await Promise.all([joined(tess, 1), joined(samiPage, 1)]);
  await expect(linaPage.getByTestId('remote-tile')).toHaveCount(0);

  // And brings everyone back to the main room.
  await tess.getByTestId('breakouts-close').click();
  for (const page of [tess, samiPage, linaPage]) await expect(page).toHaveURL(new RegExp(`${mainRoom}$`), { timeout: 30_000 });
  await Promise.all([joined(tess, 2), joined(samiPage, 2), joined(linaPage, 2)]);
  await expect(linaPage.getByTestId('breakout-badge')).toHaveCount(0);

  await teacherAxe.expectClean();
  await linaAxe.expectClean();
});
