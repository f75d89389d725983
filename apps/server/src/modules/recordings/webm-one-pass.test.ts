// The one-pass seekable writer (webm/write.ts writeSeekableWebm) against the two-pass rewrite
// (seekableWebm) on MediaRecorder's own files (test/fixtures/): parsed, the two outputs hold the same
// header, Duration, clusters and cues; the one-pass file has its Cues after the clusters and clusters of
// unknown size. Read back by an EBML walker of the tests' own, and played and seeked in Chromium.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { NotWebmError, oneShotHoldBackBytes, scanWebm, writeSeekableWebm, type OnePassTarget } from './webm';
import { chromiumPlayer } from '../../../test/chromium-player';
import { vint } from '../../../test/ebml';
import { seekableWebm } from '../../../test/webm-reference';

const fixtures = path.resolve(import.meta.dirname, '../../../test/fixtures');
const video = readFileSync(path.join(fixtures, 'mediarecorder-3s.webm'));
const audio = readFileSync(path.join(fixtures, 'mediarecorder-audio-3s.webm'));

const ID = { ebml: 0x1a45dfa3, segment: 0x18538067, seekHead: 0x114d9b74, seek: 0x4dbb, seekId: 0x53ab, seekPosition: 0x53ac, info: 0x1549a966, duration: 0x4489, tracks: 0x1654ae6b, cues: 0x1c53bb6b, cluster: 0x1f43b675, timecode: 0xe7 };

const chunksOf = (bytes: Buffer, chunkSize = 64 * 1024) =>
  (function* () {
    for (let at = 0; at < bytes.length; at += chunkSize) yield bytes.subarray(at, at + chunkSize);
  })();

/** A target in memory that records what was asked of it. */
function memoryTarget() {
  const calls: string[] = [];
  const written: Buffer[] = [];
  let bytes: Buffer | null = null;
  let headBytes = -1;
  const target: OnePassTarget = {
    async write(chunk) {
      calls.push('write');
      // Copied: the writer must not rely on the caller's buffers staying as they were.
      written.push(Buffer.from(chunk));
    },
    async patchHead(head) {
      calls.push('patchHead');
      const all = Buffer.concat(written);
      expect(head.length).toBe(headBytes);
      head.copy(all, 0);
      written.splice(0, written.length, all);
    },
    async finish() {
      calls.push('finish');
      bytes = Buffer.concat(written);
      return { sizeBytes: bytes.length };
    },
    async abort() {
      calls.push('abort');
    },
  };
  return {
    calls,
    open: async (reserved: number) => {
      calls.push('open');
      headBytes = reserved;
      return target;
    },
    get bytes() {
      return bytes!;
    },
  };
}

async function onePass(bytes: Buffer, chunkSize?: number) {
  const to = memoryTarget();
  const made = await writeSeekableWebm(chunksOf(bytes, chunkSize), to.open);
  return { made, calls: to.calls, bytes: made ? to.bytes : null };
}

async function twoPass(bytes: Buffer) {
  const made = await seekableWebm(async () => Readable.from(chunksOf(bytes)));
  const out: Buffer[] = [];
  for await (const chunk of made.stream!) out.push(chunk as Buffer);
  return Buffer.concat(out);
}

