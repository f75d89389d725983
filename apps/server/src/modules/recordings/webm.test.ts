// MediaRecorder's WebM made seekable, tested on real MediaRecorder output (test/fixtures/, made by
// record-mediarecorder.mjs in headless Chromium): the duration, the Cues, the Segment's size, a cut-off
// file, and Chromium itself playing and seeking the result. The output is read back by a small EBML
// walker of the tests' own, not by the module under test.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { pipeline } from 'node:stream/promises';
import { looksLikeWebm, NotWebmError, scanWebm } from './webm';
import { chromiumPlayer } from '../../../test/chromium-player';
import { vint } from '../../../test/ebml';
import { seekableWebm, webmScanTap } from '../../../test/webm-reference';

const fixtures = path.resolve(import.meta.dirname, '../../../test/fixtures');
const video = readFileSync(path.join(fixtures, 'mediarecorder-3s.webm'));
const audio = readFileSync(path.join(fixtures, 'mediarecorder-audio-3s.webm'));
const recorded = JSON.parse(readFileSync(path.join(fixtures, 'mediarecorder.json'), 'utf8')) as Record<string, { recordedMs: number; playedMs: number }>;

/** The bytes as a stream of `chunkSize` pieces (MediaRecorder's chunks are of any size). */
const streamOf = (bytes: Buffer, chunkSize = 64 * 1024) =>
  Readable.from(
    (function* () {
      for (let at = 0; at < bytes.length; at += chunkSize) yield bytes.subarray(at, at + chunkSize);
    })(),
  );

async function seekable(bytes: Buffer, chunkSize?: number) {
  const made = await seekableWebm(async () => streamOf(bytes, chunkSize));
  const chunks: Buffer[] = [];
  if (made.stream) for await (const chunk of made.stream) chunks.push(chunk as Buffer);
  return { ...made, bytes: Buffer.concat(chunks) };
}

// --- an independent EBML walker ---
interface El {
  id: number;
  start: number;
  dataStart: number;
  /** null: unknown size. */
  size: number | null;
}
function elementAt(b: Buffer, at: number): El {
  const id = vint(b, at, true);
  const size = vint(b, at + id.length, false);
  return { id: id.value, start: at, dataStart: at + id.length + size.length, size: size.unknown ? null : size.value };
}
function childrenOf(b: Buffer, start: number, end: number): El[] {
  const out: El[] = [];
  for (let at = start; at < end; ) {
    const el = elementAt(b, at);
    if (el.size === null) throw new Error(`unknown size inside a known-size element at ${at}`);
    out.push(el);
    at = el.dataStart + el.size;
  }
  expect(out.length ? out.at(-1)!.dataStart + out.at(-1)!.size! : start).toBe(end);
  return out;
}
const uint = (b: Buffer, el: El) => b.subarray(el.dataStart, el.dataStart + el.size!).reduce((v, byte) => v * 256 + byte, 0);
const child = (b: Buffer, parent: El, id: number) => childrenOf(b, parent.dataStart, parent.dataStart + parent.size!).find((c) => c.id === id);

/** The top-level layout of a seekable file: EBML header, one Segment of known size, and its children. */
function layout(b: Buffer) {
  const ebml = elementAt(b, 0);
  expect(ebml.id).toBe(0x1a45dfa3);
  const segment = elementAt(b, ebml.dataStart + ebml.size!);
  expect(segment.id).toBe(0x18538067);
  return { segment, top: childrenOf(b, segment.dataStart, segment.dataStart + segment.size!) };
}

/** The source's clusters' contents, for comparing with the copies (a walk of MediaRecorder's unknown sizes). */
function sourceClusterBodies(b: Buffer): Buffer[] {
  const clusterStarts: number[] = [];
  for (let at = b.indexOf(Buffer.from([0x1f, 0x43, 0xb6, 0x75])); at !== -1; at = b.indexOf(Buffer.from([0x1f, 0x43, 0xb6, 0x75]), at + 1)) clusterStarts.push(at);
  return clusterStarts.map((start, i) => b.subarray(elementAt(b, start).dataStart, clusterStarts[i + 1] ?? b.length));
}

