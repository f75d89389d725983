// Running a class against real socket.io clients on a listening server: hands, the host's controls and
// the lobby, each refused to a student and applied for the host (and an admin). With REDIS_URL set the
// state lives in Redis, as the rooms do.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { fillMessage, messages } from '@mooz/contract/messages';
import type { LobbyEntry, ModerationAction, RoomControls } from '@mooz/contract/realtime';
import { attendance, classSessions, users } from '../db/schema/index';
import {
  ask,
  classSession,
  connect,
  createdRoom,
  meetingServer,
  next,
  person,
  quiet,
  record,
  twoProcesses,
  type Client,
} from '../../test/realtime-clients';

const server = meetingServer();

/** A class session with its teacher and two students in the room. */
async function classroom() {
  const teacher = await person(server.t, 'teacher');
  const { roomId, sessionId } = await classSession(server.t, teacher.userId);
  const tSession = 'teacher-' + randomUUID();
  const t = await connect(server.url, teacher.auth(tSession));
  const tTold = next(t, 'action:lobby');
  await ask(t, 'request:join_room', { roomId, userName: 'Tess' });
  await tTold;
  const alice = await person(server.t);
  const bob = await person(server.t);
  const aSession = 'alice-' + randomUUID();
  const bSession = 'bob-' + randomUUID();
  const a = await connect(server.url, alice.auth(aSession));
  const b = await connect(server.url, bob.auth(bSession));
  // Each joiner hears how the room is run once it is in: wait for it, so later events are the test's.
  const told = [next(a, 'action:room_controls'), next(b, 'action:room_controls')];
  await ask(a, 'request:join_room', { roomId, userName: 'Alice' });
  await ask(b, 'request:join_room', { roomId, userName: 'Bob' });
  await Promise.all(told);
  return { roomId, sessionId, teacher, t, tSession, alice, a, aSession, bob, b, bSession };
}

/** The next room_controls that satisfies `check`. */
function controlsWhere(socket: Client, check: (c: RoomControls) => boolean, ms = 5000): Promise<RoomControls> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no matching action:room_controls')), ms);
    const listener = (c: RoomControls) => {
      if (!check(c)) return;
      clearTimeout(timer);
      socket.off('action:room_controls', listener);
      resolve(c);
    };
    socket.on('action:room_controls', listener);
  });
}

