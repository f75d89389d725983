// Class-session rooms and the ICE servers, against real socket.io clients on a listening server: who
// may enter a session's room, its capacity, and the attendance it records.
import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { messages } from '@mooz/contract/messages';
import type { Room } from '@mooz/contract/realtime';
import { buildTestApp } from '../../test/app';
import { attendance, users } from '../db/schema/index';
import { ask, classSession, connect, meetingServer, next, person } from '../../test/realtime-clients';

const server = meetingServer();

describe('class session rooms', () => {
  it('admits the teacher and a student in trial, records their attendance, and closes it on leave', async () => {
    const teacher = await person(server.t, 'teacher');
    const student = await person(server.t, 'student');
    const { roomId, sessionId } = await classSession(server.t, teacher.userId, 5);
    const ts = await connect(server.url, teacher.auth('teacher-peer'));
    const ss = await connect(server.url, student.auth('student-peer'));

    const joined = await ask<{ room: Room }>(ts, 'request:join_room', { roomId, userName: 'Teacher' });
    expect(joined.room).toEqual({ id: roomId, name: 'Week 1', capacity: 5, created_by: teacher.userId });
    expect(await ask(ss, 'request:join_room', { roomId, userName: 'Student' })).toEqual(joined);
    await ask(ss, 'request:leave_room', { roomId });

    const rows = await server.t.db.select().from(attendance).where(eq(attendance.sessionId, sessionId));
    const studentRow = rows.find((r) => r.userId === student.userId)!;
    const teacherRow = rows.find((r) => r.userId === teacher.userId)!;
    expect(rows).toHaveLength(2);
    expect(studentRow.leftAt).toBeInstanceOf(Date);
    expect(studentRow.leftAt!.getTime()).toBeGreaterThanOrEqual(studentRow.joinedAt.getTime());
    expect(teacherRow.leftAt).toBeNull();
  });

  it('sends a student whose trial is over and who bought nothing to the lobby, and records nothing', async () => {
    const teacher = await person(server.t, 'teacher');
    const student = await person(server.t, 'student');
    await server.t.db.update(users).set({ trialEndsAt: new Date(Date.now() - 86_400_000) }).where(eq(users.id, student.userId));
    const { roomId, sessionId } = await classSession(server.t, teacher.userId);
    const ss = await connect(server.url, student.auth());
    // Someone who may not see the session waits for the teacher (room-controls.test.ts).
    expect(await ask(ss, 'request:join_room', { roomId, userName: 'Student' })).toEqual({ lobby: { roomId, roomName: 'Week 1' } });
    const rows = await server.t.db.select().from(attendance).where(and(eq(attendance.sessionId, sessionId), eq(attendance.userId, student.userId)));
    expect(rows).toEqual([]);
  });

  it("sends a teacher to the lobby of another teacher's session room, and admits an admin", async () => {
    const owner = await person(server.t, 'teacher');
    const otherTeacher = await person(server.t, 'teacher');
    const admin = await person(server.t, 'admin');
    const { roomId } = await classSession(server.t, owner.userId);
    const other = await connect(server.url, otherTeacher.auth());
    expect(await ask(other, 'request:join_room', { roomId, userName: 'Other' })).toEqual({ lobby: { roomId, roomName: 'Week 1' } });
    const adminSocket = await connect(server.url, admin.auth());
    expect(await ask(adminSocket, 'request:join_room', { roomId, userName: 'Admin' })).toMatchObject({ room: { id: roomId } });
  });

  it("enforces the session's own capacity", async () => {
    const teacher = await person(server.t, 'teacher');
    const { roomId } = await classSession(server.t, teacher.userId, 2);
    const first = await connect(server.url, teacher.auth());
    const second = await connect(server.url, (await person(server.t)).auth());
    const third = await connect(server.url, (await person(server.t)).auth());
    await ask(first, 'request:join_room', { roomId, userName: 'T' });
    await ask(second, 'request:join_room', { roomId, userName: 'S1' });
    expect(await ask(third, 'request:join_room', { roomId, userName: 'S2' })).toEqual({ error: messages.roomFull });
  });

  it('closes the attendance of someone who drops and does not come back', async () => {
    const teacher = await person(server.t, 'teacher');
    const { roomId, sessionId } = await classSession(server.t, teacher.userId);
    const ts = await connect(server.url, teacher.auth('t-gone'));
    const watcher = await connect(server.url, (await person(server.t)).auth('watcher'));
    await ask(ts, 'request:join_room', { roomId, userName: 'T' });
    await ask(watcher, 'request:join_room', { roomId, userName: 'W' });
    const terminated = next(watcher, 'action:terminate_peer_connection');
    ts.disconnect();
    await terminated;
    // The attendance row is closed right after the terminate event is sent.
    await expect.poll(async () => {
      const [row] = await server.t.db.select().from(attendance).where(and(eq(attendance.sessionId, sessionId), eq(attendance.userId, teacher.userId)));
      return row?.leftAt instanceof Date;
    }).toBe(true);
  });
});

describe('GET /api/ice-servers/', () => {
  it('returns the configured ICE servers to a signed-in user', async () => {
    const alice = await person(server.t);
    const res = await server.t.app.inject({ method: 'GET', url: '/api/ice-servers/', headers: { authorization: `Bearer ${alice.token}` } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: server.t.config.iceServers });
  });

  it('is 401 without a token', async () => {
    const res = await server.t.app.inject({ method: 'GET', url: '/api/ice-servers/' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: messages.noAccessToken });
  });

  it('returns ICE_SERVERS when configured', async () => {
    const custom = await buildTestApp({ ICE_SERVERS: '[{"urls":"turn:turn.example.test:3478","username":"u","credential":"p"}]' });
    try {
      const alice = await person(custom);
      const res = await custom.app.inject({ method: 'GET', url: '/api/ice-servers/', headers: { authorization: `Bearer ${alice.token}` } });
      expect(res.json()).toEqual({ data: [{ urls: 'turn:turn.example.test:3478', username: 'u', credential: 'p' }] });
    } finally {
      await custom.close();
    }
  });
});
