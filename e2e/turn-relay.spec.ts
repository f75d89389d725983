// TURN end to end: a throwaway coturn on 127.0.0.1 (scripts/coturn.mjs) and Mooz servers of
// this spec's own with ICE_TRANSPORT_POLICY=relay. Three people meet and see each other's video, and
// every connected pair's selected local candidate is a relay one; a server whose TURN_SECRET coturn
// does not share makes the join end in the translated explanation, not a hang. It also prints the
// time from opening a meeting link to the first remote frame over the relay and over the direct path
// (the suite's shared server: no ICE servers, host candidates on eth0), from one run of each. Then the
// same relay-only class on the SFU: the run's Janus (support/global-janus.ts) reached through a coturn
// that relays from this machine's end of Janus's veth pair.
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { storageKeys } from '@mooz/contract/config';
import { startCoturn } from '../scripts/coturn.mjs';
import { cameraBrowser } from './support/fake-camera';
import { installMeetingProbe } from './support/meeting-probe';
import { startOwnServer, type OwnServer } from './support/own-server';
import { logInAt, startSignedIn } from './support/signed-in';

const secret = randomBytes(24).toString('base64url');
const french = JSON.parse(readFileSync(resolve(import.meta.dirname, '../apps/web/public/locales/fr/translation.json'), 'utf8')) as Record<string, string>;
const english = JSON.parse(readFileSync(resolve(import.meta.dirname, '../apps/web/public/locales/en/translation.json'), 'utf8')) as Record<string, string>;

let coturn: Awaited<ReturnType<typeof startCoturn>>;
/** TURN with the secret coturn has, and with another one. */
let relayed: OwnServer;
let wrongSecret: OwnServer;
let browser: Browser;
const contexts: BrowserContext[] = [];
/** To the first remote frame from opening the meeting link and from the join itself, per path, for the note printed at the end. */
const firstFrameMs: Record<string, { open: number; join: number }> = {};

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  coturn = await startCoturn({ secret });
  const turn = { TURN_URLS: coturn.urls.join(','), ICE_TRANSPORT_POLICY: 'relay' };
  [relayed, wrongSecret] = await Promise.all([
    startOwnServer({ ...turn, TURN_SECRET: secret }),
    startOwnServer({ ...turn, TURN_SECRET: `not-${secret}` }),
  ]);
  // One browser, a context per person. Loopback candidates (the relay's, here) need the flag.
  browser = await cameraBrowser(['--allow-loopback-in-peer-connection']);
});

test.afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
});

test.afterAll(async () => {
  await browser?.close();
  await Promise.all([relayed?.stop(), wrongSecret?.stop()]);
  await coturn?.stop();
  if (Object.keys(firstFrameMs).length) {
    const line = Object.entries(firstFrameMs).map(([path, ms]) => `${path} ${ms.join} ms (${ms.open} ms from opening the link)`).join('; ');
    console.log(`join to first remote frame, one run: ${line}`);
  }
});

/**
 * A signed-in window with the meeting probe (its peer connections in `window.__pcs`), and the
 * Date.now() of the first frame each remote video shows in `window.__firstFrames`.
 */
async function openWindow(baseURL: string, email: string, userName: string, language = 'en'): Promise<Page> {
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 800 } });
  contexts.push(context);
  await startSignedIn(context, await logInAt(baseURL, email), userName);
  await installMeetingProbe(context);
  await context.addInitScript(
    ({ key, language }) => {
      localStorage.setItem(key, language);
      const w = window as unknown as { __firstFrames: number[] };
      w.__firstFrames = [];
      const watched = new WeakSet<HTMLVideoElement>();
      new MutationObserver(() => {
        for (const video of document.querySelectorAll<HTMLVideoElement>('[data-testid="remote-tile"] video')) {
          if (watched.has(video)) continue;
          watched.add(video);
          video.requestVideoFrameCallback(() => w.__firstFrames.push(Date.now()));
        }
      }).observe(document, { childList: true, subtree: true });
    },
    { key: storageKeys.language, language },
  );
  return context.newPage();
}

/** The host opens a meeting and waits for their own camera; the link to it. */
async function createMeeting(host: Page): Promise<string> {
  await host.goto('/meeting');
  await host.getByTestId('create-meeting').click();
  await expect(host).toHaveURL(/\/meeting\/[\w-]+$/);
  await expect(host.getByTestId('local-tile')).toHaveAttribute('data-has-video', 'true', { timeout: 20_000 });
  return host.url();
}

/**
 * Opens the meeting link; how long the first remote frame took to show, in ms, from the opening (the
 * page's load included) and from the join (its "mooz:enter" mark, services/join-marks.ts).
 */
async function joinAndTimeFirstFrame(page: Page, link: string): Promise<{ open: number; join: number }> {
  const opened = Date.now();
  await page.goto(link);
  await expect.poll(() => page.evaluate(() => (window as unknown as { __firstFrames: number[] }).__firstFrames.length), { timeout: 30_000 }).toBeGreaterThan(0);
  const { frame, entered } = await page.evaluate(() => ({
    frame: Math.min(...(window as unknown as { __firstFrames: number[] }).__firstFrames),
    entered: performance.timeOrigin + performance.getEntriesByName('mooz:enter')[0]!.startTime,
  }));
  return { open: frame - opened, join: Math.round(frame - entered) };
}

