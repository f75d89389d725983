// A large WebM made from a small real one: the header of a MediaRecorder recording (test/fixtures/)
// followed by its clusters repeated, each copy's Timecode moved on past the last, so a reader of WebM
// (the upload's byte check, the seekable rewrite of webm/write.ts) does its real work on every byte.
import { createWriteStream, readFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { scanWebm } from '../../apps/server/src/modules/recordings/webm/index.ts';
import { root } from './server.mjs';

/** EBML: a Cluster of unknown size (as MediaRecorder writes them) and a Timecode written 8 bytes wide. */
const clusterHead = Buffer.from([0x1f, 0x43, 0xb6, 0x75, 0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);
function timecodeElement(ticks) {
  const element = Buffer.alloc(10);
  element[0] = 0xe7;
  element[1] = 0x88;
  element.writeBigUInt64BE(BigInt(ticks), 2);
  return element;
}

/** The length of the element (id, size, data) starting at `at`, whose size is known. */
function elementLength(buffer, at) {
  const idLength = Math.clz32(buffer[at]) - 23;
  const first = buffer[at + idLength];
  const sizeLength = Math.clz32(first) - 23;
  let size = first & (0xff >> sizeLength);
  for (let i = 1; i < sizeLength; i++) size = size * 256 + buffer[at + idLength + i];
  return idLength + sizeLength + size;
}

/** Writes a WebM of at least `bytes` bytes made from the fixture's header and clusters, repeated. */
export async function writeLargeWebm(file, bytes) {
  const fixture = readFileSync(path.join(root, 'apps/server/test/fixtures/mediarecorder-3s.webm'));
  const scan = await scanWebm(Readable.from([fixture]));
  const header = fixture.subarray(0, scan.headerEnd);
  // Each cluster without its own header and Timecode (its first child): what a copy keeps as it is.
  const clusters = scan.clusters.map((c) => ({ timecode: c.timecode, rest: fixture.subarray(c.dataStart + elementLength(fixture, c.dataStart), c.end) }));
  const loopTicks = Math.ceil((scan.durationMs * 1e6) / scan.timecodeScale);
  let written = 0;
  let loops = 0;
  const out = createWriteStream(file);
  const chunks = (function* () {
    yield header;
    written += header.length;
    for (; written < bytes || loops === 0; loops++) {
      for (const c of clusters) {
        const piece = Buffer.concat([clusterHead, timecodeElement(c.timecode + loops * loopTicks), c.rest]);
        written += piece.length;
        yield piece;
      }
    }
  })();
  await pipeline(Readable.from(chunks), out);
  return { bytes: written, loops, videoSeconds: (loops * loopTicks * scan.timecodeScale) / 1e9 };
}
