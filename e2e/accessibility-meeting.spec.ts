// Accessibility of meetings: axe scans each screen in the four looks of support/a11y.ts and fails on
// any critical or serious violation. Screens: the lobby with the create form, the room with the invite
// popover, the side panel's chats, the floating chat, a refused room.
import { expect, test } from '@playwright/test';
import { fakeMediaBrowser } from './support/fake-camera';
import { apiLogIn, AxeReport, looks, newStudent, prepare, visit } from './support/a11y';

// A scan takes a few seconds on a busy two-core machine, and each test makes several.
test.describe.configure({ timeout: 240_000 });

test.describe('meetings', () => {
  // The room needs a camera and a microphone: Chromium's fake ones, allowed without asking.
  const browser = fakeMediaBrowser();

  for (const view of looks) {
    test(`meeting lobby and room [${view.name}]`, async ({ request, baseURL }) => {
      const axe = new AxeReport(view);
      const [host, guest] = await Promise.all([0, 1].map(() => browser().newContext({ baseURL, viewport: { width: 1280, height: 800 } })));
      try {
        await prepare(host!, view, await apiLogIn(request, 'teacher@mooz.local'), 'Tara Teacher');
        await prepare(guest!, view, (await newStudent(request, 'Guest')).session, 'Gil Guest');
        const page = await host!.newPage();

        await visit(page, '/meeting', 'meeting-lobby');
        await axe.scan(page, 'meeting lobby (create and join)');
        await page.getByTestId('create-meeting').click();
        await expect(page).toHaveURL(/\/meeting\/[\w-]+$/);
        await expect(page.getByTestId('invite-coachmark')).toBeVisible();
        await expect(page.getByTestId('local-tile')).toHaveAttribute('data-has-video', 'true');
        await axe.scan(page, 'meeting room with the invite popover');

        // Chat opens when someone else is there.
        const other = await guest!.newPage();
        await other.goto(page.url());
        await expect(page.locator('[data-testid="remote-tile"][data-has-video]')).toHaveCount(1, { timeout: 30_000 });
        await expect(page.getByTestId('invite-coachmark')).toBeHidden();
        await page.getByTestId('toggle-panel').click();
        await page.getByTestId('tab-chats').click();
        await page.getByTestId('panel-chat').getByTestId('chat-input').fill('Good morning, everyone');
        await page.getByTestId('panel-chat').getByTestId('chat-send').click();
        await expect(page.getByTestId('panel-chat').getByTestId('chat-message')).toHaveCount(1);
        await axe.scan(page, 'meeting room, side panel chats');

        await page.getByTestId('toggle-floating-chat').click();
        await expect(page.getByTestId('floating-chat')).toBeVisible();
        await axe.scan(page, 'meeting room, floating chat');
        await page.getByTestId('leave-meeting').click();
        await expect(page).toHaveURL(/\/meeting$/);

        await page.goto('/meeting/no-such-room');
        await expect(page.getByTestId('meeting-failed')).toBeVisible();
        await axe.scan(page, 'meeting refused');
      } finally {
        await Promise.all([host!.close(), guest!.close()]);
      }
      await axe.expectClean();
    });
  }
});
