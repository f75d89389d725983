// Sends a recording to the server while it is made, by the contract's live protocol (recordings.ts):
// start → append each chunk at the offset the server holds → finish. It is plain logic over an injected
// transport (./live-transport.ts is the real one), so the offset and resume rules are tested against an
// in-memory server.
//
// The rules: chunks go out one at a time, in the order they came, never reordered. The server answers
// the offset it holds after each append, and that is where the next one starts. An append that fails
// without a verdict (network, 5xx, 409 offset mismatch, 429) is retried after a growing pause, first
// asking the server where it stands (liveStatus): the answer may have been lost after the bytes were
// stored, or only part of them may have arrived, so the bytes the server has are dropped and the rest
// is sent. An answer that says no (403, 404, 413, ...) or a recording that is no longer being recorded
// (the server finished it after a long silence) ends the upload: `onFatal`.
import { messages } from '@mooz/contract/messages';
import type { LiveRecording } from '@mooz/contract/recordings';

export interface LiveTransport {
  start(): Promise<LiveRecording>;
  status(id: number): Promise<LiveRecording>;
  append(id: number, offset: number, bytes: Blob): Promise<LiveRecording>;
  finish(id: number): Promise<LiveRecording>;
  /** A best-effort finish that outlives the page (fetch keepalive), when the tab goes away. */
  finishOnUnload(id: number): void;
}

export interface Backlog {
  /** Chunks (or what is left of them) not yet confirmed by the server. */
  chunks: number;
  bytes: number;
}

export interface UploaderOptions {
  transport: LiveTransport;
  sleep?: (ms: number) => Promise<void>;
  /** The pause before the n-th retry in a row (1-based). */
  backoff?: (attempt: number) => number;
  /** How often finishing is tried before leaving it to the server (which finishes a silent recording itself). */
  finishAttempts?: number;
  onBacklog?: (backlog: Backlog) => void;
  onFatal?: (error: unknown) => void;
}

export interface ChunkUploader {
  /** Starts the recording on the server; its refusal (403, 409) is thrown to the caller. */
  start(): Promise<LiveRecording>;
  /** Queues a chunk of the recording; it is sent after every chunk queued before it. */
  push(chunk: Blob): void;
  /** Sends what is queued, then finishes the recording. */
  finish(): Promise<void>;
  /** The tab is going away: a finish that does not wait for anything (the queued bytes are lost). */
  finishOnUnload(): void;
  readonly backlog: Backlog;
  /** The bytes the server is known to hold. */
  readonly offset: number;
  readonly recording: LiveRecording | null;
  /** Why the upload ended early, or null. */
  readonly failure: unknown;
}

/** The recording is no longer being recorded on the server (finished after a silence, or deleted). */
export class RecordingEndedError extends Error {
  constructor(message: string = messages.recordingNotLive) {
    super(message);
    this.name = 'RecordingEndedError';
  }
}

/** 250 ms, 500 ms, 1 s, … up to 10 s between retries. */
export const defaultBackoff = (attempt: number) => Math.min(10_000, 250 * 2 ** (attempt - 1));

const statusOf = (error: unknown): number | undefined => {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? status : undefined;
};

/** Answers that will not change by asking again: the upload ends. Anything else is retried. */
const finalStatuses = new Set([400, 401, 403, 404, 410, 413, 415]);
export const isFinalRefusal = (error: unknown) => {
  const status = statusOf(error);
  return status !== undefined && finalStatuses.has(status);
};

interface Queued {
  /** Where the chunk starts in the whole recording. */
  start: number;
  blob: Blob;
}

export function createChunkUploader(options: UploaderOptions): ChunkUploader {
  const { transport } = options;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const backoff = options.backoff ?? defaultBackoff;
  const finishAttempts = options.finishAttempts ?? 6;
  let recording: LiveRecording | null = null;
  const queue: Queued[] = [];
  /** Every byte ever queued. */
  let queuedBytes = 0;
  /** The bytes the server holds, as it last said. */
  let offset = 0;
  let maxBytes = Infinity;
  let pumping: Promise<void> | null = null;
  let failure: unknown = null;
  let done = false;

  const backlog = (): Backlog => ({ chunks: queue.length, bytes: queuedBytes - offset });
  const reportBacklog = () => options.onBacklog?.(backlog());

  function fail(error: unknown) {
    if (failure) return;
    failure = error;
    queue.length = 0;
    reportBacklog();
    options.onFatal?.(error);
  }

  /** Takes the server's word for its offset, unless it cannot be right. */
  function settle(answer: LiveRecording) {
    if (answer.status !== 'recording') return fail(new RecordingEndedError());
    if (answer.upload_offset > queuedBytes) return fail(new Error(`The server holds ${answer.upload_offset} bytes of ${queuedBytes} sent`));
    offset = answer.upload_offset;
  }

  /**
   * After a failed append: pause, ask where the server stands, and go on from there. Returns the
   * failures in a row so far (a failed question counts too), which set the next pause.
   */
  async function resume(attempt: number): Promise<number> {
    for (;;) {
      await sleep(backoff(attempt));
      try {
        settle(await transport.status(recording!.id));
        return attempt;
      } catch (error) {
        if (isFinalRefusal(error)) {
          fail(error);
          return attempt;
        }
        attempt++;
      }
    }
  }

  async function pump() {
    let attempt = 0;
    while (queue.length && !failure) {
      const head = queue[0]!;
      const end = head.start + head.blob.size;
      if (offset >= end) {
        // The server has all of it (perhaps from an append whose answer was lost).
        queue.shift();
        reportBacklog();
        continue;
      }
      if (offset < head.start) return fail(new Error(`The server holds ${offset} bytes, but ${head.start} were confirmed before`));
      const piece = head.blob.slice(offset - head.start, Math.min(head.blob.size, offset - head.start + maxBytes));
      const before = offset;
      try {
        settle(await transport.append(recording!.id, offset, piece));
        if (offset > before) {
          attempt = 0;
          reportBacklog();
          continue;
        }
      } catch (error) {
        if (isFinalRefusal(error)) return fail(error);
      }
      if (failure) return;
      attempt = await resume(attempt + 1);
    }
  }

  function kick() {
    if (pumping || failure || !recording) return;
    pumping = pump().finally(() => {
      pumping = null;
      // A chunk queued while the last run was ending starts a new one.
      if (queue.length) kick();
    });
  }

  async function idle() {
    while (pumping) await pumping;
  }

  return {
    async start() {
      recording = await transport.start();
      offset = recording.upload_offset;
      queuedBytes = offset;
      maxBytes = recording.chunk_max_bytes > 0 ? recording.chunk_max_bytes : Infinity;
      kick();
      return recording;
    },
    push(chunk) {
      if (failure || done || chunk.size === 0) return;
      queue.push({ start: queuedBytes, blob: chunk });
      queuedBytes += chunk.size;
      reportBacklog();
      kick();
    },
    async finish() {
      await idle();
      if (failure || done || !recording) return;
      done = true;
      for (let attempt = 1; ; attempt++) {
        try {
          await transport.finish(recording.id);
          return;
        } catch (error) {
          // Already finished (by the server, or by the unload finish), or not ours: nothing left to do.
          if (isFinalRefusal(error) || attempt >= finishAttempts) return;
          await sleep(backoff(attempt));
        }
      }
    },
    finishOnUnload() {
      if (failure || done || !recording) return;
      done = true;
      transport.finishOnUnload(recording.id);
    },
    get backlog() {
      return backlog();
    },
    get offset() {
      return offset;
    },
    get recording() {
      return recording;
    },
    get failure() {
      return failure;
    },
  };
}
