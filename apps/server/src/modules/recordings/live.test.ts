// The live recording protocol against a listening server, real socket.io clients and the app's own
// recording storage: who may record, chunks stored at their offsets and resumed after a lost answer,
// the file made seekable on finish, the sweeper and the recorder leaving, and the room's notice.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { messages, validationMessages } from '@mooz/contract/messages';
import { liveChunkContentType, recordingLimits, type LiveRecording, type RoomRecording } from '@mooz/contract/recordings';
import { recordings } from '../../db/schema/index';
import { ask, classSession, connect, createdRoom, meetingServer, next, person, quiet, record, type Client } from '../../../test/realtime-clients';
import { scanWebm } from './webm';
import { seekableOf } from '../../../test/recordings';

const server = meetingServer();
const fixtures = path.resolve(import.meta.dirname, '../../../test/fixtures');
const webm = readFileSync(path.join(fixtures, 'mediarecorder-3s.webm'));
const recordedMs = (JSON.parse(readFileSync(path.join(fixtures, 'mediarecorder.json'), 'utf8')) as Record<string, { recordedMs: number }>)['mediarecorder-3s.webm']!
  .recordedMs;

/** The fixture cut in three at arbitrary bytes, as a recorder's timeslices cut a stream. */
const chunks = [webm.subarray(0, 40_000), webm.subarray(40_000, 81_234), webm.subarray(81_234)];

type Person = Awaited<ReturnType<typeof person>>;
type State = { roomId: string; recording: RoomRecording | null };

const bearer = (who: Person) => ({ authorization: `Bearer ${who.token}` });

function start(who: Person, body: object) {
  return server.t.app.inject({ method: 'POST', url: '/api/classes/recordings/live/', headers: bearer(who), payload: body });
}
function append(who: Person, id: number, offset: number | string | null, payload: Buffer | Readable, contentType = liveChunkContentType) {
  const headers: Record<string, string> = { ...bearer(who), 'content-type': contentType };
  if (offset !== null) headers['upload-offset'] = String(offset);
  return server.t.app.inject({ method: 'PATCH', url: `/api/classes/recordings/live/${id}/`, headers, payload });
}
function status(who: Person, id: number) {
  return server.t.app.inject({ method: 'GET', url: `/api/classes/recordings/live/${id}/`, headers: bearer(who) });
}
/** The recorder's finish; `complete` (as the page says once every chunk is sent) unless told otherwise. */
function finish(who: Person, id: number, complete = true) {
  return server.t.app.inject({ method: 'POST', url: `/api/classes/recordings/live/${id}/finish/${complete ? '?complete=true' : ''}`, headers: bearer(who) });
}
const rowOf = async (id: number) => (await server.t.db.select().from(recordings).where(eq(recordings.id, id)))[0];
const storage = () => server.t.app.storage;

async function readAll(key: string): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of await storage().read(key)) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

/** A class session's room with its teacher in it (and a student, when asked). */
async function classRoom({ withStudent = false } = {}) {
  const teacher = await person(server.t, 'teacher');
  const { roomId, sessionId } = await classSession(server.t, teacher.userId);
  const teacherSocket = await connect(server.url, teacher.auth());
  await ask(teacherSocket, 'request:join_room', { roomId, userName: 'Teacher' });
  let student: Person | null = null;
  let studentSocket: Client | null = null;
  if (withStudent) {
    student = await person(server.t, 'student');
    studentSocket = await connect(server.url, student.auth());
    await ask(studentSocket, 'request:join_room', { roomId, userName: 'Student' });
  }
  return { teacher, teacherSocket, roomId, sessionId, student, studentSocket };
}

async function started(who: Person, roomId: string): Promise<LiveRecording> {
  const res = await start(who, { room_id: roomId });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as LiveRecording;
}

async function sendAll(who: Person, id: number, parts: Buffer[], from = 0) {
  let offset = from;
  for (const part of parts) {
    const res = await append(who, id, offset, part);
    expect(res.statusCode, res.body).toBe(200);
    offset += part.length;
    expect(res.json().data.upload_offset).toBe(offset);
  }
  return offset;
}

