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
// Chunks: each append is stored as its own object (S3 cannot append), `live/<id>/<offset, 15
// digits>-<random>`, and only then is the row's offset advanced, by a conditional update (`where
// size_bytes = offset`): of two appends racing at one offset, one wins and the other removes its own
// object and gets 409. The random part keeps the racers' objects apart, so the loser never removes
// the winner's bytes. The client that lost an answer asks liveStatus for the offset and resumes there;
// a chunk sent again at an old offset is 409 and changes nothing.
//
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
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { Transform, pipeline } from 'node:stream';
import { and, asc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { messages, validationMessages } from '@mooz/contract/messages';
import { liveChunkContentType, recordingLimits, type LiveRecording, type RoomRecording } from '@mooz/contract/recordings';
import { recordings, users } from '../../db/schema/index';
import type { AuthUser } from '../../http/authenticate';
import { HttpError, conflict, forbidden, invalidField, notFound } from '../../http/errors';
import { roomChannel } from '../../realtime/sockets';
import { sessionOfRoom } from '../classes/access';
import { finaliseRecording, type FinaliseResult } from './finalise';
import { defaultTitle } from './titles';

type RecordingRow = typeof recordings.$inferSelect;

/** Why a recording stops: `stalled`, only because its chunks stopped coming; `complete`, its recorder sent everything. */
interface StopHow {
  stalled?: boolean;
  complete?: boolean;
}

/** Live recordings stopped (their file made, or nothing playable yet) that still take their recorder's chunks. */
const stoppedTakingChunks = and(eq(recordings.source, 'live'), inArray(recordings.status, ['ready', 'stopped']), eq(recordings.acceptsChunks, true));

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

/** The chunk objects of a recording live under this prefix. */
export const liveChunkPrefix = (recordingId: number) => `live/${recordingId}/`;
const offsetDigits = 15;
const chunkKey = (recordingId: number, offset: number) =>
  `${liveChunkPrefix(recordingId)}${String(offset).padStart(offsetDigits, '0')}-${randomBytes(6).toString('hex')}`;
const offsetOfKey = (key: string) => Number(key.slice(key.lastIndexOf('/') + 1, key.lastIndexOf('/') + 1 + offsetDigits));

/** The Upload-Offset header: a whole number of bytes, nothing else. */
function parseOffset(header: string | string[] | undefined): number {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || !/^\d{1,15}$/.test(value.trim())) throw invalidField('upload-offset', validationMessages.uploadOffset);
  return Number(value.trim());
}

/** The mime type of a Content-Type header, without its parameters. */
const mimeOf = (header: string | undefined) => (header ?? '').split(';')[0]!.trim().toLowerCase();

/** Fails the stream with a 413 once more than `max` bytes went through it. */
function byteLimit(max: number) {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen > max) return done(new HttpError(413, messages.recordingTooLarge));
      done(null, chunk);
    },
  });
}

export interface AppendRequest {
  contentType: string | undefined;
  uploadOffset: string | string[] | undefined;
  contentLength: string | undefined;
  body: unknown;
}

