// WebM as MediaRecorder writes it, made seekable. Chromium's MediaRecorder writes a live stream: a
// Segment of unknown size, an Info without Duration, no Cues, Clusters of unknown size. Players show
// such a file with no length and cannot seek in it (or seek by reading everything before the target).
// This module reads a WebM in one streaming pass (scanWebm) and writes it again (seekableWebm) with a
// Segment of known size, a SeekHead, a Duration, and Cues pointing at the clusters that start a
// keyframe, followed by the clusters' contents copied byte for byte.
//
// Memory stays bounded whatever the file's size: the reader holds one chunk of the source at a time
// (plus the few bytes of the element header it is reading); block payloads are skipped, never kept.
// What is kept is the small header (EBML, Info, Tracks, Tags) and one entry per cluster, which the
// Cues need anyway. The source is opened twice — once to scan, once to copy — so nothing is buffered
// between the passes and the output's size is known before its first byte is written.
//
// A source cut off part-way (a crashed browser's last chunk, a lost upload) is read up to its last
// complete element: the last cluster keeps its complete blocks, and the rest is dropped. Bytes that
// are not EBML where an element should start end the file the same way.
//
// EBML in brief (RFC 8794, Matroska's element ids): an element is an id (a vint of 1-4 bytes, its
// length marker kept), a size (a vint of 1-8 bytes, marker removed; all ones = unknown) and its data.
import { Readable } from 'node:stream';

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
const clusterChildren = new Set<number>([
  ids.timecode,
  ids.position,
  ids.prevSize,
  ids.simpleBlock,
  ids.blockGroup,
  ids.encryptedBlock,
  ids.silentTracks,
  ids.void,
  ids.crc32,
]);

/** Header elements kept whole in memory; anything this large is not a header MediaRecorder writes. */
const headerElementMaxBytes = 1024 * 1024;
const defaultTimecodeScale = 1_000_000;

const trackTypes = { video: 1, audio: 2 } as const;

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

// ---------------------------------------------------------------------------------------------------
// Vints and elements in a buffer

interface Vint {
  /** The value; null for the reserved "unknown size" (all data bits set). */
  value: number | null;
  length: number;
}

