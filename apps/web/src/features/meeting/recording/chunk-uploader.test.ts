// The live upload's offset and resume rules against an in-memory server that follows the contract's
// protocol (recordings.ts): appends only at the offset it holds (409 otherwise), liveStatus answers that
// offset, a recording finished as complete takes no more (one the server stopped after a stall does). Faults are put in its way one append at a time: the
// connection failing before the bytes arrive, after they were stored (the answer lost), or half-way.
// The real server is tested end to end (e2e/recording-live.spec.ts).
import { describe, expect, it } from 'vitest';
import type { LiveRecording } from '@mooz/contract/recordings';
import { createChunkUploader, isFinalRefusal, RecordingEndedError, type Backlog, type ChunkStore, type LiveTransport } from './chunk-uploader';

class HttpError extends Error {
  constructor(readonly status: number) {
    super(`HTTP ${status}`);
  }
}

/**
 * What goes wrong with one call: nothing (`ok`); the connection fails before the bytes arrive; after
 * they were stored (the answer is lost); half-way; the answer is an error status; or the bytes land
 * late, after the next liveStatus has answered (a request that outlived its timeout).
 */
type Fault = 'ok' | 'lost-before' | 'lost-after' | 'lands-late' | { partial: number } | { status: number };

class FakeLiveServer implements LiveTransport {
  bytes: Uint8Array = new Uint8Array(0);
  state: LiveRecording['status'] = 'recording';
  /** Whether it takes chunks (until a complete finish, or the server's resume window ends). */
  accepting = true;
  readonly faults: Fault[] = [];
  /** Faults for liveStatus calls, one per call. */
  readonly statusFaults: Fault[] = [];
  readonly calls: string[] = [];
  started = false;
  unloadFinishes = 0;
  private late: Uint8Array | null = null;

  constructor(readonly chunkMaxBytes = 1024) {}

  private answer(): LiveRecording {
    return { id: 7, room_id: 'room-1', status: this.state, upload_offset: this.bytes.length, chunk_max_bytes: this.chunkMaxBytes, accepts_chunks: this.accepting };
  }

  async start() {
    this.calls.push('start');
    this.started = true;
    return this.answer();
  }

  async status(id: number) {
    expect(id).toBe(7);
    this.calls.push('status');
    const fault = this.statusFaults.shift();
    if (fault === 'lost-before') throw new HttpError(0);
    if (fault && typeof fault === 'object' && 'status' in fault) throw new HttpError(fault.status);
    const answer = this.answer();
    if (this.late) {
      this.bytes = concat([this.bytes, this.late]);
      this.late = null;
    }
    return answer;
  }

  async append(id: number, offset: number, blob: Blob) {
    expect(id).toBe(7);
    const data = await bytesOf(blob);
    this.calls.push(`append ${offset}+${data.length}`);
    if (!this.accepting) throw new HttpError(409);
    if (data.length > this.chunkMaxBytes) throw new HttpError(413);
    const fault = this.faults.shift();
    if (fault === 'lost-before') throw new HttpError(0);
    if (fault && typeof fault === 'object' && 'status' in fault) throw new HttpError(fault.status);
    if (offset !== this.bytes.length) throw new HttpError(409);
    if (fault === 'lands-late') {
      this.late = data;
      throw new HttpError(0);
    }
    const kept = fault && typeof fault === 'object' && 'partial' in fault ? data.subarray(0, fault.partial) : data;
    this.bytes = concat([this.bytes, kept]);
    if (fault && fault !== 'ok') throw new HttpError(0);
    return this.answer();
  }

  async finish() {
    this.calls.push('finish');
    if (!this.accepting) throw new HttpError(404);
    this.state = 'ready';
    this.accepting = false;
    return this.answer();
  }

  finishOnUnload() {
    this.unloadFinishes++;
    this.state = 'processing';
  }
}

/** A Blob's bytes; jsdom's Blob has no arrayBuffer(), its FileReader does the reading. */
function bytesOf(blob: Blob): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error);
    reader.readAsArrayBuffer(blob);
  });
}

function concat(parts: Uint8Array[]): Uint8Array {
  const all = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    all.set(part, at);
    at += part.length;
  }
  return all;
}

/** A chunk of `size` bytes counting on from `from`, so any byte out of place shows. */
function chunk(from: number, size: number): Uint8Array {
  return Uint8Array.from({ length: size }, (_, i) => (from + i) % 251);
}

