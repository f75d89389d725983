// Where recording bytes live: files under DATA_DIR/recordings (the default), or an S3-compatible bucket
// when S3_URL and S3_BUCKET are set, so several server processes behind a load balancer share them.
// Both implementations pass the same tests (storage.test.ts). Keys are relative paths with '/'
// separators, e.g. `recordings/42.webm` or `live/42/000000000000`.
import type { Readable } from 'node:stream';

/**
 * An object written in one pass whose first bytes are rewritten once the rest is written (a WebM's
 * head: its Segment size, SeekHead and Duration are known only at the end). Calls are made one at a
 * time: each awaited before the next.
 */
export interface PatchableWriter {
  /** Appends bytes; resolves once the writer can take more (it holds at most a few MiB). */
  write(bytes: Buffer): Promise<void>;
  /**
   * Overwrites the object's first `bytes.length` bytes, already written: at most the `headBytes`
   * reserved by putPatchable. Called once the rest is written, before finish().
   */
  patchHead(bytes: Buffer): Promise<void>;
  /** Makes the object, complete and flushed, appear under its key (replacing any); resolves its size. */
  finish(): Promise<{ sizeBytes: number }>;
  /** Drops what was written: nothing is left under the key (an object already there stays). */
  abort(): Promise<void>;
}

/** What a storage does itself to write a PatchableWriter's object; guardedWriter adds the rules. */
interface WriterSteps {
  write(bytes: Buffer): Promise<void>;
  patchHead(bytes: Buffer): Promise<void>;
  finish(): Promise<{ sizeBytes: number }>;
  /** Throws away what was written. */
  discard(): Promise<void>;
}

/**
 * A PatchableWriter from a storage's own steps, with the rules both storages keep: once finished or
 * failed it refuses more, and a step that fails discards everything, as abort() does.
 */
export function guardedWriter(steps: WriterSteps): PatchableWriter {
  let state: 'writing' | 'failed' | 'done' = 'writing';
  async function abort() {
    if (state === 'done') return;
    state = 'failed';
    await steps.discard();
  }
  async function guarded<T>(work: () => Promise<T>): Promise<T> {
    if (state !== 'writing') throw new Error(`This recording object is ${state === 'done' ? 'finished' : 'aborted after a failure'}`);
    try {
      return await work();
    } catch (error) {
      await abort();
      throw error;
    }
  }
  return {
    write: (bytes) => guarded(() => steps.write(bytes)),
    patchHead: (bytes) => guarded(() => steps.patchHead(bytes)),
    finish: () =>
      guarded(async () => {
        const finished = await steps.finish();
        state = 'done';
        return finished;
      }),
    abort,
  };
}

export interface Storage {
  readonly kind: 'file' | 's3';
  /**
   * Starts writing `key` in one pass with a head patched at the end (PatchableWriter). Nothing appears
   * under `key` until finish(); after abort(), or a failure of any call, nothing of it is left.
   * `headBytes`: the most patchHead will rewrite (S3 holds that much, or its 5 MiB minimum part, in memory).
   */
  putPatchable(key: string, contentType: string, options: { headBytes: number }): Promise<PatchableWriter>;
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
  presignedGet(
    key: string,
    options: {
      expiresInSeconds: number;
      contentType: string;
      /** Served as an attachment under this file name (Content-Disposition). */
      downloadName?: string;
      /** When the URL's lifetime starts (default now), so its expiry is the one the caller reports. */
      signedAt?: Date;
    },
  ): Promise<string | null>;
  close(): Promise<void>;
}

/** What read() rejects with when there is no such key (both implementations), so callers can answer 404. */
export class NoSuchKeyError extends Error {
  readonly code = 'NoSuchKey';
  constructor(readonly key: string) {
    super(`No recording object at ${JSON.stringify(key)}`);
  }
}

/**
 * Keys are checked the same way by both implementations, so a key that works in development works in a
 * bucket and none can reach outside DATA_DIR/recordings: '/'-separated segments, none empty, '.' or
 * '..', none starting with '.' (the file storage's temporary files do), no backslash, no NUL, at most
 * 512 bytes. Throws on anything else: a bad key is a bug in the caller, never user input.
 */
export function checkKey(key: string): string {
  if (!isKey(key)) throw new Error(`Not a valid recording storage key: ${JSON.stringify(key)}`);
  return key;
}

/** A prefix of list/deletePrefix: a key, or the start of one ending at a '/' or part-way through a segment. */
export function checkPrefix(prefix: string): string {
  if (prefix !== '' && !isKey(prefix.endsWith('/') ? prefix.slice(0, -1) : prefix)) {
    throw new Error(`Not a valid recording storage prefix: ${JSON.stringify(prefix)}`);
  }
  return prefix;
}

function isKey(key: string): boolean {
  return (
    key.length > 0 &&
    Buffer.byteLength(key) <= 512 &&
    !/[\\\0]/.test(key) &&
    key.split('/').every((segment) => segment.length > 0 && !segment.startsWith('.'))
  );
}
