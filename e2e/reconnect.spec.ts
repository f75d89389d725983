// In the meeting: a class's live attendance in the teacher's People tab, and surviving a
// network blip.
//
// Surviving a network blip: two people in a meeting, one loses the network. Within the
// server's grace (limits.reconnectGraceMs) the call goes on as it was: the same tiles, no leave toast,
// video flowing both ways again. After a longer drop the person is out for the others and then rejoins
// cleanly. Each person is a window of one Chromium with the fake camera.
//
// How the network is cut: Playwright's context.setOffline(true) (DevTools' offline emulation) fails new
// HTTP requests and new websockets, but it neither closes a websocket already open nor touches WebRTC's
// own UDP sockets (measured: the remote video keeps decoding frames while offline). A real drop kills
// the signalling socket's TCP connection, so the test also closes the page's open websockets (tracked
// by a thin wrapper installed before the app loads): socket.io then sees a transport close and tries to
// reconnect, which fails until the network is back.
import { expect, test, type APIRequestContext, type BrowserContext, type Page } from '@playwright/test';
import { apiRoutes } from '@mooz/contract/api-routes';
import { pathOf } from '@mooz/contract/endpoint';
import { limits } from '@mooz/contract/limits';
import { apiLogIn, auth, axeViolations, failsTest, newStudent, type SignedIn } from './support/a11y';
import { createCourse, scheduleClass } from './support/courses';
import { cameraWindows } from './support/fake-camera';
import { connectedFrames, cutNetwork, installMeetingProbe, toastsShown } from './support/meeting-probe';
import { buyWeekdayBatch } from './support/purchase';
import { startSignedIn } from './support/signed-in';

const windows = cameraWindows();


/** Every remote tile element ever added to the page, by peer id, and how many times. */
type TilesAdded = { __tilesAdded: Record<string, number> };

/** A window signed in as `session`, with the meeting probe (meeting-probe.ts) and a record of the tiles added. */
async function openWindow(baseURL: string, session: SignedIn, userName: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await windows.newWindow({ baseURL, viewport: { width: 1280, height: 800 } });
  await startSignedIn(context, session, userName);
  await installMeetingProbe(context);
  await context.addInitScript(() => {
    const w = window as unknown as TilesAdded;
    w.__tilesAdded = {};
    // Tiles may come and go between two polls: keep a record of them.
    new MutationObserver((records) => {
      for (const record of records) {
        for (const node of record.addedNodes) {
          if (!(node instanceof HTMLElement)) continue;
          const tiles = [node, ...node.querySelectorAll<HTMLElement>('[data-testid="remote-tile"]')].filter((el) => el.dataset.testid === 'remote-tile');
          for (const tile of tiles) {
            const key = tile.dataset.peerId ?? tile.getAttribute('aria-label') ?? '?';
            w.__tilesAdded[key] = (w.__tilesAdded[key] ?? 0) + 1;
          }
        }
      }
    }).observe(document, { childList: true, subtree: true });
  });
  return { context, page: await context.newPage() };
}

