// "A live recording can vanish": under load a recorder's chunks stalled past the stall
// timeout, the server finished the recording with what it had (nothing, so it kept nothing), and the
// recorder's next chunk got 404: the rest of the class was lost and nothing was listed. Here the stall
// timeout is one second (RECORDING_STALL_SECONDS, as an operator sets it) and the sweeper really runs.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { messages } from '@mooz/contract/messages';
import { liveChunkContentType, type LiveRecording, type Recording, type RoomRecording } from '@mooz/contract/recordings';
import { recordings } from '../../db/schema/index';
import { ask, classSession, connect, meetingServer, next, person, record, type Client } from '../../../test/realtime-clients';
import { seekableOf } from '../../../test/recordings';

const server = meetingServer(300, { RECORDING_STALL_SECONDS: '1' });
const fixtures = path.resolve(import.meta.dirname, '../../../test/fixtures');
const webm = readFileSync(path.join(fixtures, 'mediarecorder-3s.webm'));
/** The fixture cut in three at arbitrary bytes, as a recorder's timeslices cut a stream. */
const chunks = [webm.subarray(0, 40_000), webm.subarray(40_000, 81_234), webm.subarray(81_234)];

type Person = Awaited<ReturnType<typeof person>>;
type State = { roomId: string; recording: RoomRecording | null };
const bearer = (who: Person) => ({ authorization: `Bearer ${who.token}` });

function append(who: Person, id: number, offset: number, payload: Buffer) {
  return server.t.app.inject({
    method: 'PATCH',
    url: `/api/classes/recordings/live/${id}/`,
    headers: { ...bearer(who), 'content-type': liveChunkContentType, 'upload-offset': String(offset) },
    payload,
  });
}
const finish = (who: Person, id: number, complete = true) =>
  server.t.app.inject({ method: 'POST', url: `/api/classes/recordings/live/${id}/finish/${complete ? '?complete=true' : ''}`, headers: bearer(who) });