/** The vint at `at`, or null when the bytes are not one (or run past the end). `keepMarker` for ids. */
function readVint(buffer: Buffer, at: number, keepMarker: boolean, maxLength = 8): Vint | null {
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
function vintLength(first: number): number {
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
function* children(buffer: Buffer, start: number, end: number): Generator<Child> {
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

function readUint(buffer: Buffer, start: number, end: number): number {
  let value = 0;
  for (let i = start; i < end; i++) value = value * 256 + buffer[i]!;
  return value;
}

function readFloat(buffer: Buffer, start: number, end: number): number | null {
  if (end - start === 4) return buffer.readFloatBE(start);
  if (end - start === 8) return buffer.readDoubleBE(start);
  return null;
}

// ---------------------------------------------------------------------------------------------------
// A forward-only reader over a stream

/**
 * Reads a stream front to back: small reads are gathered into one buffer, skips and copies pass the
 * stream's own chunks through without gathering them.
 */
class StreamReader {
  private readonly chunks: AsyncIterator<unknown>;
  private buffer: Buffer = Buffer.alloc(0);
  private ended = false;
  /** The offset in the stream of buffer[0]. */
  position = 0;

  constructor(source: Readable) {
    this.chunks = source[Symbol.asyncIterator]();
  }

  private async pull(): Promise<boolean> {
    if (this.ended) return false;
    const next = await this.chunks.next();
    if (next.done) {
      this.ended = true;
      return false;
    }
    const chunk = Buffer.isBuffer(next.value) ? next.value : Buffer.from(next.value as Uint8Array);
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    return true;
  }

  /** Whether `n` bytes are available (false: the stream ends before). */
  async has(n: number): Promise<boolean> {
    while (this.buffer.length < n) if (!(await this.pull())) return false;
    return true;
  }

  /** Whether the stream has no byte left. */
  async atEnd(): Promise<boolean> {
    return !(await this.has(1));
  }

  /** The next `n` bytes without consuming them; call has(n) first. */
  peek(n: number): Buffer {
    return this.buffer.subarray(0, n);
  }

  /** Consumes and answers `n` bytes; call has(n) first. */
  take(n: number): Buffer {
    const out = this.buffer.subarray(0, n);
    this.buffer = this.buffer.subarray(n);
    this.position += n;
    return out;
  }

  /** Consumes up to `n` bytes, keeping none; answers how many there were. */
  async skip(n: number): Promise<number> {
    let left = n;
    while (left > 0) {
      if (!this.buffer.length && !(await this.pull())) break;
      const step = Math.min(left, this.buffer.length);
      this.buffer = this.buffer.subarray(step);
      this.position += step;
      left -= step;
    }
    return n - left;
  }

  /** The next `n` bytes as the stream's own pieces; throws when the stream ends before. */
  async *copy(n: number): AsyncGenerator<Buffer> {
    let left = n;
    while (left > 0) {
      if (!this.buffer.length && !(await this.pull())) throw new Error(`The source ended ${left} bytes early`);
      const piece = this.take(Math.min(left, this.buffer.length));
      left -= piece.length;
      yield piece;
    }
  }

  async close() {
    await this.chunks.return?.();
  }
}

interface ElementHeader {
  id: number;
  /** Offset of the id's first byte. */
  start: number;
  dataStart: number;
  /** null: unknown size. */
  size: number | null;
  /** The id and size bytes as they were. */
  raw: Buffer;
}

/** Why reading an element header stopped: the stream ended cleanly, part-way, or the bytes are not EBML. */
type HeaderResult = ElementHeader | 'end' | 'truncated' | 'invalid';

async function readHeader(reader: StreamReader): Promise<HeaderResult> {
  if (!(await reader.has(1))) return 'end';
  const idLength = vintLength(reader.peek(1)[0]!);
  if (idLength === 0 || idLength > 4) return 'invalid';
  if (!(await reader.has(idLength + 1))) return 'truncated';
  const sizeLength = vintLength(reader.peek(idLength + 1)[idLength]!);
  if (sizeLength === 0) return 'invalid';
  if (!(await reader.has(idLength + sizeLength))) return 'truncated';
  const bytes = reader.peek(idLength + sizeLength);
  const id = readVint(bytes, 0, true, 4);
  const size = readVint(bytes, idLength, false);
  if (!id || !size) return 'invalid';
  const start = reader.position;
  const raw = Buffer.from(reader.take(idLength + sizeLength));
  return { id: id.value!, start, dataStart: reader.position, size: size.value, raw };
}

// ---------------------------------------------------------------------------------------------------
// The scan

export interface WebmTrack {
  number: number;
  /** 1 video, 2 audio (Matroska TrackType). */
  type: number;
  codecId: string;
  /** DefaultDuration in nanoseconds, when the file gives it. */
  defaultDurationNs: number | null;
}

export interface WebmCluster {
  /** Offset of the Cluster's id in the source. */
  offset: number;
  /** Offset of its first child. */
  dataStart: number;
  /** Where its last complete child ends (its end, unless the source was cut off inside it). */
  end: number;
  /** Its Timecode, in TimecodeScale ticks. */
  timecode: number;
}

export interface WebmCuePoint {
  timeMs: number;
  /** The cue's time in TimecodeScale ticks (CueTime). */
  ticks: number;
  track: number;
  /** Offset of the cluster's id in the source. */
  clusterOffset: number;
}

export interface WebmScan {
  /** The EBML header element, as it was (small). */
  ebmlHeader: Buffer;
  /** Offset of the Segment's first child, where Segment positions count from. */
  segmentDataStart: number;
  segmentSizeKnown: boolean;
  /** Offset of the first Cluster (the source's length when it has none). */
  headerEnd: number;
  timecodeScale: number;
  /** Last block's timestamp plus one frame. */
  durationMs: number;
  /** The Info's children, as they were (Duration among them when the source had one). */
  info: Buffer | null;
  /** The whole Tracks element, as it was. */
  tracksElement: Buffer | null;
  /** Tags and Chapters elements before the first cluster, as they were. */
  otherHeaderElements: Buffer[];
  tracks: WebmTrack[];
  /** The clusters with at least one complete block, in order. */
  clusters: WebmCluster[];
  /** One per cluster holding a video keyframe (every cluster of an audio-only file). */
  cuePoints: WebmCuePoint[];
  originalHasCues: boolean;
  originalHasDuration: boolean;
  /** The source ended inside an element, or held bytes that are not EBML (the rest was ignored). */
  truncated: boolean;
  /** Bytes read from the source. */
  sourceBytes: number;
  /** Playable: Tracks and at least one complete block. */
  usable: boolean;
}

/** The source is not a WebM at all (no EBML header with DocType webm, or no Segment after it). */
export class NotWebmError extends Error {
  constructor(reason: string) {
    super(`Not a WebM file: ${reason}`);
  }
}

interface TrackState {
  lastTicks: number;
  previousTicks: number | null;
  lastBlockDuration: number | null;
}

/**
 * Reads a WebM from `source` in one pass and answers what seekableWebm needs: where the header ends,
 * the clusters, the cue points and the duration. Throws NotWebmError when the start is not a WebM;
 * a source that ends early or turns to garbage part-way is read up to its last complete block. The
 * source is consumed (and closed) by the scan.
 */
export async function scanWebm(source: Readable): Promise<WebmScan> {
  const reader = new StreamReader(source);
  try {
    return await scan(reader);
  } finally {
    await reader.close();
    source.destroy();
  }
}

async function scan(reader: StreamReader): Promise<WebmScan> {
  const ebml = await readHeader(reader);
  if (typeof ebml === 'string' || ebml.id !== ids.ebml || ebml.size === null || ebml.size > 4096) throw new NotWebmError('no EBML header');
  if (!(await reader.has(ebml.size))) throw new NotWebmError('the EBML header is cut off');
  const ebmlData = reader.take(ebml.size);
  const docType = [...children(ebmlData, 0, ebmlData.length)].find((c) => c.id === ids.docType);
  if (!docType || ebmlData.toString('latin1', docType.dataStart, docType.dataEnd).replace(/\0+$/, '') !== 'webm') {
    throw new NotWebmError("the DocType is not 'webm'");
  }
  const ebmlHeader = Buffer.concat([ebml.raw, ebmlData]);

  const segment = await readHeader(reader);
  if (typeof segment === 'string' || segment.id !== ids.segment) throw new NotWebmError('no Segment');

  const result: WebmScan = {
    ebmlHeader,
    segmentDataStart: segment.dataStart,
    segmentSizeKnown: segment.size !== null,
    headerEnd: 0,
    timecodeScale: defaultTimecodeScale,
    durationMs: 0,
    info: null,
    tracksElement: null,
    otherHeaderElements: [],
    tracks: [],
    clusters: [],
    cuePoints: [],
    originalHasCues: false,
    originalHasDuration: false,
    truncated: false,
    sourceBytes: 0,
    usable: false,
  };
  const segmentEnd = segment.size === null ? Infinity : segment.dataStart + segment.size;
  const trackStates = new Map<number, TrackState>();
  let hasVideo = false;
  let next: HeaderResult | null = null;
  const firstBlockCues: WebmCuePoint[] = [];

  while (reader.position < segmentEnd) {
    const header: HeaderResult = next ?? (await readHeader(reader));
    next = null;
    if (header === 'end') break;
    if (header === 'truncated' || header === 'invalid') {
      result.truncated = true;
      break;
    }
    if (header.id === ids.cluster) {
      if (!result.headerEnd) {
        result.headerEnd = header.start;
        hasVideo = result.tracks.some((t) => t.type === trackTypes.video);
      }
      const outcome = await scanCluster(reader, header, { trackStates, hasVideo, result, firstBlockCues });
      if (outcome.stop) {
        result.truncated ||= outcome.truncated;
        break;
      }
      next = outcome.next;
      continue;
    }
    // A second EBML header or Segment (a recorder restarted), or an unknown-sized element other than a
    // Cluster: not something a single segment's file holds. The file ends here.
    if (header.size === null || header.id === ids.ebml || header.id === ids.segment) {
      result.truncated = true;
      break;
    }
    const beforeClusters = !result.headerEnd;
    const keep =
      beforeClusters &&
      header.size <= headerElementMaxBytes &&
      (header.id === ids.info || header.id === ids.tracks || header.id === ids.tags || header.id === ids.chapters);
    if (header.id === ids.cues) result.originalHasCues = true;
    if (keep) {
      if (!(await reader.has(header.size))) {
        result.truncated = true;
        break;
      }
      const data = reader.take(header.size);
      if (header.id === ids.info) readInfo(Buffer.from(data), result);
      else if (header.id === ids.tracks) {
        result.tracksElement = Buffer.concat([header.raw, data]);
        result.tracks = readTracks(result.tracksElement.subarray(header.raw.length));
      } else result.otherHeaderElements.push(Buffer.concat([header.raw, data]));
    } else if ((await reader.skip(header.size)) < header.size) {
      result.truncated = true;
      break;
    }
  }
  // The length of a complete source (a pass-through copies it whole); a truncated one is not read on.
  if (!result.truncated) await reader.skip(Number.MAX_SAFE_INTEGER);
  result.sourceBytes = reader.position;
  if (!result.headerEnd) result.headerEnd = result.sourceBytes;
  // Video whose keyframes could not be told (no keyframe flag anywhere): a cue at every cluster.
  if (!result.cuePoints.length) result.cuePoints = firstBlockCues;

  // Duration: the latest block plus one frame of its track (its BlockDuration, the track's
  // DefaultDuration, or the gap to the block before it).
  let endTicks = 0;
  for (const [number, state] of trackStates) {
    const track = result.tracks.find((t) => t.number === number);
    const frame =
      state.lastBlockDuration ??
      (track?.defaultDurationNs ? track.defaultDurationNs / result.timecodeScale : null) ??
      (state.previousTicks !== null ? state.lastTicks - state.previousTicks : 0);
    endTicks = Math.max(endTicks, state.lastTicks + Math.max(0, frame));
  }
  result.durationMs = ticksToMs(endTicks, result.timecodeScale);
  result.usable = result.tracksElement !== null && result.clusters.length > 0;
  return result;
}

const ticksToMs = (ticks: number, timecodeScale: number) => (ticks * timecodeScale) / 1e6;

function idLength(id: number): number {
  return id > 0xffffff ? 4 : id > 0xffff ? 3 : id > 0xff ? 2 : 1;
}

function readInfo(data: Buffer, result: WebmScan) {
  result.info = data;
  for (const child of children(data, 0, data.length)) {
    if (child.id === ids.timecodeScale) result.timecodeScale = readUint(data, child.dataStart, child.dataEnd) || defaultTimecodeScale;
    if (child.id === ids.duration) {
      const duration = readFloat(data, child.dataStart, child.dataEnd);
      result.originalHasDuration = duration !== null && Number.isFinite(duration) && duration > 0;
    }
  }
}

function readTracks(data: Buffer): WebmTrack[] {
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

interface Block {
  track: number;
  relative: number;
  keyframe: boolean;
  duration: number | null;
}

/** A block's track, relative timecode and flags, from the first bytes of a (Simple)Block's data. */
async function readBlockHead(reader: StreamReader, size: number): Promise<{ track: number; relative: number; flags: number } | null> {
  const want = Math.min(size, 12);
  if (!(await reader.has(want))) return null;
  const head = reader.peek(want);
  const track = readVint(head, 0, false);
  if (!track || track.value === null || track.length + 3 > want) return { track: 0, relative: 0, flags: 0 };
  return { track: track.value, relative: head.readInt16BE(track.length), flags: head[track.length + 2]! };
}

type ClusterOutcome = { stop: false; next: HeaderResult | null } | { stop: true; truncated: boolean };

async function scanCluster(
  reader: StreamReader,
  cluster: ElementHeader,
  {
    trackStates,
    hasVideo,
    result,
    firstBlockCues,
  }: { trackStates: Map<number, TrackState>; hasVideo: boolean; result: WebmScan; firstBlockCues: WebmCuePoint[] },
): Promise<ClusterOutcome> {
  const end = cluster.size === null ? Infinity : cluster.dataStart + cluster.size;
  let timecode = 0;
  let completeEnd = cluster.dataStart;
  const blocks: Array<Block & { ticks: number }> = [];
  let outcome: ClusterOutcome = { stop: false, next: null };

  while (reader.position < end) {
    const header = await readHeader(reader);
    if (header === 'end') {
      // The end of the stream ends a cluster of unknown size; a known size promised more.
      outcome = { stop: true, truncated: cluster.size !== null };
      break;
    }
    if (header === 'truncated' || header === 'invalid') {
      outcome = { stop: true, truncated: true };
      break;
    }
    if (cluster.size === null && !clusterChildren.has(header.id)) {
      outcome = { stop: false, next: header };
      break;
    }
    if (header.size === null || header.dataStart + header.size > end) {
      outcome = { stop: true, truncated: true };
      break;
    }
    let block: Block | null = null;
    let complete = true;
    if (header.id === ids.timecode) {
      if (await reader.has(header.size)) timecode = readUint(reader.take(header.size), 0, header.size);
      else complete = false;
    } else if (header.id === ids.simpleBlock) {
      const head = await readBlockHead(reader, header.size);
      complete = head !== null && (await reader.skip(header.size)) === header.size;
      if (head?.track) block = { track: head.track, relative: head.relative, keyframe: (head.flags & 0x80) !== 0, duration: null };
    } else if (header.id === ids.blockGroup) {
      const group = await readBlockGroup(reader, header.dataStart + header.size);
      complete = group.complete;
      block = group.block;
    } else {
      complete = (await reader.skip(header.size)) === header.size;
    }
    if (!complete) {
      outcome = { stop: true, truncated: true };
      break;
    }
    completeEnd = reader.position;
    if (block) blocks.push({ ...block, ticks: Math.max(0, timecode + block.relative) });
  }

  // Only complete blocks count: a cluster cut off before its first one is dropped whole.
  if (blocks.length) {
    result.clusters.push({ offset: cluster.start, dataStart: cluster.dataStart, end: completeEnd, timecode });
    for (const block of blocks) {
      const state = trackStates.get(block.track);
      if (!state) trackStates.set(block.track, { lastTicks: block.ticks, previousTicks: null, lastBlockDuration: block.duration });
      else if (block.ticks >= state.lastTicks) {
        state.previousTicks = block.ticks > state.lastTicks ? state.lastTicks : state.previousTicks;
        state.lastTicks = block.ticks;
        state.lastBlockDuration = block.duration;
      }
    }
    const videoTracks = new Set(result.tracks.filter((t) => t.type === trackTypes.video).map((t) => t.number));
    // A cue where playback can start: the cluster's first video keyframe; with no video, its first block.
    const cueAt = (block: Block & { ticks: number }): WebmCuePoint => ({
      timeMs: ticksToMs(block.ticks, result.timecodeScale),
      ticks: block.ticks,
      track: block.track,
      clusterOffset: cluster.start,
    });
    const cue = hasVideo ? blocks.find((b) => b.keyframe && videoTracks.has(b.track)) : blocks[0];
    if (cue) result.cuePoints.push(cueAt(cue));
    firstBlockCues.push(cueAt(blocks[0]!));
  }
  return outcome;
}

/** A BlockGroup: its Block's head, whether it references another (not a keyframe), its duration. */
async function readBlockGroup(reader: StreamReader, end: number): Promise<{ complete: boolean; block: Block | null }> {
  let head: { track: number; relative: number; flags: number } | null = null;
  let references = false;
  let duration: number | null = null;
  while (reader.position < end) {
    const child = await readHeader(reader);
    if (typeof child === 'string') return { complete: false, block: null };
    if (child.size === null || child.dataStart + child.size > end) return { complete: false, block: null };
    if (child.id === ids.block) {
      head = await readBlockHead(reader, child.size);
      if (!head) return { complete: false, block: null };
    } else if (child.id === ids.referenceBlock) references = true;
    else if (child.id === ids.blockDuration) {
      if (!(await reader.has(child.size))) return { complete: false, block: null };
      duration = readUint(reader.take(child.size), 0, child.size);
      continue;
    }
    if ((await reader.skip(child.size)) < child.size) return { complete: false, block: null };
  }
  return { complete: true, block: head?.track ? { track: head.track, relative: head.relative, keyframe: !references, duration } : null };
}

// ---------------------------------------------------------------------------------------------------
// Writing

function encodeId(id: number): Buffer {
  const length = idLength(id);
  const out = Buffer.alloc(length);
  out.writeUIntBE(id, 0, length);
  return out;
}

/** A size vint of `width` bytes (1-8), or the smallest that holds `value` when no width is given. */
function encodeSize(value: number, width?: number): Buffer {
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

/** Segment sizes and cluster sizes are written 8 bytes wide, so they never change a position. */
const wideSize = 8;
/** SeekPosition and CueClusterPosition are written 8 bytes wide, so their values change no size. */
const wideUint = 8;

export interface SeekableWebm {
  scan: WebmScan;
  /** The output's length in bytes (0 when the source holds nothing playable). */
  sizeBytes: number;
  /** The seekable file; null when the source holds nothing playable (no complete block). */
  stream: Readable | null;
  /** The source already had Cues and a Duration and was complete: it is passed through unchanged. */
  passedThrough: boolean;
  /** Where each cue points in the output, relative to the Segment's data (the CueClusterPosition). */
  cuePositions: number[];
}

/**
 * A seekable copy of the WebM that `open` gives (called twice: a scan, then the copy). The output is
 * the EBML header; a Segment of known size holding a SeekHead (to Info, Tracks and Cues), the Info
 * with a Duration, the Tracks and any Tags or Chapters as they were, the Cues; then every cluster
 * with a known size, its contents copied byte for byte. Non-cluster elements after the first cluster
 * (old Cues, Voids) are left out. A source that already has Cues and a Duration, and is complete, is
 * passed through as it is. Throws NotWebmError when the source is not a WebM.
 */
export async function seekableWebm(open: () => Promise<Readable>): Promise<SeekableWebm> {
  const scan = await scanWebm(await open());
  if (!scan.usable) return { scan, sizeBytes: 0, stream: null, passedThrough: false, cuePositions: [] };
  if (scan.originalHasCues && scan.originalHasDuration && scan.segmentSizeKnown && !scan.truncated) {
    return { scan, sizeBytes: scan.sourceBytes, stream: Readable.from(passThrough(open, scan.sourceBytes)), passedThrough: true, cuePositions: [] };
  }

  // Clusters, each with a new header of known size.
  const clusterHeaders = scan.clusters.map((c) => Buffer.concat([encodeId(ids.cluster), encodeSize(c.end - c.dataStart, wideSize)]));
  const clusterLengths = scan.clusters.map((c, i) => clusterHeaders[i]!.length + (c.end - c.dataStart));

  // Info with the Duration (in TimecodeScale ticks, as a float); a CRC-32 would no longer match.
  const infoChildren = scan.info ? [...children(scan.info, 0, scan.info.length)].filter((c) => c.id !== ids.duration && c.id !== ids.crc32) : [];
  const durationTicks = (scan.durationMs * 1e6) / scan.timecodeScale;
  const info = element(ids.info, ...infoChildren.map((c) => scan.info!.subarray(c.start, c.dataEnd)), floatElement(ids.duration, durationTicks));
  const tracks = scan.tracksElement!;
  const others = Buffer.concat(scan.otherHeaderElements);

  // Cues whose positions are placeholders of fixed width: the sizes are known before the values.
  const cuesOf = (positions: number[]) =>
    element(
      ids.cues,
      ...scan.cuePoints.map((cue, i) =>
        element(ids.cuePoint, uintElement(ids.cueTime, cue.ticks), element(ids.cueTrackPositions, uintElement(ids.cueTrack, cue.track), uintElement(ids.cueClusterPosition, positions[i]!, wideUint))),
      ),
    );
  const seekHeadOf = (infoAt: number, tracksAt: number, cuesAt: number) =>
    element(
      ids.seekHead,
      ...[
        [ids.info, infoAt],
        [ids.tracks, tracksAt],
        [ids.cues, cuesAt],
      ].map(([id, at]) => element(ids.seek, element(ids.seekId, encodeId(id!)), uintElement(ids.seekPosition, at!, wideUint))),
    );

  const seekHeadLength = seekHeadOf(0, 0, 0).length;
  const infoAt = seekHeadLength;
  const tracksAt = infoAt + info.length;
  const cuesAt = tracksAt + tracks.length + others.length;
  const cuesLength = cuesOf(scan.cuePoints.map(() => 0)).length;
  const clustersAt = cuesAt + cuesLength;
  const clusterPositions: number[] = [];
  let at = clustersAt;
  for (const length of clusterLengths) {
    clusterPositions.push(at);
    at += length;
  }
  const segmentDataLength = at;
  const positionOf = new Map(scan.clusters.map((c, i) => [c.offset, clusterPositions[i]!]));
  const cuePositions = scan.cuePoints.map((cue) => positionOf.get(cue.clusterOffset)!);

  const head = Buffer.concat([
    scan.ebmlHeader,
    encodeId(ids.segment),
    encodeSize(segmentDataLength, wideSize),
    seekHeadOf(infoAt, tracksAt, cuesAt),
    info,
    tracks,
    others,
    cuesOf(cuePositions),
  ]);
  const sizeBytes = head.length + clusterLengths.reduce((sum, length) => sum + length, 0);

  async function* write(): AsyncGenerator<Buffer> {
    yield head;
    const source = await open();
    const reader = new StreamReader(source);
    try {
      for (const [i, cluster] of scan.clusters.entries()) {
        const gap = cluster.dataStart - reader.position;
        if (gap < 0 || (await reader.skip(gap)) < gap) throw new Error('The source changed between the scan and the copy');
        yield clusterHeaders[i]!;
        yield* reader.copy(cluster.end - cluster.dataStart);
      }
    } finally {
      await reader.close();
      source.destroy();
    }
  }
  return { scan, sizeBytes, stream: Readable.from(write()), passedThrough: false, cuePositions };
}

async function* passThrough(open: () => Promise<Readable>, length: number): AsyncGenerator<Buffer> {
  const source = await open();
  const reader = new StreamReader(source);
  try {
    yield* reader.copy(length);
  } finally {
    await reader.close();
    source.destroy();
  }
}
