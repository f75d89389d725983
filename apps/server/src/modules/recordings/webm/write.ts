// Writing the seekable WebM in one pass over the source: the clusters are written as they arrive, the
// Cues after them, and the head (Segment size, SeekHead, Duration) is patched in place.
import type { PatchableWriter } from '../storage';
import { ids, NotWebmError } from './ebml';
import { cuesElement, encodeId, encodeSize, infoElement, seekHeadElement, wideSize } from './encode';
import { ScanFeed } from './scan';
import type { WebmScan } from './scan-types';

/** A cluster's header in the one-pass output: its id and an 8-byte "unknown" size, as MediaRecorder writes it. */
const unknownSizeClusterHeader = Buffer.from([0x1f, 0x43, 0xb6, 0x75, 0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);

/**
 * The most source bytes held back at once: an element whose end has not come yet (one block, or a
 * BlockGroup) is held until it is complete, since a source cut off inside it must not give its start.
 * A block this large is no recording's (a 4K keyframe is a few MB): such a file is refused.
 */
export const oneShotHoldBackBytes = 32 * 1024 * 1024;

/** Where the one-pass output's patched fields are, and the values they get at the end. */
interface OnePassHead {
  bytes: Buffer;
  /** Offset of the Segment's first child in the output. */
  segmentDataStart: number;
  infoAt: number;
  tracksAt: number;
}

function onePassHead(scan: WebmScan, values: { segmentDataLength: number; cuesAt: number; durationMs: number }): OnePassHead {
  const info = infoElement(scan, values.durationMs);
  const seekHeadLength = seekHeadElement(0, 0, 0).length;
  const infoAt = seekHeadLength;
  const tracksAt = infoAt + info.length;
  const segmentHeader = Buffer.concat([encodeId(ids.segment), encodeSize(values.segmentDataLength, wideSize)]);
  const bytes = Buffer.concat([
    scan.ebmlHeader,
    segmentHeader,
    seekHeadElement(infoAt, tracksAt, values.cuesAt),
    info,
    scan.tracksElement ?? Buffer.alloc(0),
    ...scan.otherHeaderElements,
  ]);
  return { bytes, segmentDataStart: scan.ebmlHeader.length + segmentHeader.length, infoAt, tracksAt };
}

export interface WrittenWebm {
  scan: WebmScan;
  /** The bytes written. */
  sizeBytes: number;
  /** Where each cue points in the output, relative to the Segment's data (the CueClusterPosition). */
  cuePositions: number[];
}

/** What writeSeekableWebm writes to: a storage's PatchableWriter, opened once there is something to write. */
export type OnePassTarget = PatchableWriter;

/**
 * Writes the seekable WebM of `source` in one pass over it, each byte read once and written once: the
 * EBML header; a Segment whose 8-byte size is a placeholder; a SeekHead (to Info, Tracks and Cues,
 * fixed-width positions); the Info with a Duration placeholder (an 8-byte float); the Tracks and any
 * Tags or Chapters as they were — all known once the first cluster holds a complete block, so only
 * the small header is held until then. Then each cluster's contents, byte for byte as they arrive,
 * after an 8-byte unknown-size Cluster header (MediaRecorder's own: a cluster ends where the next
 * top-level element begins), and, after the last cluster, the Cues (Matroska allows them at the end;
 * the SeekHead points at them). Last the head is patched in place, the same length: the Segment's
 * size, the Cues' position, the Duration.
 *
 * What it keeps and drops: clusters without a complete block, elements after the first cluster that
 * are not clusters (old Cues, Voids), and whatever follows the last complete element of a cut-off or
 * garbled source are left out (an element being read is held back until it ends, at most
 * oneShotHoldBackBytes). `open` is called once the head is known, with its length
 * (what patchHead rewrites), and never for a source with no complete block; then it resolves null,
 * having written nothing (an opened target is aborted when the file turned out unplayable, with no
 * Tracks). Throws NotWebmError when the start is not a WebM; on any failure the target is aborted.
 */
export async function writeSeekableWebm(source: AsyncIterable<Buffer | Uint8Array> | Iterable<Buffer | Uint8Array>, open: (headBytes: number) => Promise<OnePassTarget>): Promise<WrittenWebm | null> {
  /** Source bytes that may still be copied: chunks from `pendingStart` on. */
  const pending: Buffer[] = [];
  let pendingStart = 0;
  let fed = 0;
  /** Output pieces made by the scan of the current chunk, in order. */
  let out: Buffer[] = [];
  let outLength = 0;
  let head: OnePassHead | null = null;
  /** Each emitted cluster's position in the output, relative to the Segment's data, by its source offset. */
  const clusterAt = new Map<number, number>();

  const emit = (piece: Buffer) => {
    out.push(piece);
    outLength += piece.length;
  };
  /** Source bytes from..to, out of the pending chunks (never copied: slices of them). */
  const copy = (from: number, to: number) => {
    let at = pendingStart;
    for (const chunk of pending) {
      const chunkEnd = at + chunk.length;
      if (chunkEnd > from && at < to) emit(chunk.subarray(Math.max(from, at) - at, Math.min(to, chunkEnd) - at));
      if (chunkEnd >= to) return;
      at = chunkEnd;
    }
    throw new Error(`Source bytes ${from}..${to} were dropped before they were copied`);
  };
  const feed = new ScanFeed((clusterStart, from, to, first) => {
    if (!head) {
      head = onePassHead(feed.partial, { segmentDataLength: 0, cuesAt: 0, durationMs: 0 });
      emit(head.bytes);
    }
    if (first) {
      clusterAt.set(clusterStart, outLength - head.segmentDataStart);
      emit(unknownSizeClusterHeader);
    }
    copy(from, to);
  });

  // Set in callbacks: held in an object, so that the compiler does not narrow them to their first value.
  const opened: { target: OnePassTarget | null; opening: Promise<OnePassTarget> | null } = { target: null, opening: null };
  const flush = async () => {
    if (!out.length) return;
    const pieces = out;
    out = [];
    const target = (opened.target ??= await (opened.opening ??= open(head!.bytes.length)));
    for (const piece of pieces) await target.write(piece);
  };
  /** Drops the chunks no later copy needs. */
  const trim = () => {
    const keepFrom = Math.min(feed.retainFrom, fed);
    while (pending.length && pendingStart + pending[0]!.length <= keepFrom) pendingStart += pending.shift()!.length;
    if (fed - pendingStart > oneShotHoldBackBytes) throw new NotWebmError(`an element of more than ${oneShotHoldBackBytes} bytes is not a recording's`);
  };

  try {
    for await (const raw of source) {
      const chunk = Buffer.isBuffer(raw) ? raw : Buffer.from(raw.buffer, raw.byteOffset, raw.length);
      if (!chunk.length) continue;
      pending.push(chunk);
      fed += chunk.length;
      feed.push(chunk);
      trim();
      await flush();
    }
    const scan = feed.finish();
    await flush();
    if (!head || !scan.usable) {
      await opened.target?.abort();
      return null;
    }
    const written: OnePassHead = head;
    const cuePositions = scan.cuePoints.map((cue) => clusterAt.get(cue.clusterOffset)!);
    const cuesAt = outLength - written.segmentDataStart;
    emit(cuesElement(scan, cuePositions));
    await flush();
    const final = onePassHead(scan, { segmentDataLength: outLength - written.segmentDataStart, cuesAt, durationMs: scan.durationMs });
    if (final.bytes.length !== written.bytes.length) throw new Error('The WebM head changed length between its first write and its patch');
    await opened.target!.patchHead(final.bytes);
    const { sizeBytes } = await opened.target!.finish();
    return { scan, sizeBytes, cuePositions };
  } catch (error) {
    const target = opened.target ?? (await opened.opening?.catch(() => null));
    await target?.abort().catch(() => {});
    throw error;
  }
}
