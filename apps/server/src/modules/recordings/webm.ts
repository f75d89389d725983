// WebM as MediaRecorder writes it, made seekable. Chromium's MediaRecorder writes a live stream: a
// Segment of unknown size, an Info without Duration, no Cues, Clusters of unknown size. Players show
// such a file with no length and cannot seek in it (or seek by reading everything before the target).
// This module reads a WebM in one streaming pass (scanWebm) and writes it again (seekableWebm) with a
// Segment of known size, a SeekHead, a Duration, and Cues pointing at the clusters that start a
// keyframe, followed by the clusters' contents copied byte for byte. writeSeekableWebm, what the
// server uses, does the same in a single pass over the source: the clusters are written as they
// arrive, the Cues after them, and the head (Segment size, SeekHead, Duration) is patched in place.
//
// Memory stays bounded whatever the file's size: the scanner holds one chunk of the source at a time
// (plus the few bytes of an element header split between two chunks); block payloads are skipped,
// never kept. What is kept is the small header (EBML, Info, Tracks, Tags) and one entry per cluster,
// which the Cues need anyway. The source is opened twice — once to scan, once to copy — so nothing is
// buffered between the passes and the output's size is known before its first byte is written. (An
// upload can be scanned on its way to storage, webmScanTap, saving the first pass.) The scan runs
// synchronously over each chunk, with no await per element: a 500 MB recording scans in well under
// a second of CPU.
//
// A source cut off part-way (a crashed browser's last chunk, a lost upload) is read up to its last
// complete element: the last cluster keeps its complete blocks, and the rest is dropped. Bytes that
// are not EBML where an element should start end the file the same way.
//
// EBML in brief (RFC 8794, Matroska's element ids): an element is an id (a vint of 1-4 bytes, its
// length marker kept), a size (a vint of 1-8 bytes, marker removed; all ones = unknown) and its data.
import { Transform, pipeline, type Readable } from 'node:stream';
import type { PatchableWriter } from './storage';

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
function isClusterChild(id: number): boolean {
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

interface BlockHead {
  track: number;
  relative: number;
  flags: number;
}

/** A block read whole, counted once its cluster reaches the next child boundary. */
interface Block {
  track: number;
  relative: number;
  keyframe: boolean;
  duration: number | null;
}

interface OpenCluster {
  kind: 'cluster';
  end: number;
  known: boolean;
  start: number;
  dataStart: number;
  timecode: number;
  /** Where its last complete child ended. */
  completeEnd: number;
  blocks: number;
  keyCue: WebmCuePoint | null;
  firstCue: WebmCuePoint | null;
  /** Up to where its bytes were handed to the listener (null: none yet). */
  passedTo: number | null;
}
interface OpenGroup {
  kind: 'group';
  end: number;
  head: BlockHead | null;
  references: boolean;
  duration: number | null;
}
type Container = { kind: 'segment'; end: number } | OpenCluster | OpenGroup;

/** What one step of the scan came to: it needs more bytes, the file is over, or it goes on. */
const NEED = 0;
const STOP = 1;
const GO = 2;
type Step = typeof NEED | typeof STOP | typeof GO;

/**
 * Told of each cluster's bytes once they are known to be complete elements and the cluster holds a
 * complete block: source bytes `from`..`to` of the cluster starting at `clusterStart`, in order, the
 * first time from its first child (`dataStart`, its own header left out). Bytes of a cluster that
 * never gets a complete block, of an element cut off at the end, or after the last cluster are never
 * given. What the listener is given is, cluster by cluster, what seekableWebm copies.
 */
type ClusterListener = (clusterStart: number, from: number, to: number, first: boolean) => void;

/**
 * The scanner proper: a state machine over the bytes buffered so far. Each step completes at once (an
 * element header, a small value, a block's first bytes) or answers NEED without consuming anything,
 * and runs again once more bytes came. Payloads are skipped as they stream past. Steps run
 * synchronously: there is one await per chunk of the source, none per element.
 */
class Scanner {
  private buffer: Buffer = Buffer.alloc(0);
  private at = 0;
  /** The offset in the source of buffer[0]. */
  private base = 0;
  private skip = 0;
  private pendingBlock: Block | null = null;
  private readonly stack: Container[] = [];
  private readonly trackStates = new Map<number, TrackState>();
  private videoTracks = new Set<number>();
  private readonly firstBlockCues: WebmCuePoint[] = [];
  /** Read before the Segment: the EBML header and the Segment's header. */
  private root: 'ebml' | 'segment' | 'done' = 'ebml';

  constructor(private readonly listener?: ClusterListener) {}

  /** The lowest offset of the source whose bytes the listener may still be given. */
  get retainFrom(): number {
    const cluster = this.stack.find((c): c is OpenCluster => c.kind === 'cluster');
    return cluster ? (cluster.passedTo ?? cluster.dataStart) : this.position;
  }
  readonly result: WebmScan = {
    ebmlHeader: Buffer.alloc(0),
    segmentDataStart: 0,
    segmentSizeKnown: false,
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

  get position() {
    return this.base + this.at;
  }

  /** Bytes buffered and not yet read. */
  get ahead() {
    return this.buffer.length - this.at;
  }

  /** Adds a chunk of the source after what is left of the buffer. */
  feed(chunk: Buffer) {
    const rest = this.buffer.subarray(this.at);
    this.base += this.at;
    this.at = 0;
    this.buffer = rest.length ? Buffer.concat([rest, chunk]) : chunk;
  }

  /** Runs steps until more bytes are needed (true) or the file is over (false). */
  run(): boolean {
    for (;;) {
      const step = this.step();
      if (step === NEED) return true;
      if (step === STOP) {
        this.finish(true);
        return false;
      }
    }
  }

  /** The source ended. */
  end() {
    if (this.root !== 'done') throw new NotWebmError('cut off in its header');
    const inside = this.skip > 0 || this.ahead > 0;
    // Cut off inside an element: a payload being skipped, or a header or value half there.
    if (inside) this.result.truncated = true;
    this.finish(!inside);
  }

  private step(): Step {
    if (this.skip > 0) {
      const n = Math.min(this.skip, this.ahead);
      this.at += n;
      this.skip -= n;
      if (this.skip > 0) return NEED;
    }
    let top = this.stack.at(-1);
    while (top && top.kind !== 'segment' && this.position >= top.end) {
      this.close();
      top = this.stack.at(-1);
    }
    if (top?.kind === 'segment' && this.position >= top.end) return STOP;
    if (top?.kind === 'cluster') this.atClusterBoundary(top);

    // The element header: an id of 1-4 bytes, a size of 1-8.
    const available = this.ahead;
    if (available < 1) return NEED;
    const idLength = vintLength(this.buffer[this.at]!);
    if (idLength === 0 || idLength > 4) return this.invalid();
    if (available < idLength + 1) return NEED;
    const sizeLength = vintLength(this.buffer[this.at + idLength]!);
    if (sizeLength === 0) return this.invalid();
    const headerLength = idLength + sizeLength;
    if (available < headerLength) return NEED;
    // Read inline (this runs once per element of the file): the id with its marker, the size without.
    const buffer = this.buffer;
    let id = 0;
    for (let i = 0; i < idLength; i++) id = id * 256 + buffer[this.at + i]!;
    let size: number | null = buffer[this.at + idLength]! & (0xff >> sizeLength);
    let allOnes = size === 0xff >> sizeLength;
    for (let i = 1; i < sizeLength; i++) {
      const byte = buffer[this.at + idLength + i]!;
      size = size * 256 + byte;
      allOnes &&= byte === 0xff;
    }
    if (allOnes) size = null;
    else if (size > Number.MAX_SAFE_INTEGER) return this.invalid();
    const start = this.position;
    const dataStart = start + headerLength;

    if (!top) return this.rootElement(id, size, headerLength);
    // The next top-level element ends a cluster of unknown size (in one of known size it is skipped).
    if (top.kind === 'cluster' && !top.known && !isClusterChild(id)) {
      this.close();
      return GO;
    }
    // Only Clusters may have an unknown size in a Segment; nothing may pass the end of its parent.
    if (size === null ? top.kind !== 'segment' || id !== ids.cluster : dataStart + size > top.end) return this.invalid();

    if (top.kind === 'segment') return this.segmentChild(id, size, headerLength, start);
    if (top.kind === 'cluster') {
      if (id === ids.timecode) {
        if (available < headerLength + size!) return NEED;
        top.timecode = readUint(this.buffer, this.at + headerLength, this.at + headerLength + size!);
        this.at += headerLength + size!;
        return GO;
      }
      if (id === ids.simpleBlock) {
        const head = this.blockHead(headerLength, size!);
        if (head === NEED) return NEED;
        if (head) this.pendingBlock = { track: head.track, relative: head.relative, keyframe: (head.flags & 0x80) !== 0, duration: null };
        return this.skipElement(headerLength, size!);
      }
      if (id === ids.blockGroup) {
        this.at += headerLength;
        this.stack.push({ kind: 'group', end: dataStart + size!, head: null, references: false, duration: null });
        return GO;
      }
      return this.skipElement(headerLength, size!);
    }
    // In a BlockGroup: its Block, whether it references another (then it is no keyframe), its duration.
    if (id === ids.block) {
      const head = this.blockHead(headerLength, size!);
      if (head === NEED) return NEED;
      top.head = head;
    } else if (id === ids.referenceBlock) top.references = true;
    else if (id === ids.blockDuration) {
      if (available < headerLength + size!) return NEED;
      top.duration = readUint(this.buffer, this.at + headerLength, this.at + headerLength + size!);
    }
    return this.skipElement(headerLength, size!);
  }

  /** Before the Segment: the EBML header (DocType webm), then the Segment's own header. */
  private rootElement(id: number, size: number | null, headerLength: number): Step {
    if (this.root === 'ebml') {
      if (id !== ids.ebml || size === null || size > 4096) throw new NotWebmError('no EBML header');
      if (this.ahead < headerLength + size) return NEED;
      const header = Buffer.from(this.buffer.subarray(this.at, this.at + headerLength + size));
      const docType = [...children(header, headerLength, header.length)].find((c) => c.id === ids.docType);
      if (!docType || header.toString('latin1', docType.dataStart, docType.dataEnd).replace(/\0+$/, '') !== 'webm') {
        throw new NotWebmError("the DocType is not 'webm'");
      }
      this.result.ebmlHeader = header;
      this.at += header.length;
      this.root = 'segment';
      return GO;
    }
    if (id !== ids.segment) throw new NotWebmError('no Segment');
    this.at += headerLength;
    this.result.segmentDataStart = this.position;
    this.result.segmentSizeKnown = size !== null;
    this.stack.push({ kind: 'segment', end: size === null ? Infinity : this.position + size });
    this.root = 'done';
    return GO;
  }

  /** A Segment's child: a Cluster is entered, header elements are kept, the rest is skipped. */
  private segmentChild(id: number, size: number | null, headerLength: number, start: number): Step {
    const { result } = this;
    if (id === ids.cluster) {
      if (!result.headerEnd) {
        result.headerEnd = start;
        this.videoTracks = new Set(result.tracks.filter((t) => t.type === trackTypes.video).map((t) => t.number));
      }
      this.at += headerLength;
      const dataStart = this.position;
      this.stack.push({
        kind: 'cluster',
        end: size === null ? Infinity : dataStart + size,
        known: size !== null,
        start,
        dataStart,
        timecode: 0,
        completeEnd: dataStart,
        blocks: 0,
        keyCue: null,
        firstCue: null,
        passedTo: null,
      });
      return GO;
    }
    // A second EBML header or Segment (a recorder restarted): a single segment's file ends here.
    if (id === ids.ebml || id === ids.segment) return this.invalid();
    const length = size!;
    const keep = !result.headerEnd && length <= headerElementMaxBytes && (id === ids.info || id === ids.tracks || id === ids.tags || id === ids.chapters);
    if (!keep) {
      if (id === ids.cues) result.originalHasCues = true;
      return this.skipElement(headerLength, length);
    }
    if (this.ahead < headerLength + length) return NEED;
    const element = Buffer.from(this.buffer.subarray(this.at, this.at + headerLength + length));
    this.at += element.length;
    const data = element.subarray(headerLength);
    if (id === ids.info) readInfo(data, result);
    else if (id === ids.tracks) {
      result.tracksElement = element;
      result.tracks = readTracks(data);
    } else result.otherHeaderElements.push(element);
    return GO;
  }

  /** A (Simple)Block's track, relative timecode and flags, from its first bytes; NEED until they are here. */
  private blockHead(headerLength: number, size: number): BlockHead | null | typeof NEED {
    const want = Math.min(size, 12);
    if (this.ahead < headerLength + want) return NEED;
    const from = this.at + headerLength;
    const track = readVint(this.buffer.subarray(0, from + want), from, false);
    if (!track || track.value === null || track.length + 3 > want) return null;
    return { track: track.value, relative: this.buffer.readInt16BE(from + track.length), flags: this.buffer[from + track.length + 2]! };
  }

  private skipElement(headerLength: number, size: number): Step {
    this.at += headerLength;
    this.skip = size;
    return GO;
  }

  /** Bytes that are not what a WebM holds there: the file ends here, with what was complete. */
  private invalid(): Step {
    if (this.root !== 'done') throw new NotWebmError('its header is not EBML');
    this.result.truncated = true;
    return STOP;
  }

  /** At a child boundary of a cluster: the child before is complete, and the block it was counts. */
  private atClusterBoundary(cluster: OpenCluster) {
    cluster.completeEnd = this.position;
    this.countBlock(cluster);
    if (this.listener && cluster.blocks > 0) {
      const from = cluster.passedTo ?? cluster.dataStart;
      if (cluster.completeEnd > from) this.listener(cluster.start, from, cluster.completeEnd, cluster.passedTo === null);
      cluster.passedTo = cluster.completeEnd;
    }
  }

  private countBlock(cluster: OpenCluster) {
    const block = this.pendingBlock;
    if (!block) return;
    this.pendingBlock = null;
    const ticks = Math.max(0, cluster.timecode + block.relative);
    const state = this.trackStates.get(block.track);
    if (!state) this.trackStates.set(block.track, { lastTicks: ticks, previousTicks: null, lastBlockDuration: block.duration });
    else if (ticks >= state.lastTicks) {
      if (ticks > state.lastTicks) state.previousTicks = state.lastTicks;
      state.lastTicks = ticks;
      state.lastBlockDuration = block.duration;
    }
    cluster.blocks++;
    cluster.firstCue ??= this.cue(ticks, block.track, cluster);
    if (!cluster.keyCue && block.keyframe && this.videoTracks.has(block.track)) cluster.keyCue = this.cue(ticks, block.track, cluster);
  }

  private cue(ticks: number, track: number, cluster: OpenCluster): WebmCuePoint {
    return { timeMs: ticksToMs(ticks, this.result.timecodeScale), ticks, track, clusterOffset: cluster.start };
  }

  /** Closes the innermost element, complete: a BlockGroup becomes a block; a Cluster is kept. */
  private close() {
    const top = this.stack.pop()!;
    if (top.kind === 'group') {
      const head = top.head;
      this.pendingBlock = head?.track ? { track: head.track, relative: head.relative, keyframe: !top.references, duration: top.duration } : null;
    } else if (top.kind === 'cluster') {
      this.atClusterBoundary(top);
      this.keep(top);
    }
  }

  /** A cluster with at least one complete block is kept, with its cue. */
  private keep(cluster: OpenCluster) {
    if (!cluster.blocks) return;
    this.result.clusters.push({ offset: cluster.start, dataStart: cluster.dataStart, end: cluster.completeEnd, timecode: cluster.timecode });
    const cue = this.videoTracks.size ? cluster.keyCue : cluster.firstCue;
    if (cue) this.result.cuePoints.push(cue);
    this.firstBlockCues.push(cluster.firstCue!);
  }

  /**
   * The file is over: what is open closes with what was complete. `atBoundary`: the innermost open
   * element stopped between two of its children (not inside one).
   */
  private finish(atBoundary: boolean) {
    let boundary = atBoundary;
    if (!boundary) this.pendingBlock = null;
    while (this.stack.length) {
      const top = this.stack.at(-1)!;
      const cutOff = top.end !== Infinity && this.position < top.end;
      if (cutOff) this.result.truncated = true;
      if (top.kind === 'group') {
        this.stack.pop();
        if (boundary && !cutOff) {
          this.stack.push(top);
          this.close();
        } else {
          // Its block does not count, and its cluster's last complete child is the one before it.
          this.pendingBlock = null;
          boundary = false;
        }
      } else if (top.kind === 'cluster') {
        this.stack.pop();
        if (boundary) this.atClusterBoundary(top);
        this.keep(top);
        boundary = true;
      } else this.stack.pop();
    }
    // Video whose keyframes could not be told (no keyframe flag anywhere): a cue at every cluster.
    if (!this.result.cuePoints.length) this.result.cuePoints = this.firstBlockCues;
  }

  /** The duration: the latest block plus one frame of its track (its BlockDuration, the track's DefaultDuration, or the gap before it). */
  durationMs(): number {
    let endTicks = 0;
    for (const [number, state] of this.trackStates) {
      const track = this.result.tracks.find((t) => t.number === number);
      const frame =
        state.lastBlockDuration ??
        (track?.defaultDurationNs ? track.defaultDurationNs / this.result.timecodeScale : null) ??
        (state.previousTicks !== null ? state.lastTicks - state.previousTicks : 0);
      endTicks = Math.max(endTicks, state.lastTicks + Math.max(0, frame));
    }
    return ticksToMs(endTicks, this.result.timecodeScale);
  }
}

/** Feeds chunks to a Scanner until it is done, then counts the bytes that follow; answers the scan at the end. */
class ScanFeed {
  private readonly scanner: Scanner;
  private going = true;

  constructor(listener?: ClusterListener) {
    this.scanner = new Scanner(listener);
  }

  /** What the scan has read of the header so far (complete once the first cluster began). */
  get partial(): WebmScan {
    return this.scanner.result;
  }

  /** The lowest offset of the source the listener may still be given (Infinity: none). */
  get retainFrom(): number {
    return this.going ? this.scanner.retainFrom : Infinity;
  }
  /** Bytes after the point where the scanner stopped. */
  private after = 0;

  /** Takes the next chunk; throws NotWebmError when the start is not a WebM. */
  push(chunk: Buffer | Uint8Array) {
    if (!this.going) {
      this.after += chunk.length;
      return;
    }
    this.scanner.feed(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length));
    this.going = this.scanner.run();
  }

  /** Whether the rest of the source matters: only to count the length of a complete one. */
  get wantsMore(): boolean {
    return this.going || !this.scanner.result.truncated;
  }

  /** The source ended: the scan. */
  finish(): WebmScan {
    const { scanner } = this;
    if (this.going) scanner.end();
    const { result } = scanner;
    result.sourceBytes = result.truncated ? scanner.position : scanner.position + scanner.ahead + this.after;
    if (!result.headerEnd) result.headerEnd = result.sourceBytes;
    result.durationMs = scanner.durationMs();
    result.usable = result.tracksElement !== null && result.clusters.length > 0;
    return result;
  }
}

/**
 * Reads a WebM from `source` in one pass and answers what seekableWebm needs: where the header ends,
 * the clusters, the cue points and the duration. Throws NotWebmError when the start is not a WebM;
 * a source that ends early or turns to garbage part-way is read up to its last complete block. The
 * source is consumed (and closed) by the scan.
 */
export async function scanWebm(source: Readable): Promise<WebmScan> {
  const feed = new ScanFeed();
  try {
    for await (const chunk of source) {
      feed.push(chunk as Buffer);
      if (!feed.wantsMore) break;
    }
    return feed.finish();
  } finally {
    source.destroy();
  }
}

/**
 * Scans a WebM while it streams somewhere else (an upload on its way to storage), so making it
 * seekable afterwards needs one pass over it, not two: pipe the bytes through `tap`, which passes them
 * on unchanged; `scan()` answers once they have all gone through (rejecting with NotWebmError when
 * they are not a WebM). Give the scan to seekableWebm.
 */
export function webmScanTap(): { tap: Transform; scan(): WebmScan } {
  const feed = new ScanFeed();
  let failure: unknown = null;
  let result: WebmScan | null = null;
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (!failure) {
        try {
          feed.push(chunk);
        } catch (error) {
          failure = error;
        }
      }
      done(null, chunk);
    },
    flush(done) {
      if (!failure) result = feed.finish();
      done();
    },
  });
  return {
    tap,
    scan() {
      if (failure) throw failure;
      if (!result) throw new Error('The scanned stream has not ended');
      return result;
    },
  };
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

