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
// is sent. An answer that says no (403, 404, 413, ...) or a recording that takes no more chunks ends the
// upload: `onFatal`. A recording the server stopped after a long silence still takes them (its status
// says 'ready' or 'stopped', `accepts_chunks` says go on): the server makes it again with the rest.
//
// Nothing recorded is lost to a stall or a reload: with a `store` (./pending-chunks.ts,
// IndexedDB) each chunk is kept there until the server has it, and a page loaded later sends what a
// page before it could not (`resume`, ./pending-upload.ts), then finishes.
import { messages } from '@mooz/contract/messages';
import type { LiveRecording } from '@mooz/contract/recordings';

export interface LiveTransport {
  start(): Promise<LiveRecording>;
  status(id: number): Promise<LiveRecording>;
  append(id: number, offset: number, bytes: Blob): Promise<LiveRecording>;
  /** Finishes, saying every chunk was sent (the server takes no more). */
  finish(id: number): Promise<LiveRecording>;
  /**
   * A best-effort finish that outlives the page (fetch keepalive), when the tab goes away: chunks not
   * sent yet may still follow from the next page.
   */
  finishOnUnload(id: number): void;
}

/** Where chunks wait until the server has them, beyond the page's life. Calls do not wait. */
export interface ChunkStore {
  keep(recordingId: number, start: number, blob: Blob): void;
  /** The server holds the recording's first `offset` bytes: chunks ending there or before go. */
  confirmed(recordingId: number, offset: number): void;
  /** The recording takes no more of this page (all sent, or refused for good): its chunks go. */
  forget(recordingId: number): void;
}

/** A chunk kept by a page that went away: where it starts in the recording, and its bytes. */
export interface PendingChunk {
  start: number;
  blob: Blob;
}

export interface Backlog {
  /** Chunks (or what is left of them) not yet confirmed by the server. */
  chunks: number;
  bytes: number;
}

interface UploaderOptions {
  transport: LiveTransport;
  sleep?: (ms: number) => Promise<void>;
  /** The pause before the n-th retry in a row (1-based). */
  backoff?: (attempt: number) => number;
  /** How often finishing is tried before leaving it to the server (which finishes a silent recording itself). */
  finishAttempts?: number;
  onBacklog?: (backlog: Backlog) => void;
  onFatal?: (error: unknown) => void;
  store?: ChunkStore;
}

export interface ChunkUploader {
  /** Starts the recording on the server; its refusal (403, 409) is thrown to the caller. */
  start(): Promise<LiveRecording>;
  /**
   * Takes up a recording a page before this one sent part of: asks where the server stands and queues
   * the kept chunks it lacks. Throws when the server takes no more (the chunks are forgotten).
   */
  resume(recordingId: number, pending: PendingChunk[]): Promise<LiveRecording>;
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
const defaultBackoff = (attempt: number) => Math.min(10_000, 250 * 2 ** (attempt - 1));

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
    // Nothing more of it will be taken: nothing to keep.
    if (recording) options.store?.forget(recording.id);
    reportBacklog();
    options.onFatal?.(error);
  }

  /** Takes the server's word for its offset, unless it cannot be right. */
  function settle(answer: LiveRecording) {
    if (!answer.accepts_chunks) return fail(new RecordingEndedError());
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
        options.store?.confirmed(recording!.id, offset);
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
    async resume(recordingId, pending) {
      let answer: LiveRecording;
      try {
        answer = await transport.status(recordingId);
      } catch (error) {
        if (isFinalRefusal(error)) options.store?.forget(recordingId);
        throw error;
      }
      recording = answer;
      offset = answer.upload_offset;
      queuedBytes = offset;
      maxBytes = answer.chunk_max_bytes > 0 ? answer.chunk_max_bytes : Infinity;
      if (!answer.accepts_chunks) {
        fail(new RecordingEndedError());
        throw failure;
      }
      for (const chunk of [...pending].sort((a, b) => a.start - b.start)) {
        const end = chunk.start + chunk.blob.size;
        if (end <= queuedBytes) continue;
        // What the server lacks must follow on from what it has (pump ends the upload at a gap).
        queue.push(chunk);
        queuedBytes = end;
      }
      reportBacklog();
      kick();
      return answer;
    },
    push(chunk) {
      if (failure || done || chunk.size === 0) return;
      if (recording) options.store?.keep(recording.id, queuedBytes, chunk);
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
          options.store?.forget(recording.id);
          return;
        } catch (error) {
          // Already finished (by the server, or by the unload finish), or not ours: nothing left to do.
          if (isFinalRefusal(error)) options.store?.forget(recording.id);
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
