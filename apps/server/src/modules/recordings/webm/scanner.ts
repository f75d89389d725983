// The scanner: reads a WebM's elements as its bytes come, keeping the header and one entry per
// cluster, skipping block payloads.
import { children, defaultTimecodeScale, ids, isClusterChild, NotWebmError, readInfo, readTracks, readUint, readVint, vintLength } from './ebml';
import type { Block, BlockHead, Container, OpenCluster, TrackState, WebmCuePoint, WebmScan } from './scan-types';

/** Header elements kept whole in memory; anything this large is not a header MediaRecorder writes. */
const headerElementMaxBytes = 1024 * 1024;

const trackTypes = { video: 1, audio: 2 } as const;

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
 * given. What the listener is given is, cluster by cluster, what writeSeekableWebm copies.
 */
export type ClusterListener = (clusterStart: number, from: number, to: number, first: boolean) => void;

/**
 * The scanner proper: a state machine over the bytes buffered so far. Each step completes at once (an
 * element header, a small value, a block's first bytes) or answers NEED without consuming anything,
 * and runs again once more bytes came. Payloads are skipped as they stream past. Steps run
 * synchronously: there is one await per chunk of the source, none per element.
 */
export class Scanner {
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

const ticksToMs = (ticks: number, timecodeScale: number) => (ticks * timecodeScale) / 1e6;
