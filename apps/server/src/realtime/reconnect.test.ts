// Surviving a network blip, as the server sees it: a peer whose connection drops and that
// comes back with the same sessionId (and its room in the handshake) within the grace keeps its place:
// the others hear of no leave and no join, signals flow again, and it is told of a recording under way
// again. Its join is answered as before, without `room_connection_established` (which would make the
// client drop its links). Also when the server had not yet noticed the drop. After a longer drop the
// others see it leave, then join again.
import { describe, expect, it } from 'vitest';
import type { RoomRecording } from '@mooz/contract/recordings';
import { ask, classSession, connect, meetingServer, next, person, quiet, record, type Client } from '../../test/realtime-clients';

const graceMs = 500;
const server = meetingServer(graceMs);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Person = Awaited<ReturnType<typeof person>>;

/** What the other side hears of membership changes. */
function watch(socket: Client) {
  return {
    left: record<{ userId: string }>(socket, 'action:terminate_peer_connection'),
    joined: record<{ userId: string }>(socket, 'action:establish_peer_connection'),
  };
}

async function twoInAClass() {
  const teacher = await person(server.t, 'teacher');
  const student = await person(server.t, 'student');
  const { roomId } = await classSession(server.t, teacher.userId);
  const ts = await connect(server.url, teacher.auth('teacher-peer'));
  await ask(ts, 'request:join_room', { roomId, userName: 'Teacher' });
  const first = await connect(server.url, student.auth('student-peer'));
  const introduced = next(ts, 'action:establish_peer_connection');
  await ask(first, 'request:join_room', { roomId, userName: 'Student' });
  await introduced;
  return { teacher, student, roomId, ts, first };
}

/** The student's page reconnecting: a new connection with the same peer id and its room in the handshake. */
async function comeBack(student: Person, roomId: string) {
  const socket = await connect(server.url, student.auth('student-peer', roomId));
  const established = record(socket, 'action:room_connection_established');
  const answer = await ask(socket, 'request:join_room', { roomId, userName: 'Student' });
  return { socket, answer, established };
}

describe('a network blip within the grace', () => {
  it('keeps the place: no leave or join for the others, signals flow again, the same room answer', async () => {
    const { student, roomId, ts, first } = await twoInAClass();
    const heard = watch(ts);
    first.disconnect();
    await pause(graceMs / 3);
    const { socket, answer, established } = await comeBack(student, roomId);
    expect(answer).toMatchObject({ room: { id: roomId } });

    // Both ways, as a renegotiation (an ICE restart) needs.
    const toTeacher = next<{ from: string; data: unknown }>(ts, 'action:message_received');
    expect(await ask(socket, 'request:send_mesage', { to: 'teacher-peer', roomId, data: { sdpSignal: { candidate: null }, metaData: {} } })).toEqual({ delivered: true });
    expect(await toTeacher).toMatchObject({ from: 'student-peer' });
    const toStudent = next<{ from: string }>(socket, 'action:message_received');
    expect(await ask(ts, 'request:send_mesage', { to: 'student-peer', roomId, data: { sdpSignal: { candidate: null }, metaData: {} } })).toEqual({ delivered: true });
    expect(await toStudent).toMatchObject({ from: 'teacher-peer' });

    // Well past the grace, nobody was told of a leave or a join.
    await pause(graceMs * 2);
    await quiet(ts);
    await quiet(socket);
    expect(heard).toEqual({ left: [], joined: [] });
    expect(established).toEqual([]);
  });

  it('keeps the place when the server had not noticed the drop yet (the new connection replaces the old)', async () => {
    const { student, roomId, ts, first } = await twoInAClass();
    const heard = watch(ts);
    const replaced = new Promise<string>((resolve) => first.once('disconnect', resolve));
    const { socket, answer, established } = await comeBack(student, roomId);
    expect(answer).toMatchObject({ room: { id: roomId } });
    expect(await replaced).toBe('io server disconnect');
    await pause(graceMs * 2);
    await quiet(ts);
    await quiet(socket);
    expect(heard).toEqual({ left: [], joined: [] });
    expect(established).toEqual([]);
  });

  it('tells the returning peer again of a recording under way', async () => {
    const { teacher, student, roomId, first } = await twoInAClass();
    const notice = next<{ recording: RoomRecording | null }>(first, 'action:recording_state');
    const started = await server.t.app.inject({
      method: 'POST',
      url: '/api/classes/recordings/live/',
      headers: { authorization: `Bearer ${teacher.token}` },
      payload: { room_id: roomId },
    });
    expect(started.statusCode, started.body).toBe(201);
    const { recording } = await notice;
    first.disconnect();
    const socket = await connect(server.url, student.auth('student-peer', roomId));
    const again = next<{ roomId: string; recording: RoomRecording | null }>(socket, 'action:recording_state');
    await ask(socket, 'request:join_room', { roomId, userName: 'Student' });
    expect(await again).toEqual({ roomId, recording });
  });
});

describe('a drop longer than the grace', () => {
  it('is a leave for the others, then a clean join: a fresh membership for the returning peer', async () => {
    const { student, roomId, ts, first } = await twoInAClass();
    const left = next<{ userId: string }>(ts, 'action:terminate_peer_connection');
    first.disconnect();
    expect(await left).toEqual({ userId: 'student-peer' });
    const joined = next<{ userId: string; userName: string }>(ts, 'action:establish_peer_connection');
    const { socket, answer, established } = await comeBack(student, roomId);
    expect(answer).toMatchObject({ room: { id: roomId } });
    expect(await joined).toEqual({ userId: 'student-peer', userName: 'Student' });
    await quiet(socket);
    expect(established).toHaveLength(1);
  });
});
