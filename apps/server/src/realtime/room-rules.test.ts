// Who gets a place in a room, and how much one account may send: one place per account, the host's
// place in a full room, a class session's join window, the per-account event limit.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { messages } from '@mooz/contract/messages';
import { limits } from '@mooz/contract/limits';
import { realtimeLimits } from '@mooz/contract/realtime';
import { buildTestApp, type TestApp } from '../../test/app';
import { attendance, classSessions } from '../db/schema/index';
import { ask, classSession, connect, createdRoom, listen, next, person, sockets } from '../../test/realtime-clients';

let t: TestApp;
let url: string;

beforeAll(async () => {
  t = await buildTestApp();
  url = await listen(t.app);
});

afterEach(() => {
  for (const socket of sockets.splice(0)) socket.disconnect();
});

afterAll(async () => {
  await t.close();
});

const minutes = (n: number) => new Date(Date.now() + n * 60_000);

describe('one place per account', () => {
  it('gives the place of the same account’s other sessionId to the newer join and tells the older connection', async () => {
    const alice = await person(t);
    const first = await connect(url, alice.auth('alice-first'));
    const bob = await connect(url, (await person(t)).auth('bob-peer'));
    const room = await createdRoom(bob);
    await ask(first, 'request:join_room', { roomId: room.id, userName: 'Alice' });
    await ask(bob, 'request:join_room', { roomId: room.id, userName: 'Bob' });

    const replaced = next(first, 'action:replaced_elsewhere');
    const terminated = next(bob, 'action:terminate_peer_connection');
    const introduced = next(bob, 'action:establish_peer_connection');
    const second = await connect(url, alice.auth('alice-second'));
    expect(await ask(second, 'request:join_room', { roomId: room.id, userName: 'Alice' })).toEqual({ room });
    expect(await replaced).toEqual({ roomId: room.id });
    expect(await terminated).toEqual({ userId: 'alice-first' });
    expect(await introduced).toEqual({ userId: 'alice-second', userName: 'Alice' });

    // The old connection is out: it can no longer relay, nor be relayed to.
    expect(await ask(first, 'request:send_mesage', { to: 'bob-peer', roomId: room.id, data: { x: 1 } })).toEqual({ error: messages.notAllowed });
    expect(await ask(bob, 'request:send_mesage', { to: 'alice-first', roomId: room.id, data: { x: 1 } })).toEqual({ error: messages.notAllowed });
    const atSecond = next(second, 'action:message_received');
    expect(await ask(bob, 'request:send_mesage', { to: 'alice-second', roomId: room.id, data: { hi: 1 } })).toEqual({ delivered: true });
    expect(await atSecond).toEqual({ from: 'bob-peer', data: { hi: 1 } });
    expect(await t.app.realtime.store.member(room.id, 'alice-first')).toBeNull();
  });

  it('does not let one student fill a class with many sessionIds, and keeps one visit for them', async () => {
    const teacher = await person(t, 'teacher');
    const student = await person(t);
    const { roomId, sessionId } = await classSession(t, teacher.userId, 3);
    const tabs = await Promise.all(Array.from({ length: 10 }, (_, i) => connect(url, student.auth(`tab-${i}`))));
    for (const tab of tabs) expect(await ask(tab, 'request:join_room', { roomId, userName: 'Sam' })).toMatchObject({ room: { id: roomId } });

    const others = await Promise.all([person(t), person(t)]);
    for (const other of others) {
      const socket = await connect(url, other.auth());
      expect(await ask(socket, 'request:join_room', { roomId, userName: 'Other' })).toMatchObject({ room: { id: roomId } });
    }
    const ts = await connect(url, teacher.auth());
    expect(await ask(ts, 'request:join_room', { roomId, userName: 'Teacher' })).toMatchObject({ room: { id: roomId } });
    const visits = await t.db.select().from(attendance).where(and(eq(attendance.sessionId, sessionId), eq(attendance.userId, student.userId)));
    expect(visits).toHaveLength(1);
    expect(visits[0]!.leftAt).toBeNull();
  });
});