describe('looksLikeWebm', () => {
  it("accepts MediaRecorder's files by their first bytes", () => {
    expect(looksLikeWebm(video.subarray(0, 64))).toBe(true);
    expect(looksLikeWebm(audio.subarray(0, 64))).toBe(true);
  });

  it('refuses other bytes, a Matroska DocType, and too few bytes to tell', () => {
    expect(looksLikeWebm(Buffer.from('GIF89a and then some more bytes of an image'))).toBe(false);
    expect(looksLikeWebm(Buffer.alloc(0))).toBe(false);
    expect(looksLikeWebm(video.subarray(0, 4))).toBe(false);
    const docType = Buffer.from([0x42, 0x82, 0x88, ...Buffer.from('matroska')]);
    const matroska = Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x80 | docType.length]), docType]);
    expect(looksLikeWebm(matroska)).toBe(false);
  });
});

describe('scanWebm', () => {
  it("finds what MediaRecorder leaves out: no Cues, no Duration, a Segment of unknown size; and the duration it played", async () => {
    const scan = await scanWebm(streamOf(video));
    expect(scan).toMatchObject({ originalHasCues: false, originalHasDuration: false, segmentSizeKnown: false, truncated: false, usable: true });
    expect(scan.sourceBytes).toBe(video.length);
    expect(video.readUInt32BE(scan.headerEnd)).toBe(0x1f43b675);
    // Within 100 ms of the time between start() and stop, and of how far Chromium plays the original.
    expect(Math.abs(scan.durationMs - recorded['mediarecorder-3s.webm']!.recordedMs)).toBeLessThan(100);
    expect(Math.abs(scan.durationMs - recorded['mediarecorder-3s.webm']!.playedMs)).toBeLessThan(100);
    expect(scan.tracks.map((t) => [t.type, t.codecId])).toEqual([
      [1, 'V_VP8'],
      [2, 'A_OPUS'],
    ]);
  });

  it('puts a cue at each cluster holding a video keyframe, at the keyframe', async () => {
    const scan = await scanWebm(streamOf(video));
    // The fixture has a keyframe a second, and more clusters than keyframes.
    expect(scan.cuePoints.length).toBeGreaterThanOrEqual(3);
    expect(scan.clusters.length).toBeGreaterThan(scan.cuePoints.length);
    expect(scan.cuePoints[0]!.timeMs).toBe(0);
    for (const cue of scan.cuePoints) {
      expect(cue.track).toBe(1);
      expect(video.readUInt32BE(cue.clusterOffset)).toBe(0x1f43b675);
    }
    expect(scan.cuePoints.map((c) => c.timeMs)).toEqual([...scan.cuePoints.map((c) => c.timeMs)].sort((a, b) => a - b));
  });

  it('puts a cue at every cluster of an audio-only file', async () => {
    const scan = await scanWebm(streamOf(audio));
    expect(scan.cuePoints.map((c) => c.clusterOffset)).toEqual(scan.clusters.map((c) => c.offset));
    expect(Math.abs(scan.durationMs - recorded['mediarecorder-audio-3s.webm']!.recordedMs)).toBeLessThan(100);
  });

  it('reads the same whatever the chunks the bytes come in', async () => {
    const whole = await scanWebm(streamOf(video, video.length));
    const bytewise = await scanWebm(streamOf(video, 7));
    expect({ ...bytewise, ebmlHeader: null }).toEqual({ ...whole, ebmlHeader: null });
  });

  it('refuses what is not a WebM', async () => {
    await expect(scanWebm(streamOf(Buffer.from('not a video at all, just some text')))).rejects.toThrow(NotWebmError);
    await expect(scanWebm(streamOf(Buffer.alloc(0)))).rejects.toThrow(NotWebmError);
  });
});