describe('hands', () => {
  it('shows hands in the order raised to everyone, lowers them, and sends them to a late joiner', async () => {
    const { roomId, t, a, aSession, b, bSession } = await classroom();
    expect(await ask(b, 'request:raise_hand', { roomId, raised: true })).toEqual({ raised: true });
    const seen = controlsWhere(t, (c) => c.hands.length === 2);
    expect(await ask(a, 'request:raise_hand', { roomId, raised: true })).toEqual({ raised: true });
    // Raising again keeps the first place.
    await ask(b, 'request:raise_hand', { roomId, raised: true });
    const both = await seen;
    expect(both.hands.map((h) => [h.userId, h.userName])).toEqual([
      [bSession, 'Bob'],
      [aSession, 'Alice'],
    ]);

    const late = await person(server.t);
    const l = await connect(server.url, late.auth());
    const onJoin = next<RoomControls>(l, 'action:room_controls');
    await ask(l, 'request:join_room', { roomId, userName: 'Late' });
    expect((await onJoin).hands.map((h) => h.userId)).toEqual([bSession, aSession]);

    // A participant lowers their own; a student cannot lower someone else's.
    const one = controlsWhere(l, (c) => c.hands.length === 1);
    expect(await ask(b, 'request:raise_hand', { roomId, raised: false })).toEqual({ raised: false });
    expect(await ask(b, 'request:lower_hands', { roomId, userId: aSession })).toEqual({ error: messages.notAllowed });
    expect(await ask(b, 'request:lower_hands', { roomId })).toEqual({ error: messages.notAllowed });
    const now = await one;
    expect(now.hands[0]!.userId).toBe(aSession);
    expect(await ask(t, 'request:lower_hands', { roomId, userId: aSession })).toEqual({ lowered: 1 });
    await ask(a, 'request:raise_hand', { roomId, raised: true });
    await ask(b, 'request:raise_hand', { roomId, raised: true });
    const none = controlsWhere(l, (c) => c.hands.length === 0);
    expect(await ask(t, 'request:lower_hands', { roomId })).toEqual({ lowered: 2 });
    await none;
  });

  it("drops a leaver's hand, and refuses hands outside the room and bad payloads", async () => {
    const { roomId, t, a, b, bSession } = await classroom();
    await ask(b, 'request:raise_hand', { roomId, raised: true });
    const gone = controlsWhere(t, (c) => c.hands.length === 0 && !c.hands.some((h) => h.userId === bSession));
    await ask(b, 'request:leave_room', { roomId });
    await gone;
    expect(await ask(b, 'request:raise_hand', { roomId, raised: true })).toEqual({ error: messages.notAllowed });
    for (const bad of [
      { roomId },
      { roomId, raised: 'yes' },
      { raised: true },
      null,
      { roomId: 'x'.repeat(200), raised: true },
    ]) {
      expect(await ask(a, 'request:raise_hand', bad)).toEqual({ error: messages.validationFailed });
    }
  });

  it('tells who the hosts are', async () => {
    const { roomId, a, t } = await classroom();
    const controls = controlsWhere(a, () => true);
    await ask(t, 'request:moderate', { roomId, action: 'lock_unmute' });
    const { hosts, classSession, lobbyEnabled } = await controls;
    expect({ classSession, lobbyEnabled }).toEqual({ classSession: true, lobbyEnabled: true });
    expect(hosts).toHaveLength(1);
    expect(hosts[0]).toMatch(/^teacher-/);
  });
});