/** Until the server has confirmed everything queued (the fake reads Blobs asynchronously). */
async function drained(uploader: { backlog: Backlog }) {
  while (uploader.backlog.bytes > 0) await new Promise((resolve) => setTimeout(resolve, 1));
}

function setUp(server = new FakeLiveServer()) {
  const pauses: number[] = [];
  const backlogs: Backlog[] = [];
  const failures: unknown[] = [];
  const uploader = createChunkUploader({
    transport: server,
    sleep: async (ms) => {
      pauses.push(ms);
      // A retry loop that never ends would otherwise spin on resolved promises and hang the run.
      if (pauses.length > 50) throw new Error('retried forever');
    },
    onBacklog: (backlog) => backlogs.push(backlog),
    onFatal: (error) => failures.push(error),
  });
  let sent = 0;
  const recorded: Uint8Array[] = [];
  /** Queues the next `size` bytes of the recording. */
  const push = (size: number) => {
    const data = chunk(sent, size);
    sent += size;
    recorded.push(data);
    uploader.push(new Blob([data as BlobPart]));
  };
  return { server, uploader, pauses, backlogs, failures, push, recorded: () => concat(recorded) };
}

describe('the live recording upload', () => {
  it('appends each chunk in order at the offset the server holds, then finishes', async () => {
    const { server, uploader, push, recorded, pauses } = setUp();
    await uploader.start();
    push(300);
    push(200);
    push(100);
    await uploader.finish();
    expect(server.calls).toEqual(['start', 'append 0+300', 'append 300+200', 'append 500+100', 'finish']);
    expect(server.bytes).toEqual(recorded());
    expect(server.state).toBe('ready');
    expect(uploader.backlog).toEqual({ chunks: 0, bytes: 0 });
    expect(pauses).toEqual([]);
  });

  it('drops the bytes the server stored when only the answer was lost, and goes on after them', async () => {
    const { server, uploader, push, recorded } = setUp();
    await uploader.start();
    server.faults.push('ok', 'lost-after');
    push(300);
    push(200);
    await uploader.finish();
    // The 200 bytes arrived though the answer did not: they are not sent again.
    expect(server.calls).toEqual(['start', 'append 0+300', 'append 300+200', 'status', 'finish']);
    expect(server.bytes).toEqual(recorded());
  });

  it('sends only the rest of a chunk the server received part of', async () => {
    const { server, uploader, push, recorded } = setUp();
    await uploader.start();
    server.faults.push({ partial: 120 });
    push(300);
    push(50);
    await uploader.finish();
    expect(server.calls).toEqual(['start', 'append 0+300', 'status', 'append 120+180', 'append 300+50', 'finish']);
    expect(server.bytes).toEqual(recorded());
  });

  it('sends a chunk again from the same offset when nothing of it arrived', async () => {
    const { server, uploader, push, recorded } = setUp();
    await uploader.start();
    server.faults.push('lost-before', { status: 503 });
    push(300);
    await uploader.finish();
    expect(server.calls).toEqual(['start', 'append 0+300', 'status', 'append 0+300', 'status', 'append 0+300', 'finish']);
    expect(server.bytes).toEqual(recorded());
  });

  it('asks for the offset after a 409 and resumes there', async () => {
    const { server, uploader, push, recorded } = setUp();
    await uploader.start();
    // The first try times out but its bytes land after the server was asked: the second try is a 409.
    server.faults.push('lands-late');
    push(300);
    push(40);
    await uploader.finish();
    expect(server.calls).toEqual(['start', 'append 0+300', 'status', 'append 0+300', 'status', 'append 300+40', 'finish']);
    expect(server.bytes).toEqual(recorded());
  });

  it('waits longer after each failure in a row, and starts over after a success', async () => {
    const { server, uploader, push, pauses, recorded } = setUp();
    await uploader.start();
    server.faults.push('lost-before', 'lost-before', 'lost-before');
    server.statusFaults.push('ok', 'lost-before');
    push(10);
    await uploader.finish();
    expect(pauses).toEqual([250, 500, 1000, 2000]);
    expect(server.bytes).toEqual(recorded());

    const next = setUp();
    await next.uploader.start();
    next.server.faults.push('lost-before', 'ok', 'lost-before');
    next.push(10);
    next.push(10);
    next.push(10);
    await next.uploader.finish();
    expect(next.pauses).toEqual([250, 250]);
  });

  it('never reorders: chunks queued during a retry go after the one being retried', async () => {
    const server = new FakeLiveServer();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const uploader = createChunkUploader({ transport: server, sleep: () => held });
    await uploader.start();
    server.faults.push('lost-before');
    const data = [chunk(0, 100), chunk(100, 60), chunk(160, 30)];
    uploader.push(new Blob([data[0]! as BlobPart]));
    await Promise.resolve();
    await new Promise((resolve) => setTimeout(resolve, 0));
    // The first chunk failed and waits to be retried; two more arrive meanwhile.
    uploader.push(new Blob([data[1]! as BlobPart]));
    uploader.push(new Blob([data[2]! as BlobPart]));
    expect(uploader.backlog).toEqual({ chunks: 3, bytes: 190 });
    release();
    await uploader.finish();
    expect(server.calls).toEqual(['start', 'append 0+100', 'status', 'append 0+100', 'append 100+60', 'append 160+30', 'finish']);
    expect(server.bytes).toEqual(concat(data));
  });

  it('cuts a chunk larger than the server takes at once into pieces', async () => {
    const { server, uploader, push, recorded } = setUp(new FakeLiveServer(128));
    await uploader.start();
    push(300);
    await uploader.finish();
    expect(server.calls).toEqual(['start', 'append 0+128', 'append 128+128', 'append 256+44', 'finish']);
    expect(server.bytes).toEqual(recorded());
  });

  it('reports the backlog as chunks are queued and confirmed', async () => {
    const { uploader, push, backlogs } = setUp();
    await uploader.start();
    push(100);
    push(50);
    await uploader.finish();
    expect(backlogs[0]).toEqual({ chunks: 1, bytes: 100 });
    expect(backlogs).toContainEqual({ chunks: 2, bytes: 150 });
    expect(backlogs.at(-1)).toEqual({ chunks: 0, bytes: 0 });
  });

  it('goes on when the server stopped the recording after a stall: it still takes the chunks', async () => {
    const { server, uploader, push, recorded, failures } = setUp();
    await uploader.start();
    push(100);
    await drained(uploader);
    // Silence for too long: the server made the file with what it had, and keeps taking chunks.
    server.state = 'ready';
    server.faults.push('lost-before');
    push(50);
    push(50);
    await uploader.finish();
    expect(failures).toEqual([]);
    expect(server.calls).toEqual(['start', 'append 0+100', 'append 100+50', 'status', 'append 100+50', 'append 150+50', 'finish']);
    expect(server.bytes).toEqual(recorded());
  });

  it('stops for good when the server takes no more chunks, and sends nothing more', async () => {
    const { server, uploader, push, failures } = setUp();
    await uploader.start();
    push(100);
    await drained(uploader);
    // The server's resume window ended: the recording is what it had.
    server.state = 'ready';
    server.accepting = false;
    push(50);
    push(50);
    await uploader.finish();
    expect(failures).toHaveLength(1);
    expect(failures[0]).toBeInstanceOf(RecordingEndedError);
    expect(server.calls).toEqual(['start', 'append 0+100', 'append 100+50', 'status']);
    expect(uploader.backlog.chunks).toBe(0);
    push(10);
    expect(uploader.backlog.chunks).toBe(0);
  });

  it('ends the upload on a refusal that asking again will not change', async () => {
    const { server, uploader, push, failures } = setUp();
    await uploader.start();
    server.faults.push({ status: 403 });
    push(100);
    push(100);
    await uploader.finish();
    expect(failures).toHaveLength(1);
    expect(isFinalRefusal(failures[0])).toBe(true);
    expect(server.calls).toEqual(['start', 'append 0+100']);
  });

  it('ends the upload when the server says it holds more than was ever sent', async () => {
    const { server, uploader, push, failures } = setUp();
    await uploader.start();
    push(100);
    await drained(uploader);
    // Bytes that are not ours: the next append is a 409, and the offset asked for cannot be right.
    server.bytes = concat([server.bytes, chunk(0, 100)]);
    push(50);
    await uploader.finish();
    expect(failures).toHaveLength(1);
    expect(server.calls).toEqual(['start', 'append 0+100', 'append 100+50', 'status']);
  });

  it('throws the refusal to start to the caller', async () => {
    const server = new FakeLiveServer();
    server.start = async () => {
      throw new HttpError(403);
    };
    const { uploader } = setUp(server);
    await expect(uploader.start()).rejects.toMatchObject({ status: 403 });
  });

  it('finishes without waiting when the tab goes away, once', async () => {
    const { server, uploader, push } = setUp();
    await uploader.start();
    push(100);
    uploader.finishOnUnload();
    uploader.finishOnUnload();
    await uploader.finish();
    expect(server.unloadFinishes).toBe(1);
    expect(server.calls.filter((call) => call === 'finish')).toEqual([]);
  });

  it('retries a finish that failed on the network, and lets an already finished one be', async () => {
    const { server, uploader, push, pauses } = setUp();
    await uploader.start();
    push(10);
    let failures = 2;
    const finish = server.finish.bind(server);
    server.finish = async () => {
      if (failures-- > 0) throw new HttpError(0);
      return finish();
    };
    await uploader.finish();
    expect(server.state).toBe('ready');
    expect(pauses).toEqual([250, 500]);
  });
});