// --- an independent EBML walker, which knows clusters of unknown size ---
interface El {
  id: number;
  start: number;
  dataStart: number;
  end: number;
  unknownSize: boolean;
}
function header(b: Buffer, at: number) {
  const id = vint(b, at, true);
  const size = vint(b, at + id.length, false);
  return { id: id.value, dataStart: at + id.length + size.length, size: size.unknown ? null : size.value };
}
/** The children of start..end; a Cluster of unknown size ends where a Cluster or Cues begins. */
function childrenOf(b: Buffer, start: number, end: number): El[] {
  const out: El[] = [];
  for (let at = start; at < end; ) {
    const h = header(b, at);
    let elementEnd: number;
    if (h.size !== null) elementEnd = h.dataStart + h.size;
    else {
      expect(h.id).toBe(ID.cluster);
      elementEnd = h.dataStart;
      while (elementEnd < end && ![ID.cluster, ID.cues].includes(header(b, elementEnd).id)) {
        const c = header(b, elementEnd);
        elementEnd = c.dataStart + c.size!;
      }
    }
    expect(elementEnd).toBeLessThanOrEqual(end);
    out.push({ id: h.id, start: at, dataStart: h.dataStart, end: elementEnd, unknownSize: h.size === null });
    at = elementEnd;
  }
  return out;
}
const uint = (b: Buffer, el: El) => b.subarray(el.dataStart, el.end).reduce((v, byte) => v * 256 + byte, 0);
const child = (b: Buffer, parent: El, id: number) => childrenOf(b, parent.dataStart, parent.end).find((c) => c.id === id)!;

/** What a seekable file says, parsed: enough to compare two of them. */
function parsed(b: Buffer) {
  const ebml = childrenOf(b, 0, b.length)[0]!;
  expect(ebml.id).toBe(ID.ebml);
  const segmentHeader = header(b, ebml.end);
  expect(segmentHeader.id).toBe(ID.segment);
  // The Segment's size is exactly the bytes after its header.
  expect(segmentHeader.size).toBe(b.length - segmentHeader.dataStart);
  const segmentStart = segmentHeader.dataStart;
  const top = childrenOf(b, segmentStart, b.length);
  const byId = (id: number) => top.filter((e) => e.id === id);
  // The SeekHead points at the Info, the Tracks and the Cues.
  const [seekHead] = byId(ID.seekHead);
  const seeks = childrenOf(b, seekHead!.dataStart, seekHead!.end).map((seek) => ({
    id: uint(b, child(b, seek, ID.seekId)),
    at: segmentStart + uint(b, child(b, seek, ID.seekPosition)),
  }));
  expect(seeks.map((s) => s.id).sort()).toEqual([ID.info, ID.tracks, ID.cues].sort());
  for (const seek of seeks) expect(top.find((e) => e.start === seek.at)?.id).toBe(seek.id);
  const info = byId(ID.info)[0]!;
  const clusters = byId(ID.cluster);
  const cues = byId(ID.cues)[0]!;
  const points = childrenOf(b, cues.dataStart, cues.end).map((point) => {
    const positions = child(b, point, 0xb7);
    const at = segmentStart + uint(b, child(b, positions, 0xf1));
    return { time: uint(b, child(b, point, 0xb3)), track: uint(b, child(b, positions, 0xf7)), cluster: clusters.findIndex((c) => c.start === at) };
  });
  return {
    ebmlHeader: b.subarray(ebml.start, ebml.end),
    durationTicks: b.readDoubleBE(child(b, info, ID.duration).dataStart),
    tracks: b.subarray(byId(ID.tracks)[0]!.start, byId(ID.tracks)[0]!.end),
    order: top.map((e) => e.id).filter((id, i, all) => id !== ID.cluster || all[i - 1] !== ID.cluster),
    clusterBodies: clusters.map((c) => b.subarray(c.dataStart, c.end)),
    clustersUnknownSize: clusters.map((c) => c.unknownSize),
    cues: points,
  };
}