/** For each connected peer connection: its policy, the selected pair's local candidate type, and the video frames decoded. */
function connectedLinks(page: Page) {
  return page.evaluate(async () => {
    const pcs = (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs.filter((pc) => pc.connectionState === 'connected');
    return Promise.all(
      pcs.map(async (pc) => {
        const stats = await pc.getStats();
        let framesDecoded = 0;
        let local: string | undefined;
        stats.forEach((report) => {
          if (report.type === 'inbound-rtp' && report.kind === 'video') framesDecoded += report.framesDecoded ?? 0;
          if (report.type === 'transport' && report.selectedCandidatePairId) {
            const pair = stats.get(report.selectedCandidatePairId);
            local = stats.get(pair?.localCandidateId)?.candidateType;
          }
        });
        return { policy: pc.getConfiguration().iceTransportPolicy, local, framesDecoded };
      }),
    );
  });
}

test('three people meet through the TURN relay alone, and see each other', async () => {
  test.setTimeout(120_000);
  const [tess, sam, ada] = await Promise.all([
    openWindow(relayed.baseURL, 'teacher@mooz.local', 'Tess Teacher'),
    openWindow(relayed.baseURL, 'student@mooz.local', 'Sam Student'),
    openWindow(relayed.baseURL, 'admin@mooz.local', 'Ada Admin'),
  ]);
  const link = await createMeeting(tess);
  firstFrameMs.relay = await joinAndTimeFirstFrame(sam, link);
  await ada.goto(link);

  for (const page of [tess, sam, ada]) {
    await expect(page.locator('[data-testid="remote-tile"][data-has-video]')).toHaveCount(2, { timeout: 30_000 });
    await expect.poll(async () => (await connectedLinks(page)).length, { timeout: 20_000 }).toBe(2);
    // Frames keep coming on both links, each carried by a relay candidate of this side, relay-only.
    const before = await connectedLinks(page);
    for (const link of before) expect(link).toMatchObject({ policy: 'relay', local: 'relay' });
    await expect.poll(async () => (await connectedLinks(page)).every((link, i) => link.framesDecoded > before[i]!.framesDecoded)).toBe(true);
  }
  await expect(tess.getByTestId('remote-tile')).toHaveCount(2);
});

test('over the direct path (no TURN, host candidates), the same join for comparison', async ({ baseURL }) => {
  test.setTimeout(60_000);
  const [tess, sam] = await Promise.all([
    openWindow(baseURL!, 'teacher@mooz.local', 'Tess Teacher'),
    openWindow(baseURL!, 'student@mooz.local', 'Sam Student'),
  ]);
  const link = await createMeeting(tess);
  firstFrameMs.direct = await joinAndTimeFirstFrame(sam, link);
  await expect.poll(async () => (await connectedLinks(sam)).map((link) => link.local)).toEqual(['host']);
});

test('three people in an SFU room reach Janus through the TURN relay alone', async () => {
  test.setTimeout(150_000);
  const [janusUrl, janusSecret, janusSide] = [process.env.MOOZ_E2E_JANUS_URL, process.env.MOOZ_E2E_JANUS_SECRET, process.env.MOOZ_E2E_JANUS_HOST_ADDRESS];
  if (!janusUrl || !janusSecret || !janusSide) throw new Error('no Janus for this run (support/global-janus.ts)');
  const sfuCoturn = await startCoturn({ secret, relayIp: janusSide });
  const onSfu = await startOwnServer({
    TURN_URLS: sfuCoturn.urls.join(','),
    TURN_SECRET: secret,
    ICE_TRANSPORT_POLICY: 'relay',
    JANUS_URLS: janusUrl,
    JANUS_API_SECRET: janusSecret,
    // Three people outgrow this mesh: the class is on the SFU once the third joins.
    MESH_MAX_PEOPLE: '2',
  });
  try {
    const [tess, sam, ada] = await Promise.all([
      openWindow(onSfu.baseURL, 'teacher@mooz.local', 'Tess Teacher'),
      openWindow(onSfu.baseURL, 'student@mooz.local', 'Sam Student'),
      openWindow(onSfu.baseURL, 'admin@mooz.local', 'Ada Admin'),
    ]);
    const link = await createMeeting(tess);
    await sam.goto(link);
    await ada.goto(link);
    for (const page of [tess, sam, ada]) {
      await expect(page.locator('[data-testid="remote-tile"][data-has-video]')).toHaveCount(2, { timeout: 40_000 });
      // Publishing and receiving, two connections to Janus, each on a relay candidate of this side.
      await expect
        .poll(async () => (await connectedLinks(page)).map((link) => `${link.policy}:${link.local}`), { timeout: 30_000 })
        .toEqual(['relay:relay', 'relay:relay']);
      const before = (await connectedLinks(page)).reduce((sum, link) => sum + link.framesDecoded, 0);
      await expect.poll(async () => (await connectedLinks(page)).reduce((sum, link) => sum + link.framesDecoded, 0)).toBeGreaterThan(before);
    }
  } finally {
    await Promise.all(contexts.splice(0).map((context) => context.close()));
    await onSfu.stop();
    await sfuCoturn.stop();
  }
});

test('a server whose TURN secret coturn does not share: the join ends in the explanation, in each person’s language', async () => {
  test.setTimeout(90_000);
  const [tess, sam] = await Promise.all([
    openWindow(wrongSecret.baseURL, 'teacher@mooz.local', 'Tess Teacher'),
    openWindow(wrongSecret.baseURL, 'student@mooz.local', 'Sam Student', 'fr'),
  ]);
  const link = await createMeeting(tess);
  await sam.goto(link);
  // Every relay allocation is refused, so no candidate at all: each side's link fails after its ICE restarts.
  await expect(sam.getByTestId('meeting-failure')).toHaveText(french['messages.mediaBlocked']!, { timeout: 45_000 });
  await expect(sam.getByTestId('meeting-failed')).toContainText(french['meeting.failed.retry']!);
  await expect(tess.getByTestId('meeting-failure')).toHaveText(english['messages.mediaBlocked']!, { timeout: 45_000 });
});