/** The Info with a Duration of `durationMs` (in TimecodeScale ticks, as an 8-byte float); a CRC-32 would no longer match. */
function infoElement(scan: WebmScan, durationMs: number): Buffer {
  const infoChildren = scan.info ? [...children(scan.info, 0, scan.info.length)].filter((c) => c.id !== ids.duration && c.id !== ids.crc32) : [];
  const durationTicks = (durationMs * 1e6) / scan.timecodeScale;
  return element(ids.info, ...infoChildren.map((c) => scan.info!.subarray(c.start, c.dataEnd)), floatElement(ids.duration, durationTicks));
}

/** Cues at `positions` (one per cue point), written fixed-width: the size is known before the values. */
function cuesElement(scan: WebmScan, positions: readonly number[]): Buffer {
  return element(
    ids.cues,
    ...scan.cuePoints.map((cue, i) =>
      element(ids.cuePoint, uintElement(ids.cueTime, cue.ticks), element(ids.cueTrackPositions, uintElement(ids.cueTrack, cue.track), uintElement(ids.cueClusterPosition, positions[i]!, wideUint))),
    ),
  );
}

/** A SeekHead to the Info, the Tracks and the Cues, its positions fixed-width: the same length whatever they are. */
function seekHeadElement(infoAt: number, tracksAt: number, cuesAt: number): Buffer {
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
 * A seekable copy of the WebM that `open` gives (called twice: a scan, then the copy; once when the
 * scan is given, from webmScanTap or scanWebm, of exactly the bytes `open` gives). The output is
 * the EBML header; a Segment of known size holding a SeekHead (to Info, Tracks and Cues), the Info
 * with a Duration, the Tracks and any Tags or Chapters as they were, the Cues; then every cluster
 * with a known size, its contents copied byte for byte. Non-cluster elements after the first cluster
 * (old Cues, Voids) are left out. A source that already has Cues and a Duration, and is complete, is
 * passed through as it is. Throws NotWebmError when the source is not a WebM.
 */
export async function seekableWebm(open: () => Promise<Readable>, scanned?: WebmScan): Promise<SeekableWebm> {
  const scan = scanned ?? (await scanWebm(await open()));
  if (!scan.usable) return { scan, sizeBytes: 0, stream: null, passedThrough: false, cuePositions: [] };
  if (scan.originalHasCues && scan.originalHasDuration && scan.segmentSizeKnown && !scan.truncated) {
    return { scan, sizeBytes: scan.sourceBytes, stream: await open(), passedThrough: true, cuePositions: [] };
  }

  // Clusters, each with a new header of known size.
  const clusterHeaders = scan.clusters.map((c) => Buffer.concat([encodeId(ids.cluster), encodeSize(c.end - c.dataStart, wideSize)]));
  const clusterLengths = scan.clusters.map((c, i) => clusterHeaders[i]!.length + (c.end - c.dataStart));

  const info = infoElement(scan, scan.durationMs);
  const tracks = scan.tracksElement!;
  const others = Buffer.concat(scan.otherHeaderElements);
  const cuesOf = (positions: number[]) => cuesElement(scan, positions);

  const seekHeadLength = seekHeadElement(0, 0, 0).length;
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
    seekHeadElement(infoAt, tracksAt, cuesAt),
    info,
    tracks,
    others,
    cuesOf(cuePositions),
  ]);
  const sizeBytes = head.length + clusterLengths.reduce((sum, length) => sum + length, 0);

  // The copy: the new header, then the source cut to the clusters' contents, each after its new
  // header. A Transform does the cutting chunk by chunk, synchronously.
  const source = await open();
  const stream = pipeline(source, clusterCutter(head, scan.clusters, clusterHeaders), () => {
    // pipeline destroys the output with the error, for its reader to see.
  });
  return { scan, sizeBytes, stream, passedThrough: false, cuePositions };
}

