// A small, slow looping camera clip for Chromium's fake camera (320×180 at 5 frames a second, a bar
// sweeping across), written once per process: three windows encoding, decoding and drawing a camera on
// two cores starve each other, and a test or benchmark then measures the machine instead of the product.
// Every meeting spec launches its browser with cameraBrowser (most through cameraWindows), a window
// (context) per person; bench/first-frame.mjs uses the clip.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, test, type Browser, type BrowserContext, type BrowserContextOptions } from '@playwright/test';

export function writeFakeCamera(): string {
  const [width, height, frames] = [320, 180, 10];
  const parts: Buffer[] = [Buffer.from(`YUV4MPEG2 W${width} H${height} F5:1 Ip A1:1 C420jpeg\n`)];
  for (let frame = 0; frame < frames; frame++) {
    const y = Buffer.alloc(width * height, 60);
    const barStart = Math.floor((frame / frames) * width);
    for (let row = 0; row < height; row++) y.fill(200, row * width + barStart, row * width + Math.min(width, barStart + 24));
    parts.push(Buffer.from('FRAME\n'), y, Buffer.alloc((width / 2) * (height / 2), 90), Buffer.alloc((width / 2) * (height / 2), 160));
  }
  const file = join(mkdtempSync(join(tmpdir(), 'mooz-camera-')), 'camera.y4m');
  writeFileSync(file, Buffer.concat(parts));
  return file;
}

/** Chromium with its fake camera and microphone, allowed without asking. */
const fakeMediaArgs = ['--no-sandbox', '--disable-gpu', '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream'];

let clip: string | undefined;

/**
 * A Chromium with the fake camera (the clip) and microphone, whose capture services are started and
 * kept running. Chromium starts them at a page's first getUserMedia and stops them when nothing has
 * captured for a while, and on two cores busy with a meeting of the others that start is slow enough
 * that a late joiner's camera came after the test's wait. A hidden page holds a capture for the
 * browser's life.
 */
export async function cameraBrowser(extraArgs: string[] = []): Promise<Browser> {
  clip ??= writeFakeCamera();
  const args = [...fakeMediaArgs, `--use-file-for-fake-video-capture=${clip}`, '--disable-background-networking', '--autoplay-policy=no-user-gesture-required', ...extraArgs];
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args });
  const page = await (await browser.newContext()).newPage();
  // Any https page is a secure context, where capture is allowed; this one never leaves the browser.
  await page.route('https://capture.warm/', (route) => route.fulfill({ body: '<!doctype html><title>capture</title>', contentType: 'text/html' }));
  await page.goto('https://capture.warm/');
  await page.evaluate(async () => {
    const quiet = { echoCancellation: false, noiseSuppression: false, autoGainControl: false };
    (window as unknown as { held: MediaStream }).held = await navigator.mediaDevices.getUserMedia({ audio: quiet, video: true });
  });
  return browser;
}

/**
 * One such browser for the tests of the calling `describe` (launched before them, closed after), for
 * meeting tests that need two people in one test.
 */
export function fakeMediaBrowser(): () => Browser {
  let browser: Browser | undefined;
  test.beforeAll(async () => {
    browser = await cameraBrowser();
  });
  test.afterAll(async () => {
    await browser?.close();
  });
  return () => browser!;
}

/**
 * The calling spec's camera browser (fakeMediaBrowser) and `newWindow`, a person's window (a context)
 * in it, or in another `browser`: one Chromium for everyone in a test, since a browser each is too much
 * for two cores. The windows a test opened are closed after it, so that no meeting lingers into the
 * next test.
 */
export function cameraWindows() {
  const camera = fakeMediaBrowser();
  const contexts: BrowserContext[] = [];
  test.afterEach(async () => {
    await Promise.all(contexts.splice(0).map((context) => context.close()));
  });
  return {
    camera,
    async newWindow(options?: BrowserContextOptions, browser: Browser = camera()): Promise<BrowserContext> {
      const context = await browser.newContext(options);
      contexts.push(context);
      return context;
    },
  };
}
