// Stopping (the recorder's finish; the sweeper, for a recording silent for staleAfterMs; the
// recorder leaving the room for good, once their last chunks stopped coming): the row is claimed
// (`recording → processing`, one process wins), the room is told the recording stopped, and the
// chunks, concatenated, are made into the seekable file (finalise.ts), listed from then on.
//
// Nothing a recorder sends is lost by a stop: a stop keeps the chunks (acceptsChunks) for
// resumableMs after the last one, and an append at the offset held is taken whatever the status. A
// recording the server stopped once its chunks stopped coming (`stalled`: silent for staleAfterMs, or
// its recorder gone from the room) is reopened by its recorder's next chunk while they are in the room
// (the room is told it is recorded again: the page records still). After the recorder's own finish (a
// page that left, reloaded and sends what it had kept) the chunks are only added. Either way the file is made
// again with everything: on the next stop, on a finish, or by the sweeper once the chunks stop again.
// The chunks go when the recorder finishes saying it sent everything (`complete`), or when none came
// for resumableMs (the sweeper); from then on a chunk is 409. So the longest stall that loses nothing
// is resumableMs, counted from the last chunk the server received.
import { and, eq, inArray } from 'drizzle-orm';
import { recordings } from '../../db/schema/index';
import { finaliseRecording, type FinaliseResult } from './finalise';
import { chunkKeys, liveChunkPrefix } from './live-chunks';
import { isUniqueViolation, type LiveRecordingRooms } from './live-room';
import type { LiveRecordingParts } from './live-parts';

export type RecordingRow = typeof recordings.$inferSelect;

/** Why a recording stops: `stalled`, only because its chunks stopped coming; `complete`, its recorder sent everything. */
interface StopHow {
  stalled?: boolean;
  complete?: boolean;
}

/** Live recordings stopped (their file made, or nothing playable yet) that still take their recorder's chunks. */
export const stoppedTakingChunks = and(eq(recordings.source, 'live'), inArray(recordings.status, ['ready', 'stopped']), eq(recordings.acceptsChunks, true));

export interface LiveRecordingsOptions {
  /** A recording without a chunk for this long is stopped by the sweeper, and made with what it has (RECORDING_STALL_SECONDS). */
  staleAfterMs: number;
  /** A stopped recording takes its recorder's chunks for this long after the last one (RECORDING_RESUMABLE_SECONDS). */
  resumableMs: number;
  /** How long finishLive waits for the file before answering 'processing' (it is made all the same). */
  finishWaitMs: number;
  /**
   * A live recording 'processing' for this long was left by a server process that died while making
   * its file (its chunks are still there): the sweeper makes it again.
   */
  processingTimeoutMs: number;
  /**
   * A recorder who left the room for good has this long without sending a chunk before the server
   * stops the recording: a page that left on purpose still sends its last chunks and its finish
   * (MediaRecorder hands over its last chunk after stop()).
   */
  leaveSettleMs: number;
  now(): Date;
}

