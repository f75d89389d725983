// Live recordings: the class as the recorder's browser records it reaches the server while it is being
// made (contract recordings.ts: start → append chunks at an offset → finish), so a closed tab, a
// crashed browser or a lost network loses at most the chunk in flight.
//
// Who may record: in a class session's room, the course's teacher or an admin; in an ad hoc room, its
// creator or an admin (anyone else: 403). The recorder must be in the room at that moment (a member of
// its socket.io channel, on any server process): the browser records what it shows of the meeting,
// and leaving the room for good is what stops a recording nobody finished. One live recording per
// room (a unique partial index): a second start is 409.
//
// live-chunks.ts keeps the chunks, live-stops.ts stops a recording and makes its file, live-room.ts
// knows the room.
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream';
import { and, asc, eq, lt, sql } from 'drizzle-orm';
import { messages } from '@mooz/contract/messages';
import { liveChunkContentType, recordingLimits, type LiveRecording, type RoomRecording } from '@mooz/contract/recordings';
import { recordings, users } from '../../db/schema/index';
import type { AuthUser } from '../../http/authenticate';
import { HttpError, conflict, forbidden, notFound } from '../../http/errors';
import { sessionOfRoom } from '../sessions';
import { byteLimit, chunkKey, mimeOf, parseOffset } from './live-chunks';
import { isUniqueViolation, liveRecordingRooms } from './live-room';
import { liveRecordingStops, stoppedTakingChunks, type LiveRecordingsOptions, type RecordingRow } from './live-stops';
import { defaultTitle } from './titles';
import type { LiveRecordingParts } from './live-parts';

export { liveChunkPrefix } from './live-chunks';
export type { LiveRecordingsOptions } from './live-stops';

interface AppendRequest {
  contentType: string | undefined;
  uploadOffset: string | string[] | undefined;
  contentLength: string | undefined;
  body: unknown;
}

