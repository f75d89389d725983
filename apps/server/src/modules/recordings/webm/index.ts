// WebM as MediaRecorder writes it, made seekable. Chromium's MediaRecorder writes a live stream: a
// Segment of unknown size, an Info without Duration, no Cues, Clusters of unknown size. Players show
// such a file with no length and cannot seek in it (or seek by reading everything before the target).
// writeSeekableWebm reads a WebM in one streaming pass and writes it again with a Segment of known
// size, a SeekHead, a Duration, and Cues pointing at the clusters that start a keyframe: the clusters'
// contents are copied byte for byte as they arrive, the Cues written after them, and the head
// (Segment size, SeekHead, Duration) patched in place.
//
// The parts: ebml.ts reads EBML, scanner.ts and scan.ts read a WebM's elements as they stream by,
// encode.ts makes the elements of the new head, write.ts writes the seekable file.
export { looksLikeWebm, NotWebmError } from './ebml';
export { scanWebm } from './scan';
export { oneShotHoldBackBytes, writeSeekableWebm, type OnePassTarget, type WrittenWebm } from './write';
