// A small looping camera clip for Chromium's fake camera (320×180, a bar sweeping across), written once
// per process: three windows encoding and decoding Chromium's default 720p fake camera on two cores
// starve each other, and a test or benchmark then measures the machine instead of the product.
// Used by e2e/meeting.spec.ts and bench/first-frame.mjs; the meeting tests of other specs share
// fakeMediaBrowser().
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, test, type Browser } from '@playwright/test';

export function writeFakeCamera(): string {
  const [width, height, frames] = [320, 180, 30];
  const parts: Buffer[] = [Buffer.from(`YUV4MPEG2 W${width} H${height} F15:1 Ip A1:1 C420jpeg\n`)];
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
export const fakeMediaArgs = ['--no-sandbox', '--disable-gpu', '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream'];

/**
 * One such browser for the tests of the calling `describe` (launched before them, closed after), for
 * meeting tests that need two people in one test.
 */
export function fakeMediaBrowser(): () => Browser {
  let browser: Browser | undefined;
  test.beforeAll(async () => {
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: fakeMediaArgs });
  });
  test.afterAll(async () => {
    await browser?.close();
  });
  return () => browser!;
}
