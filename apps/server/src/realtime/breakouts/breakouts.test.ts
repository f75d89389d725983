// Breakout rooms against real socket.io clients on a listening server: only a host splits, brings back
// and speaks to every group; a group admits its own people and the hosts only, while the split is open;
// the split by hand, by choice and at random (late comers included); attendance goes on in a group; and
// two processes on one Redis.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { groupRoomId, type BreakoutView } from '@mooz/contract/breakouts';
import { messages } from '@mooz/contract/messages';
import type { TestApp } from '../../../test/app';
import { attendance, breakouts } from '../../db/schema/index';
import { ask, classOfThree, connect, meetingServer, next, person, quiet, record, twoProcesses, type Client } from '../../../test/realtime-clients';

const server = meetingServer();

const classroom = (t: TestApp = server.t, urls: [string, string] = [server.url, server.url]) => classOfThree(t, urls);
const told = (socket: Client) => next<{ roomId: string; breakouts: BreakoutView }>(socket, 'action:breakouts').then((e) => e.breakouts);
const byHand = (groups: number, assignments: { userId: number; group: number }[]) => ({ groups, mode: 'manual', assignments });

describe('opening breakout rooms', () => {
  it('is for a host of the main room only, with a checked form', async () => {
    const { roomId, t, a, b } = await classroom();
    const split = byHand(2, [{ userId: a.account.userId, group: 0 }]);
    expect(await ask(a.socket, 'request:breakouts_open', { roomId, breakouts: split })).toEqual({ error: messages.notAllowed });
    for (const bad of [
      { roomId, breakouts: { groups: 1, mode: 'random' } },
      { roomId, breakouts: { groups: 21, mode: 'random' } },
      { roomId, breakouts: { groups: 2, mode: 'manual' } },
      { roomId, breakouts: byHand(2, [{ userId: a.account.userId, group: 2 }]) },
      { roomId, breakouts: byHand(2, [{ userId: a.account.userId, group: 0 }, { userId: a.account.userId, group: 1 }]) },
      { roomId, breakouts: { groups: 2, mode: 'random', minutes: 0 } },
      { roomId, breakouts: { groups: 2, mode: 'random', assignments: [{ userId: a.account.userId, group: 0 }] } },
      { roomId },
      null,
    ]) {
      expect(await ask(t, 'request:breakouts_open', bad)).toEqual({ error: messages.validationFailed });
    }
    // By hand, only people in the main room now.
    const outsider = await person(server.t);
    expect(await ask(t, 'request:breakouts_open', { roomId, breakouts: byHand(2, [{ userId: outsider.userId, group: 0 }]) })).toEqual({
      error: messages.validationFailed,
    });
    // Nothing was opened by any of it; the host sees whom there is to split, a student sees no one.
    expect(await ask(b.socket, 'request:breakouts_state', { roomId })).toEqual({ breakouts: null, unplaced: [] });
    const { unplaced } = await ask<{ unplaced: { userName: string }[] }>(t, 'request:breakouts_state', { roomId });
    expect(unplaced.map((p) => p.userName).sort()).toEqual(['Ana', 'Ben', 'Cai']);
    expect(await server.t.db.select().from(breakouts).where(eq(breakouts.roomId, roomId))).toEqual([]);
    // Not from a room one is not in.
    expect(await ask(t, 'request:breakouts_open', { roomId: 'elsewhere', breakouts: { groups: 2, mode: 'random' } })).toEqual({ error: messages.notAllowed });
  });

  it('at random deals every student into a group, and a group admits only its own people and the hosts', async () => {
    const { roomId, sessionId, t, a, b, c } = await classroom();
    const heard = [told(a.socket), told(b.socket), told(c.socket)];
    const { breakouts: split } = await ask<{ breakouts: BreakoutView }>(t, 'request:breakouts_open', { roomId, breakouts: { groups: 2, mode: 'random' } });
    for (const view of await Promise.all(heard)) expect(view).toEqual(split);
    expect(split.groups.map((g) => g.members.length).sort()).toEqual([1, 2]);
    const placed = split.groups.flatMap((g) => g.members.map((m) => m.userName)).sort();
    expect(placed).toEqual(['Ana', 'Ben', 'Cai']);

    const groupOf = (name: string) => split.groups.findIndex((g) => g.members.some((m) => m.userName === name));
    const own = split.groups[groupOf('Ana')]!.roomId;
    const other = split.groups[1 - groupOf('Ana')]!.roomId;
    expect(own).toBe(groupRoomId(roomId, split.id, groupOf('Ana')));
    // Ana moves to her group: her own video and chat room, the main room's session for attendance.
    expect(await ask(a.socket, 'request:breakouts_state', { roomId: own })).toEqual({ error: messages.notAllowed });
    expect(await ask(a.socket, 'request:join_room', { roomId: other, userName: 'Ana' })).toEqual({ error: messages.breakoutNotYours });
    await ask(a.socket, 'request:leave_room', { roomId });
    expect(await ask(a.socket, 'request:join_room', { roomId: own, userName: 'Ana' })).toMatchObject({ room: { id: own } });
    expect(await ask(a.socket, 'request:breakouts_state', { roomId: own })).toEqual({ breakouts: split, unplaced: [] });
    // The teacher visits either group; someone outside the class enters none.
    expect(await ask(t, 'request:join_room', { roomId: other, userName: 'Tess' })).toMatchObject({ room: { id: other } });
    const outsider = await connect(server.url, (await person(server.t)).auth());
    expect(await ask(outsider, 'request:join_room', { roomId: own, userName: 'Eve' })).toEqual({ error: messages.notAllowed });
    // A made-up group of a real split, and a group of no split.
    expect(await ask(a.socket, 'request:join_room', { roomId: groupRoomId(roomId, split.id, 5), userName: 'Ana' })).toEqual({ error: messages.roomNotFound });
    expect(await ask(a.socket, 'request:join_room', { roomId: groupRoomId(roomId, split.id + 1000, 0), userName: 'Ana' })).toEqual({ error: messages.roomNotFound });

    // Attendance goes on: her visit of the main room closed, one in her group open, both the session's.
    const visits = await server.t.db.select().from(attendance).where(eq(attendance.userId, a.account.userId));
    expect(visits.map((v) => v.sessionId)).toEqual([sessionId, sessionId]);
    expect(visits.filter((v) => v.leftAt === null)).toHaveLength(1);
  });

  it('by hand leaves the others in the main room, and a host places a late comer', async () => {
    const { roomId, t, a, b, c } = await classroom();
    const split = byHand(3, [
      { userId: a.account.userId, group: 0 },
      { userId: b.account.userId, group: 2 },
    ]);
    const { breakouts: view } = await ask<{ breakouts: BreakoutView }>(t, 'request:breakouts_open', { roomId, breakouts: split });
    expect(view.groups.map((g) => g.members.map((m) => m.userName))).toEqual([['Ana'], [], ['Ben']]);
    expect(await ask(t, 'request:breakouts_state', { roomId })).toEqual({ breakouts: view, unplaced: [{ userId: c.account.userId, userName: 'Cai' }] });
    expect(await ask(c.socket, 'request:join_room', { roomId: view.groups[0]!.roomId, userName: 'Cai' })).toEqual({ error: messages.notAllowed });
    // A student cannot move anyone, nor choose in a split by hand.
    expect(await ask(c.socket, 'request:breakouts_move', { roomId, userId: c.account.userId, group: 1 })).toEqual({ error: messages.notAllowed });
    expect(await ask(c.socket, 'request:breakouts_choose', { roomId, group: 1 })).toEqual({ error: messages.notAllowed });
    const cHears = told(c.socket);
    const moved = await ask<{ breakouts: BreakoutView }>(t, 'request:breakouts_move', { roomId, userId: c.account.userId, group: 1 });
    expect(moved.breakouts.groups[1]!.members).toEqual([{ userId: c.account.userId, userName: 'Cai' }]);
    expect(await cHears).toEqual(moved.breakouts);
    expect(await ask(c.socket, 'request:join_room', { roomId: view.groups[1]!.roomId, userName: 'Cai' })).toMatchObject({ room: { id: view.groups[1]!.roomId } });
    // Moving someone who is in no room of the class, or to a group that does not exist.
    const stranger = await person(server.t);
    expect(await ask(t, 'request:breakouts_move', { roomId, userId: stranger.userId, group: 0 })).toEqual({ error: messages.validationFailed });
    expect(await ask(t, 'request:breakouts_move', { roomId, userId: a.account.userId, group: 3 })).toEqual({ error: messages.validationFailed });
  });

  it("by choice lets each student pick a group, and a random split places a late comer in the smallest group", async () => {
    const { roomId, t, a, b, c } = await classroom();
    await ask(t, 'request:breakouts_open', { roomId, breakouts: { groups: 2, mode: 'choose' } });
    expect(await ask(t, 'request:breakouts_choose', { roomId, group: 0 })).toEqual({ error: messages.notAllowed });
    expect(await ask(a.socket, 'request:breakouts_choose', { roomId, group: 2 })).toEqual({ error: messages.validationFailed });
    const chosen = await ask<{ breakouts: BreakoutView }>(a.socket, 'request:breakouts_choose', { roomId, group: 1 });
    expect(chosen.breakouts.groups.map((g) => g.members.length)).toEqual([0, 1]);
    // A change of mind.
    const again = await ask<{ breakouts: BreakoutView }>(a.socket, 'request:breakouts_choose', { roomId, group: 0 });
    expect(again.breakouts.groups.map((g) => g.members.length)).toEqual([1, 0]);

    // A new split closes the one before; Cai arrives after it was dealt and is dealt in.
    await ask(c.socket, 'request:leave_room', { roomId });
    const { breakouts: dealt } = await ask<{ breakouts: BreakoutView }>(t, 'request:breakouts_open', { roomId, breakouts: { groups: 3, mode: 'random' } });
    expect(dealt.id).not.toBe(again.breakouts.id);
    expect(dealt.groups.map((g) => g.members.length).sort()).toEqual([0, 1, 1]);
    expect(await ask(a.socket, 'request:join_room', { roomId: again.breakouts.groups[0]!.roomId, userName: 'Ana' })).toEqual({ error: messages.breakoutsNotOpen });
    await ask(c.socket, 'request:join_room', { roomId, userName: 'Cai' });
    const bHears = told(b.socket);
    const { breakouts: late } = await ask<{ breakouts: BreakoutView }>(c.socket, 'request:breakouts_state', { roomId });
    expect(await ask(t, 'request:breakouts_state', { roomId })).toEqual({ breakouts: late, unplaced: [] });
    const empty = dealt.groups.findIndex((g) => g.members.length === 0);
    expect(late.groups[empty]!.members).toEqual([{ userId: c.account.userId, userName: 'Cai' }]);
    expect(await bHears).toEqual(late);
  });
});

