// The class whiteboard in Chromium, each person in their own browser: the teacher shows the
// board and draws, both students see each stroke (the delay from the teacher's screen to theirs is
// printed); a student without permission cannot draw, and the server refuses an update forged over a
// socket of its own; the teacher names a student, who then draws for everyone; pages follow the
// teacher; a late joiner gets the whole board, and one whose network dropped gets what was drawn
// meanwhile. Screens at 1280 px and 390 px, in French right-to-left, are written to the output folder.
import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { io } from 'socket.io-client';
import * as Y from 'yjs';
import { apiRoutes } from '@mooz/contract/api-routes';
import { pathOf } from '@mooz/contract/endpoint';
import { auth, newStudent, type Look, type SignedIn } from './support/a11y';
import { cutNetwork } from './support/meeting-probe';
import { classOfThree, english, frenchRtl, joined, meetingWindows } from './support/meeting-windows';

const windows = meetingWindows();

test.describe.configure({ mode: 'serial' });

/** A window that notes when its board first showed n elements (the board sets data-elements on every change). */
function openWindow(baseURL: string, who: SignedIn, name: string, view: Look = english, width = 1280): Promise<Page> {
  return windows.open(baseURL, who, name, view, width, (context) =>
    context.addInitScript(() => {
      const seen: Record<number, number> = {};
      (window as unknown as { __boardSeen: Record<number, number> }).__boardSeen = seen;
      new MutationObserver(() => {
        const board = document.querySelector<HTMLElement>('[data-testid="whiteboard"]');
        const count = Number(board?.dataset.elements ?? 0);
        if (board && !(count in seen)) seen[count] = performance.timeOrigin + performance.now();
      }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-elements'], childList: true });
    }),
  );
}

const board = (page: Page) => page.getByTestId('whiteboard');
const boardSeen = (page: Page) => page.evaluate(() => (window as unknown as { __boardSeen: Record<number, number> }).__boardSeen);

/** The drawing area's box (Excalidraw's interactive canvas, on top). */
async function canvasBox(page: Page) {
  const canvas = board(page).locator('canvas.interactive');
  await expect(canvas).toBeVisible({ timeout: 30_000 });
  return (await canvas.boundingBox())!;
}

/** Picks one of Excalidraw's tools from its toolbar (freedraw, rectangle, ellipse, eraser, text, selection). */
async function tool(page: Page, name: string) {
  // The radio sits under its icon, which takes the click for it.
  await board(page).getByTestId(`toolbar-${name}`).click({ force: true, timeout: 10_000 });
}

async function drag(page: Page, from: [number, number], to: [number, number]) {
  const box = await canvasBox(page);
  await page.mouse.move(box.x + from[0], box.y + from[1]);
  await page.mouse.down();
  for (let step = 1; step <= 8; step += 1) {
    await page.mouse.move(box.x + from[0] + ((to[0] - from[0]) * step) / 8, box.y + from[1] + ((to[1] - from[1]) * step) / 8);
  }
  await page.mouse.up();
}

const elements = (page: Page) => board(page);

test('the teacher draws and both students see it; drawing rights, a forged update, pages, a late joiner and a blip', async ({ request, baseURL }, testInfo) => {
  // Three windows with cameras and the board editor on two cores (and a fourth for the late joiner): minutes.
  test.setTimeout(480_000);
  const { session, sami, tess, samiPage, linaPage, room } = await classOfThree(request, baseURL!, openWindow, { linaView: frenchRtl, linaWidth: 390 });

  // Nothing of the editor is loaded before the board is shown.
  const editorLoaded = (page: Page) => page.evaluate(() => performance.getEntriesByType('resource').some((entry) => /whiteboard-board|excalidraw/i.test(entry.name)));
  expect(await editorLoaded(samiPage)).toBe(false);
  await expect(samiPage.getByTestId('toggle-whiteboard')).toHaveCount(0);

  // The teacher shows the board; everyone gets it, students read-only.
  await tess.getByTestId('toggle-whiteboard').click();
  for (const page of [tess, samiPage, linaPage]) await expect(board(page)).toBeVisible({ timeout: 30_000 });
  await expect(board(samiPage)).toHaveAttribute('data-can-draw', 'false');
  await expect(samiPage.getByTestId('whiteboard-permission')).toHaveText('View only');
  await expect(linaPage.getByTestId('whiteboard-permission')).toContainText('Lecture seule');

  // Pen strokes, a rectangle, an ellipse: each appears for both students; the delay is measured
  // from the moment the teacher's own board shows the new element to the moment a student's does.
  await canvasBox(tess);
  const strokes: [string, [number, number], [number, number]][] = [
    ['freedraw', [370, 120], [570, 180]],
    ['freedraw', [390, 220], [610, 260]],
    ['rectangle', [670, 120], [850, 260]],
    ['ellipse', [670, 300], [850, 400]],
    ['freedraw', [410, 320], [590, 420]],
  ];
  for (const [index, [key, from, to]] of strokes.entries()) {
    await tool(tess, key);
    await drag(tess, from, to);
    for (const page of [tess, samiPage, linaPage]) await expect(elements(page)).toHaveAttribute('data-elements', `${index + 1}`, { timeout: 10_000 });
  }
  const teacherSeen = await boardSeen(tess);
  const delays: number[] = [];
  for (const student of [samiPage, linaPage]) {
    const seen = await boardSeen(student);
    for (let n = 1; n <= strokes.length; n += 1) delays.push(seen[n]! - teacherSeen[n]!);
  }
  delays.sort((a, b) => a - b);
  const median = delays[Math.floor(delays.length / 2)]!;
  const worst = delays[delays.length - 1]!;
  console.log(`whiteboard: teacher's stroke on a student's screen after ${median.toFixed(0)} ms median, ${worst.toFixed(0)} ms worst (${delays.length} strokes seen, 3 windows on this machine)`);
  testInfo.annotations.push({ type: 'stroke delay', description: `median ${median.toFixed(0)} ms, worst ${worst.toFixed(0)} ms` });
  // A figure to read, not a pass mark (tests do not assert on wall-clock time): three windows with
  // cameras on share this machine's two cores, and the drawing path is what is measured here.
  expect(delays.every((delay) => delay >= 0)).toBe(true);

  // A formula, written as text on the board.
  await tess.getByTestId('whiteboard-formula').click();
  await tess.getByTestId('whiteboard-formula-input').fill('x^2 + y_1 <= \\pi');
  await expect(tess.getByTestId('whiteboard-formula-preview')).toHaveText('x² + y₁ ≤ π');
  await tess.getByTestId('whiteboard-formula-input').press('Enter');
  await expect(elements(samiPage)).toHaveAttribute('data-elements', '6');

  // The eraser takes the first pen stroke away, for everyone.
  await tool(tess, 'eraser');
  await drag(tess, [460, 115], [480, 190]);
  await expect(elements(samiPage)).toHaveAttribute('data-elements', '5');
  await expect(elements(linaPage)).toHaveAttribute('data-elements', '5');

  // A student without permission: nothing they do reaches the board.
  await drag(samiPage, [400, 450], [600, 500]);
  await samiPage.waitForTimeout(500);
  await expect(elements(tess)).toHaveAttribute('data-elements', '5');

  // An update forged over a socket of its own, by a student of the class: refused, nobody gets it.
  const forger = (await newStudent(request, 'Forger')).session;
  const socket = io(baseURL!, { path: '/socket.io/', transports: ['websocket'], auth: { sessionId: randomUUID(), token: forger.access } });
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('connect_error', reject);
    });
    const joinedAnswer = await socket.emitWithAck('request:join_room', { roomId: session.room_id, userName: 'Forger' });
    expect(joinedAnswer).toHaveProperty('room');
    const doc = new Y.Doc();
    doc.getMap('elements').set('forged', { id: 'forged', type: 'rectangle', x: 0, y: 0, width: 50, height: 50, version: 1, isDeleted: false });
    const answer = await socket.emitWithAck('request:whiteboard_update', { roomId: session.room_id, page: 0, update: Y.encodeStateAsUpdate(doc) });
    expect(answer).toEqual({ error: 'Not allowed' });
    const pageChange = await socket.emitWithAck('request:whiteboard_page', { roomId: session.room_id, action: 'add' });
    expect(pageChange).toEqual({ error: 'Not allowed' });
  } finally {
    socket.disconnect();
  }
  await expect(elements(tess)).toHaveAttribute('data-elements', '5');
  await expect(elements(samiPage)).toHaveAttribute('data-elements', '5');

  // The teacher names Sami: he draws, everyone sees it; Lina still cannot.
  await tess.getByTestId('whiteboard-access').getByText('Chosen students').click();
  await tess.getByTestId('whiteboard-writers').click();
  await tess.getByRole('option', { name: 'Sami Student' }).click();
  await tess.keyboard.press('Escape');
  await expect(board(samiPage)).toHaveAttribute('data-can-draw', 'true');
  await expect(board(linaPage)).toHaveAttribute('data-can-draw', 'false');
  await tool(samiPage, 'rectangle');
  await drag(samiPage, [900, 120], [1020, 220]);
  for (const page of [tess, linaPage]) await expect(elements(page)).toHaveAttribute('data-elements', '6');

  // Screens: the teacher at 1280, Lina at 390 in French right-to-left.
  await tess.screenshot({ path: testInfo.outputPath('whiteboard-teacher-1280.png') });
  await linaPage.screenshot({ path: testInfo.outputPath('whiteboard-student-390-fr-rtl.png') });

  // A network blip: Lina is cut off while the teacher draws, and sees it once back.
  await cutNetwork(linaPage.context(), linaPage);
  await tool(tess, 'rectangle');
  await drag(tess, [900, 300], [1020, 400]);
  await expect(elements(samiPage)).toHaveAttribute('data-elements', '7');
  await linaPage.context().setOffline(false);
  await expect(elements(linaPage)).toHaveAttribute('data-elements', '7', { timeout: 30_000 });

  // Pages: the teacher opens a new one and the class follows; then back to the first.
  await tess.getByTestId('whiteboard-add-page').click();
  for (const page of [samiPage, linaPage]) {
    await expect(board(page)).toHaveAttribute('data-page', '1');
    await expect(elements(page)).toHaveAttribute('data-elements', '0');
  }
  await expect(samiPage.getByTestId('whiteboard-page')).toHaveText('Page 2 of 2');
  await tool(tess, 'freedraw');
  await drag(tess, [450, 200], [650, 260]);
  await expect(elements(samiPage)).toHaveAttribute('data-elements', '1');
  await tess.getByTestId('whiteboard-previous').click();
  await expect(board(samiPage)).toHaveAttribute('data-page', '0');
  await expect(elements(samiPage)).toHaveAttribute('data-elements', '7');

  // A late joiner sees the board as it is, on the page the class is on.
  const late = (await newStudent(request, 'Late')).session;
  const latePage = await openWindow(baseURL!, late, 'Late Student');
  await latePage.goto(room);
  await joined(latePage, 3);
  await expect(board(latePage)).toBeVisible({ timeout: 30_000 });
  await expect(board(latePage)).toHaveAttribute('data-page', '0');
  await expect(elements(latePage)).toHaveAttribute('data-elements', '7', { timeout: 30_000 });

  // The teacher hides the board: it goes for everyone.
  await tess.getByTestId('toggle-whiteboard').click();
  for (const page of [samiPage, linaPage, latePage]) await expect(board(page)).toHaveCount(0);

  // Both pages were saved on the session as PNG by the teacher's tab; a student of it opens them.
  const saved = pathOf(apiRoutes.sessions.whiteboardPages, { roomId: session.room_id });
  await expect
    .poll(async () => ((await (await request.get(saved, { headers: auth(sami) })).json()).data as { page: number }[]).map((p) => p.page), { timeout: 20_000 })
    .toEqual([0, 1]);
  const image = await request.get(pathOf(apiRoutes.sessions.whiteboardImage, { roomId: session.room_id, page: 0 }), { headers: auth(sami) });
  expect(image.status()).toBe(200);
  expect(image.headers()['content-type']).toBe('image/png');
  expect((await image.body()).subarray(1, 4).toString()).toBe('PNG');
  // And from the session's row: its Whiteboard button shows both pages.
  await tess.goto('/sessions');
  const row = tess.locator(`[data-testid="session-row"][data-room-id="${session.room_id}"]`);
  await expect(row).toBeVisible({ timeout: 30_000 });
  await row.getByTestId('session-boards-open').click();
  await expect(tess.getByTestId('session-board-page')).toHaveCount(2);
  await expect(tess.getByTestId('session-board-page').first().locator('img')).toBeVisible();
  await tess.screenshot({ path: testInfo.outputPath('whiteboard-saved-pages-1280.png') });
});
