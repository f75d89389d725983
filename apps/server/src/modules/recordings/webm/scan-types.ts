// The scan's types: what it answers about a WebM (WebmScan), and what the scanner keeps of the
// elements it is inside while it reads.

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

export interface TrackState {
  lastTicks: number;
  previousTicks: number | null;
  lastBlockDuration: number | null;
}

export interface BlockHead {
  track: number;
  relative: number;
  flags: number;
}

/** A block read whole, counted once its cluster reaches the next child boundary. */
export interface Block {
  track: number;
  relative: number;
  keyframe: boolean;
  duration: number | null;
}

export interface OpenCluster {
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
export interface OpenGroup {
  kind: 'group';
  end: number;
  head: BlockHead | null;
  references: boolean;
  duration: number | null;
}
export type Container = { kind: 'segment'; end: number } | OpenCluster | OpenGroup;