describe("the host's controls", () => {
  const actions: [ModerationAction, boolean][] = [
    ['mute', true],
    ['stop_camera', true],
    ['stop_screen', true],
    ['remove', true],
    ['mute_all', false],
    ['lock_unmute', false],
    ['unlock_unmute', false],
    ['end_class', false],
  ];
  it.each(actions)('refuses %s to a student, and nothing happens', async (action, withTarget) => {
    const { roomId, sessionId, a, b, bSession, t } = await classroom();
    const seenByB = [record(b, 'action:moderated'), record(b, 'action:room_closed'), record(b, 'action:room_controls')];
    const seenByT = record(t, 'action:room_closed');
    const res = await ask(a, 'request:moderate', { roomId, action, ...(withTarget ? { target: bSession } : {}) });
    expect(res).toEqual({ error: messages.notAllowed });
    await quiet(b);
    await quiet(t);
    expect(seenByB.map((s) => s.length)).toEqual([0, 0, 0]);
    expect(seenByT).toEqual([]);
    // Still in, and the session still runs.
    expect(await ask(b, 'request:join_room', { roomId, userName: 'Bob' })).toMatchObject({ room: { id: roomId } });
    const [row] = await server.t.db.select().from(classSessions).where(eq(classSessions.id, sessionId));
    expect(row!.endsAt.getTime()).toBeGreaterThan(Date.now());
  });

  it('refuses the lobby and hand controls to a student', async () => {
    const { roomId, a, bSession } = await classroom();
    expect(await ask(a, 'request:set_lobby', { roomId, enabled: true })).toEqual({ error: messages.notAllowed });
    expect(await ask(a, 'request:admit', { roomId, userId: bSession, admit: true })).toEqual({
      error: messages.notAllowed,
    });
  });

  it('mutes, stops a camera and a screen share, for the target only', async () => {
    const { roomId, a, b, bSession, t } = await classroom();
    const seenByA = record(a, 'action:moderated');
    for (const action of ['mute', 'stop_camera', 'stop_screen'] as const) {
      const got = next(b, 'action:moderated');
      expect(await ask(t, 'request:moderate', { roomId, action, target: bSession })).toEqual({ done: true });
      expect(await got).toEqual({ roomId, action, byName: 'Tess', unmuteLocked: false });
    }
    await quiet(a);
    expect(seenByA).toEqual([]);
  });

  it('mutes everyone but the host, locks unmuting, and tells a late joiner about the lock', async () => {
    const { roomId, a, b, t } = await classroom();
    const seenByT = record(t, 'action:moderated');
    const locked = controlsWhere(a, (c) => c.unmuteLocked);
    expect(await ask(t, 'request:moderate', { roomId, action: 'lock_unmute' })).toEqual({ done: true });
    await locked;
    const toA = next(a, 'action:moderated');
    const toB = next(b, 'action:moderated');
    expect(await ask(t, 'request:moderate', { roomId, action: 'mute_all' })).toEqual({ done: true });
    expect(await toA).toEqual({ roomId, action: 'mute_all', byName: 'Tess', unmuteLocked: true });
    expect(await toB).toMatchObject({ action: 'mute_all', unmuteLocked: true });
    await quiet(t);
    expect(seenByT).toEqual([]);

    const late = await connect(server.url, (await person(server.t)).auth());
    const onJoin = next<RoomControls>(late, 'action:room_controls');
    await ask(late, 'request:join_room', { roomId, userName: 'Late' });
    expect((await onJoin).unmuteLocked).toBe(true);

    const unlocked = controlsWhere(a, (c) => !c.unmuteLocked);
    expect(await ask(t, 'request:moderate', { roomId, action: 'unlock_unmute' })).toEqual({ done: true });
    await unlocked;
  });

  it('refuses a target that is not in the room, oneself, or missing', async () => {
    const { roomId, t, tSession } = await classroom();
    expect(await ask(t, 'request:moderate', { roomId, action: 'mute', target: 'nobody' })).toEqual({
      error: messages.notAllowed,
    });
    expect(await ask(t, 'request:moderate', { roomId, action: 'remove' })).toEqual({
      error: messages.validationFailed,
    });
    expect(await ask(t, 'request:moderate', { roomId, action: 'explode', target: 'x' })).toEqual({
      error: messages.validationFailed,
    });
    expect(await ask(t, 'request:moderate', { roomId, action: 'remove', target: tSession })).toEqual({
      error: messages.notAllowed,
    });
  });

  it('removes a participant, who cannot come back with the same or a new sessionId, and closes their attendance', async () => {
    const { roomId, sessionId, alice, a, aSession, b, t } = await classroom();
    const closed = next(a, 'action:room_closed');
    const terminated = next<{ userId: string }>(b, 'action:terminate_peer_connection');
    expect(await ask(t, 'request:moderate', { roomId, action: 'remove', target: aSession })).toEqual({ done: true });
    expect(await closed).toEqual({ roomId, reason: 'removed', byName: 'Tess' });
    expect((await terminated).userId).toBe(aSession);
    const refusal = { error: fillMessage(messages.removedFromRoom, { name: 'Tess' }) };
    // The old connection can neither relay nor stay.
    expect(await ask(a, 'request:send_mesage', { to: 'x', roomId, data: {} })).toEqual({ error: messages.notAllowed });
    expect(await ask(a, 'request:join_room', { roomId, userName: 'Alice' })).toEqual(refusal);
    const again = await connect(server.url, alice.auth(aSession, roomId));
    expect(await ask(again, 'request:join_room', { roomId, userName: 'Alice' })).toEqual(refusal);
    const fresh = await connect(server.url, alice.auth());
    expect(await ask(fresh, 'request:join_room', { roomId, userName: 'Alice' })).toEqual(refusal);
    expect(await server.t.app.realtime.store.member(roomId, aSession)).toBeNull();
    const rows = await server.t.db
      .select()
      .from(attendance)
      .where(and(eq(attendance.sessionId, sessionId), eq(attendance.userId, alice.userId)));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.leftAt).toBeInstanceOf(Date);
  });

  it('lets an admin moderate a class session, and never removes a host', async () => {
    const { roomId, b, bSession, t, tSession } = await classroom();
    const admin = await person(server.t, 'admin');
    const ad = await connect(server.url, admin.auth());
    await ask(ad, 'request:join_room', { roomId, userName: 'Ada' });
    const got = next(b, 'action:moderated');
    expect(await ask(ad, 'request:moderate', { roomId, action: 'mute', target: bSession })).toEqual({ done: true });
    expect(await got).toMatchObject({ action: 'mute', byName: 'Ada' });
    // The teacher is a host: the admin cannot remove them, and they stay.
    expect(await ask(ad, 'request:moderate', { roomId, action: 'remove', target: tSession })).toEqual({
      error: messages.notAllowed,
    });
    expect(await server.t.app.realtime.store.member(roomId, tSession)).not.toBeNull();
    const locked = controlsWhere(t, (c) => c.unmuteLocked && c.hosts.length === 2);
    expect(await ask(ad, 'request:moderate', { roomId, action: 'lock_unmute' })).toEqual({ done: true });
    await locked;
  });

  it('ends a class session for everyone: all leave, the session ends now, joins are refused, attendance closes', async () => {
    const { roomId, sessionId, a, b, t, alice } = await classroom();
    const closedA = next(a, 'action:room_closed');
    const closedB = next(b, 'action:room_closed');
    const closedT = next(t, 'action:room_closed');
    expect(await ask(t, 'request:moderate', { roomId, action: 'end_class' })).toEqual({ done: true });
    expect(await closedA).toEqual({ roomId, reason: 'ended', byName: 'Tess' });
    await closedB;
    await closedT;
    const [row] = await server.t.db.select().from(classSessions).where(eq(classSessions.id, sessionId));
    expect(row!.endsAt.getTime()).toBeLessThanOrEqual(Date.now());
    const open = await server.t.db.select().from(attendance).where(eq(attendance.sessionId, sessionId));
    expect(open.length).toBe(3);
    expect(open.every((r) => r.leftAt instanceof Date)).toBe(true);
    const back = await connect(server.url, alice.auth());
    expect(await ask(back, 'request:join_room', { roomId, userName: 'Alice' })).toEqual({
      error: messages.sessionEnded,
    });
  });

  it("ends an ad hoc room for everyone, and lets its creator's controls work there", async () => {
    const owner = await person(server.t);
    const o = await connect(server.url, owner.auth());
    const room = await createdRoom(o);
    await ask(o, 'request:join_room', { roomId: room.id, userName: 'Olga' });
    const guest = await person(server.t);
    const g = await connect(server.url, guest.auth());
    await ask(g, 'request:join_room', { roomId: room.id, userName: 'Gus' });
    // Another signed-in user is no host there.
    expect(await ask(g, 'request:moderate', { roomId: room.id, action: 'end_class' })).toEqual({
      error: messages.notAllowed,
    });
    const closed = next(g, 'action:room_closed');
    expect(await ask(o, 'request:moderate', { roomId: room.id, action: 'end_class' })).toEqual({ done: true });
    expect(await closed).toEqual({ roomId: room.id, reason: 'ended', byName: 'Olga' });
    const refusal = { error: fillMessage(messages.classEndedBy, { name: 'Olga' }) };
    const g2 = await connect(server.url, guest.auth());
    expect(await ask(g2, 'request:join_room', { roomId: room.id, userName: 'Gus' })).toEqual(refusal);
    expect(await server.t.app.realtime.store.list(room.id)).toEqual([]);
  });
});

