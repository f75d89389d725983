// Writing EBML: ids, sizes and values, and the elements of a seekable WebM's head (Info with a
// Duration, SeekHead, Cues), written fixed-width where a later value must not change a length.
import { children, ids } from './ebml';
import type { WebmScan } from './scan-types';

function idLength(id: number): number {
  return id > 0xffffff ? 4 : id > 0xffff ? 3 : id > 0xff ? 2 : 1;
}

export function encodeId(id: number): Buffer {
  const length = idLength(id);
  const out = Buffer.alloc(length);
  out.writeUIntBE(id, 0, length);
  return out;
}

/** A size vint of `width` bytes (1-8), or the smallest that holds `value` when no width is given. */
export function encodeSize(value: number, width?: number): Buffer {
  let length = width ?? 1;
  // All data bits set means "unknown": a value needs a width where it is below that.
  while (value >= 2 ** (7 * length) - 1) {
    if (width !== undefined || length === 8) throw new Error(`An EBML size of ${value} does not fit in ${length} bytes`);
    length++;
  }
  const out = Buffer.alloc(length);
  let rest = value;
  for (let i = length - 1; i >= 0; i--) {
    out[i] = rest % 256;
    rest = Math.floor(rest / 256);
  }
  out[0]! |= 0x80 >> (length - 1);
  return out;
}

function encodeUint(value: number, width?: number): Buffer {
  let length = width ?? 1;
  if (width === undefined) while (length < 8 && value >= 2 ** (8 * length)) length++;
  const out = Buffer.alloc(length);
  let rest = value;
  for (let i = length - 1; i >= 0; i--) {
    out[i] = rest % 256;
    rest = Math.floor(rest / 256);
  }
  return out;
}

function element(id: number, ...data: Buffer[]): Buffer {
  const body = Buffer.concat(data);
  return Buffer.concat([encodeId(id), encodeSize(body.length), body]);
}

const uintElement = (id: number, value: number, width?: number) => element(id, encodeUint(value, width));

function floatElement(id: number, value: number): Buffer {
  const data = Buffer.alloc(8);
  data.writeDoubleBE(value);
  return element(id, data);
}

/** The Info with a Duration of `durationMs` (in TimecodeScale ticks, as an 8-byte float); a CRC-32 would no longer match. */
export function infoElement(scan: WebmScan, durationMs: number): Buffer {
  const infoChildren = scan.info ? [...children(scan.info, 0, scan.info.length)].filter((c) => c.id !== ids.duration && c.id !== ids.crc32) : [];
  const durationTicks = (durationMs * 1e6) / scan.timecodeScale;
  return element(ids.info, ...infoChildren.map((c) => scan.info!.subarray(c.start, c.dataEnd)), floatElement(ids.duration, durationTicks));
}

/** Cues at `positions` (one per cue point), written fixed-width: the size is known before the values. */
export function cuesElement(scan: WebmScan, positions: readonly number[]): Buffer {
  return element(
    ids.cues,
    ...scan.cuePoints.map((cue, i) =>
      element(ids.cuePoint, uintElement(ids.cueTime, cue.ticks), element(ids.cueTrackPositions, uintElement(ids.cueTrack, cue.track), uintElement(ids.cueClusterPosition, positions[i]!, wideUint))),
    ),
  );
}

/** A SeekHead to the Info, the Tracks and the Cues, its positions fixed-width: the same length whatever they are. */
export function seekHeadElement(infoAt: number, tracksAt: number, cuesAt: number): Buffer {
  return element(
    ids.seekHead,
    ...[
      [ids.info, infoAt],
      [ids.tracks, tracksAt],
      [ids.cues, cuesAt],
    ].map(([id, at]) => element(ids.seek, element(ids.seekId, encodeId(id!)), uintElement(ids.seekPosition, at!, wideUint))),
  );
}

/** Segment sizes and cluster sizes are written 8 bytes wide, so they never change a position. */
export const wideSize = 8;
/** SeekPosition and CueClusterPosition are written 8 bytes wide, so their values change no size. */
const wideUint = 8;