describe('recording a class live', () => {
  it('stores the chunks as they come and, on finish, a seekable file of all of them with the right duration', async () => {
    const { teacher, roomId, sessionId } = await classRoom();
    const live = await started(teacher, roomId);
    expect(live).toEqual({ id: live.id, room_id: roomId, status: 'recording', upload_offset: 0, chunk_max_bytes: recordingLimits.chunkMaxBytes, accepts_chunks: true });
    const row = await rowOf(live.id);
    expect(row).toMatchObject({ source: 'live', status: 'recording', sessionId, recordedBy: teacher.userId, title: 'Week 1' });
    expect(row!.courseId).not.toBeNull();

    await sendAll(teacher, live.id, chunks);
    // Each chunk is its own object, in offset order.
    expect(await storage().list(`live/${live.id}/`)).toHaveLength(3);

    const res = await finish(teacher, live.id);
    expect(res.statusCode, res.body).toBe(200);
    const file = await readAll(`recordings/${live.id}.webm`);
    expect(res.json().data).toEqual({ id: live.id, room_id: roomId, status: 'ready', upload_offset: webm.length, chunk_max_bytes: recordingLimits.chunkMaxBytes, accepts_chunks: false });
    expect(file.equals(await seekableOf(webm))).toBe(true);
    const ready = await rowOf(live.id);
    expect(ready).toMatchObject({ status: 'ready', storageKey: `recordings/${live.id}.webm`, sizeBytes: file.length });
    expect(ready!.readyAt).toBeInstanceOf(Date);
    expect(Math.abs(ready!.durationSeconds * 1000 - recordedMs)).toBeLessThan(100);
    const scan = await scanWebm(Readable.from([file]));
    expect(scan).toMatchObject({ originalHasCues: true, originalHasDuration: true, segmentSizeKnown: true, truncated: false });
    // The chunks are gone; finishing again answers the same.
    expect(await storage().list(`live/${live.id}/`)).toEqual([]);
    expect((await finish(teacher, live.id)).json().data.status).toBe('ready');
  });

  it('resumes after a lost answer: a chunk sent again at its old offset is 409 and changes nothing, liveStatus says where to go on', async () => {
    const { teacher, roomId } = await classRoom();
    const live = await started(teacher, roomId);
    await sendAll(teacher, live.id, [chunks[0]!]);
    // The second chunk arrives, but its answer is lost: the client, back online, sends it again.
    expect((await append(teacher, live.id, chunks[0]!.length, chunks[1]!)).statusCode).toBe(200);
    const objects = await storage().list(`live/${live.id}/`);
    const again = await append(teacher, live.id, chunks[0]!.length, chunks[1]!);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: messages.recordingOffsetMismatch });
    expect(await storage().list(`live/${live.id}/`)).toEqual(objects);
    expect((await rowOf(live.id))!.uploadOffset).toBe(chunks[0]!.length + chunks[1]!.length);

    // It asks where the recording stands, and goes on from there.
    const where = await status(teacher, live.id);
    expect(where.statusCode).toBe(200);
    expect(where.json().data).toMatchObject({ status: 'recording', upload_offset: chunks[0]!.length + chunks[1]!.length });
    await sendAll(teacher, live.id, [chunks[2]!], where.json().data.upload_offset);
    expect((await finish(teacher, live.id)).json().data.status).toBe('ready');
    expect((await readAll(`recordings/${live.id}.webm`)).equals(await seekableOf(webm))).toBe(true);
  });

  it('lets one of two appends racing at the same offset win; the other is 409 and leaves no object', async () => {
    const { teacher, roomId } = await classRoom();
    const live = await started(teacher, roomId);
    const [a, b] = await Promise.all([append(teacher, live.id, 0, chunks[0]!), append(teacher, live.id, 0, webm.subarray(0, 1000))]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    const winner = a.statusCode === 200 ? chunks[0]! : webm.subarray(0, 1000);
    expect((await rowOf(live.id))!.uploadOffset).toBe(winner.length);
    const objects = await storage().list(`live/${live.id}/`);
    expect(objects).toHaveLength(1);
    expect((await readAll(objects[0]!)).equals(winner)).toBe(true);
  });

  it("refuses a student in a session's room (403), and records nothing", async () => {
    const { roomId, student } = await classRoom({ withStudent: true });
    const res = await start(student!, { room_id: roomId });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: messages.recordingOnlyHost });
    expect(await server.t.db.select().from(recordings).where(eq(recordings.roomId, roomId))).toEqual([]);
  });

  it("lets an ad hoc room's creator record it, not another member; an admin may", async () => {
    const host = await person(server.t, 'student');
    const guest = await person(server.t, 'student');
    const admin = await person(server.t, 'admin');
    const hostSocket = await connect(server.url, host.auth());
    const room = await createdRoom(hostSocket);
    for (const [who, name] of [
      [host, 'Host'],
      [guest, 'Guest'],
      [admin, 'Admin'],
    ] as const) {
      const socket = who === host ? hostSocket : await connect(server.url, who.auth());
      await ask(socket, 'request:join_room', { roomId: room.id, userName: name });
    }
    expect((await start(guest, { room_id: room.id })).statusCode).toBe(403);
    const live = await started(host, room.id);
    expect(await rowOf(live.id)).toMatchObject({ courseId: null, sessionId: null, title: 'Standup' });
    await sendAll(host, live.id, [webm]);
    expect((await finish(host, live.id)).json().data.status).toBe('ready');
    // The admin records the same room once the host's recording is over, under a title of their own.
    const second = await start(admin, { room_id: room.id, title: 'Standup, part 2' });
    expect(second.statusCode).toBe(201);
    expect(await rowOf(second.json().data.id)).toMatchObject({ title: 'Standup, part 2', recordedBy: admin.userId });
  });

  it('allows one live recording per room: a second start is 409', async () => {
    const { teacher, roomId } = await classRoom();
    const admin = await person(server.t, 'admin');
    await ask(await connect(server.url, admin.auth()), 'request:join_room', { roomId, userName: 'Admin' });
    await started(teacher, roomId);
    for (const who of [teacher, admin]) {
      const res = await start(who, { room_id: roomId });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ message: messages.recordingAlreadyRunning });
    }
    expect(await server.t.db.select().from(recordings).where(eq(recordings.roomId, roomId))).toHaveLength(1);
  });

  it('refuses a host who is not in the room (409) and an unknown room (404)', async () => {
    const teacher = await person(server.t, 'teacher');
    const { roomId } = await classSession(server.t, teacher.userId);
    const away = await start(teacher, { room_id: roomId });
    expect(away.statusCode).toBe(409);
    expect(away.json()).toEqual({ message: messages.recordingNotInRoom });
    const unknown = await start(teacher, { room_id: 'no-such-room' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: messages.roomNotFound });
    expect(await server.t.db.select().from(recordings).where(eq(recordings.roomId, roomId))).toEqual([]);
  });

  it('refuses bad chunks in the envelope and changes nothing: Upload-Offset missing, negative or not a number (400), another offset (409), another content type (415), too large (413)', async () => {
    const { teacher, roomId } = await classRoom();
    const live = await started(teacher, roomId);
    await sendAll(teacher, live.id, [chunks[0]!]);
    const objects = await storage().list(`live/${live.id}/`);
    for (const offset of [null, '-5', 'abc', '12.5', '']) {
      const res = await append(teacher, live.id, offset, chunks[1]!);
      expect(res.statusCode, String(offset)).toBe(400);
      expect(res.json()).toEqual({ message: messages.validationFailed, errors: { 'upload-offset': [validationMessages.uploadOffset] } });
    }
    for (const offset of [0, 999, chunks[0]!.length + 1]) {
      const res = await append(teacher, live.id, offset, chunks[1]!);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ message: messages.recordingOffsetMismatch });
    }
    for (const contentType of ['application/octet-stream', 'video/webm']) {
      const res = await append(teacher, live.id, chunks[0]!.length, chunks[1]!, contentType);
      expect(res.statusCode).toBe(415);
      expect(res.json().message).toEqual(expect.any(String));
    }
    const json = await server.t.app.inject({
      method: 'PATCH',
      url: `/api/classes/recordings/live/${live.id}/`,
      headers: { ...bearer(teacher), 'upload-offset': String(chunks[0]!.length) },
      payload: { bytes: 'no' },
    });
    expect(json.statusCode).toBe(415);
    expect(json.json()).toEqual({ message: messages.recordingChunkType });

    // Too large, said up front (Content-Length) or found while streaming (no length given).
    const tooLarge = Buffer.alloc(recordingLimits.chunkMaxBytes + 1, 1);
    const declared = await append(teacher, live.id, chunks[0]!.length, tooLarge);
    expect(declared.statusCode).toBe(413);
    expect(declared.json()).toEqual({ message: messages.recordingTooLarge });
    const streamed = await append(
      teacher,
      live.id,
      chunks[0]!.length,
      Readable.from((function* () {
        for (let i = 0; i < 17; i++) yield Buffer.alloc(1024 * 1024, 2);
      })()),
    );
    expect(streamed.statusCode).toBe(413);
    expect(streamed.json()).toEqual({ message: messages.recordingTooLarge });

    expect(await storage().list(`live/${live.id}/`)).toEqual(objects);
    expect((await rowOf(live.id))!.uploadOffset).toBe(chunks[0]!.length);
  });

  it('refuses chunks from anyone but the recorder (404) and once the recorder finished saying it sent everything (409)', async () => {
    const { teacher, roomId, student } = await classRoom({ withStudent: true });
    const live = await started(teacher, roomId);
    const res = await append(student!, live.id, 0, chunks[0]!);
    expect(res.statusCode).toBe(404);
    expect((await status(student!, live.id)).statusCode).toBe(404);
    expect((await finish(student!, live.id)).statusCode).toBe(404);
    await sendAll(teacher, live.id, [webm]);
    await finish(teacher, live.id);
    const late = await append(teacher, live.id, webm.length, chunks[0]!);
    expect(late.statusCode).toBe(409);
    expect(late.json()).toEqual({ message: messages.recordingNotLive });
  });

  it('names two recordings of one session apart, without a date (the lists date them in each viewer\'s zone)', async () => {
    const { teacher, roomId } = await classRoom();
    for (const title of ['Week 1', 'Week 1 (2)']) {
      const live = await started(teacher, roomId);
      expect((await rowOf(live.id))!.title).toBe(title);
      await sendAll(teacher, live.id, [webm]);
      expect((await finish(teacher, live.id)).json().data.status).toBe('ready');
    }
  });

  it('keeps no recording when nothing playable was sent', async () => {
    const { teacher, roomId } = await classRoom();
    const nothing = await started(teacher, roomId);
    const res = await finish(teacher, nothing.id);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: messages.recordingEmpty });
    expect(await rowOf(nothing.id)).toBeUndefined();

    // Only the header, cut before the first cluster's first block.
    const headerOnly = await started(teacher, roomId);
    await sendAll(teacher, headerOnly.id, [webm.subarray(0, 300)]);
    expect((await finish(teacher, headerOnly.id)).statusCode).toBe(404);
    expect(await rowOf(headerOnly.id)).toBeUndefined();
    expect(await storage().list(`live/${headerOnly.id}/`)).toEqual([]);
  });
});