describe('webmScanTap', () => {
  it('scans the bytes as they stream past, passing them on unchanged; seekableWebm then reads the source once', async () => {
    const { tap, scan } = webmScanTap();
    const passed: Buffer[] = [];
    await pipeline(streamOf(video, 1000), tap, async (source: AsyncIterable<Buffer>) => {
      for await (const chunk of source) passed.push(chunk);
    });
    expect(Buffer.concat(passed).equals(video)).toBe(true);
    expect({ ...scan(), ebmlHeader: null }).toEqual({ ...(await scanWebm(streamOf(video))), ebmlHeader: null });

    let opened = 0;
    const made = await seekableWebm(async () => {
      opened++;
      return streamOf(video);
    }, scan());
    const out: Buffer[] = [];
    for await (const chunk of made.stream!) out.push(chunk as Buffer);
    expect(opened).toBe(1);
    expect(Buffer.concat(out).equals((await seekable(video)).bytes)).toBe(true);
  });

  it('passes on what is not a WebM too, and says so once it has passed', async () => {
    const { tap, scan } = webmScanTap();
    const bytes = Buffer.from('plain text, not a video, long enough to be read as a header');
    const passed: Buffer[] = [];
    await pipeline(streamOf(bytes, 10), tap, async (source: AsyncIterable<Buffer>) => {
      for await (const chunk of source) passed.push(chunk);
    });
    expect(Buffer.concat(passed).equals(bytes)).toBe(true);
    expect(() => scan()).toThrow(NotWebmError);
  });
});