describe('while breakout rooms are open', () => {
  it('a host speaks to the main room and every group, and brings everyone back', async () => {
    const { roomId, t, a, b, c } = await classroom();
    const { breakouts: view } = await ask<{ breakouts: BreakoutView }>(t, 'request:breakouts_open', {
      roomId,
      breakouts: byHand(2, [
        { userId: a.account.userId, group: 0 },
        { userId: b.account.userId, group: 1 },
      ]),
    });
    for (const [student, group] of [[a, 0], [b, 1]] as const) {
      await ask(student.socket, 'request:leave_room', { roomId });
      await ask(student.socket, 'request:join_room', { roomId: view.groups[group]!.roomId, userName: student.peer });
    }
    // The teacher speaks from a group she visits; a student may not.
    await ask(t, 'request:leave_room', { roomId });
    await ask(t, 'request:join_room', { roomId: view.groups[0]!.roomId, userName: 'Tess' });
    expect(await ask(a.socket, 'request:breakouts_broadcast', { roomId: view.groups[0]!.roomId, text: 'Hi' })).toEqual({ error: messages.notAllowed });
    expect(await ask(t, 'request:breakouts_broadcast', { roomId, text: ' ' })).toEqual({ error: messages.validationFailed });
    const heard = [a, b, c].map((s) => next(s.socket, 'action:breakouts_broadcast'));
    expect(await ask(t, 'request:breakouts_broadcast', { roomId: view.groups[0]!.roomId, text: ' Two minutes left ' })).toEqual({ done: true });
    for (const message of await Promise.all(heard)) expect(message).toEqual({ roomId, fromName: 'Tess', text: 'Two minutes left' });

    // Only a host brings everyone back; then the groups take no one.
    expect(await ask(b.socket, 'request:breakouts_close', { roomId })).toEqual({ error: messages.notAllowed });
    const back = [a, b, c].map((s) => told(s.socket));
    expect(await ask(t, 'request:breakouts_close', { roomId: view.groups[0]!.roomId })).toEqual({ done: true });
    for (const closed of await Promise.all(back)) expect(closed).toMatchObject({ id: view.id, closed: true });
    expect(await ask(t, 'request:breakouts_close', { roomId: view.groups[0]!.roomId })).toEqual({ error: messages.breakoutsNotOpen });
    expect(await ask(c.socket, 'request:breakouts_state', { roomId })).toEqual({ breakouts: null, unplaced: [] });
    await ask(a.socket, 'request:leave_room', { roomId: view.groups[0]!.roomId });
    expect(await ask(a.socket, 'request:join_room', { roomId: view.groups[0]!.roomId, userName: 'Ana' })).toEqual({ error: messages.breakoutsNotOpen });
    expect(await ask(a.socket, 'request:join_room', { roomId, userName: 'Ana' })).toMatchObject({ room: { id: roomId } });
  });

  it('past their time the groups take no one, and the split is over for everyone', async () => {
    const { roomId, t, a } = await classroom();
    const { breakouts: view } = await ask<{ breakouts: BreakoutView }>(t, 'request:breakouts_open', {
      roomId,
      breakouts: { ...byHand(2, [{ userId: a.account.userId, group: 0 }]), minutes: 5 },
    });
    expect(Date.parse(view.endsAt!) - Date.parse(view.openedAt)).toBe(5 * 60_000);
    await server.t.db.update(breakouts).set({ endsAt: new Date(Date.now() - 1000) }).where(eq(breakouts.id, view.id));
    expect(await ask(a.socket, 'request:join_room', { roomId: view.groups[0]!.roomId, userName: 'Ana' })).toEqual({ error: messages.breakoutsNotOpen });
    expect(await ask(a.socket, 'request:breakouts_state', { roomId })).toEqual({ breakouts: null, unplaced: [] });
    const notTold = record(a.socket, 'action:breakouts_broadcast');
    expect(await ask(t, 'request:breakouts_broadcast', { roomId, text: 'Late' })).toEqual({ error: messages.breakoutsNotOpen });
    await quiet(a.socket);
    expect(notTold).toEqual([]);
  });
});

