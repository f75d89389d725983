// EBML in brief (RFC 8794, Matroska's element ids): an element is an id (a vint of 1-4 bytes, its
// length marker kept), a size (a vint of 1-8 bytes, marker removed; all ones = unknown) and its data.
// Here: the ids a WebM uses, reading vints, elements and values held in a buffer, and the header
// elements the scan keeps whole (EBML header, Info, Tracks).
import type { WebmScan, WebmTrack } from './scan-types';

export const ids = {
  ebml: 0x1a45dfa3,
  docType: 0x4282,
  segment: 0x18538067,
  seekHead: 0x114d9b74,
  seek: 0x4dbb,
  seekId: 0x53ab,
  seekPosition: 0x53ac,
  info: 0x1549a966,
  timecodeScale: 0x2ad7b1,
  duration: 0x4489,
  tracks: 0x1654ae6b,
  trackEntry: 0xae,
  trackNumber: 0xd7,
  trackType: 0x83,
  codecId: 0x86,
  defaultDuration: 0x23e383,
  cluster: 0x1f43b675,
  timecode: 0xe7,
  position: 0xa7,
  prevSize: 0xab,
  simpleBlock: 0xa3,
  blockGroup: 0xa0,
  block: 0xa1,
  referenceBlock: 0xfb,
  blockDuration: 0x9b,
  encryptedBlock: 0xaf,
  silentTracks: 0x5854,
  cues: 0x1c53bb6b,
  cuePoint: 0xbb,
  cueTime: 0xb3,
  cueTrackPositions: 0xb7,
  cueTrack: 0xf7,
  cueClusterPosition: 0xf1,
  tags: 0x1254c367,
  chapters: 0x1043a770,
  void: 0xec,
  crc32: 0xbf,
} as const;

/** The ids a Cluster may contain: any other id ends a cluster of unknown size. */
export function isClusterChild(id: number): boolean {
  switch (id) {
    case ids.timecode:
    case ids.position:
    case ids.prevSize:
    case ids.simpleBlock:
    case ids.blockGroup:
    case ids.encryptedBlock:
    case ids.silentTracks:
    case ids.void:
    case ids.crc32:
      return true;
    default:
      return false;
  }
}

export const defaultTimecodeScale = 1_000_000;

/**
 * Whether the first bytes of a file are a WebM's: the EBML magic 1A 45 DF A3 and a DocType of 'webm'
 * in its header. Give it at least the first 64 bytes (the whole EBML header; MediaRecorder's is 40).
 */
export function looksLikeWebm(firstBytes: Buffer): boolean {
  if (firstBytes.length < 5 || firstBytes.readUInt32BE(0) !== ids.ebml) return false;
  const size = readVint(firstBytes, 4, false);
  if (!size || size.value === null) return false;
  const end = Math.min(firstBytes.length, 4 + size.length + size.value);
  for (const child of children(firstBytes, 4 + size.length, end)) {
    if (child.id === ids.docType) return firstBytes.toString('latin1', child.dataStart, child.dataEnd).replace(/\0+$/, '') === 'webm';
  }
  return false;
}

/** The source is not a WebM at all (no EBML header with DocType webm, or no Segment after it). */
export class NotWebmError extends Error {
  constructor(reason: string) {
    super(`Not a WebM file: ${reason}`);
  }
}

interface Vint {
  /** The value; null for the reserved "unknown size" (all data bits set). */
  value: number | null;
  length: number;
}

/** The vint at `at`, or null when the bytes are not one (or run past the end). `keepMarker` for ids. */
export function readVint(buffer: Buffer, at: number, keepMarker: boolean, maxLength = 8): Vint | null {
  if (at >= buffer.length) return null;
  const first = buffer[at]!;
  const length = vintLength(first);
  if (length === 0 || length > maxLength || at + length > buffer.length) return null;
  let value = keepMarker ? first : first & (0xff >> length);
  let allOnes = value === 0xff >> length;
  for (let i = 1; i < length; i++) {
    const byte = buffer[at + i]!;
    value = value * 256 + byte;
    allOnes &&= byte === 0xff;
  }
  if (!keepMarker && allOnes) return { value: null, length };
  if (!Number.isSafeInteger(value)) return null;
  return { value, length };
}

/** How many bytes a vint starting with `first` has (0: not a vint). */
export function vintLength(first: number): number {
  for (let length = 1; length <= 8; length++) if (first & (0x80 >> (length - 1))) return length;
  return 0;
}

interface Child {
  id: number;
  start: number;
  dataStart: number;
  dataEnd: number;
}

/** The children of a master element held in memory, stopping at the first one that does not fit. */
export function* children(buffer: Buffer, start: number, end: number): Generator<Child> {
  let at = start;
  while (at < end) {
    const id = readVint(buffer, at, true, 4);
    const size = id && readVint(buffer, at + id.length, false);
    if (!id || !size || size.value === null) return;
    const dataStart = at + id.length + size.length;
    const dataEnd = dataStart + size.value;
    if (dataEnd > end) return;
    yield { id: id.value!, start: at, dataStart, dataEnd };
    at = dataEnd;
  }
}

export function readUint(buffer: Buffer, start: number, end: number): number {
  let value = 0;
  for (let i = start; i < end; i++) value = value * 256 + buffer[i]!;
  return value;
}

function readFloat(buffer: Buffer, start: number, end: number): number | null {
  if (end - start === 4) return buffer.readFloatBE(start);
  if (end - start === 8) return buffer.readDoubleBE(start);
  return null;
}

export function readInfo(data: Buffer, result: WebmScan) {
  result.info = data;
  for (const child of children(data, 0, data.length)) {
    if (child.id === ids.timecodeScale) result.timecodeScale = readUint(data, child.dataStart, child.dataEnd) || defaultTimecodeScale;
    if (child.id === ids.duration) {
      const duration = readFloat(data, child.dataStart, child.dataEnd);
      result.originalHasDuration = duration !== null && Number.isFinite(duration) && duration > 0;
    }
  }
}

export function readTracks(data: Buffer): WebmTrack[] {
  const tracks: WebmTrack[] = [];
  for (const entry of children(data, 0, data.length)) {
    if (entry.id !== ids.trackEntry) continue;
    const track: WebmTrack = { number: 0, type: 0, codecId: '', defaultDurationNs: null };
    for (const field of children(data, entry.dataStart, entry.dataEnd)) {
      if (field.id === ids.trackNumber) track.number = readUint(data, field.dataStart, field.dataEnd);
      else if (field.id === ids.trackType) track.type = readUint(data, field.dataStart, field.dataEnd);
      else if (field.id === ids.codecId) track.codecId = data.toString('latin1', field.dataStart, field.dataEnd);
      else if (field.id === ids.defaultDuration) track.defaultDurationNs = readUint(data, field.dataStart, field.dataEnd) || null;
    }
    if (track.number) tracks.push(track);
  }
  return tracks;
}