describe('the lobby', () => {
  async function adHocWithLobby() {
    const owner = await person(server.t);
    const o = await connect(server.url, owner.auth('owner-' + randomUUID()));
    const room = await createdRoom(o);
    await ask(o, 'request:join_room', { roomId: room.id, userName: 'Olga' });
    expect(await ask(o, 'request:set_lobby', { roomId: room.id, enabled: true })).toEqual({ enabled: true });
    return { owner, o, room };
  }

  it('keeps newcomers waiting, oldest first, until admitted; the admission is remembered', async () => {
    const { o, room } = await adHocWithLobby();
    const first = await person(server.t);
    const second = await person(server.t);
    const f = await connect(server.url, first.auth('first'));
    const s = await connect(server.url, second.auth('second'));
    const listed = new Promise<LobbyEntry[]>((resolve) => {
      o.on('action:lobby', ({ waiting }) => {
        if (waiting.length === 2) resolve(waiting);
      });
    });
    expect(await ask(f, 'request:join_room', { roomId: room.id, userName: 'First' })).toEqual({
      lobby: { roomId: room.id, roomName: room.name },
    });
    expect(await ask(s, 'request:join_room', { roomId: room.id, userName: 'Second' })).toMatchObject({
      lobby: { roomId: room.id },
    });
    expect((await listed).map((w) => [w.userId, w.userName])).toEqual([
      ['first', 'First'],
      ['second', 'Second'],
    ]);
    // Not in the room while waiting.
    expect(await server.t.app.realtime.store.member(room.id, 'first')).toBeNull();
    expect(await ask(f, 'request:raise_hand', { roomId: room.id, raised: true })).toEqual({
      error: messages.notAllowed,
    });

    const decision = next(f, 'action:lobby_decision');
    expect(await ask(o, 'request:admit', { roomId: room.id, userId: 'first', admit: true })).toEqual({ done: true });
    expect(await decision).toEqual({ roomId: room.id, admitted: true });
    expect(await ask(f, 'request:join_room', { roomId: room.id, userName: 'First' })).toMatchObject({
      room: { id: room.id },
    });
    // Again later from another tab: let in at once.
    await ask(f, 'request:leave_room', { roomId: room.id });
    const f2 = await connect(server.url, first.auth());
    expect(await ask(f2, 'request:join_room', { roomId: room.id, userName: 'First' })).toMatchObject({
      room: { id: room.id },
    });
    // Someone no longer waiting cannot be admitted twice.
    expect(await ask(o, 'request:admit', { roomId: room.id, userId: 'first', admit: true })).toEqual({
      error: messages.notAllowed,
    });
  });

  it('refuses, and drops the entry of someone who leaves the lobby', async () => {
    const { o, room } = await adHocWithLobby();
    const r = await connect(server.url, (await person(server.t)).auth('refused'));
    await ask(r, 'request:join_room', { roomId: room.id, userName: 'R' });
    const decision = next(r, 'action:lobby_decision');
    expect(await ask(o, 'request:admit', { roomId: room.id, userId: 'refused', admit: false })).toEqual({ done: true });
    expect(await decision).toEqual({ roomId: room.id, admitted: false });
    // Refused is not admitted: asking again waits again.
    expect(await ask(r, 'request:join_room', { roomId: room.id, userName: 'R' })).toMatchObject({
      lobby: { roomId: room.id },
    });

    const leaving = await connect(server.url, (await person(server.t)).auth('leaving'));
    const listed = new Promise<void>((resolve) => {
      o.on('action:lobby', ({ waiting }) => {
        if (waiting.some((w) => w.userId === 'leaving')) resolve();
      });
    });
    await ask(leaving, 'request:join_room', { roomId: room.id, userName: 'L' });
    await listed;
    const dropped = new Promise<void>((resolve) => {
      o.on('action:lobby', ({ waiting }) => {
        if (!waiting.some((w) => w.userId === 'leaving')) resolve();
      });
    });
    leaving.disconnect();
    await dropped;
    expect(await ask(o, 'request:admit', { roomId: room.id, userId: 'leaving', admit: true })).toEqual({
      error: messages.notAllowed,
    });
  });

  it('lets the host in directly, lists the lobby to a host who joins later, and turning it off lets everyone in', async () => {
    const { owner, o, room } = await adHocWithLobby();
    await ask(o, 'request:leave_room', { roomId: room.id });
    const w = await connect(server.url, (await person(server.t)).auth('waiter'));
    await ask(w, 'request:join_room', { roomId: room.id, userName: 'W' });
    const o2 = await connect(server.url, owner.auth());
    const lobby = next<{ waiting: LobbyEntry[] }>(o2, 'action:lobby');
    expect(await ask(o2, 'request:join_room', { roomId: room.id, userName: 'Olga' })).toMatchObject({
      room: { id: room.id },
    });
    expect((await lobby).waiting.map((e) => e.userId)).toEqual(['waiter']);
    const decision = next(w, 'action:lobby_decision');
    expect(await ask(o2, 'request:set_lobby', { roomId: room.id, enabled: false })).toEqual({ enabled: false });
    expect(await decision).toEqual({ roomId: room.id, admitted: true });
    expect(await ask(w, 'request:join_room', { roomId: room.id, userName: 'W' })).toMatchObject({
      room: { id: room.id },
    });
  });

  it("applies the room's capacity when admitted", async () => {
    const owner = await person(server.t);
    const o = await connect(server.url, owner.auth());
    const room = await createdRoom(o, 2);
    await ask(o, 'request:join_room', { roomId: room.id, userName: 'O' });
    await ask(o, 'request:set_lobby', { roomId: room.id, enabled: true });
    const x = await connect(server.url, (await person(server.t)).auth('x'));
    const y = await connect(server.url, (await person(server.t)).auth('y'));
    await ask(x, 'request:join_room', { roomId: room.id, userName: 'X' });
    await ask(y, 'request:join_room', { roomId: room.id, userName: 'Y' });
    await ask(o, 'request:admit', { roomId: room.id, userId: 'x', admit: true });
    await ask(o, 'request:admit', { roomId: room.id, userId: 'y', admit: true });
    expect(await ask(x, 'request:join_room', { roomId: room.id, userName: 'X' })).toMatchObject({
      room: { id: room.id },
    });
    expect(await ask(y, 'request:join_room', { roomId: room.id, userName: 'Y' })).toEqual({ error: messages.roomFull });
  });

  it("sends a class session's outsiders to the lobby, admits its students directly, and cannot be switched", async () => {
    const { roomId, t, a } = await classroom();
    const outsider = await person(server.t, 'teacher');
    const out = await connect(server.url, outsider.auth('outsider'));
    const listed = next<{ waiting: LobbyEntry[] }>(t, 'action:lobby');
    expect(await ask(out, 'request:join_room', { roomId, userName: 'Otto' })).toEqual({
      lobby: { roomId, roomName: 'Week 1' },
    });
    expect((await listed).waiting.map((e) => e.userName)).toEqual(['Otto']);
    expect(await ask(t, 'request:set_lobby', { roomId, enabled: false })).toEqual({ error: messages.notAllowed });
    expect(await ask(a, 'request:admit', { roomId, userId: 'outsider', admit: true })).toEqual({
      error: messages.notAllowed,
    });
    expect(await ask(t, 'request:admit', { roomId, userId: 'outsider', admit: true })).toEqual({ done: true });
    expect(await ask(out, 'request:join_room', { roomId, userName: 'Otto' })).toMatchObject({ room: { id: roomId } });
  });

  it('refuses a lobby entry for a student whose trial is over when the session was cancelled', async () => {
    const teacher = await person(server.t, 'teacher');
    const student = await person(server.t);
    await server.t.db
      .update(users)
      .set({ trialEndsAt: new Date(Date.now() - 86_400_000) })
      .where(eq(users.id, student.userId));
    const { roomId, sessionId } = await classSession(server.t, teacher.userId);
    await server.t.db.update(classSessions).set({ cancelledAt: new Date() }).where(eq(classSessions.id, sessionId));
    const s = await connect(server.url, student.auth());
    expect(await ask(s, 'request:join_room', { roomId, userName: 'S' })).toEqual({
      error: messages.sessionWasCancelled,
    });
  });
});