/** A ChunkStore in memory, as IndexedDB holds it: start → bytes, per recording. */
class MemoryStore implements ChunkStore {
  readonly chunks = new Map<number, Map<number, Blob>>();
  keep(recordingId: number, start: number, blob: Blob) {
    const kept = this.chunks.get(recordingId) ?? new Map<number, Blob>();
    kept.set(start, blob);
    this.chunks.set(recordingId, kept);
  }
  confirmed(recordingId: number, offset: number) {
    for (const [start, blob] of this.chunks.get(recordingId) ?? []) if (start + blob.size <= offset) this.chunks.get(recordingId)!.delete(start);
  }
  forget(recordingId: number) {
    this.chunks.delete(recordingId);
  }
  pending(recordingId: number) {
    return [...(this.chunks.get(recordingId) ?? [])].map(([start, blob]) => ({ start, blob }));
  }
}

describe('chunks kept beyond the page (issue 32)', () => {
  it('keeps each chunk until the server has it, and none once the recording is finished', async () => {
    const server = new FakeLiveServer();
    const store = new MemoryStore();
    const uploader = createChunkUploader({ transport: server, store, sleep: async () => {} });
    await uploader.start();
    uploader.push(new Blob([chunk(0, 100) as BlobPart]));
    expect(store.pending(7).map((c) => c.start)).toEqual([0]);
    await drained(uploader);
    expect(store.pending(7)).toEqual([]);
    server.faults.push('lost-before', 'lost-before');
    uploader.push(new Blob([chunk(100, 50) as BlobPart]));
    // Not yet on the server: still kept.
    expect(store.pending(7).map((c) => c.start)).toEqual([100]);
    await uploader.finish();
    expect(store.chunks.has(7)).toBe(false);
  });

  it('sends, from the next page, the kept chunks the server lacks, from where it stands, then finishes', async () => {
    // A page recorded 350 bytes; the server got 150 before the page was reloaded (and its unload finish).
    const server = new FakeLiveServer();
    const store = new MemoryStore();
    const first = createChunkUploader({ transport: server, store, sleep: () => new Promise(() => {}) });
    await first.start();
    const data = [chunk(0, 100), chunk(100, 100), chunk(200, 150)];
    server.faults.push('ok', { partial: 50 });
    for (const part of data) first.push(new Blob([part as BlobPart]));
    await new Promise((resolve) => setTimeout(resolve, 20));
    first.finishOnUnload();
    expect(server.bytes.length).toBe(150);
    expect(store.pending(7).map((c) => c.start)).toEqual([100, 200]);

    const next = createChunkUploader({ transport: server, store, sleep: async () => {} });
    await next.resume(7, store.pending(7));
    await next.finish();
    expect(server.bytes).toEqual(concat(data));
    expect(server.calls.slice(-4)).toEqual(['status', 'append 150+50', 'append 200+150', 'finish']);
    expect(store.chunks.has(7)).toBe(false);
  });

  it('forgets the kept chunks of a recording that takes no more, or lacks bytes nobody kept', async () => {
    const server = new FakeLiveServer();
    const store = new MemoryStore();
    store.keep(7, 0, new Blob([chunk(0, 10) as BlobPart]));
    server.accepting = false;
    await expect(createChunkUploader({ transport: server, store }).resume(7, store.pending(7))).rejects.toBeInstanceOf(RecordingEndedError);
    expect(store.chunks.has(7)).toBe(false);

    // The server holds 0 bytes, but only bytes from 10 on were kept: they cannot follow on.
    const open = new FakeLiveServer();
    store.keep(7, 10, new Blob([chunk(10, 10) as BlobPart]));
    const failures: unknown[] = [];
    const uploader = createChunkUploader({ transport: open, store, onFatal: (error) => failures.push(error) });
    await uploader.resume(7, store.pending(7));
    await uploader.finish();
    expect(failures).toHaveLength(1);
    expect(open.calls).toEqual(['status']);
    expect(store.chunks.has(7)).toBe(false);
  });
});