const rowOf = async (id: number) => (await server.t.db.select().from(recordings).where(eq(recordings.id, id)))[0];
async function listed(who: Person, courseId: number): Promise<Recording[]> {
  const res = await server.t.app.inject({ method: 'GET', url: `/api/classes/recordings/?course_id=${courseId}`, headers: bearer(who) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as Recording[];
}

async function readAll(key: string): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of await server.t.app.storage.read(key)) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

async function recordedClass() {
  const teacher = await person(server.t, 'teacher');
  const { roomId, sessionId } = await classSession(server.t, teacher.userId);
  const teacherSocket = await connect(server.url, teacher.auth());
  await ask(teacherSocket, 'request:join_room', { roomId, userName: 'Teacher' });
  const student = await person(server.t, 'student');
  const studentSocket: Client = await connect(server.url, student.auth());
  await ask(studentSocket, 'request:join_room', { roomId, userName: 'Student' });
  const startedNotice = next<State>(studentSocket, 'action:recording_state');
  const res = await server.t.app.inject({ method: 'POST', url: '/api/classes/recordings/live/', headers: bearer(teacher), payload: { room_id: roomId } });
  expect(res.statusCode, res.body).toBe(201);
  await startedNotice;
  const [session] = await server.t.db.select({ courseId: recordings.courseId }).from(recordings).where(eq(recordings.roomId, roomId));
  return { teacher, studentSocket, roomId, sessionId, courseId: session!.courseId!, live: res.json().data as LiveRecording };
}

describe('a recorder whose chunks stall longer than the stall timeout', () => {
  it('is finished and listed with what it sent; its next chunk continues the same recording, and nothing is lost', async () => {
    const { teacher, studentSocket, roomId, courseId, live } = await recordedClass();
    // What the room is told, all along (on a loaded machine the stall may come before the first chunk too).
    const told = record<State>(studentSocket, 'action:recording_state');
    expect((await append(teacher, live.id, 0, chunks[0]!)).statusCode).toBe(200);

    // The chunks stall: the sweeper stops the recording, the room is told, and what came is listed.
    await expect.poll(() => told.at(-1), { timeout: 10_000 }).toEqual({ roomId, recording: null });
    await expect.poll(async () => (await listed(teacher, courseId)).map((r) => r.id), { timeout: 10_000 }).toEqual([live.id]);
    expect((await readAll(`recordings/${live.id}.webm`)).equals(await seekableOf(chunks[0]!))).toBe(true);

    // The recorder comes back: its next chunk is taken where it left off, and the room is told it records again.
    const resumed = await append(teacher, live.id, chunks[0]!.length, chunks[1]!);
    expect(resumed.statusCode, resumed.body).toBe(200);
    expect(resumed.json().data).toMatchObject({ id: live.id, status: 'recording', upload_offset: chunks[0]!.length + chunks[1]!.length });
    await expect.poll(() => told.at(-1)?.recording).toMatchObject({ id: live.id, started_by: teacher.userId });
    // Still listed meanwhile, with the part it had.
    expect((await listed(teacher, courseId)).map((r) => r.id)).toEqual([live.id]);

    expect((await append(teacher, live.id, chunks[0]!.length + chunks[1]!.length, chunks[2]!)).statusCode).toBe(200);
    const finished = await finish(teacher, live.id);
    expect(finished.statusCode, finished.body).toBe(200);
    expect(finished.json().data).toMatchObject({ status: 'ready', accepts_chunks: false });
    // One recording, of every byte sent, before and after the stall.
    const [recording] = await listed(teacher, courseId);
    expect(recording!.id).toBe(live.id);
    const file = await readAll(`recordings/${live.id}.webm`);
    expect(file.equals(await seekableOf(webm))).toBe(true);
    expect(recording!.size_bytes).toBe(file.length);
    expect(await server.t.app.storage.list(`live/${live.id}/`)).toEqual([]);
  });

  it('keeps a recording that had received nothing yet when it stalled: the first chunk, late, starts it (never a 404)', async () => {
    const { teacher, studentSocket, roomId, courseId, live } = await recordedClass();
    expect(await next<State>(studentSocket, 'action:recording_state', 10_000)).toEqual({ roomId, recording: null });
    // Nothing playable yet, so nothing is listed, but the recording is not thrown away.
    await expect.poll(async () => (await rowOf(live.id))?.status, { timeout: 10_000 }).toBe('stopped');
    expect(await listed(teacher, courseId)).toEqual([]);

    let offset = 0;
    for (const chunk of chunks) {
      const res = await append(teacher, live.id, offset, chunk);
      expect(res.statusCode, res.body).toBe(200);
      offset += chunk.length;
    }
    expect((await finish(teacher, live.id)).json().data.status).toBe('ready');
    expect((await readAll(`recordings/${live.id}.webm`)).equals(await seekableOf(webm))).toBe(true);
    expect((await listed(teacher, courseId)).map((r) => r.id)).toEqual([live.id]);
  });

  it('takes the backlog of a recorder who left (a reload, a crash) without saying the room is recorded again, then makes the file of all of it', async () => {
    const { teacher, studentSocket, courseId, live } = await recordedClass();
    expect((await append(teacher, live.id, 0, chunks[0]!)).statusCode).toBe(200);
    // The tab goes away: its last word is a finish that does not say it sent everything.
    const stopped = next<State>(studentSocket, 'action:recording_state');
    expect((await finish(teacher, live.id, false)).json().data).toMatchObject({ status: 'ready', accepts_chunks: true });
    expect((await stopped).recording).toBeNull();
    // Reloaded, the page sends what it had kept, then finishes for good.
    expect((await append(teacher, live.id, chunks[0]!.length, Buffer.concat([chunks[1]!, chunks[2]!]))).json().data).toMatchObject({
      status: 'ready',
      accepts_chunks: true,
    });
    expect((await finish(teacher, live.id)).json().data).toMatchObject({ status: 'ready', accepts_chunks: false });
    expect((await readAll(`recordings/${live.id}.webm`)).equals(await seekableOf(webm))).toBe(true);
    expect((await listed(teacher, courseId)).map((r) => r.id)).toEqual([live.id]);
    const late = await append(teacher, live.id, webm.length, chunks[0]!);
    expect(late.statusCode).toBe(409);
    expect(late.json()).toEqual({ message: messages.recordingNotLive });
  });
});