describe("a group's whiteboard", () => {
  it('is run by everyone in the group, as a host runs the class board', async () => {
    const { roomId, t, a } = await classroom();
    expect(await ask(a.socket, 'request:whiteboard_show', { roomId, shown: true })).toEqual({ error: messages.notAllowed });
    const { breakouts: view } = await ask<{ breakouts: BreakoutView }>(t, 'request:breakouts_open', { roomId, breakouts: byHand(2, [{ userId: a.account.userId, group: 0 }]) });
    const group = view.groups[0]!.roomId;
    await ask(a.socket, 'request:leave_room', { roomId });
    await ask(a.socket, 'request:join_room', { roomId: group, userName: 'Ana' });
    expect(await ask(a.socket, 'request:whiteboard_show', { roomId: group, shown: true })).not.toHaveProperty('error');
    expect(await ask(a.socket, 'request:whiteboard_page', { roomId: group, action: 'add' })).not.toHaveProperty('error');
  });
});

describe('a network blip in a group', () => {
  it('keeps the place in the group: the others hear no leave, and the join is answered as before', async () => {
    const { roomId, t, a } = await classroom();
    const { breakouts: view } = await ask<{ breakouts: BreakoutView }>(t, 'request:breakouts_open', { roomId, breakouts: byHand(2, [{ userId: a.account.userId, group: 0 }]) });
    const group = view.groups[0]!.roomId;
    await ask(a.socket, 'request:leave_room', { roomId });
    await ask(a.socket, 'request:join_room', { roomId: group, userName: 'Ana' });
    await ask(t, 'request:leave_room', { roomId });
    await ask(t, 'request:join_room', { roomId: group, userName: 'Tess' });
    const left = record(t, 'action:terminate_peer_connection');
    a.socket.disconnect();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const back = await connect(server.url, a.account.auth(a.peer, group));
    expect(await ask(back, 'request:join_room', { roomId: group, userName: 'Ana' })).toMatchObject({ room: { id: group } });
    expect(await ask(back, 'request:breakouts_state', { roomId: group })).toEqual({ breakouts: view, unplaced: [] });
    await new Promise((resolve) => setTimeout(resolve, 400));
    await quiet(t);
    expect(left).toEqual([]);
  });
});

