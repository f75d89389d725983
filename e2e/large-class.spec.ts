// A class that outgrows the mesh, end to end: five people in Chromium, two real Janus instances (the
// run's pair, each in a network namespace of its own: Janus gathers no ICE candidates on loopback;
// support/global-janus.ts) and a Mooz server of this spec's own
// with MESH_MAX_PEOPLE=4. Four meet peer to peer; when the fifth joins the room moves to the SFU by
// itself: nobody rejoins or gets a leave toast, everyone sees the four others over at most two
// connected peer connections, chat, a raised hand and a screen share still reach everyone, and a
// private message only its one recipient. Then, on
// the SFU: the active speaker, a pinned tile, a phone's paused cameras, the host's controls, a network
// blip, a recording, and the death of the Janus holding the room, after which everyone republishes on
// the other by themselves.
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { cameraBrowser } from './support/fake-camera';
import { startOwnServer, type OwnServer } from './support/own-server';
import { JanusConnection } from '../apps/server/src/sfu/janus-api';
import { connectedFrames, cutNetwork, describeConnections, framesByTrack, installMeetingProbe, toastsShown } from './support/meeting-probe';
import { logInAt, newStudentAt, startSignedIn, type StoredSession } from './support/signed-in';

let server: OwnServer;
let browser: Browser;
const contexts: BrowserContext[] = [];
/** The class of the first test, which the second goes on with: the teacher first, then Ana, Ben, Cleo and Dev. */
let people: { context: BrowserContext; page: Page }[] = [];

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const [janusUrls, janusSecret] = [process.env.MOOZ_E2E_JANUS_PAIR, process.env.MOOZ_E2E_JANUS_SECRET];
  if (!janusUrls || !janusSecret) throw new Error('no Janus for this run (support/global-janus.ts)');
  server = await startOwnServer({ JANUS_URLS: janusUrls, JANUS_API_SECRET: janusSecret, MESH_MAX_PEOPLE: '4' });
  browser = await cameraBrowser();
});

// A failure says what each person's connections were doing: which link sends or receives what.
test.afterEach(async () => {
  if (test.info().status === test.info().expectedStatus) return;
  for (const { page } of people) {
    const name = await page.getByTestId('meeting-room').locator('[data-local]').first().getAttribute('aria-label', { timeout: 2_000 }).catch(() => '?');
    console.log(`${name}:\n  ${(await describeConnections(page).catch((error: unknown) => [String(error)])).join('\n  ')}`);
  }
});

test.afterAll(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
  await browser?.close();
  await server?.stop();
});

/** A window signed in as `session` whose peer connections, websockets and toasts the test can read. */
async function openWindow(session: StoredSession, userName: string, french = false): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: server.baseURL, viewport: { width: 1280, height: 800 } });
  contexts.push(context);
  await startSignedIn(context, session, userName);
  // One person reads the class in French, right to left.
  if (french) {
    await context.addInitScript(() => {
      localStorage.setItem('i18nextLng', 'fr');
      localStorage.setItem('layout', JSON.stringify({ state: { rtl: true }, version: 1 }));
    });
  }
  await installMeetingProbe(context);
  return { context, page: await context.newPage() };
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
  const admin = await logInAt(server.baseURL, 'admin@mooz.local');
  const teacher = await logInAt(server.baseURL, 'teacher@mooz.local');
  const names = ['Ana', 'Ben', 'Cleo', 'Dev'];
  const students = await Promise.all(names.map((name) => newStudentAt(server.baseURL, admin, name)));
  people = [await openWindow(teacher, 'Tess Teacher'), ...(await Promise.all(students.map((s, i) => openWindow(s, `${names[i]} Student`, names[i] === 'Cleo'))))];
  const pages = people.map(({ page }) => page);
  const tess = pages[0]!;

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
    const toasts = await toastsShown(page);
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

  // A private message from Ana to Ben reaches Ben alone: it goes through the server to his tab, never
  // to the room. A message to everyone sent after it reaches the others, so the private one, had it
  // been sent to them, would have come first.
  const [ana, ben] = [pages[1]!, pages[2]!];
  await ana.getByTestId('toggle-panel').click();
  await ana.getByTestId('tab-people').click();
  await ana.getByTestId('person').filter({ hasText: 'Ben Student' }).getByTestId('person-private-message').click();
  await expect(ana.getByTestId('panel-chat').getByTestId('chat-to')).toHaveValue(/.+/);
  await ana.getByTestId('panel-chat').getByTestId('chat-input').fill('Just for Ben');
  await ana.getByTestId('panel-chat').getByTestId('chat-input').press('Enter');
  const chatOn = (page: Page, text: string) => page.getByTestId('panel-chat').getByTestId('chat-message').filter({ hasText: text });
  await expect(chatOn(ben, 'Just for Ben')).toHaveAttribute('data-private', 'true');
  await ana.getByTestId('panel-chat').getByTestId('chat-to').selectOption('');
  await ana.getByTestId('panel-chat').getByTestId('chat-input').fill('And now for all');
  await ana.getByTestId('panel-chat').getByTestId('chat-input').press('Enter');
  for (const page of [tess, pages[3]!, dev]) {
    await expect(chatOn(page, 'And now for all')).toBeVisible();
    await expect(chatOn(page, 'Just for Ben')).toHaveCount(0);
    expect((await toastsShown(page)).join(' | ')).not.toContain('Just for Ben');
  }
  await ana.getByTestId('toggle-panel').click();

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
  await pages[3]!.screenshot({ path: test.info().outputPath('large-class-student-fr-rtl-1280.png') });
  await tess.getByTestId('toggle-screen').click();
  for (const page of pages.slice(1)) await expect(page.getByTestId('remote-screen-tile')).toHaveCount(0, { timeout: 20_000 });
});