export function createLiveRecordings(app: FastifyInstance, options: LiveRecordingsOptions) {
  const { db } = app;
  /**
   * Stops under way in this process (the app waits for them when it closes): the claim, then the
   * file being made.
   */
  const stopping = new Map<number, { claimed: Promise<RecordingRow | null>; done: Promise<FinaliseResult | null> }>();

  const present = (row: Pick<RecordingRow, 'id' | 'roomId' | 'status' | 'uploadOffset' | 'acceptsChunks'>): LiveRecording => ({
    id: row.id,
    room_id: row.roomId,
    status: row.status,
    upload_offset: row.uploadOffset,
    chunk_max_bytes: recordingLimits.chunkMaxBytes,
    accepts_chunks: row.acceptsChunks,
  });

  /** The room behind an id, and who hosts it: a class session's course teacher, or an ad hoc room's creator. */
  async function roomOf(roomId: string) {
    const adHoc = await app.realtime.store.findRoom(roomId);
    if (adHoc) return { name: adHoc.name, hostId: adHoc.created_by, session: null };
    const found = await sessionOfRoom(db, roomId);
    if (!found) return null;
    return { name: found.session.title, hostId: found.teacherId, session: found.session };
  }

  /** Whether the user has a connection in the room's channel now, on this server process or another. */
  async function inRoom(roomId: string, userId: number): Promise<boolean> {
    const channel = app.realtime.io.in(roomChannel(roomId));
    const sockets = await channel.fetchSockets().catch(() => app.realtime.io.local.in(roomChannel(roomId)).fetchSockets());
    return sockets.some((socket) => socket.data.user?.id === userId);
  }

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

  function tellRoom(roomId: string, recording: RoomRecording | null) {
    app.realtime.io.to(roomChannel(roomId)).emit('action:recording_state', { roomId, recording });
  }

  async function notice(roomId: string): Promise<RoomRecording | null> {
    const [row] = await db
      .select({ id: recordings.id, startedBy: recordings.recordedBy, firstName: users.firstName, lastName: users.lastName, startedAt: recordings.createdAt })
      .from(recordings)
      .innerJoin(users, eq(users.id, recordings.recordedBy))
      .where(and(eq(recordings.roomId, roomId), eq(recordings.status, 'recording')));
    if (!row) return null;
    return { id: row.id, started_by: row.startedBy, started_by_name: `${row.firstName} ${row.lastName}`.trim(), started_at: row.startedAt.toISOString() };
  }

  /**
   * The chunks of a stopped recording, in order: one object per offset, from 0 to the offset held.
   * Objects left by an append that lost a race (removed by it, unless its process died first) are
   * told apart by their length: the chain's next chunk starts where this one ends.
   */
  async function chunkKeys(row: Pick<RecordingRow, 'id' | 'uploadOffset'>): Promise<string[]> {
    const byOffset = new Map<number, string[]>();
    for (const key of await app.recordingStorage.list(liveChunkPrefix(row.id))) {
      const offset = offsetOfKey(key);
      if (!Number.isSafeInteger(offset) || offset >= row.uploadOffset) continue;
      byOffset.set(offset, [...(byOffset.get(offset) ?? []), key]);
    }
    const chain: string[] = [];
    for (let offset = 0; offset < row.uploadOffset; ) {
      const candidates = byOffset.get(offset);
      if (!candidates) {
        app.log.error({ recordingId: row.id, offset }, 'a live recording lacks the chunk at this offset: keeping what comes before');
        break;
      }
      let chosen = candidates[0]!;
      let size = candidates.length === 1 ? null : 0;
      if (candidates.length > 1) {
        // Same length: the same chunk sent twice; either copy is the chunk.
        for (const key of candidates) {
          const length = (await app.recordingStorage.size(key)) ?? 0;
          if (offset + length === row.uploadOffset || byOffset.has(offset + length)) {
            chosen = key;
            size = length;
            break;
          }
        }
      }
      chain.push(chosen);
      size ??= (await app.recordingStorage.size(chosen)) ?? 0;
      if (size <= 0) break;
      offset += size;
    }
    return chain;
  }

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
    const result = await finaliseRecording(app, row.id, await chunkKeys(row), { keepSources: keep, set: { madeFromBytes: row.uploadOffset } });
    // Whatever the chain left out (a lost race's object, bytes past a gap) goes with the chunks.
    if (!keep && result.outcome !== 'gone') await app.recordingStorage.deletePrefix(liveChunkPrefix(row.id));
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
          app.log.info({ recordingId: id, why, bytes: row.uploadOffset }, 'live recording stopped');
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
        if (row) app.log.info({ recordingId: id, why, bytes: row.uploadOffset, before: row.madeFromBytes }, 'live recording made again');
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
      app.log.info({ recordingId: row.id, bytes: reopened.uploadOffset }, 'live recording reopened by its recorder after a stall');
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
    app.log.error({ err: error, recordingId: id }, 'making the file of a live recording failed');
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
    await app.recordingStorage.deletePrefix(liveChunkPrefix(row.id));
    app.log.info({ recordingId: row.id, bytes: row.uploadOffset, kept: sealed.status === 'ready' }, 'live recording takes no more chunks');
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
        ({ sizeBytes: written } = await app.recordingStorage.put(key, limited, 'application/octet-stream'));
      } catch (error) {
        if (refused instanceof HttpError) throw refused;
        if (refused) throw new HttpError(400, messages.recordingUploadFailed);
        throw error;
      }
      if (written === 0) {
        await app.recordingStorage.delete(key);
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
        await app.recordingStorage.delete(key);
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
        app.log.error({ err: error, roomId }, 'looking up the recording of a room failed');
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
        .catch((error: unknown) => app.log.error({ err: error, roomId }, 'stopping the recording of a recorder who left failed'));
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
        app.log.warn({ recordingId: row.id }, 'making the file of a live recording left unfinished');
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

function isUniqueViolation(error: unknown): boolean {
  for (let cause = error as { code?: string; cause?: unknown } | undefined, i = 0; cause && i < 4; cause = cause.cause as typeof cause, i++) {
    if (cause.code === '23505') return true;
  }
  return false;
}