describe.runIf(process.env.REDIS_URL)('two server processes sharing Redis', () => {
  it('open, admit, speak and close across processes', async () => {
    const processes = await twoProcesses(server.t);
    try {
      const [one, two] = processes.urls;
      // The teacher and Ben on the first process, Ana and Cai on the second.
      const { roomId, t, a, b, c } = await classroom(processes.shared, [one!, two!]);
      const aHears = told(a.socket);
      const { breakouts: view } = await ask<{ breakouts: BreakoutView }>(t, 'request:breakouts_open', {
        roomId,
        breakouts: byHand(2, [
          { userId: a.account.userId, group: 1 },
          { userId: b.account.userId, group: 1 },
        ]),
      });
      expect(await aHears).toEqual(view);
      await ask(a.socket, 'request:leave_room', { roomId });
      expect(await ask(a.socket, 'request:join_room', { roomId: view.groups[1]!.roomId, userName: 'Ana' })).toMatchObject({ room: { id: view.groups[1]!.roomId } });
      expect(await ask(c.socket, 'request:join_room', { roomId: view.groups[1]!.roomId, userName: 'Cai' })).toEqual({ error: messages.notAllowed });
      const heard = next(a.socket, 'action:breakouts_broadcast');
      await ask(t, 'request:breakouts_broadcast', { roomId, text: 'Across' });
      expect(await heard).toMatchObject({ text: 'Across' });
      const back = told(a.socket);
      await ask(t, 'request:breakouts_close', { roomId });
      expect(await back).toMatchObject({ closed: true });
    } finally {
      await processes.close();
    }
  });
});