test('on the SFU the speaker is shown, a tile can be pinned, a phone pauses the cameras off its stage, and a blip, the host and a recording work as in a mesh', async () => {
  test.setTimeout(240_000);
  expect(people, 'the class of the test before').toHaveLength(5);
  const pages = people.map(({ page }) => page);
  const [tess, ana, ben, cleo, dev] = pages as [Page, Page, Page, Page, Page];
  // The side panels the first test opened are closed: the stage has the whole window.
  for (const page of pages) if (await page.getByTestId('side-panel').isVisible()) await page.getByTestId('toggle-panel').click();

  // The host mutes everyone; Ben speaks up (Chromium's fake microphone beeps): he is the one shown speaking.
  await tess.getByTestId('host-menu').click();
  await tess.getByTestId('host-mute-all').click();
  for (const page of pages.slice(1)) {
    const micOff = page === cleo ? /Activer le micro/ : 'Turn microphone on';
    await expect(page.getByTestId('toggle-mic')).toHaveAttribute('aria-label', micOff, { timeout: 10_000 });
  }
  // The host's own microphone is not muted by "mute all": she turns it off herself.
  await tess.getByTestId('toggle-mic').click();
  await expect(tess.getByTestId('toggle-mic')).toHaveAttribute('aria-label', 'Turn microphone on');
  await ben.getByTestId('toggle-mic').click();
  await expect(ben.getByTestId('toggle-mic')).toHaveAttribute('aria-label', 'Mute microphone');
  const benOn = (page: Page) => page.getByTestId('remote-tile').filter({ hasText: 'Ben Student' });
  for (const page of [tess, ana, cleo]) await expect(benOn(page)).toHaveAttribute('data-speaking', 'true', { timeout: 15_000 });
  await expect(tess.locator('[data-testid="remote-tile"][data-speaking]')).toHaveCount(1);

  // The teacher pins Cleo: her camera takes the large place beside the others' thumbnails.
  await tess.getByTestId('remote-tile').filter({ hasText: 'Cleo Student' }).getByTestId('pin-tile').click();
  await expect(tess.getByTestId('screen-area').getByTestId('remote-tile')).toHaveAttribute('data-pinned', 'true');
  await expect(tess.getByTestId('screen-area').getByTestId('remote-tile')).toContainText('Cleo Student');
  await expect(tess.getByTestId('screen-area').getByTestId('remote-tile')).toHaveAttribute('data-has-video', 'true');

  // On a phone the stage holds four tiles: ours, two others (Ben, speaking, among them) and "+2 more".
  // The two off it are paused by the SFU, while the two on it keep playing.
  await dev.setViewportSize({ width: 390, height: 800 });
  await expect(dev.getByTestId('more-on-stage')).toContainText('+2');
  await expect(dev.getByTestId('remote-tile')).toHaveCount(2);
  await expect(benOn(dev)).toBeVisible();
  const playing = async () => {
    const before = await framesByTrack(dev);
    await dev.waitForTimeout(3_000);
    const after = await framesByTrack(dev);
    return Object.keys(after).filter((track) => after[track]! > (before[track] ?? 0)).length;
  };
  await expect.poll(playing, { timeout: 30_000, intervals: [0] }).toBe(2);
  await dev.screenshot({ path: test.info().outputPath('large-class-student-390.png') });
  await dev.getByTestId('more-on-stage').click();
  await expect(dev.getByTestId('people-list').getByTestId('person')).toHaveCount(4);
  await dev.getByTestId('side-panel').getByRole('button', { name: 'Close' }).click();
  await dev.setViewportSize({ width: 1280, height: 800 });
  await expect(dev.locator('[data-testid="remote-tile"][data-has-video]')).toHaveCount(4, { timeout: 20_000 });
  // The paused cameras play again once back on the stage.
  const resumed = await tileFrames(dev);
  await expect
    .poll(async () => {
      const now = await tileFrames(dev);
      return Object.entries(now).filter(([name, frames]) => frames > (resumed[name] ?? 0)).length;
    }, { timeout: 20_000 })
    .toBe(4);

  // A blip: Cleo's network drops for a few seconds. She is back in the room, still on the SFU, and
  // sees and is seen again; nobody was told she left.
  const cleoWindow = people[3]!;
  await cutNetwork(cleoWindow.context, cleo);
  await expect(cleo.getByTestId('meeting-room')).toHaveAttribute('data-phase', 'reconnecting', { timeout: 15_000 });
  await cleo.waitForTimeout(3_000);
  await cleoWindow.context.setOffline(false);
  await expect(cleo.getByTestId('meeting-room')).toHaveAttribute('data-phase', 'joined', { timeout: 30_000 });
  for (const page of [cleo, tess]) {
    await expect.poll(async () => (await connectedFrames(page)).length, { timeout: 30_000 }).toBeLessThanOrEqual(2);
    const before = await framesByTrack(page);
    await expect
      .poll(async () => {
        const now = await framesByTrack(page);
        return Object.keys(now).filter((track) => now[track]! > (before[track] ?? 0)).length;
      }, { timeout: 30_000 })
      .toBeGreaterThanOrEqual(4);
  }
  for (const page of pages) expect((await toastsShown(page)).filter((text) => /Cleo Student/.test(text) && /left/.test(text))).toEqual([]);

  // The teacher records the SFU class; the notice reaches everyone, and the recording is saved.
  await tess.getByTestId('start-recording').click();
  for (const page of pages.slice(1)) await expect(page.getByTestId('recording-notice')).toBeVisible({ timeout: 20_000 });
  await tess.waitForTimeout(3_000);
  await tess.getByTestId('stop-recording').click();
  await expect(tess.getByTestId('start-recording')).toBeVisible({ timeout: 60_000 });
  await expect.poll(() => toastsShown(tess), { timeout: 60_000 }).toContain('Recording saved. You will find it under Recordings.');

  // The host removes Dev: he is shown out, and the four left keep seeing each other on the SFU.
  await tess.getByTestId('toggle-panel').click();
  await tess.getByTestId('tab-people').click();
  await tess.getByTestId('person').filter({ hasText: 'Dev Student' }).getByTestId('person-menu').click();
  await tess.getByTestId('person-remove').click();
  await tess.getByTestId('confirm-remove-yes').click();
  await expect(dev.getByTestId('room-removed')).toBeVisible({ timeout: 20_000 });
  for (const page of [tess, ana, ben, cleo]) {
    await expect(page.locator('[data-testid="remote-tile"][data-has-video]')).toHaveCount(3, { timeout: 20_000 });
  }

  // The Janus holding the room dies mid-class: the room moves to the other, and everyone republishes
  // by themselves and sees the others again, with no rejoin and no leave toast.
  const holder = await janusWithPeople();
  const connectionsBefore = await Promise.all([tess, ana, ben, cleo].map((page) => page.evaluate(() => (window as unknown as { __pcs: unknown[] }).__pcs.length)));
  const killedAt = Date.now();
  process.kill(holder, 'SIGKILL');
  for (const [index, page] of [tess, ana, ben, cleo].entries()) {
    // The three others' video, decoded on connections made since.
    await expect
      .poll(async () => (await videoSince(page, connectionsBefore[index]!)).filter((frames) => frames > 0).length, { timeout: 30_000 })
      .toBeGreaterThanOrEqual(3);
  }
  console.log(`large class: video back on every page ${Date.now() - killedAt} ms after its Janus was killed`);
  for (const page of [tess, ana, ben, cleo]) {
    await expect(page.getByTestId('meeting-room')).toHaveAttribute('data-phase', 'joined');
    // Nobody but the one removed left.
    expect((await toastsShown(page)).filter((text) => /left the meeting/.test(text) && !text.includes('Dev Student'))).toEqual([]);
  }
});

