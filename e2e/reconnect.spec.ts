// In the meeting: a class's live attendance in the teacher's People tab, and surviving a
// network blip.
//
// Surviving a network blip: two people in a meeting, one loses the network. Within the
// server's grace (limits.reconnectGraceMs) the call goes on as it was: the same tiles, no leave toast,
// video flowing both ways again. After a longer drop the person is out for the others and then rejoins
// cleanly. Each window is its own Chromium with the fake camera.
//
// How the network is cut: Playwright's context.setOffline(true) (DevTools' offline emulation) fails new
// HTTP requests and new websockets, but it neither closes a websocket already open nor touches WebRTC's
// own UDP sockets (measured: the remote video keeps decoding frames while offline). A real drop kills
// the signalling socket's TCP connection, so the test also closes the page's open websockets (tracked
// by a thin wrapper installed before the app loads): socket.io then sees a transport close and tries to
// reconnect, which fails until the network is back.
import { expect, test, type APIRequestContext, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { limits } from '@mooz/contract/limits';
import { axeViolations, failsTest } from './support/a11y';
import { cameraBrowser } from './support/fake-camera';
import { startSignedIn } from './support/signed-in';

const password = 'mooz-demo-123';
/** One Chromium for everyone in a test, a context (a window) per person: a browser each is too much for two cores. */
let browser: Browser;
const contexts: BrowserContext[] = [];

interface Session {
  access: string;
  refresh: string;
  user: Record<string, unknown>;
  summary: Record<string, unknown>;
}

async function logIn(request: APIRequestContext, email: string): Promise<Session> {
  const response = await request.post('/api/auth/login/', { data: { email, password } });
  expect(response.status(), await response.text()).toBe(200);
  const { access, refresh, user, ...summary } = (await response.json()).data;
  return { access, refresh, user, summary };
}

const auth = (who: Session) => ({ Authorization: `Bearer ${who.access}` });

async function newStudent(request: APIRequestContext, admin: Session, firstName: string): Promise<Session> {
  const email = `blip-${firstName.toLowerCase()}-${Date.now()}@example.test`;
  const created = await request.post('/api/admin/users/', {
    headers: { Authorization: `Bearer ${admin.access}` },
    data: { email, password, first_name: firstName, last_name: 'Student', user_type: 'student' },
  });
  expect(created.status(), await created.text()).toBe(201);
  return logIn(request, email);
}

interface Probe {
  __ws: WebSocket[];
  __pcs: RTCPeerConnection[];
  __toasts: string[];
  /** Every remote tile element ever added to the page, by peer id, and how many times. */
  __tilesAdded: Record<string, number>;
}

async function openWindow(browser: Browser, baseURL: string, session: Session, userName: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 800 } });
  contexts.push(context);
  await startSignedIn(context, session, userName);
  await context.addInitScript(() => {
    const w = window as unknown as Probe;
    w.__ws = [];
    w.__pcs = [];
    w.__toasts = [];
    w.__tilesAdded = {};
    const NativeWs = window.WebSocket;
    window.WebSocket = class extends NativeWs {
      constructor(url: string | URL, protocols?: string | string[]) {
        super(url, protocols);
        w.__ws.push(this);
      }
    };
    const NativePc = window.RTCPeerConnection;
    const WrappedPc = function (this: unknown, config?: RTCConfiguration) {
      const pc = new NativePc(config);
      w.__pcs.push(pc);
      return pc;
    } as unknown as typeof RTCPeerConnection;
    WrappedPc.prototype = NativePc.prototype;
    Object.assign(WrappedPc, { generateCertificate: NativePc.generateCertificate });
    window.RTCPeerConnection = WrappedPc;
    // Toasts last 1.5 s and tiles may come and go between two polls: keep a record of both.
    new MutationObserver((records) => {
      for (const element of document.querySelectorAll('[data-testid="meeting-toast"]')) {
        if (!(element as HTMLElement).dataset.seen) {
          (element as HTMLElement).dataset.seen = '1';
          w.__toasts.push(element.textContent ?? '');
        }
      }
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

const peerConnections = (page: Page) => page.evaluate(() => (window as unknown as Probe).__pcs.length);
const toastsShown = (page: Page) => page.evaluate(() => (window as unknown as Probe).__toasts);
const tilesAdded = (page: Page) => page.evaluate(() => Object.values((window as unknown as Probe).__tilesAdded).reduce((a, b) => a + b, 0));

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
function framesDecoded(page: Page): Promise<number> {
  return page.evaluate(async () => {
    let frames = 0;
    for (const pc of (window as unknown as Probe).__pcs.filter((p) => p.connectionState === 'connected')) {
      (await pc.getStats()).forEach((report) => {
        if (report.type === 'inbound-rtp' && report.kind === 'video') frames += report.framesDecoded ?? 0;
      });
    }
    return frames;
  });
}

/** Cuts the page's network: offline for new connections, and its open websockets dropped. */
async function cutNetwork(context: BrowserContext, page: Page) {
  await context.setOffline(true);
  await page.evaluate(() => (window as unknown as Probe).__ws.forEach((ws) => ws.readyState <= WebSocket.OPEN && ws.close()));
}

/** Two people in one ad hoc meeting, each seeing the other's video. */
async function meet(request: APIRequestContext, baseURL: string) {
  const admin = await logIn(request, 'admin@mooz.local');
  const teacher = await logIn(request, 'teacher@mooz.local');
  const sam = await newStudent(request, admin, 'Sam');
  const host = await openWindow(browser, baseURL, teacher, 'Tess Teacher');
  const guest = await openWindow(browser, baseURL, sam, 'Sam Student');
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

test.beforeAll(async () => {
  browser = await cameraBrowser();
});

test.afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
});

test.afterAll(async () => {
  await browser?.close();
});

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

/** The next Monday at least a week away (YYYY-MM-DD): a start date any weekday batch accepts. */
function nextMonday(): string {
  const day = new Date(Date.now() + 7 * 86_400_000);
  while (day.getUTCDay() !== 1) day.setTime(day.getTime() + 86_400_000);
  return day.toISOString().slice(0, 10);
}

async function buy(request: APIRequestContext, buyer: Session, courseId: number) {
  const detail = (await (await request.get(`/api/courses/${courseId}/`, { headers: auth(buyer) })).json()).data as {
    batches: { id: number; kind: string; start_date: string; end_date: string; time: string | null }[];
  };
  const batch = detail.batches.find((b) => b.kind === 'weekdays')!;
  const order = await request.post('/api/payments/create_order/', {
    headers: auth(buyer),
    data: { course_id: courseId, batch_id: batch.id, batch: 'weekdays', start_date: batch.start_date, end_date: batch.end_date, time: batch.time },
  });
  expect(order.status(), await order.text()).toBe(200);
  const { order_id, subscription_id } = (await order.json()).data;
  const paid = await request.post('/api/payments/sandbox/pay/', { headers: auth(buyer), data: { order_id } });
  expect(paid.status(), await paid.text()).toBe(200);
  const verified = await request.post('/api/payments/verify_payment/', { headers: auth(buyer), data: { ...(await paid.json()).data, subscription_id } });
  expect(verified.status(), await verified.text()).toBe(200);
}

test('live attendance: the teacher sees who is here, who left (each stint) and who has not come; a student does not', async ({ request, baseURL }) => {
  test.setTimeout(150_000);
  const admin = await logIn(request, 'admin@mooz.local');
  const teacher = await logIn(request, 'teacher@mooz.local');
  const created = await request.post('/api/courses/', {
    headers: auth(teacher),
    data: { name: `Pottery ${Date.now()}`, description: 'Clay.', price: 50_000, duration_weeks: 4, batch_start_dates: [nextMonday()], weekday_times: ['09:00'], weekend_times: [] },
  });
  expect(created.status(), await created.text()).toBe(201);
  const course = (await created.json()).data as { id: number };
  // Starts in a few minutes: its room is open already.
  const scheduled = await request.post('/api/classes/sessions/', {
    headers: auth(teacher),
    data: { course_id: course.id, title: 'Wheel throwing', starts_at: new Date(Date.now() + 5 * 60_000).toISOString(), duration_minutes: 60 },
  });
  expect(scheduled.status(), await scheduled.text()).toBe(201);
  const session = (await scheduled.json()).data as { id: number; room_id: string };
  const ana = await newStudent(request, admin, 'Ana');
  const noShow = await newStudent(request, admin, 'Nora');
  await buy(request, ana, course.id);
  await buy(request, noShow, course.id);

  const host = await openWindow(browser, baseURL!, teacher, 'Tess Teacher');
  const guest = await openWindow(browser, baseURL!, ana, 'Ana Student');
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
  const refused = await request.get(`/api/classes/rooms/${session.room_id}/attendance/`, { headers: auth(ana) });
  expect(refused.status()).toBe(403);
});
