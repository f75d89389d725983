// A small looping camera clip for Chromium's fake camera (320×180, a bar sweeping across), written once
// per process: three windows encoding and decoding Chromium's default 720p fake camera on two cores
// starve each other, and a test or benchmark then measures the machine instead of the product.
// Used by e2e/meeting.spec.ts and bench/first-frame.mjs.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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