describe('the host’s place', () => {
  it('admits the session’s teacher into a room full of students, and refuses everyone else, admins included', async () => {
    const teacher = await person(t, 'teacher');
    const { roomId } = await classSession(t, teacher.userId, 2);
    for (const student of [await person(t), await person(t)]) {
      await ask(await connect(url, student.auth()), 'request:join_room', { roomId, userName: 'Student' });
    }
    const late = await connect(url, (await person(t)).auth());
    expect(await ask(late, 'request:join_room', { roomId, userName: 'Late' })).toEqual({ error: messages.roomFull });
    const admin = await connect(url, (await person(t, 'admin')).auth());
    expect(await ask(admin, 'request:join_room', { roomId, userName: 'Admin' })).toEqual({ error: messages.roomFull });
    const ts = await connect(url, teacher.auth());
    expect(await ask(ts, 'request:join_room', { roomId, userName: 'Teacher' })).toMatchObject({ room: { id: roomId, created_by: teacher.userId } });
  });

  it('admits an ad hoc room’s creator into it when it is full', async () => {
    const creator = await person(t);
    const own = await connect(url, creator.auth());
    const room = await createdRoom(own, 2);
    for (const guest of [await person(t), await person(t)]) {
      expect(await ask(await connect(url, guest.auth()), 'request:join_room', { roomId: room.id, userName: 'Guest' })).toEqual({ room });
    }
    expect(await ask(own, 'request:join_room', { roomId: room.id, userName: 'Creator' })).toEqual({ room });
    const late = await connect(url, (await person(t)).auth());
    expect(await ask(late, 'request:join_room', { roomId: room.id, userName: 'Late' })).toEqual({ error: messages.roomFull });
  });
});

describe('the class session’s join window', () => {
  it('refuses a join before the room opens, for the teacher too, and records nothing', async () => {
    const teacher = await person(t, 'teacher');
    const student = await person(t);
    const { roomId, sessionId } = await classSession(t, teacher.userId, 10, { startsAt: minutes(48 * 60), endsAt: minutes(49 * 60) });
    for (const who of [student, teacher]) {
      const socket = await connect(url, who.auth());
      expect(await ask(socket, 'request:join_room', { roomId, userName: 'Early' })).toEqual({ error: messages.sessionNotOpenYet });
    }
    expect(await t.db.select().from(attendance).where(eq(attendance.sessionId, sessionId))).toEqual([]);
  });

  it(`opens the room ${limits.sessionJoinEarlyMinutes} minutes before the start`, async () => {
    const teacher = await person(t, 'teacher');
    const { roomId } = await classSession(t, teacher.userId, 10, {
      startsAt: minutes(limits.sessionJoinEarlyMinutes - 2),
      endsAt: minutes(limits.sessionJoinEarlyMinutes + 60),
    });
    const socket = await connect(url, (await person(t)).auth());
    expect(await ask(socket, 'request:join_room', { roomId, userName: 'Punctual' })).toMatchObject({ room: { id: roomId } });
  });

  it('refuses a join once the session has ended, but keeps those already in', async () => {
    const teacher = await person(t, 'teacher');
    const { roomId, sessionId } = await classSession(t, teacher.userId);
    const ts = await connect(url, teacher.auth('teacher-peer'));
    const ss = await connect(url, (await person(t)).auth('student-peer'));
    await ask(ts, 'request:join_room', { roomId, userName: 'Teacher' });
    await ask(ss, 'request:join_room', { roomId, userName: 'Student' });
    await t.db.update(classSessions).set({ endsAt: minutes(-1) }).where(eq(classSessions.id, sessionId));

    const late = await connect(url, (await person(t)).auth());
    expect(await ask(late, 'request:join_room', { roomId, userName: 'Late' })).toEqual({ error: messages.sessionEnded });
    expect(await ask(ss, 'request:join_room', { roomId, userName: 'Student' })).toMatchObject({ room: { id: roomId } });
    const atTeacher = next(ts, 'action:message_received');
    expect(await ask(ss, 'request:send_mesage', { to: 'teacher-peer', roomId, data: { still: 'on' } })).toEqual({ delivered: true });
    expect(await atTeacher).toEqual({ from: 'student-peer', data: { still: 'on' } });
  });
});

describe('the per-account event limit', () => {
  it('limits one account across all its connections, and no one else', async () => {
    const flooder = await person(t);
    const connections = await Promise.all(Array.from({ length: 6 }, () => connect(url, flooder.auth())));
    // Each connection stays within its own burst; together they exceed the account's.
    const answers = (
      await Promise.all(
        connections.map((socket) =>
          Promise.all(
            Array.from({ length: realtimeLimits.eventBurst }, () => ask<{ error?: string }>(socket, 'request:send_mesage', { to: 'x', roomId: 'nowhere', data: {} })),
          ),
        ),
      )
    ).flat();
    expect(answers.filter((r) => r.error === messages.rateLimited).length).toBeGreaterThan(0);
    expect(answers.filter((r) => r.error === messages.notAllowed).length).toBeGreaterThanOrEqual(realtimeLimits.userEventBurst);

    const bystander = await connect(url, (await person(t)).auth());
    expect(await ask(bystander, 'request:send_mesage', { to: 'x', roomId: 'nowhere', data: {} })).toEqual({ error: messages.notAllowed });
  });
});