/** Frames decoded per incoming video stream on the page's connections from the `from`-th on. */
function videoSince(page: Page, from: number): Promise<number[]> {
  return page.evaluate(async (from) => {
    const frames: number[] = [];
    for (const pc of (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs.slice(from)) {
      (await pc.getStats()).forEach((report) => {
        if (report.type === 'inbound-rtp' && report.kind === 'video') frames.push(report.framesDecoded ?? 0);
      });
    }
    return frames;
  }, from);
}

/** The pid of the Janus of the pair that has people in a room now (the one holding the class). */
async function janusWithPeople(): Promise<number> {
  const urls = process.env.MOOZ_E2E_JANUS_PAIR!.split(',');
  const pids = process.env.MOOZ_E2E_JANUS_PAIR_PIDS!.split(',').map(Number);
  for (const [index, url] of urls.entries()) {
    const janus = await JanusConnection.open(url, process.env.MOOZ_E2E_JANUS_SECRET);
    try {
      const handle = await (await janus.createSession()).attach();
      const { list } = (await handle.request({ request: 'list' })) as { list?: { num_participants?: number }[] };
      if ((list ?? []).some((room) => (room.num_participants ?? 0) > 0)) return pids[index]!;
    } finally {
      janus.close();
    }
  }
  throw new Error('no Janus of the pair holds the class');
}