export function createLiveRecordings(parts: LiveRecordingParts, options: LiveRecordingsOptions) {
  const { db } = parts;
  const { roomOf, inRoom, tellRoom, notice } = liveRecordingRooms(parts);
  const { stopping, leaving, stop, remake, reopen, seal, track, logFailure, stopWhenQuiet } = liveRecordingStops(parts, options, { inRoom, tellRoom, notice });

  const present = (row: Pick<RecordingRow, 'id' | 'roomId' | 'status' | 'uploadOffset' | 'acceptsChunks'>): LiveRecording => ({
    id: row.id,
    room_id: row.roomId,
    status: row.status,
    upload_offset: row.uploadOffset,
    chunk_max_bytes: recordingLimits.chunkMaxBytes,
    accepts_chunks: row.acceptsChunks,
  });

  /** A live recording the caller may drive: its recorder, an admin, or the teacher of its course. */
  async function controlled(caller: AuthUser, id: number): Promise<RecordingRow> {
    const [row] = await db.select().from(recordings).where(and(eq(recordings.id, id), eq(recordings.source, 'live')));
    if (!row) throw notFound(messages.recordingNotFound);
    if (row.recordedBy === caller.id || caller.userType === 'admin') return row;
    if (row.sessionId !== null) {
      const found = row.roomId ? await sessionOfRoom(db, row.roomId) : null;
      if (found?.teacherId === caller.id) return row;
    }
    throw notFound(messages.recordingNotFound);
  }

  return {
    async start(caller: AuthUser, body: { room_id: string; title?: string }): Promise<LiveRecording> {
      const room = await roomOf(body.room_id);
      if (!room) throw notFound(messages.roomNotFound);
      if (room.hostId !== caller.id && caller.userType !== 'admin') throw forbidden(messages.recordingOnlyHost);
      if (!(await inRoom(body.room_id, caller.id))) throw conflict(messages.recordingNotInRoom);
      const now = options.now();
      let row: RecordingRow;
      try {
        [row] = (await db
          .insert(recordings)
          .values({
            sessionId: room.session?.id ?? null,
            courseId: room.session?.courseId ?? null,
            roomId: body.room_id,
            title: body.title ?? (await defaultTitle(db, body.room_id, room.name)),
            recordedBy: caller.id,
            source: 'live',
            status: 'recording',
            acceptsChunks: true,
            createdAt: now,
            lastChunkAt: now,
          })
          .returning()) as [RecordingRow];
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(messages.recordingAlreadyRunning);
        throw error;
      }
      const [user] = await db.select({ firstName: users.firstName, lastName: users.lastName }).from(users).where(eq(users.id, caller.id));
      tellRoom(row.roomId, {
        id: row.id,
        started_by: caller.id,
        started_by_name: `${user?.firstName ?? ''} ${user?.lastName ?? ''}`.trim(),
        started_at: row.createdAt.toISOString(),
      });
      return present(row);
    },

    async status(caller: AuthUser, id: number): Promise<LiveRecording> {
      return present(await controlled(caller, id));
    },

    /** One chunk: checked before a byte of it is read, stored, then the offset advanced if still the one held. */
    async append(caller: AuthUser, id: number, request: AppendRequest): Promise<LiveRecording> {
      const row = await controlled(caller, id);
      if (row.recordedBy !== caller.id && caller.userType !== 'admin') throw notFound(messages.recordingNotFound);
      if (mimeOf(request.contentType) !== liveChunkContentType) throw new HttpError(415, messages.recordingChunkType);
      const offset = parseOffset(request.uploadOffset);
      if (!row.acceptsChunks) throw conflict(messages.recordingNotLive);
      if (offset !== row.uploadOffset) throw conflict(messages.recordingOffsetMismatch);
      const declared = request.contentLength === undefined ? null : Number(request.contentLength);
      if (declared !== null && declared > recordingLimits.chunkMaxBytes) throw new HttpError(413, messages.recordingTooLarge);
      const body = request.body as Readable | undefined;
      if (!body || typeof body.pipe !== 'function' || declared === 0) return present(row);

      const key = chunkKey(id, offset);
      // The request's own failure (too large, cut off) is what the client hears, not the storage's;
      // either way the storage keeps nothing of this chunk.
      let refused: unknown = null;
      const limited = pipeline(body, byteLimit(recordingLimits.chunkMaxBytes), (error) => {
        if (error) refused ??= error;
      });
      let written: number;
      try {
        ({ sizeBytes: written } = await parts.storage.put(key, limited, 'application/octet-stream'));
      } catch (error) {
        if (refused instanceof HttpError) throw refused;
        if (refused) throw new HttpError(400, messages.recordingUploadFailed);
        throw error;
      }
      if (written === 0) {
        await parts.storage.delete(key);
        return present(row);
      }
      // Whatever the status: a stopped recording's file is made again with it (stop, finish, sweep).
      const [advanced] = await db
        .update(recordings)
        .set({ uploadOffset: offset + written, lastChunkAt: options.now() })
        .where(and(eq(recordings.id, id), eq(recordings.acceptsChunks, true), eq(recordings.uploadOffset, offset)))
        .returning();
      if (!advanced) {
        // Another append took this offset, or the recording stopped taking chunks meanwhile: this chunk is not part of it.
        await parts.storage.delete(key);
        const [now] = await db.select({ acceptsChunks: recordings.acceptsChunks }).from(recordings).where(eq(recordings.id, id));
        throw conflict(now?.acceptsChunks ? messages.recordingOffsetMismatch : messages.recordingNotLive);
      }
      return present(advanced.stalled && advanced.status !== 'recording' ? await reopen(advanced) : advanced);
    },

    /**
     * Stops and makes the file (again, when chunks came after it stopped); answers 'processing' when
     * that takes longer than finishWaitMs (it goes on). `complete`: the recorder sent everything, so
     * the recording takes no more chunks and they go.
     */
    async finish(caller: AuthUser, id: number, complete = false): Promise<LiveRecording> {
      let row = await controlled(caller, id);
      if (row.status === 'processing' && stopping.has(id)) {
        // Being made already: the finish is about what comes after.
        await stopping.get(id)!.done.catch(() => null);
        [row = row] = await db.select().from(recordings).where(eq(recordings.id, id));
      }
      // A recorder who finishes is not recording any more: late chunks are only added from now on.
      if (row.stalled) [row = row] = await db.update(recordings).set({ stalled: false }).where(eq(recordings.id, id)).returning();
      // Chunks its file lacks (they came after it stopped), or a recorder saying it sent everything.
      const lacking = row.acceptsChunks && row.uploadOffset !== row.madeFromBytes;
      let work: { claimed: Promise<unknown>; done: Promise<unknown> } | null = null;
      if (row.status === 'recording') work = stop(id, 'finished by the recorder', { complete });
      else if ((row.status === 'ready' || row.status === 'stopped') && lacking) work = remake(id, 'finished by the recorder', { complete });
      else if ((row.status === 'ready' || row.status === 'stopped') && row.acceptsChunks && complete) await seal(row);
      if (work) {
        await work.claimed;
        const made = work.done.catch(logFailure(id));
        let timer: NodeJS.Timeout | undefined;
        if (options.finishWaitMs > 0) await Promise.race([made, new Promise<void>((resolve) => (timer = setTimeout(resolve, options.finishWaitMs)))]);
        clearTimeout(timer);
      }
      // Gone: nothing playable was sent, and no more will be.
      const [now] = await db.select().from(recordings).where(eq(recordings.id, id));
      if (!now) throw notFound(messages.recordingEmpty);
      return present(now);
    },

    /** The notice a member of the room is shown: who records it, since when; null when nobody does. */
    async notice(roomId: string): Promise<RoomRecording | null> {
      return notice(roomId).catch((error: unknown) => {
        parts.log.error({ err: error, roomId }, 'looking up the recording of a room failed');
        return null;
      });
    },

    /**
     * A member left a room for good: if they were recording it, the recording stops with what it has,
     * once their last chunks stopped coming (leaveSettleMs).
     */
    memberLeft(roomId: string, userId: number) {
      db.select({ id: recordings.id })
        .from(recordings)
        .where(and(eq(recordings.roomId, roomId), eq(recordings.status, 'recording'), eq(recordings.recordedBy, userId)))
        .then(([row]) => row && stopWhenQuiet(row.id, options.leaveSettleMs))
        .catch((error: unknown) => parts.log.error({ err: error, roomId }, 'stopping the recording of a recorder who left failed'));
    },

    /**
     * One pass of the sweeper, as of `now`: stops the recordings silent for staleAfterMs (they stalled:
     * their recorder may go on), makes again those whose late chunks stopped coming, and lets the chunks
     * of those silent for resumableMs go.
     */
    async sweep(now: Date = options.now()): Promise<number> {
      const cutoff = new Date(now.getTime() - options.staleAfterMs);
      const silent = lt(sql`coalesce(${recordings.lastChunkAt}, ${recordings.createdAt})`, cutoff);
      const stale = await db
        .select({ id: recordings.id })
        .from(recordings)
        .where(and(eq(recordings.status, 'recording'), silent))
        .orderBy(asc(recordings.id));
      for (const { id } of stale) await stop(id, 'no chunk for too long', { stalled: true }).done.catch(logFailure(id));

      const late = await db
        .select({ id: recordings.id })
        .from(recordings)
        .where(and(stoppedTakingChunks, sql`${recordings.uploadOffset} <> coalesce(${recordings.madeFromBytes}, -1)`, silent))
        .orderBy(asc(recordings.id));
      for (const { id } of late) await remake(id, 'chunks came after it stopped').done.catch(logFailure(id));

      const sealed = await db
        .select()
        .from(recordings)
        .where(
          and(
            stoppedTakingChunks,
            eq(recordings.uploadOffset, sql`coalesce(${recordings.madeFromBytes}, -1)`),
            lt(recordings.lastChunkAt, new Date(now.getTime() - options.resumableMs)),
          ),
        );
      for (const row of sealed) await seal(row).catch(logFailure(row.id));

      // Recordings a process died while making: claimed again (the bumped time keeps the others off it).
      const stuck = await db
        .update(recordings)
        .set({ lastChunkAt: now })
        .where(
          and(
            eq(recordings.source, 'live'),
            eq(recordings.status, 'processing'),
            lt(recordings.lastChunkAt, new Date(now.getTime() - options.processingTimeoutMs)),
          ),
        )
        .returning();
      for (const row of stuck) {
        if (stopping.has(row.id)) continue;
        parts.log.warn({ recordingId: row.id }, 'making the file of a live recording left unfinished');
        await track(row.id, Promise.resolve(row)).done.catch(logFailure(row.id));
      }
      return stale.length + late.length + sealed.length + stuck.length;
    },

    /** Waits for the stops under way in this process. */
    async close() {
      for (const timer of leaving.values()) clearTimeout(timer);
      leaving.clear();
      await Promise.allSettled([...stopping.values()].map((entry) => entry.done));
    },

    /** The timings, which tests may change. */
    options,
  };
}

export type LiveRecordings = ReturnType<typeof createLiveRecordings>;
