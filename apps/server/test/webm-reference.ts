// The two-pass seekable rewrite, kept beside the tests as the reference the server's one-pass writer
// (src/modules/recordings/webm/write.ts writeSeekableWebm) is checked against: it reads the source
// once to scan it and once more to copy it, with a Segment of known size, a SeekHead, a Duration and
// Cues before the clusters, each cluster with a known size. Opening the source twice means nothing
// is buffered between the passes and the output's size is known before its first byte is written.
// An upload can be scanned on its way to storage (webmScanTap), saving the first pass.
import { Transform, pipeline, type Readable } from 'node:stream';
import { ids } from '../src/modules/recordings/webm/ebml';
import { cuesElement, encodeId, encodeSize, infoElement, seekHeadElement, wideSize } from '../src/modules/recordings/webm/encode';
import { ScanFeed, scanWebm } from '../src/modules/recordings/webm/scan';
import type { WebmCluster, WebmScan } from '../src/modules/recordings/webm/scan-types';

interface SeekableWebm {
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
