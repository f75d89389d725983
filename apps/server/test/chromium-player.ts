// Chromium playing a WebM in a <video>, for the tests that check a written file plays and seeks as a
// browser sees it, not only as the tests' own EBML walkers read it.
import { afterAll, beforeAll } from 'vitest';
import { chromium, type Browser } from 'playwright-core';

interface PageVideo {
  muted: boolean;
  src: string;
  duration: number;
  currentTime: number;
  error: { message: string } | null;
  addEventListener(event: string, listener: (value: unknown) => void, options?: { once: boolean }): void;
}

/**
 * Chromium for the tests of the calling `describe`: launched before them, closed after them. Its
 * `play(bytes, seeks)` says what a <video> of `bytes` reports: its duration once loaded, and where
 * each seek lands, to each fraction of the duration in turn.
 */
export function chromiumPlayer() {
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--autoplay-policy=no-user-gesture-required'],
    });
  });
  afterAll(() => browser?.close());

  async function play(bytes: Buffer, seeks: number[]) {
    const page = await browser.newPage();
    try {
      await page.setContent('<!doctype html><body></body>');
      return await page.evaluate(
        async ({ base64, seeks }) => {
          // This runs in the page; the server's TypeScript has no DOM types, so it names what it uses.
          const page = globalThis as unknown as { document: { createElement(tag: 'video'): PageVideo } };
          const raw = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
          const video = page.document.createElement('video');
          video.muted = true;
          video.src = URL.createObjectURL(new Blob([raw], { type: 'video/webm' }));
          const once = (event: string) =>
            new Promise((resolve, reject) => {
              video.addEventListener(event, resolve, { once: true });
              video.addEventListener('error', () => reject(new Error(video.error?.message ?? 'media error')), {
                once: true,
              });
            });
          await once('loadedmetadata');
          const duration = video.duration;
          const landed: number[] = [];
          for (const at of seeks) {
            const seeked = once('seeked');
            video.currentTime = duration * at;
            await seeked;
            landed.push(video.currentTime);
          }
          return { duration, landed };
        },
        { base64: bytes.toString('base64'), seeks },
      );
    } finally {
      await page.close();
    }
  }
  return { play };
}