/** Fails on axe's critical and serious findings on the page as it is now. */
async function expectAccessible(page: Page, screen: string) {
  const violations = await axeViolations(page);
  const bad = violations.filter(failsTest);
  expect(bad.map((v) => `${screen}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

const peerConnections = (page: Page) => page.evaluate(() => (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs.length);
const tilesAdded = (page: Page) => page.evaluate(() => Object.values((window as unknown as TilesAdded).__tilesAdded).reduce((a, b) => a + b, 0));

/** The remote video's size and play position: flowing when its width is known and the position moves. */
function remoteVideo(page: Page) {
  return page.locator('[data-testid="remote-tile"] video').first().evaluate((video: HTMLVideoElement) => ({ width: video.videoWidth, time: video.currentTime }));
}

async function videoFlowing(page: Page): Promise<boolean> {
  const before = await remoteVideo(page);
  await page.waitForTimeout(300);
  const after = await remoteVideo(page);
  return before.width > 0 && after.time > before.time;
}

/** Frames decoded so far over the page's connected peer connections. */
const framesDecoded = async (page: Page) => (await connectedFrames(page)).reduce((sum, frames) => sum + frames, 0);

/** Two people in one ad hoc meeting, each seeing the other's video. */
async function meet(request: APIRequestContext, baseURL: string) {
  const teacher = await apiLogIn(request, 'teacher@mooz.local');
  const sam = (await newStudent(request, 'Sam')).session;
  const host = await openWindow(baseURL, teacher, 'Tess Teacher');
  const guest = await openWindow(baseURL, sam, 'Sam Student');
  await host.page.goto('/meeting');
  await host.page.getByTestId('create-meeting').click();
  await expect(host.page).toHaveURL(/\/meeting\/[\w-]+$/);
  await guest.page.goto(host.page.url());
  for (const { page } of [host, guest]) {
    await expect(page.locator('[data-testid="remote-tile"][data-has-video]')).toHaveCount(1, { timeout: 30_000 });
    await expect.poll(() => videoFlowing(page), { timeout: 20_000 }).toBe(true);
  }
  return { host, guest };
}

test.describe.configure({ mode: 'serial' });

test('a 5-second network drop: the call goes on with the same tiles and no leave', async ({ request, baseURL }) => {
  test.setTimeout(120_000);
  const { host, guest } = await meet(request, baseURL!);
  const tilesBefore = await Promise.all([tilesAdded(host.page), tilesAdded(guest.page)]);
  const toastsBefore = await Promise.all([toastsShown(host.page), toastsShown(guest.page)]);
  const pcsBefore = await peerConnections(guest.page);

  await cutNetwork(guest.context, guest.page);
  const offlineAt = Date.now();
  // The page says it is reconnecting, as a status that assistive technology announces.
  const reconnecting = guest.page.getByTestId('meeting-reconnecting');
  await expect(reconnecting).toBeVisible();
  await expect(guest.page.getByRole('status').filter({ hasText: 'Reconnecting' })).toBeVisible();
  // WebRTC's media does not go through DevTools' network emulation: say what it did meanwhile.
  const framesOffline = await framesDecoded(host.page);
  await guest.page.waitForTimeout(5_000 - (Date.now() - offlineAt));
  const webrtcSurvived = (await framesDecoded(host.page)) > framesOffline;
  console.log(`reconnect: WebRTC media ${webrtcSurvived ? 'kept flowing' : 'stopped'} while the page was offline`);
  await expect(reconnecting).toBeVisible();

  await guest.context.setOffline(false);
  const onlineAt = Date.now();
  console.log(`reconnect: the page was offline for ${onlineAt - offlineAt} ms`);
  await expect(reconnecting).toBeHidden({ timeout: limits.reconnectGraceMs });
  const rejoinedMs = Date.now() - onlineAt;
  await expect.poll(async () => (await videoFlowing(guest.page)) && (await videoFlowing(host.page)), { intervals: [50], timeout: 30_000 }).toBe(true);
  console.log(`reconnect: signalling back after ${rejoinedMs} ms; video flowing again after ${Date.now() - onlineAt} ms`);

  // Past the grace: nobody was told of a leave, no tile was removed and added again, no new link.
  await host.page.waitForTimeout(limits.reconnectGraceMs + 1_000 - (Date.now() - offlineAt));
  for (const { page } of [host, guest]) {
    await expect(page.getByTestId('remote-tile')).toHaveCount(1);
    await expect(page.getByTestId('meeting-room')).toHaveAttribute('data-phase', 'joined');
  }
  const toastsAfter = await Promise.all([toastsShown(host.page), toastsShown(guest.page)]);
  // Neither page was told of a leave or a closed link (the guest may have seen its own outage toast).
  expect(toastsAfter[0]!.slice(toastsBefore[0]!.length).filter((text) => /left|closed|established/i.test(text))).toEqual([]);
  expect(toastsAfter[1]!.slice(toastsBefore[1]!.length).filter((text) => /left|closed|established/i.test(text))).toEqual([]);
  expect(await Promise.all([tilesAdded(host.page), tilesAdded(guest.page)])).toEqual(tilesBefore);
  expect(await peerConnections(guest.page)).toBe(pcsBefore);
  expect(await videoFlowing(host.page)).toBe(true);
  expect(await videoFlowing(guest.page)).toBe(true);
});

test('a drop longer than the grace: the others see a leave, then a clean rejoin', async ({ request, baseURL }) => {
  test.setTimeout(120_000);
  const { host, guest } = await meet(request, baseURL!);

  await cutNetwork(guest.context, guest.page);
  await expect(guest.page.getByTestId('meeting-reconnecting')).toBeVisible();
  // The reconnecting state passes axe (scanned here, where time does not matter).
  await expectAccessible(guest.page, 'reconnecting');
  // Once the grace runs out the host is told the guest left, and its tile goes.
  await expect(host.page.getByTestId('remote-tile')).toHaveCount(0, { timeout: limits.reconnectGraceMs + 5_000 });
  await expect.poll(() => toastsShown(host.page)).toEqual(expect.arrayContaining(['Sam Student left the meeting']));

  await guest.context.setOffline(false);
  const onlineAt = Date.now();
  await expect(guest.page.getByTestId('meeting-reconnecting')).toBeHidden({ timeout: 20_000 });
  for (const { page } of [host, guest]) {
    await expect(page.locator('[data-testid="remote-tile"][data-has-video]')).toHaveCount(1, { timeout: 30_000 });
    await expect.poll(() => videoFlowing(page), { timeout: 20_000 }).toBe(true);
    await expect(page.getByTestId('participant-count')).toHaveText('2 / 10');
  }
  console.log(`reconnect: after a long drop, rejoined with video flowing after ${Date.now() - onlineAt} ms`);
});

test('live attendance: the teacher sees who is here, who left (each stint) and who has not come; a student does not', async ({ request, baseURL }) => {
  test.setTimeout(150_000);
  const teacher = await apiLogIn(request, 'teacher@mooz.local');
  const course = await createCourse(request, teacher, { name: `Pottery ${Date.now()}`, description: 'Clay.', price: 50_000 });
  // Starts in a few minutes: its room is open already.
  const session = await scheduleClass(request, teacher, course.id, 'Wheel throwing');
  const ana = (await newStudent(request, 'Ana')).session;
  const noShow = (await newStudent(request, 'Nora')).session;
  await buyWeekdayBatch(request, ana, course.id);
  await buyWeekdayBatch(request, noShow, course.id);

  const host = await openWindow(baseURL!, teacher, 'Tess Teacher');
  const guest = await openWindow(baseURL!, ana, 'Ana Student');
  await host.page.goto(`/meeting/${session.room_id}`);
  await guest.page.goto(`/meeting/${session.room_id}`);
  for (const { page } of [host, guest]) await expect(page.locator('[data-testid="remote-tile"][data-has-video]')).toHaveCount(1, { timeout: 30_000 });

  // The teacher opens the People tab with the keyboard.
  await host.page.getByTestId('toggle-panel').focus();
  await host.page.keyboard.press('Enter');
  const attendance = host.page.getByTestId('live-attendance');
  await expect(attendance).toBeVisible();
  await expect(attendance.getByRole('heading', { name: 'Attendance' })).toBeVisible();
  await expect(host.page.getByTestId('attendance-here-row')).toHaveCount(1);
  await expect(host.page.getByTestId('attendance-here-row')).toContainText('Ana Student');
  await expect(host.page.getByTestId('attendance-here-row')).toContainText('since');
  await expect(host.page.getByTestId('attendance-absent')).toContainText('Nora Student');
  await expectAccessible(host.page, 'live attendance');

  // Ana leaves: within a poll or two she is listed as gone, with when.
  await guest.page.getByTestId('leave-meeting').click();
  await expect(host.page.getByTestId('attendance-left-row')).toContainText('Ana Student', { timeout: 15_000 });
  await expect(host.page.getByTestId('attendance-here-row')).toHaveCount(0);
  await expect(host.page.getByTestId('attendance-left-row')).toContainText('–');

  // She comes back: here again, both stints shown.
  await guest.page.goto(`/meeting/${session.room_id}`);
  await expect(host.page.getByTestId('attendance-here-row')).toContainText('Ana Student', { timeout: 20_000 });
  await expect(host.page.getByTestId('attendance-here-row')).toContainText(/–.*, .*–now/);
  await expect(host.page.getByTestId('attendance-left-row')).toHaveCount(0);

  // Ana's own People tab has no attendance, and the server refuses it to her.
  await guest.page.getByTestId('toggle-panel').click();
  await expect(guest.page.getByTestId('people-list')).toBeVisible();
  await expect(guest.page.getByTestId('live-attendance')).toHaveCount(0);
  const refused = await request.get(pathOf(apiRoutes.sessions.roomAttendance, { roomId: session.room_id }), { headers: auth(ana) });
  expect(refused.status()).toBe(403);
});