/**
 * Writes `head`, then bytes `dataStart`..`end` of each cluster of the source, each run preceded by its
 * new header, and drops the rest; one output chunk per source chunk. Fails when the source ends before
 * the last cluster does (it changed since the scan).
 */
function clusterCutter(head: Buffer, clusters: readonly WebmCluster[], headers: readonly Buffer[]): Transform {
  let position = 0;
  let index = 0;
  let inside = false;
  let started = false;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const pieces: Buffer[] = [];
      if (!started) {
        pieces.push(head);
        started = true;
      }
      const chunkEnd = position + chunk.length;
      while (index < clusters.length) {
        const cluster = clusters[index]!;
        if (!inside) {
          if (cluster.dataStart >= chunkEnd) break;
          if (cluster.dataStart < position) return done(new Error('The source changed between the scan and the copy'));
          pieces.push(headers[index]!);
          inside = true;
        }
        const from = Math.max(cluster.dataStart, position) - position;
        const to = Math.min(cluster.end, chunkEnd) - position;
        if (to > from) pieces.push(chunk.subarray(from, to));
        if (cluster.end > chunkEnd) break;
        inside = false;
        index++;
      }
      position = chunkEnd;
      if (pieces.length) this.push(pieces.length === 1 ? pieces[0] : Buffer.concat(pieces));
      done();
    },
    flush(done) {
      done(index < clusters.length ? new Error('The source ended before its last cluster: it changed between the scan and the copy') : undefined);
    },
  });
}

// ---------------------------------------------------------------------------------------------------
// Writing in one pass

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
 * What it keeps and drops is seekableWebm's: clusters without a complete block, elements after the
 * first cluster that are not clusters (old Cues, Voids), and whatever follows the last complete
 * element of a cut-off or garbled source are left out (an element being read is held back until it
 * ends, at most oneShotHoldBackBytes). `open` is called once the head is known, with its length
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