describe('recordings nobody finishes', () => {
  it('are finished by the sweeper once silent for staleAfterSeconds, with what they hold', async () => {
    const { teacher, roomId, studentSocket } = await classRoom({ withStudent: true });
    const live = await started(teacher, roomId);
    // The browser crashed after two chunks.
    const held = await sendAll(teacher, live.id, chunks.slice(0, 2));
    const stopped = next<State>(studentSocket!, 'action:recording_state');
    // Not yet silent long enough: it goes on. (Counts are not checked: other tests' rows may be swept too.)
    await server.t.app.liveRecordings.sweep(new Date(Date.now() + recordingLimits.staleAfterSeconds * 1000 - 5000));
    expect((await rowOf(live.id))!.status).toBe('recording');
    await server.t.app.liveRecordings.sweep(new Date(Date.now() + recordingLimits.staleAfterSeconds * 1000 + 1000));
    expect(await stopped).toEqual({ roomId, recording: null });
    const ready = await rowOf(live.id);
    expect(ready!.status).toBe('ready');
    const file = await readAll(ready!.storageKey!);
    expect(file.equals(await seekableOf(webm.subarray(0, held)))).toBe(true);
    expect(ready!.durationSeconds * 1000).toBeLessThan(recordedMs);
    expect(ready!.durationSeconds).toBeGreaterThan(1);
  });

  it('keep their chunks for the recorder for resumableSeconds after the last one (the longest stall that loses nothing), then stay listed with what they had', async () => {
    const { teacher, roomId } = await classRoom();
    const live = await started(teacher, roomId);
    const held = await sendAll(teacher, live.id, chunks.slice(0, 2));
    const lastChunkAt = (await rowOf(live.id))!.lastChunkAt!.getTime();
    const sweepAt = (ms: number) => server.t.app.liveRecordings.sweep(new Date(lastChunkAt + ms));
    await sweepAt(recordingLimits.staleAfterSeconds * 1000 + 1000);
    expect(await rowOf(live.id)).toMatchObject({ status: 'ready', acceptsChunks: true, madeFromBytes: held });
    expect((await status(teacher, live.id)).json().data).toMatchObject({ status: 'ready', upload_offset: held, accepts_chunks: true });
    // A minute before the window ends, nothing has gone.
    await sweepAt(recordingLimits.resumableSeconds * 1000 - 60_000);
    expect(await storage().list(`live/${live.id}/`)).toHaveLength(2);
    expect((await rowOf(live.id))!.acceptsChunks).toBe(true);
    // Once it ended, the chunks go; the recording stays, with what it had, and takes no more.
    await sweepAt(recordingLimits.resumableSeconds * 1000 + 1000);
    expect(await storage().list(`live/${live.id}/`)).toEqual([]);
    expect(await rowOf(live.id)).toMatchObject({ status: 'ready', acceptsChunks: false, storageKey: `recordings/${live.id}.webm` });
    expect((await readAll(`recordings/${live.id}.webm`)).equals(await seekableOf(webm.subarray(0, held)))).toBe(true);
    const late = await append(teacher, live.id, held, chunks[2]!);
    expect(late.statusCode).toBe(409);
    expect(late.json()).toEqual({ message: messages.recordingNotLive });
  });

  it('that never had anything playable are kept for their recorder as stopped, then dropped once the window ends', async () => {
    const { teacher, roomId } = await classRoom();
    const live = await started(teacher, roomId);
    const createdAt = (await rowOf(live.id))!.createdAt.getTime();
    await server.t.app.liveRecordings.sweep(new Date(createdAt + recordingLimits.staleAfterSeconds * 1000 + 1000));
    expect(await rowOf(live.id)).toMatchObject({ status: 'stopped', acceptsChunks: true, storageKey: null });
    await server.t.app.liveRecordings.sweep(new Date(createdAt + recordingLimits.resumableSeconds * 1000 + 60_000));
    expect(await rowOf(live.id)).toBeUndefined();
  });

  /** Runs `body` with the recordings' leaveSettleMs set to `ms`. */
  async function settlingFor(ms: number, body: () => Promise<void>) {
    const { options } = server.t.app.liveRecordings;
    const before = options.leaveSettleMs;
    options.leaveSettleMs = ms;
    try {
      await body();
    } finally {
      options.leaveSettleMs = before;
    }
  }

  it('are finished when the recorder leaves the room for good and their chunks stop, and the room is told', () =>
    settlingFor(50, async () => {
      const { teacher, teacherSocket, roomId, studentSocket } = await classRoom({ withStudent: true });
      const live = await started(teacher, roomId);
      await sendAll(teacher, live.id, [webm]);
      const stopped = next<State>(studentSocket!, 'action:recording_state');
      await ask(teacherSocket, 'request:leave_room', { roomId });
      expect(await stopped).toEqual({ roomId, recording: null });
      await expect.poll(async () => (await rowOf(live.id))?.status).toBe('ready');
    }));

  it('take the last chunks and the finish a recorder sends after leaving the room', () =>
    settlingFor(60_000, async () => {
      const { teacher, teacherSocket, roomId, studentSocket } = await classRoom({ withStudent: true });
      const live = await started(teacher, roomId);
      await sendAll(teacher, live.id, chunks.slice(0, 2));
      // The page leaves the meeting, then MediaRecorder hands over its last chunk.
      await ask(teacherSocket, 'request:leave_room', { roomId });
      await sendAll(teacher, live.id, [chunks[2]!], chunks[0]!.length + chunks[1]!.length);
      const stopped = next<State>(studentSocket!, 'action:recording_state');
      expect((await finish(teacher, live.id)).json().data.status).toBe('ready');
      expect(await stopped).toEqual({ roomId, recording: null });
      expect((await readAll(`recordings/${live.id}.webm`)).equals(await seekableOf(webm))).toBe(true);
    }));

  it('are finished when the recorder drops and does not come back within the grace period, and go on if they come back later still recording', () =>
    settlingFor(50, async () => {
      const { teacher, teacherSocket, roomId, studentSocket } = await classRoom({ withStudent: true });
      const live = await started(teacher, roomId);
      await sendAll(teacher, live.id, [webm]);
      const stopped = next<State>(studentSocket!, 'action:recording_state');
      teacherSocket.disconnect();
      expect(await stopped).toEqual({ roomId, recording: null });
      await expect.poll(async () => (await rowOf(live.id))?.status).toBe('ready');

      // Back in the room, the page (which records still) sends on: the recording goes on, and the room is told.
      const back = await connect(server.url, teacher.auth());
      await ask(back, 'request:join_room', { roomId, userName: 'Teacher' });
      const again = next<State>(studentSocket!, 'action:recording_state');
      const more = await append(teacher, live.id, webm.length, webm.subarray(0, 10));
      expect(more.json().data).toMatchObject({ status: 'recording', upload_offset: webm.length + 10 });
      expect((await again).recording).toMatchObject({ id: live.id });
    }));
});

