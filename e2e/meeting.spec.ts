// Live meetings end to end: three people in three Chromium windows with fake camera and microphone
// meet peer to peer, chat, share a screen and leave, as new users would. Each window is a context of
// one Chromium launched with the fake devices; peer connections are observed through a thin wrapper
// installed before the app loads.
import { expect, test, type Page } from '@playwright/test';
import { videoBitrateKbps } from '@mooz/contract/realtime';
import { apiLogIn, newStudent, type SignedIn } from './support/a11y';
import { cameraWindows } from './support/fake-camera';
import { connectedFrames, installMeetingProbe, toastsShown } from './support/meeting-probe';
import { startSignedIn } from './support/signed-in';

const escapeRegExp = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const windows = cameraWindows();

/** A window signed in as `session`, with `userName` as the saved meeting name; its chat toasts are kept with the meeting's. */
async function openWindow(baseURL: string, session: SignedIn, userName: string): Promise<Page> {
  const context = await windows.newWindow({ baseURL, viewport: { width: 1280, height: 800 } });
  await startSignedIn(context, session, userName);
  // Toasts come and go within seconds; keep every text one showed.
  await installMeetingProbe(context, '[data-testid="meeting-toast"], [data-testid="chat-toast"]');
  await context.addInitScript(() => {
    const w = window as unknown as { __sounds: { src: string; volume: number; ok: boolean; error?: string }[] };
    w.__sounds = [];
    const play = HTMLMediaElement.prototype.play;
    HTMLMediaElement.prototype.play = function (this: HTMLMediaElement) {
      const started = play.call(this);
      if (this.src.includes('/sounds/')) {
        const entry = { src: new URL(this.src).pathname, volume: this.volume, ok: false } as { src: string; volume: number; ok: boolean; error?: string };
        w.__sounds.push(entry);
        started.then(
          () => (entry.ok = true),
          (error: unknown) => (entry.error = String(error)),
        );
      }
      return started;
    };
  });
  return context.newPage();
}

