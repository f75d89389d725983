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
// Stopping (the recorder's finish; the sweeper, for a recording silent for staleAfterSeconds; the
// recorder leaving the room for good, once their last chunks stopped coming): the row is claimed (`recording → processing`, one process wins), the room is told the
// recording stopped, and the chunks, concatenated, are made into the seekable file (finalise.ts).
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { Transform, pipeline } from 'node:stream';
import { and, asc, eq, lt, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { messages, validationMessages } from '@mooz/contract/messages';
import { liveChunkContentType, recordingLimits, type LiveRecording, type RoomRecording } from '@mooz/contract/recordings';
import { courses, recordings, users } from '../../db/schema/index';
import type { AuthUser } from '../../http/authenticate';
import { HttpError, conflict, forbidden, invalidField, notFound } from '../../http/errors';
import { roomChannel } from '../../realtime/sockets';
import { sessionOfRoom } from '../classes/access';
import { finaliseRecording, type FinaliseResult } from './finalise';

type RecordingRow = typeof recordings.$inferSelect;

export interface LiveRecordingsOptions {
  /** A recording without a chunk for this long is stopped by the sweeper (default: the contract's). */
  staleAfterMs: number;
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

function defaultTitle(name: string, timeZone: string, now: Date): string {
  const date = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
  const suffix = ` (${date})`;
  return name.slice(0, recordingLimits.titleMaxLength - suffix.length) + suffix;
}

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

  const present = (row: Pick<RecordingRow, 'id' | 'roomId' | 'status' | 'sizeBytes'>): LiveRecording => ({
    id: row.id,
    room_id: row.roomId,
    status: row.status,
    upload_offset: row.sizeBytes,
    chunk_max_bytes: recordingLimits.chunkMaxBytes,
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
  async function chunkKeys(row: Pick<RecordingRow, 'id' | 'sizeBytes'>): Promise<string[]> {
    const byOffset = new Map<number, string[]>();
    for (const key of await app.recordingStorage.list(liveChunkPrefix(row.id))) {
      const offset = offsetOfKey(key);
      if (!Number.isSafeInteger(offset) || offset >= row.sizeBytes) continue;
      byOffset.set(offset, [...(byOffset.get(offset) ?? []), key]);
    }
    const chain: string[] = [];
    for (let offset = 0; offset < row.sizeBytes; ) {
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
          if (offset + length === row.sizeBytes || byOffset.has(offset + length)) {
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

  /** Claims a live recording that is still recording: true for the one caller, on any process, that stops it. */
  async function claim(id: number): Promise<RecordingRow | null> {
    const [row] = await db
      .update(recordings)
      .set({ status: 'processing', lastChunkAt: options.now() })
      .where(and(eq(recordings.id, id), eq(recordings.status, 'recording')))
      .returning();
    return row ?? null;
  }

  /** Makes the file of a claimed ('processing') recording from its chunks, then removes them. */
  async function make(row: RecordingRow): Promise<FinaliseResult> {
    const result = await finaliseRecording(app, row.id, await chunkKeys(row));
    // Whatever the chain left out (a lost race's object, bytes past a gap) goes with the chunks.
    if (result.outcome !== 'gone') await app.recordingStorage.deletePrefix(liveChunkPrefix(row.id));
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
  function stop(id: number, why: string) {
    const existing = stopping.get(id);
    if (existing) return existing;
    return track(
      id,
      claim(id).then((row) => {
        if (row) {
          tellRoom(row.roomId, null);
          app.log.info({ recordingId: id, why, bytes: row.sizeBytes }, 'live recording stopped');
        }
        return row;
      }),
    );
  }

  const logFailure = (id: number) => (error: unknown) => {
    // The row stays 'processing' with its chunks; the sweeper makes it again after processingTimeoutMs.
    app.log.error({ err: error, recordingId: id }, 'making the file of a live recording failed');
    return null;
  };

  /** Stops in the background. */
  function stopQuietly(id: number, why: string) {
    stop(id, why).done.catch(logFailure(id));
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
          else stopQuietly(id, 'the recorder left the room');
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
      // The date in the title is the class's own (its course's time zone); an ad hoc meeting's is UTC's.
      let timeZone = 'UTC';
      if (room.session) {
        const [course] = await db.select({ timeZone: courses.timeZone }).from(courses).where(eq(courses.id, room.session.courseId));
        timeZone = course?.timeZone ?? timeZone;
      }
      const now = options.now();
      let row: RecordingRow;
      try {
        [row] = (await db
          .insert(recordings)
          .values({
            sessionId: room.session?.id ?? null,
            courseId: room.session?.courseId ?? null,
            roomId: body.room_id,
            title: body.title ?? defaultTitle(room.name, timeZone, now),
            recordedBy: caller.id,
            source: 'live',
            status: 'recording',
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
      if (row.status !== 'recording') throw conflict(messages.recordingNotLive);
      if (offset !== row.sizeBytes) throw conflict(messages.recordingOffsetMismatch);
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
      const [advanced] = await db
        .update(recordings)
        .set({ sizeBytes: offset + written, lastChunkAt: options.now() })
        .where(and(eq(recordings.id, id), eq(recordings.status, 'recording'), eq(recordings.sizeBytes, offset)))
        .returning();
      if (!advanced) {
        // Another append took this offset, or the recording stopped meanwhile: this chunk is not part of it.
        await app.recordingStorage.delete(key);
        const [now] = await db.select({ status: recordings.status }).from(recordings).where(eq(recordings.id, id));
        throw conflict(now?.status === 'recording' ? messages.recordingOffsetMismatch : messages.recordingNotLive);
      }
      return present(advanced);
    },

    /** Stops and makes the file; answers 'processing' when that takes longer than finishWaitMs (it goes on). */
    async finish(caller: AuthUser, id: number): Promise<LiveRecording> {
      const row = await controlled(caller, id);
      if (row.status === 'recording' || stopping.has(id)) {
        const { claimed, done } = stop(id, 'finished by the recorder');
        await claimed;
        const made = done.catch(logFailure(id));
        let timer: NodeJS.Timeout | undefined;
        const waited =
          options.finishWaitMs > 0
            ? await Promise.race([made.then((result) => ({ result })), new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), options.finishWaitMs)))])
            : null;
        clearTimeout(timer);
        if (waited?.result?.outcome === 'empty') throw notFound(messages.recordingEmpty);
      }
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

    /** One pass of the sweeper: stops the recordings silent for staleAfterMs before `now`. */
    async sweep(now: Date = options.now()): Promise<number> {
      const cutoff = new Date(now.getTime() - options.staleAfterMs);
      const stale = await db
        .select({ id: recordings.id })
        .from(recordings)
        .where(and(eq(recordings.status, 'recording'), lt(sql`coalesce(${recordings.lastChunkAt}, ${recordings.createdAt})`, cutoff)))
        .orderBy(asc(recordings.id));
      for (const { id } of stale) await stop(id, 'no chunk for too long').done.catch(logFailure(id));

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
      return stale.length + stuck.length;
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