describe.runIf(process.env.REDIS_URL)('two server processes sharing Redis', () => {
  it('shares hands, the lobby, removals and the lock between processes', async () => {
    const processes = await twoProcesses(server.t);
    try {
      const [one, two] = processes.urls;
      const shared = processes.shared;
      const owner = await person(shared);
      const guest = await person(shared);
      const late = await person(shared);
      const o = await connect(one!, owner.auth('owner-proc'));
      const room = await createdRoom(o);
      await ask(o, 'request:join_room', { roomId: room.id, userName: 'Olga' });
      await ask(o, 'request:set_lobby', { roomId: room.id, enabled: true });

      // Waiting on the other process: the host hears of it, and the decision reaches it.
      const g = await connect(two!, guest.auth('guest-proc'));
      const listed = next<{ waiting: LobbyEntry[] }>(o, 'action:lobby');
      expect(await ask(g, 'request:join_room', { roomId: room.id, userName: 'Gus' })).toMatchObject({
        lobby: { roomId: room.id },
      });
      expect((await listed).waiting.map((w) => w.userId)).toEqual(['guest-proc']);
      const decision = next(g, 'action:lobby_decision');
      await ask(o, 'request:admit', { roomId: room.id, userId: 'guest-proc', admit: true });
      expect(await decision).toEqual({ roomId: room.id, admitted: true });
      const inRoom = next<RoomControls>(g, 'action:room_controls');
      expect(await ask(g, 'request:join_room', { roomId: room.id, userName: 'Gus' })).toMatchObject({
        room: { id: room.id },
      });
      expect((await inRoom).hosts).toEqual(['owner-proc']);

      // A hand raised on one process is seen on the other; the lock reaches the other process's joiner.
      const hand = controlsWhere(o, (c) => c.hands.length === 1);
      await ask(g, 'request:raise_hand', { roomId: room.id, raised: true });
      expect((await hand).hands[0]).toMatchObject({ userId: 'guest-proc', userName: 'Gus' });
      await ask(o, 'request:moderate', { roomId: room.id, action: 'lock_unmute' });
      await ask(o, 'request:admit', { roomId: room.id, userId: 'nobody', admit: true });
      const muted = next(g, 'action:moderated');
      await ask(o, 'request:moderate', { roomId: room.id, action: 'mute', target: 'guest-proc' });
      expect(await muted).toEqual({ roomId: room.id, action: 'mute', byName: 'Olga', unmuteLocked: true });

      // Removed from one process, refused on both.
      const closed = next(g, 'action:room_closed');
      await ask(o, 'request:moderate', { roomId: room.id, action: 'remove', target: 'guest-proc' });
      expect(await closed).toMatchObject({ reason: 'removed' });
      const refusal = { error: fillMessage(messages.removedFromRoom, { name: 'Olga' }) };
      for (const url of [one!, two!]) {
        const back = await connect(url, guest.auth());
        expect(await ask(back, 'request:join_room', { roomId: room.id, userName: 'Gus' })).toEqual(refusal);
      }
      await ask(o, 'request:set_lobby', { roomId: room.id, enabled: false });
      const l = await connect(two!, late.auth());
      const told = next<RoomControls>(l, 'action:room_controls');
      await ask(l, 'request:join_room', { roomId: room.id, userName: 'Lee' });
      expect(await told).toMatchObject({ unmuteLocked: true, lobbyEnabled: false, classSession: false, hands: [], hosts: ['owner-proc'] });
    } finally {
      await processes.close();
    }
  });
});