/** The maxBitrate of every encoding of every live video sender, in kbps. */
function videoSenderLimits(page: Page): Promise<number[]> {
  return page.evaluate(() =>
    (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs
      .filter((pc) => pc.connectionState === 'connected')
      .flatMap((pc) => pc.getSenders())
      .filter((sender) => sender.track?.kind === 'video' && sender.track.readyState === 'live')
      .flatMap((sender) => sender.getParameters().encodings.map((encoding) => (encoding.maxBitrate ?? 0) / 1000)),
  );
}

async function expectBitrateBudget(page: Page, peers: number, videoSendersPerPeer: number) {
  await expect
    .poll(() => videoSenderLimits(page), { message: `video senders limited for ${peers} peers` })
    .toEqual(Array(peers * videoSendersPerPeer).fill(videoBitrateKbps(peers)));
}

test.describe.configure({ mode: 'serial' });

test('three people meet, see each other, chat, share a screen and leave', async ({ request, baseURL }) => {
  test.setTimeout(150_000);
  const teacher = await apiLogIn(request, 'teacher@mooz.local');
  const sam = (await newStudent(request, 'Sam')).session;
  const kim = (await newStudent(request, 'Kim')).session;
  const [tess, samPage, kimPage] = await Promise.all([
    openWindow(baseURL!, teacher, 'Tess Teacher'),
    openWindow(baseURL!, sam, 'Sam Student'),
    openWindow(baseURL!, kim, 'Kim Student'),
  ]);
  const everyone = [tess, samPage, kimPage];

  // Tess creates a meeting from the menu with the form's defaults and lands alone in it.
  await tess.goto('/dashboard');
  await tess.getByTestId('menu-meetings').click();
  await expect(tess).toHaveURL(/\/meeting$/);
  await expect(tess.getByTestId('meeting-name')).toHaveValue('Mooz Meeting');
  await expect(tess.getByTestId('meeting-capacity')).toHaveValue('10');
  await expect(tess.getByTestId('create-user-name')).toHaveValue('Tess Teacher');
  await tess.getByTestId('create-meeting').click();
  await expect(tess).toHaveURL(/\/meeting\/[\w-]+$/);
  await expect(tess.getByTestId('meeting-title')).toHaveText('Mooz Meeting');
  const invite = tess.getByTestId('invite-coachmark');
  await expect(invite).toBeVisible();
  const link = await tess.getByTestId('invite-link').inputValue();
  expect(link).toBe(tess.url());
  await expect(tess.getByTestId('local-tile')).toHaveAttribute('data-has-video', 'true');

  // Sam pastes the invite link into the join form; Kim opens it directly.
  await samPage.goto('/meeting');
  await samPage.getByTestId('join-room-id').fill(link);
  await samPage.getByTestId('join-meeting').click();
  await expect(samPage).toHaveURL(link);
  await kimPage.goto(link);

  // Everyone sees two remote videos, decoding frames that keep coming.
  for (const page of everyone) {
    await expect(page.getByTestId('remote-tile')).toHaveCount(2, { timeout: 30_000 });
    await expect(page.locator('[data-testid="remote-tile"][data-has-video]')).toHaveCount(2, { timeout: 20_000 });
    await expect(page.getByTestId('participant-count')).toHaveText('3 / 10');
  }
  await expect(invite).toBeHidden();
  // Toasts at the bottom stand above the controls bar: the meeting's are bottom-left, over the microphone.
  for (const page of everyone) {
    const { toasts, bar } = await page.evaluate(() => ({
      toasts: document.querySelector('.mooz-toaster')!.getBoundingClientRect().bottom,
      bar: document.querySelector('[data-testid="meeting-room"] > footer')!.getBoundingClientRect().top,
    }));
    expect(toasts).toBeLessThanOrEqual(bar);
  }
  await expect.poll(() => toastsShown(tess)).toEqual(expect.arrayContaining(['Peer connection established with Sam Student', 'Peer connection established with Kim Student']));
  for (const page of everyone) {
    await expect.poll(async () => (await connectedFrames(page)).length).toBe(2);
    const before = await connectedFrames(page);
    expect(before.every((frames) => frames > 0)).toBe(true);
    await expect.poll(async () => (await connectedFrames(page)).every((frames, i) => frames > before[i]!)).toBe(true);
  }

  // Two peers each: every video sender is capped at 2000 / 2 kbps.
  for (const page of everyone) await expectBitrateBudget(page, 2, 1);

  // Kim turns her camera off: the others see her initials, then her picture again when she turns it on.
  const kimOn = (page: Page) => page.getByTestId('remote-tile').filter({ hasText: 'Kim Student' });
  await kimPage.getByTestId('toggle-camera').click();
  for (const page of [tess, samPage]) {
    await expect(kimOn(page)).not.toHaveAttribute('data-has-video', { timeout: 10_000 });
    await expect(kimOn(page)).toContainText('KS');
  }
  await kimPage.getByTestId('toggle-camera').click();
  for (const page of [tess, samPage]) await expect(kimOn(page)).toHaveAttribute('data-has-video', 'true', { timeout: 20_000 });

  // Sam writes in the side panel's chats; the others get a toast with the text cut at 45 characters.
  const text = 'Hello everyone, can you all see my camera clearly from where you are?';
  await samPage.getByTestId('toggle-panel').click();
  await samPage.getByTestId('tab-chats').click();
  await samPage.getByTestId('chat-input').fill(text);
  // A chat toast lasts 3 s: both readers watch for theirs before Sam sends, read it the moment it shows,
  // and Tess clicks hers at once (which opens the chats tab), so a slow machine cannot let one expire.
  const announced = new RegExp(`Sam Student sent a message: ${escapeRegExp(`${text.slice(0, 45)}...`)}\\s*Click to open chats`);
  const toastsRead = Promise.all(
    [tess, kimPage].map(async (page) => {
      const toast = page.getByTestId('chat-toast');
      await expect(toast).toHaveText(announced, { timeout: 30_000 });
      if (page === tess) await toast.dispatchEvent('click');
      await expect
        .poll(() => page.evaluate(() => (window as unknown as { __sounds: unknown[] }).__sounds))
        .toEqual([{ src: '/sounds/chat-received.mp3', volume: 0.3, ok: true }]);
    }),
  );
  await samPage.getByTestId('chat-send').click();
  await expect(samPage.getByTestId('panel-chat').getByTestId('chat-message')).toContainText(text);
  await toastsRead;
  // Clicking the toast opened the chats tab with the message.
  await expect(tess.getByTestId('panel-chat').getByTestId('chat-message')).toContainText(text);
  // Kim answers from the floating chat; Tess has the chats open, so she gets the message without a toast.
  await kimPage.getByTestId('toggle-floating-chat').click();
  await kimPage.getByTestId('floating-chat').getByTestId('chat-input').fill('Loud and clear');
  await kimPage.getByTestId('floating-chat').getByTestId('chat-input').press('Enter');
  await expect(tess.getByTestId('panel-chat').getByTestId('chat-message').filter({ hasText: 'Loud and clear' })).toBeVisible();
  await expect(samPage.getByTestId('panel-chat').getByTestId('chat-message').filter({ hasText: 'Loud and clear' })).toBeVisible();
  await expect(tess.getByTestId('chat-toast').filter({ hasText: 'Loud and clear' })).toHaveCount(0);

  // Tess shares her screen: it shows as its own large tile for the others, with the budget on it too.
  await tess.getByTestId('toggle-screen').click();
  await expect(tess.getByTestId('local-screen-tile')).toBeVisible();
  for (const page of [samPage, kimPage]) {
    await expect(page.getByTestId('remote-screen-tile')).toHaveCount(1);
    await expect(page.getByTestId('remote-screen-tile')).toHaveAttribute('data-has-video', 'true');
    await expect(page.getByTestId('remote-tile')).toHaveCount(2);
  }
  await expectBitrateBudget(tess, 2, 2);
  await tess.screenshot({ path: test.info().outputPath('meeting-screen-share.png') });
  await samPage.screenshot({ path: test.info().outputPath('meeting-three-people.png') });
  // Stopping the share takes its tile away everywhere.
  await tess.getByTestId('toggle-screen').click();
  for (const page of [samPage, kimPage]) await expect(page.getByTestId('remote-screen-tile')).toHaveCount(0);
  await expect(tess.getByTestId('local-screen-tile')).toHaveCount(0);

  // Kim leaves: the others remove her and say so; the budget goes to the one remaining peer.
  await kimPage.getByTestId('leave-meeting').click();
  await expect(kimPage).toHaveURL(/\/meeting$/);
  for (const page of [tess, samPage]) {
    await expect.poll(() => toastsShown(page)).toContain('Kim Student left the meeting');
    await expect(page.getByTestId('remote-tile')).toHaveCount(1);
    await expect(page.getByTestId('participant-count')).toHaveText('2 / 10');
    await expectBitrateBudget(page, 1, 1);
  }
});

test('a network blip does not end the meeting: the socket reconnects and keeps the place', async ({ request, baseURL }) => {
  test.setTimeout(90_000);
  const teacher = await apiLogIn(request, 'teacher@mooz.local');
  const lee = (await newStudent(request, 'Lee')).session;
  const [tess, leePage] = await Promise.all([
    openWindow(baseURL!, teacher, 'Tess Teacher'),
    openWindow(baseURL!, lee, 'Lee Student'),
  ]);
  await tess.goto('/meeting');
  await tess.getByTestId('meeting-capacity').fill('2');
  await tess.getByTestId('create-meeting').click();
  await expect(tess.getByTestId('invite-coachmark')).toBeVisible();
  await leePage.goto(tess.url());
  for (const page of [tess, leePage]) await expect(page.locator('[data-testid="remote-tile"][data-has-video]')).toHaveCount(1, { timeout: 30_000 });

  await leePage.context().setOffline(true);
  await expect(leePage.getByTestId('meeting-reconnecting')).toBeVisible();
  await leePage.context().setOffline(false);
  await expect(leePage.getByTestId('meeting-reconnecting')).toBeHidden({ timeout: 20_000 });
  await expect(leePage.getByTestId('participant-count')).toHaveText('2 / 2');

  // Still one meeting: chat flows both ways, and Tess never saw Lee leave.
  await leePage.getByTestId('toggle-floating-chat').click();
  await leePage.getByTestId('floating-chat').getByTestId('chat-input').fill('Back again');
  await leePage.getByTestId('floating-chat').getByTestId('chat-input').press('Enter');
  await expect(tess.getByTestId('chat-toast')).toContainText('Lee Student sent a message: Back again');
  expect(await toastsShown(tess)).not.toContain('Lee Student left the meeting');
  await expect(tess.getByTestId('remote-tile')).toHaveCount(1);
});

test('an unknown room is refused with the server message', async ({ request, baseURL }) => {
  const teacher = await apiLogIn(request, 'teacher@mooz.local');
  const page = await openWindow(baseURL!, teacher, 'Tess Teacher');
  await page.goto('/meeting/no-such-room');
  // The refusal comes once the socket is up: on a loaded run, past the default 10 s.
  await expect(page.getByTestId('meeting-failure')).toHaveText('Room not found', { timeout: 30_000 });
  await page.getByRole('button', { name: 'Back to meetings' }).click();
  await expect(page).toHaveURL(/\/meeting$/);
});
