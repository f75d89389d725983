// A class that outgrows the mesh, end to end: five people in Chromium, a real Janus (the run's, in a
// network namespace of its own: it gathers no ICE candidates on loopback; support/global-janus.ts) and a Mooz server of this spec's own
// with MESH_MAX_PEOPLE=4. Four meet peer to peer; when the fifth joins the room moves to the SFU by
// itself: nobody rejoins or gets a leave toast, everyone sees the four others over at most two
// connected peer connections, and chat, a raised hand and a screen share still reach everyone.
import { chromium, expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { writeFakeCamera } from './support/fake-camera';
import { startOwnServer, type OwnServer } from './support/own-server';
import { startSignedIn, type StoredSession } from './support/signed-in';

const password = 'mooz-demo-123';
let server: OwnServer;
let browser: Browser;
const contexts: BrowserContext[] = [];

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const [janusUrl, janusSecret] = [process.env.MOOZ_E2E_JANUS_URL, process.env.MOOZ_E2E_JANUS_SECRET];
  if (!janusUrl || !janusSecret) throw new Error('no Janus for this run (support/global-janus.ts)');
  server = await startOwnServer({ JANUS_URLS: janusUrl, JANUS_API_SECRET: janusSecret, MESH_MAX_PEOPLE: '4' });
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-video-capture=${writeFakeCamera()}`,
      '--disable-background-networking',
    ],
  });
});

test.afterAll(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
  await browser?.close();
  await server?.stop();
});

async function logIn(email: string): Promise<StoredSession> {
  const response = await fetch(`${server.baseURL}/api/auth/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  expect(response.status).toBe(200);
  const { access, refresh, user, ...summary } = (await response.json()).data;
  return { access, refresh, user, summary };
}

async function newStudent(admin: StoredSession, name: string): Promise<StoredSession> {
  const email = `class-${name.toLowerCase()}-${Date.now()}@example.test`;
  const created = await fetch(`${server.baseURL}/api/admin/users/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${admin.access}` },
    body: JSON.stringify({ email, password, first_name: name, last_name: 'Student', user_type: 'student' }),
  });
  expect(created.status).toBe(201);
  return logIn(email);
}

/** A window signed in as `session` whose peer connections and toasts the test can read. */
async function openWindow(session: StoredSession, userName: string, width = 1280): Promise<Page> {
  const context = await browser.newContext({ baseURL: server.baseURL, viewport: { width, height: 800 } });
  contexts.push(context);
  await startSignedIn(context, session, userName);
  await context.addInitScript(() => {
    const w = window as unknown as { __pcs: RTCPeerConnection[]; __toasts: string[] };
    w.__pcs = [];
    w.__toasts = [];
    const Native = window.RTCPeerConnection;
    const Wrapped = function (this: unknown, config?: RTCConfiguration) {
      const pc = new Native(config);
      w.__pcs.push(pc);
      return pc;
    } as unknown as typeof RTCPeerConnection;
    Wrapped.prototype = Native.prototype;
    Object.assign(Wrapped, { generateCertificate: Native.generateCertificate });
    window.RTCPeerConnection = Wrapped;
    new MutationObserver(() => {
      for (const element of document.querySelectorAll<HTMLElement>('[data-testid="meeting-toast"]')) {
        if (element.dataset.seen) continue;
        element.dataset.seen = '1';
        w.__toasts.push(element.textContent ?? '');
      }
    }).observe(document, { childList: true, subtree: true });
  });
  const page = await context.newPage();
  return page;
}