describe('seekableWebm', () => {
  it('writes a Segment of known size with a SeekHead, a Duration, Cues at clusters, and the clusters as they were', async () => {
    const out = await seekable(video);
    expect(out.passedThrough).toBe(false);
    expect(out.bytes.length).toBe(out.sizeBytes);
    const { segment, top } = layout(out.bytes);
    // The Segment's size is exactly the bytes after its header.
    expect(segment.size).toBe(out.bytes.length - segment.dataStart);
    expect(top.map((e) => e.id).slice(0, 4)).toEqual([0x114d9b74, 0x1549a966, 0x1654ae6b, 0x1c53bb6b]);

    // The SeekHead points at the Info, the Tracks and the Cues.
    const seekHead = top[0]!;
    for (const seek of childrenOf(out.bytes, seekHead.dataStart, seekHead.dataStart + seekHead.size!)) {
      const id = child(out.bytes, seek, 0x53ab)!;
      const position = uint(out.bytes, child(out.bytes, seek, 0x53ac)!);
      expect(out.bytes.readUInt32BE(segment.dataStart + position)).toBe(uint(out.bytes, id));
    }

    // The Duration, in TimecodeScale units (ms), equals the scan's.
    const info = top[1]!;
    const duration = child(out.bytes, info, 0x4489)!;
    const durationMs = out.bytes.readDoubleBE(duration.dataStart);
    expect(durationMs).toBe(out.scan.durationMs);
    expect(Math.abs(durationMs - recorded['mediarecorder-3s.webm']!.recordedMs)).toBeLessThan(100);

    // Every cue points at a Cluster, whose timecode is at or before the cue's time.
    const cues = top[3]!;
    const points = childrenOf(out.bytes, cues.dataStart, cues.dataStart + cues.size!);
    expect(points.length).toBe(out.scan.cuePoints.length);
    for (const point of points) {
      const time = uint(out.bytes, child(out.bytes, point, 0xb3)!);
      const positions = child(out.bytes, point, 0xb7)!;
      expect(uint(out.bytes, child(out.bytes, positions, 0xf7)!)).toBe(1);
      const at = segment.dataStart + uint(out.bytes, child(out.bytes, positions, 0xf1)!);
      expect(out.bytes.subarray(at, at + 4)).toEqual(Buffer.from([0x1f, 0x43, 0xb6, 0x75]));
      expect(uint(out.bytes, child(out.bytes, elementAt(out.bytes, at), 0xe7)!)).toBeLessThanOrEqual(time);
    }

    // The clusters follow, each of known size, their contents byte for byte the source's.
    const clusters = top.filter((e) => e.id === 0x1f43b675);
    expect(top.slice(4)).toEqual(clusters);
    const sourceBodies = sourceClusterBodies(video);
    expect(clusters.length).toBe(sourceBodies.length);
    clusters.forEach((c, i) => expect(out.bytes.subarray(c.dataStart, c.dataStart + c.size!).equals(sourceBodies[i]!)).toBe(true));
    // The Tracks are unchanged.
    const tracks = top[2]!;
    expect(video.includes(out.bytes.subarray(tracks.start, tracks.dataStart + tracks.size!))).toBe(true);
  });

  it('gives the same bytes whatever the chunks the source comes in', async () => {
    const whole = await seekable(video, video.length);
    const bytewise = await seekable(video, 5);
    expect(bytewise.bytes.equals(whole.bytes)).toBe(true);
  });

  it('passes a file that already has Cues and a Duration through unchanged', async () => {
    const once = await seekable(video);
    const twice = await seekable(once.bytes);
    expect(twice.passedThrough).toBe(true);
    expect(twice.bytes.equals(once.bytes)).toBe(true);
  });

  it("keeps what was complete of a file cut off mid-cluster, as a crashed browser's upload is", async () => {
    const full = await scanWebm(streamOf(video));
    const last = full.clusters.at(-1)!;
    // Cut in the middle of the last cluster's blocks.
    const cut = video.subarray(0, Math.floor((last.dataStart + last.end) / 2));
    const out = await seekable(cut);
    expect(out.scan.truncated).toBe(true);
    const { segment, top } = layout(out.bytes);
    expect(segment.size).toBe(out.bytes.length - segment.dataStart);
    const clusters = top.filter((e) => e.id === 0x1f43b675);
    // Every complete cluster, and the last one's complete blocks.
    expect(clusters.length).toBe(full.clusters.length);
    const kept = out.bytes.subarray(clusters.at(-1)!.dataStart, clusters.at(-1)!.dataStart + clusters.at(-1)!.size!);
    expect(cut.subarray(last.dataStart).subarray(0, kept.length).equals(kept)).toBe(true);
    expect(kept.length).toBeLessThanOrEqual(cut.length - last.dataStart);
    expect(kept.length).toBeGreaterThan(cut.length - last.dataStart - 2048);
    // Shorter than the whole, longer than the complete clusters.
    expect(out.scan.durationMs).toBeLessThan(full.durationMs);
    expect(out.scan.durationMs).toBeGreaterThan(last.timecode);
    // And reading the result again finds it whole.
    const again = await scanWebm(streamOf(out.bytes));
    expect(again).toMatchObject({ truncated: false, originalHasCues: true, originalHasDuration: true, durationMs: out.scan.durationMs });
  });

  it('drops a last cluster cut off before its first complete block', async () => {
    const full = await scanWebm(streamOf(video));
    const last = full.clusters.at(-1)!;
    const out = await seekable(video.subarray(0, last.dataStart + 10));
    expect(layout(out.bytes).top.filter((e) => e.id === 0x1f43b675).length).toBe(full.clusters.length - 1);
  });

  it('has nothing to write for a file cut off before its first cluster', async () => {
    const full = await scanWebm(streamOf(video));
    const out = await seekable(video.subarray(0, full.headerEnd + 20));
    expect(out).toMatchObject({ stream: null, sizeBytes: 0 });
    expect(out.scan.usable).toBe(false);
  });

  describe('in Chromium', () => {
    const chromium = chromiumPlayer();
    /** What a <video> of `bytes` reports: its duration once loaded, and where a seek to the middle lands. */
    async function play(bytes: Buffer) {
      const { duration, landed } = await chromium.play(bytes, [0.5]);
      return { duration, landed: landed[0]! };
    }

    it('plays the rewritten file with a finite duration and seeks to its middle', async () => {
      const out = await seekable(video);
      const seen = await play(out.bytes);
      expect(seen.duration).toBeCloseTo(out.scan.durationMs / 1000, 3);
      expect(seen.landed).toBeCloseTo(seen.duration / 2, 1);
    });

    it('plays the rewritten cut-off file too', async () => {
      const full = await scanWebm(streamOf(video));
      const last = full.clusters.at(-1)!;
      const out = await seekable(video.subarray(0, Math.floor((last.dataStart + last.end) / 2)));
      const seen = await play(out.bytes);
      expect(seen.duration).toBeCloseTo(out.scan.durationMs / 1000, 3);
      expect(seen.landed).toBeCloseTo(seen.duration / 2, 1);
    });
  });
});