describe('a file that takes long to make', () => {
  it("is answered 'processing' by finish once finishWaitMs passed, and is ready later; liveStatus tells when", async () => {
    const { teacher, roomId } = await classRoom();
    const live = await started(teacher, roomId);
    await sendAll(teacher, live.id, chunks);
    const { options } = server.t.app.liveRecordings;
    const wait = options.finishWaitMs;
    options.finishWaitMs = 0;
    try {
      const res = await finish(teacher, live.id);
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({ id: live.id, status: 'processing' });
    } finally {
      options.finishWaitMs = wait;
    }
    await expect.poll(async () => (await status(teacher, live.id)).json().data.status).toBe('ready');
    expect((await readAll(`recordings/${live.id}.webm`)).equals(await seekableOf(webm))).toBe(true);
  });

  it('is made again by the sweeper when the process making it died (processing for processingTimeoutMs), and not before', async () => {
    const { teacher, roomId } = await classRoom();
    const live = await started(teacher, roomId);
    await sendAll(teacher, live.id, chunks);
    // As a process leaves it when it dies between claiming the recording and storing its file.
    const claimedAt = new Date();
    // (after a finish that said every chunk was sent, so they go with the file)
    await server.t.db.update(recordings).set({ status: 'processing', lastChunkAt: claimedAt, acceptsChunks: false }).where(eq(recordings.id, live.id));
    const timeout = server.t.app.liveRecordings.options.processingTimeoutMs;
    await server.t.app.liveRecordings.sweep(new Date(claimedAt.getTime() + timeout - 1000));
    expect((await rowOf(live.id))!.status).toBe('processing');
    await server.t.app.liveRecordings.sweep(new Date(claimedAt.getTime() + timeout + 1000));
    expect((await rowOf(live.id))!.status).toBe('ready');
    expect((await readAll(`recordings/${live.id}.webm`)).equals(await seekableOf(webm))).toBe(true);
    expect(await storage().list(`live/${live.id}/`)).toEqual([]);
  });
});