/** The page's connected peer connections, and the video frames each has decoded so far. */
function connectedFrames(page: Page): Promise<number[]> {
  return page.evaluate(async () => {
    const pcs = (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs.filter((pc) => pc.connectionState === 'connected');
    return Promise.all(
      pcs.map(async (pc) => {
        let frames = 0;
        (await pc.getStats()).forEach((report) => {
          if (report.type === 'inbound-rtp' && report.kind === 'video') frames += report.framesDecoded ?? 0;
        });
        return frames;
      }),
    );
  });
}

/** Frames decoded per remote tile's video element, by the name on the tile. */
function tileFrames(page: Page): Promise<Record<string, number>> {
  return page.evaluate(() => {
    const frames: Record<string, number> = {};
    for (const tile of document.querySelectorAll<HTMLElement>('[data-testid="remote-tile"]')) {
      const video = tile.querySelector('video');
      frames[tile.textContent ?? ''] = video ? video.getVideoPlaybackQuality().totalVideoFrames : 0;
    }
    return frames;
  });
}

test('a class moves from the mesh to the SFU when a fifth person joins, and everything still reaches everyone', async () => {
  test.setTimeout(240_000);
  const admin = await logIn('admin@mooz.local');
  const teacher = await logIn('teacher@mooz.local');
  const names = ['Ana', 'Ben', 'Cleo', 'Dev'];
  const students = await Promise.all(names.map((name) => newStudent(admin, name)));
  const tess = await openWindow(teacher, 'Tess Teacher');
  const pages = [tess, ...(await Promise.all(students.map((s, i) => openWindow(s, `${names[i]} Student`, i === 3 ? 390 : 1280))))];

  await tess.goto('/meeting');
  await tess.getByTestId('create-meeting').click();
  await expect(tess).toHaveURL(/\/meeting\/[\w-]+$/);
  const link = tess.url();

  // Four people: a mesh, three links each.
  for (const page of pages.slice(1, 4)) await page.goto(link);
  for (const page of pages.slice(0, 4)) {
    await expect(page.locator('[data-testid="remote-tile"][data-has-video]')).toHaveCount(3, { timeout: 30_000 });
  }
  await expect.poll(async () => (await connectedFrames(tess)).length, { timeout: 20_000 }).toBe(3);

  // The fifth joins: the room moves to the SFU by itself.
  const dev = pages[4]!;
  await dev.goto(link);
  for (const page of pages) {
    await expect(page.getByTestId('remote-tile')).toHaveCount(4, { timeout: 30_000 });
    await expect(page.locator('[data-testid="remote-tile"][data-has-video]')).toHaveCount(4, { timeout: 30_000 });
  }
  // Each page: at most two connected peer connections (publish, subscribe), decoding the four others.
  for (const page of pages) {
    await expect.poll(async () => (await connectedFrames(page)).length, { timeout: 30_000 }).toBeLessThanOrEqual(2);
    const before = await tileFrames(page);
    expect(Object.keys(before)).toHaveLength(4);
    await expect
      .poll(async () => {
        const now = await tileFrames(page);
        return Object.entries(now).filter(([name, frames]) => frames > (before[name] ?? 0)).length;
      }, { timeout: 20_000 })
      .toBe(4);
  }
  // Nobody was told anyone left.
  for (const page of pages) {
    const toasts = await page.evaluate(() => (window as unknown as { __toasts: string[] }).__toasts);
    expect(toasts.filter((text) => /left the meeting|Peer connection closed/.test(text))).toEqual([]);
  }

  // Chat reaches everyone through the server.
  await pages[1]!.getByTestId('toggle-floating-chat').click();
  await pages[1]!.getByTestId('floating-chat').getByTestId('chat-input').fill('Can everyone hear me?');
  await pages[1]!.getByTestId('floating-chat').getByTestId('chat-input').press('Enter');
  for (const page of [tess, pages[2]!, pages[3]!, dev]) {
    await page.getByTestId('toggle-panel').click();
    await page.getByTestId('tab-chats').click();
    await expect(page.getByTestId('panel-chat').getByTestId('chat-message').filter({ hasText: 'Can everyone hear me?' })).toBeVisible();
  }

  // A raised hand reaches the teacher.
  await pages[2]!.getByTestId('toggle-hand').click();
  await tess.getByTestId('tab-people').click();
  await expect(tess.getByTestId('hand-entry')).toHaveText([/Ben Student/]);

  // The teacher's screen share reaches the four others as its own tile.
  await tess.getByTestId('toggle-screen').click();
  for (const page of pages.slice(1)) {
    await expect(page.getByTestId('remote-screen-tile')).toHaveAttribute('data-has-video', 'true', { timeout: 20_000 });
  }
  await tess.screenshot({ path: test.info().outputPath('large-class-teacher-1280.png') });
  await dev.keyboard.press('Escape');
  await dev.screenshot({ path: test.info().outputPath('large-class-student-390.png') });
  await tess.getByTestId('toggle-screen').click();
  for (const page of pages.slice(1)) await expect(page.getByTestId('remote-screen-tile')).toHaveCount(0, { timeout: 20_000 });
});
