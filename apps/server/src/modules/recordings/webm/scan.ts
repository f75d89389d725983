// Reading a WebM in one streaming pass: where its header ends, its clusters, the cue points and the
// duration, what the seekable copy needs.
//
// Memory stays bounded whatever the file's size: the scanner holds one chunk of the source at a time
// (plus the few bytes of an element header split between two chunks); block payloads are skipped,
// never kept. What is kept is the small header (EBML, Info, Tracks, Tags) and one entry per cluster,
// which the Cues need anyway. The scan runs synchronously over each chunk, with no await per element.
//
// A source cut off part-way (a crashed browser's last chunk, a lost upload) is read up to its last
// complete element: the last cluster keeps its complete blocks, and the rest is dropped. Bytes that
// are not EBML where an element should start end the file the same way.
import type { Readable } from 'node:stream';
import type { WebmScan } from './scan-types';
import { Scanner, type ClusterListener } from './scanner';

/** Feeds chunks to a Scanner until it is done, then counts the bytes that follow; answers the scan at the end. */
export class ScanFeed {
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
 * Reads a WebM from `source` in one pass and answers what a seekable copy needs: where the header ends,
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
