// A WebM of any size made in memory from the MediaRecorder fixture: its header, then its clusters
// repeated with their Timecodes moved on (as bench/support/webm-file.mjs writes one to disk), so every
// byte of it is a real cluster's that the seekable writer copies.
import { Readable } from 'node:stream';
import { scanWebm } from '../src/modules/recordings/webm';
import { webmFixture } from './recordings';

/** A Cluster of unknown size, as MediaRecorder writes them, and a Timecode 8 bytes wide. */
const clusterHead = Buffer.from([0x1f, 0x43, 0xb6, 0x75, 0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);
function timecodeElement(ticks: number) {
  const element = Buffer.alloc(10);
  element[0] = 0xe7;
  element[1] = 0x88;
  element.writeBigUInt64BE(BigInt(ticks), 2);
  return element;
}

/** The length of the element (id, size, data) at `at`, whose size is known. */
function elementLength(buffer: Buffer, at: number) {
  const idLength = Math.clz32(buffer[at]!) - 23;
  const first = buffer[at + idLength]!;
  const sizeLength = Math.clz32(first) - 23;
  let size = first & (0xff >> sizeLength);
  for (let i = 1; i < sizeLength; i++) size = size * 256 + buffer[at + idLength + i]!;
  return idLength + sizeLength + size;
}

/** A WebM of at least `minBytes` bytes: the fixture's header and its clusters, repeated whole. */
export async function largeWebm(minBytes: number): Promise<Buffer> {
  const fixture = webmFixture();
  const scan = await scanWebm(Readable.from([fixture]));
  const pieces = [fixture.subarray(0, scan.headerEnd)];
  let length = pieces[0]!.length;
  const clusters = scan.clusters.map((c) => ({ timecode: c.timecode, rest: fixture.subarray(c.dataStart + elementLength(fixture, c.dataStart), c.end) }));
  const loopTicks = Math.ceil((scan.durationMs * 1e6) / scan.timecodeScale);
  for (let loop = 0; length < minBytes || loop === 0; loop++) {
    for (const c of clusters) {
      const piece = Buffer.concat([clusterHead, timecodeElement(c.timecode + loop * loopTicks), c.rest]);
      pieces.push(piece);
      length += piece.length;
    }
  }
  return Buffer.concat(pieces);
}