describe("the room's recording notice", () => {
  it('tells everyone in the room on start and on stop, and a late joiner on join', async () => {
    const { teacher, teacherSocket, roomId, studentSocket } = await classRoom({ withStudent: true });
    const toTeacher = next<State>(teacherSocket, 'action:recording_state');
    const toStudent = next<State>(studentSocket!, 'action:recording_state');
    const live = await started(teacher, roomId);
    const notice = { roomId, recording: { id: live.id, started_by: teacher.userId, started_by_name: 'Test Person', started_at: expect.any(String) } };
    expect(await toTeacher).toEqual(notice);
    expect(await toStudent).toEqual(notice);
    const startedAt = (await toStudent).recording!.started_at;
    expect(startedAt).toBe((await rowOf(live.id))!.createdAt.toISOString());

    // Someone joining later learns it right after their join.
    const late = await person(server.t, 'student');
    const lateSocket = await connect(server.url, late.auth());
    const toLate = next<State>(lateSocket, 'action:recording_state');
    await ask(lateSocket, 'request:join_room', { roomId, userName: 'Late' });
    expect(await toLate).toEqual({ roomId, recording: { ...notice.recording, started_at: startedAt } });

    await sendAll(teacher, live.id, [webm]);
    const stopToStudent = next<State>(studentSocket!, 'action:recording_state');
    const stopToLate = next<State>(lateSocket, 'action:recording_state');
    await finish(teacher, live.id);
    expect(await stopToStudent).toEqual({ roomId, recording: null });
    expect(await stopToLate).toEqual({ roomId, recording: null });

    // Once it stopped, a new joiner hears nothing of it.
    const after = await connect(server.url, (await person(server.t, 'student')).auth());
    const heard = record<State>(after, 'action:recording_state');
    await ask(after, 'request:join_room', { roomId, userName: 'After' });
    await quiet(after);
    expect(heard).toEqual([]);
  });
});
