// Where recording bytes live: files under DATA_DIR/recordings (the default), or an S3-compatible bucket
// when S3_URL and S3_BUCKET are set, so several server processes behind a load balancer share them.
// Both implementations pass the same tests (storage.test.ts). Keys are relative paths with '/'
// separators, e.g. `recordings/42.webm` or `live/42/000000000000`.
import type { Readable } from 'node:stream';

export interface RecordingStorage {
  readonly kind: 'file' | 's3';
  /**
   * Streams `body` into `key` without holding it in memory; resolves the bytes written. When the body
   * errors or is destroyed part-way, nothing is left under `key` and the promise rejects.
   */
  put(key: string, body: Readable, contentType: string): Promise<{ sizeBytes: number }>;
  /** The object's bytes, or bytes `start`..`end` (inclusive) of it. Rejects when there is no such key. */
  read(key: string, range?: { start: number; end: number }): Promise<Readable>;
  /** The object's size in bytes, or null when there is no such key. */
  size(key: string): Promise<number | null>;
  /** Removes the object; no error when it is not there. */
  delete(key: string): Promise<void>;
  /** The keys under `prefix`, sorted (byte order). */
  list(prefix: string): Promise<string[]>;
  /** Removes every object under `prefix`. */
  deletePrefix(prefix: string): Promise<void>;
  /**
   * A URL the browser fetches directly (S3: a presigned GET, so video bytes never pass through the app
   * server), or null when the app server serves the bytes itself (files: a signed link, links.ts).
   */
  presignedGet(key: string, options: { expiresInSeconds: number; contentType: string; downloadName?: string }): Promise<string | null>;
  close(): Promise<void>;
}