describe('writeSeekableWebm', () => {
  it.each([
    ['a video recording', video],
    ['an audio-only recording', audio],
  ])('writes %s equivalent to the two-pass rewrite, its Cues after the clusters', async (_name, source) => {
    const one = await onePass(source);
    const two = parsed(await twoPass(source));
    const mine = parsed(one.bytes!);
    expect(one.made!.sizeBytes).toBe(one.bytes!.length);
    expect(mine.ebmlHeader.equals(two.ebmlHeader)).toBe(true);
    expect(mine.tracks.equals(two.tracks)).toBe(true);
    expect(mine.durationTicks).toBe(two.durationTicks);
    expect(mine.durationTicks).toBe(one.made!.scan.durationMs);
    expect(mine.clusterBodies.length).toBe(two.clusterBodies.length);
    mine.clusterBodies.forEach((body, i) => expect(body.equals(two.clusterBodies[i]!), `cluster ${i}`).toBe(true));
    // Every cue points at the start of a cluster, the same cluster as the two-pass file's.
    expect(mine.cues).toEqual(two.cues);
    expect(mine.cues.every((c) => c.cluster >= 0)).toBe(true);
    expect(mine.cues.length).toBeGreaterThanOrEqual(3);
    expect(two.order).toEqual([ID.seekHead, ID.info, ID.tracks, ID.cues, ID.cluster]);
    expect(mine.order).toEqual([ID.seekHead, ID.info, ID.tracks, ID.cluster, ID.cues]);
    expect(mine.clustersUnknownSize.every(Boolean)).toBe(true);
    // Opened once, written, patched once, finished.
    expect(one.calls[0]).toBe('open');
    expect(one.calls.slice(-2)).toEqual(['patchHead', 'finish']);
    expect(one.calls.filter((c) => c === 'write').length).toBe(one.calls.length - 3);
  });

  it('writes the same bytes whatever the chunks the source comes in', async () => {
    const whole = await onePass(video, video.length);
    const bytewise = await onePass(video, 7);
    expect(bytewise.bytes!.equals(whole.bytes!)).toBe(true);
  });

  it('reads its own output back whole: Cues, Duration, a Segment of known size, not cut off', async () => {
    const one = await onePass(video);
    const again = await scanWebm(Readable.from(chunksOf(one.bytes!)));
    expect(again).toMatchObject({ truncated: false, originalHasCues: true, originalHasDuration: true, segmentSizeKnown: true, durationMs: one.made!.scan.durationMs });
    expect(again.clusters.length).toBe(one.made!.scan.clusters.length);
    // And writing it once more gives the same bytes (the old Cues dropped, new ones made).
    expect((await onePass(one.bytes!)).bytes!.equals(one.bytes!)).toBe(true);
  });

  it.each([1, 1000, 64 * 1024])("keeps what was complete of a source cut off mid-cluster (chunks of %i), as the two-pass rewrite does", async (chunkSize) => {
    const full = await scanWebm(Readable.from(chunksOf(video)));
    const last = full.clusters.at(-1)!;
    const cut = video.subarray(0, Math.floor((last.dataStart + last.end) / 2));
    const one = await onePass(cut, chunkSize);
    expect(one.made!.scan.truncated).toBe(true);
    const mine = parsed(one.bytes!);
    const two = parsed(await twoPass(cut));
    expect(mine.clusterBodies.length).toBe(full.clusters.length);
    mine.clusterBodies.forEach((body, i) => expect(body.equals(two.clusterBodies[i]!), `cluster ${i}`).toBe(true));
    expect(mine.cues).toEqual(two.cues);
    expect(mine.durationTicks).toBe(two.durationTicks);
    expect(mine.durationTicks).toBeLessThan(full.durationMs);
    // The last cluster is the source's up to its last complete block.
    const kept = mine.clusterBodies.at(-1)!;
    expect(cut.subarray(last.dataStart, last.dataStart + kept.length).equals(kept)).toBe(true);
    expect(kept.length).toBeLessThan(cut.length - last.dataStart);
  });

  it('drops a last cluster cut off before its first complete block, and garbage after the last complete one', async () => {
    const full = await scanWebm(Readable.from(chunksOf(video)));
    const last = full.clusters.at(-1)!;
    const early = await onePass(video.subarray(0, last.dataStart + 10));
    expect(parsed(early.bytes!).clusterBodies.length).toBe(full.clusters.length - 1);
    const garbled = Buffer.concat([video.subarray(0, last.offset), Buffer.alloc(5000, 0x00)]);
    const out = parsed((await onePass(garbled)).bytes!);
    expect(out.clusterBodies.length).toBe(full.clusters.length - 1);
    expect(out.clusterBodies.at(-1)!.equals(parsed(await twoPass(garbled)).clusterBodies.at(-1)!)).toBe(true);
  });

  it('opens nothing for a file cut off before its first complete block, and refuses what is not a WebM', async () => {
    const full = await scanWebm(Readable.from(chunksOf(video)));
    const early = await onePass(video.subarray(0, full.headerEnd + 20));
    expect(early).toMatchObject({ made: null, calls: [] });
    await expect(onePass(Buffer.from('not a video at all, just some text'))).rejects.toThrow(NotWebmError);
    await expect(onePass(video.subarray(0, 30))).rejects.toThrow(NotWebmError);
  });

  it('aborts the target when the source fails part-way, and when the target fails', async () => {
    const to = memoryTarget();
    async function* failing() {
      yield video.subarray(0, 20_000);
      throw new Error('the connection was lost');
    }
    await expect(writeSeekableWebm(failing(), to.open)).rejects.toThrow('the connection was lost');
    expect(to.calls[0]).toBe('open');
    expect(to.calls.at(-1)).toBe('abort');

    const calls: string[] = [];
    const broken: OnePassTarget = {
      write: async () => void calls.push('write'),
      patchHead: async () => {
        throw new Error('the disk is full');
      },
      finish: async () => ({ sizeBytes: 0 }),
      abort: async () => void calls.push('abort'),
    };
    await expect(writeSeekableWebm(chunksOf(video), async () => broken)).rejects.toThrow('the disk is full');
    expect(calls.at(-1)).toBe('abort');
  });

  it('refuses an element larger than it holds back, never holding more', async () => {
    // A cluster whose one SimpleBlock claims 40 MiB, cut off after 33 MiB of it.
    const full = await scanWebm(Readable.from(chunksOf(video)));
    const first = full.clusters[0]!;
    const blockSize = 40 * 1024 * 1024;
    // A 4-byte size vint: the 0x10 marker, then 28 bits of value.
    const size4 = Buffer.alloc(4);
    size4.writeUInt32BE(0x10000000 + blockSize);
    // The first cluster's header, its Timecode (0), and a SimpleBlock header: track 1, time 0, a keyframe.
    const big = Buffer.concat([video.subarray(0, first.dataStart), Buffer.from([0xe7, 0x81, 0x00, 0xa3]), size4, Buffer.from([0x81, 0, 0, 0x80])]);
    const to = memoryTarget();
    async function* source() {
      yield big;
      for (let sent = 0; sent < oneShotHoldBackBytes + 1024 * 1024; sent += 1024 * 1024) yield Buffer.alloc(1024 * 1024);
    }
    await expect(writeSeekableWebm(source(), to.open)).rejects.toThrow(NotWebmError);
    expect(to.calls).toEqual([]);
  });

  describe('in Chromium', () => {
    const chromium = chromiumPlayer();
    /** What a <video> of `bytes` reports: its duration once loaded, and where seeks to 3/4 and 1/4 land. */
    const play = (bytes: Buffer) => chromium.play(bytes, [0.75, 0.25]);

    it('plays the one-pass file with its duration and seeks in it, whole and cut off', async () => {
      const full = await scanWebm(Readable.from(chunksOf(video)));
      const last = full.clusters.at(-1)!;
      for (const source of [video, video.subarray(0, Math.floor((last.dataStart + last.end) / 2))]) {
        const one = await onePass(source);
        const seen = await play(one.bytes!);
        expect(seen.duration).toBeCloseTo(one.made!.scan.durationMs / 1000, 3);
        expect(seen.landed[0]).toBeCloseTo(seen.duration * 0.75, 1);
        expect(seen.landed[1]).toBeCloseTo(seen.duration * 0.25, 1);
      }
    });
  });
});