/** Stopping live recordings and making their files, in this process: what the API and the sweeper call. */
export function liveRecordingStops(parts: LiveRecordingParts, options: LiveRecordingsOptions, rooms: Pick<LiveRecordingRooms, 'inRoom' | 'tellRoom' | 'notice'>) {
  const { db } = parts;
  const { inRoom, tellRoom, notice } = rooms;
  /**
   * Stops under way in this process (the app waits for them when it closes): the claim, then the
   * file being made.
   */
  const stopping = new Map<number, { claimed: Promise<RecordingRow | null>; done: Promise<FinaliseResult | null> }>();

  /**
   * Claims a live recording to make its file: the one caller, on any process, that gets the row back
   * makes it. `from`: a recording still recording (a stop), or a stopped one that has chunks its file
   * lacks (or whose recorder said it sent everything). `complete` stops its taking chunks.
   */
  async function claim(id: number, from: 'recording' | 'stopped', how: StopHow): Promise<RecordingRow | null> {
    const [row] = await db
      .update(recordings)
      .set({
        status: 'processing',
        lastChunkAt: options.now(),
        stalled: how.stalled ?? false,
        ...(how.complete ? { acceptsChunks: false } : {}),
      })
      .where(and(eq(recordings.id, id), from === 'recording' ? eq(recordings.status, 'recording') : inArray(recordings.status, ['ready', 'stopped'])))
      .returning();
    return row ?? null;
  }

  /**
   * Makes the file of a claimed ('processing') recording from its chunks. They stay while it takes
   * chunks; otherwise they go.
   */
  async function make(row: RecordingRow): Promise<FinaliseResult> {
    const keep = row.acceptsChunks;
    const result = await finaliseRecording(parts, row.id, await chunkKeys(parts, row), { keepSources: keep, set: { madeFromBytes: row.uploadOffset } });
    // Whatever the chain left out (a lost race's object, bytes past a gap) goes with the chunks.
    if (!keep && result.outcome !== 'gone') await parts.storage.deletePrefix(liveChunkPrefix(row.id));
    return result;
  }

  function track(id: number, claimed: Promise<RecordingRow | null>) {
    const done = claimed.then((row) => (row ? make(row) : null));
    const entry = { claimed, done };
    stopping.set(id, entry);
    done.then(
      () => stopping.delete(id),
      () => stopping.delete(id),
    );
    return entry;
  }

  /**
   * Stops a recording: claims it (only one caller anywhere gets it), tells the room, and makes the
   * file. `claimed` settles with the row once it is 'processing' (null: someone else had stopped it);
   * `done` with the finalise's outcome.
   */
  function stop(id: number, why: string, how: StopHow = {}) {
    const existing = stopping.get(id);
    if (existing) return existing;
    return track(
      id,
      claim(id, 'recording', how).then((row) => {
        if (row) {
          tellRoom(row.roomId, null);
          parts.log.info({ recordingId: id, why, bytes: row.uploadOffset }, 'live recording stopped');
        }
        return row;
      }),
    );
  }

  /** Makes the file of a stopped recording again, with the chunks that came after it stopped. */
  function remake(id: number, why: string, how: StopHow = {}) {
    const existing = stopping.get(id);
    if (existing) return existing;
    return track(
      id,
      claim(id, 'stopped', how).then((row) => {
        if (row) parts.log.info({ recordingId: id, why, bytes: row.uploadOffset, before: row.madeFromBytes }, 'live recording made again');
        return row;
      }),
    );
  }

  /**
   * A stopped recording that stalled, whose recorder sends again while in the room: it is recorded
   * again (the room is told). Not when someone records the room meanwhile (one recording at a time):
   * its chunks are only added then.
   */
  async function reopen(row: RecordingRow): Promise<RecordingRow> {
    if (!(await inRoom(row.roomId, row.recordedBy))) return row;
    try {
      const [reopened] = await db
        .update(recordings)
        .set({ status: 'recording', stalled: false })
        .where(and(eq(recordings.id, row.id), inArray(recordings.status, ['ready', 'stopped']), eq(recordings.stalled, true)))
        .returning();
      if (!reopened) return row;
      parts.log.info({ recordingId: row.id, bytes: reopened.uploadOffset }, 'live recording reopened by its recorder after a stall');
      const shown = await notice(reopened.roomId);
      if (shown) tellRoom(reopened.roomId, shown);
      return reopened;
    } catch (error) {
      if (isUniqueViolation(error)) return row;
      throw error;
    }
  }

  const logFailure = (id: number) => (error: unknown) => {
    // The row stays 'processing' with its chunks; the sweeper makes it again after processingTimeoutMs.
    parts.log.error({ err: error, recordingId: id }, 'making the file of a live recording failed');
    return null;
  };

  /**
   * A stopped recording whose file has all its chunks takes no more: its chunks go (and the row, when
   * nothing playable ever came).
   */
  async function seal(row: Pick<RecordingRow, 'id' | 'uploadOffset'>): Promise<void> {
    const [sealed] = await db
      .update(recordings)
      .set({ acceptsChunks: false })
      .where(and(eq(recordings.id, row.id), stoppedTakingChunks, eq(recordings.uploadOffset, row.uploadOffset), eq(recordings.madeFromBytes, row.uploadOffset)))
      .returning();
    if (!sealed) return;
    if (sealed.status === 'stopped') await db.delete(recordings).where(and(eq(recordings.id, row.id), eq(recordings.status, 'stopped')));
    await parts.storage.deletePrefix(liveChunkPrefix(row.id));
    parts.log.info({ recordingId: row.id, bytes: row.uploadOffset, kept: sealed.status === 'ready' }, 'live recording takes no more chunks');
  }

  /** Stops in the background. */
  function stopQuietly(id: number, why: string, how: StopHow = {}) {
    stop(id, why, how).done.catch(logFailure(id));
  }

  /** Recordings whose recorder left, each stopped once no chunk came for leaveSettleMs. */
  const leaving = new Map<number, NodeJS.Timeout>();
  function stopWhenQuiet(id: number, delayMs: number) {
    clearTimeout(leaving.get(id));
    const timer = setTimeout(() => {
      leaving.delete(id);
      db.select({ status: recordings.status, lastChunkAt: recordings.lastChunkAt })
        .from(recordings)
        .where(eq(recordings.id, id))
        .then(([row]) => {
          if (row?.status !== 'recording') return;
          // Chunks still coming (a backlog being sent): wait until they stop.
          const quietMs = options.now().getTime() - (row.lastChunkAt?.getTime() ?? 0);
          if (quietMs < options.leaveSettleMs) stopWhenQuiet(id, options.leaveSettleMs - quietMs);
          else stopQuietly(id, 'the recorder left the room', { stalled: true });
        })
        .catch(logFailure(id));
    }, delayMs);
    timer.unref();
    leaving.set(id, timer);
  }

  return { stopping, leaving, stop, remake, reopen, seal, track, logFailure, stopWhenQuiet };
}
