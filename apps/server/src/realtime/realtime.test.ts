// The signalling server against real socket.io clients on a listening server and a real database.
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { limits } from '@mooz/contract/limits';
import { messages } from '@mooz/contract/messages';
import { realtimeLimits, type Room } from '@mooz/contract/realtime';
import { buildTestApp, type TestApp } from '../../test/app';
import { users } from '../db/schema/index';
import { ask, connect, createdRoom, listen, next, person, quiet, record, sockets, twoProcesses } from '../../test/realtime-clients';

let t: TestApp;
let url: string;

beforeAll(async () => {
  t = await buildTestApp({}, (app) => {
    // A short grace period keeps the disconnect tests quick; the rule is the same at 10 s.
    app.realtime.options.reconnectGraceMs = 300;
  });
  url = await listen(t.app);
});

afterEach(() => {
  for (const socket of sockets.splice(0)) socket.disconnect();
});

afterAll(async () => {
  await t.close();
});

describe('handshake', () => {
  it('refuses a connection without a token with a JSON message', async () => {
    const error = await connect(url, { sessionId: randomUUID() }).then(() => null, (e: Error) => e);
    expect(JSON.parse(error!.message)).toEqual({ message: messages.noAccessToken });
  });

  it('refuses a forged or expired token with a JSON message', async () => {
    const error = await connect(url, { sessionId: randomUUID(), token: 'not-a-jwt' }).then(() => null, (e: Error) => e);
    expect(JSON.parse(error!.message)).toEqual({ message: messages.unauthorized });
  });

  it('refuses a deactivated account even with a well-formed token', async () => {
    const alice = await person(t);
    await t.db.update(users).set({ isActive: false }).where(eq(users.id, alice.userId));
    const error = await connect(url, alice.auth()).then(() => null, (e: Error) => e);
    expect(JSON.parse(error!.message)).toEqual({ message: messages.unauthorized });
  });

  it('refuses a handshake without a sessionId', async () => {
    const alice = await person(t);
    const error = await connect(url, { token: alice.token }).then(() => null, (e: Error) => e);
    expect(JSON.parse(error!.message)).toEqual({ message: messages.validationFailed });
  });

  it('serves only the websocket transport at /socket.io/', async () => {
    const res = await fetch(`${url}/socket.io/?EIO=4&transport=polling`);
    expect(res.status).toBe(400);
    // engine.io's "Transport unknown".
    expect(await res.json()).toMatchObject({ code: 0 });
  });
});

describe('rooms', () => {
  it('creates a room with the defaults and does not join its creator', async () => {
    const alice = await person(t);
    const socket = await connect(url, alice.auth());
    const res = await ask<{ room: Room }>(socket, 'request:create_room', { room: {} });
    expect(res.room).toMatchObject({ name: 'Mooz Meeting', capacity: 10, created_by: alice.userId });
    expect(await t.app.realtime.store.member(res.room.id, 'anyone')).toBeNull();
  });

  it('rejects a create_room with a capacity of the wrong type or out of range', async () => {
    const socket = await connect(url, (await person(t)).auth());
    for (const capacity of ['ten', 1, limits.meetingMaxCapacity + 1, 2.5]) {
      expect(await ask(socket, 'request:create_room', { room: { name: 'x', capacity } })).toEqual({ error: messages.validationFailed });
    }
    expect(await ask(socket, 'request:create_room', null)).toEqual({ error: messages.validationFailed });
  });

  it('introduces a joiner to those already in the room and relays their messages both ways', async () => {
    const alice = await person(t);
    const bob = await person(t);
    const a = await connect(url, alice.auth('alice-peer'));
    const b = await connect(url, bob.auth('bob-peer'));
    const room = await createdRoom(a);

    const established = next<{ room: Room }>(a, 'action:room_connection_established');
    expect(await ask(a, 'request:join_room', { roomId: room.id, userName: 'Alice' })).toEqual({ room });
    expect(await established).toEqual({ room });

    const introduced = next(a, 'action:establish_peer_connection');
    expect(await ask(b, 'request:join_room', { roomId: room.id, userName: 'Bob' })).toEqual({ room });
    expect(await introduced).toEqual({ userId: 'bob-peer', userName: 'Bob' });

    const atBob = next(b, 'action:message_received');
    const hello = { connection: true, userName: 'Alice' };
    expect(await ask(a, 'request:send_mesage', { to: 'bob-peer', roomId: room.id, data: hello })).toEqual({ delivered: true });
    expect(await atBob).toEqual({ from: 'alice-peer', data: hello });

    const atAlice = next(a, 'action:message_received');
    const answer = { sdpSignal: { description: { type: 'answer', sdp: 'v=0' } }, metaData: { screenStreamId: null, userStreamId: 's1' } };
    await ask(b, 'request:send_mesage', { to: 'alice-peer', roomId: room.id, data: answer });
    expect(await atAlice).toEqual({ from: 'bob-peer', data: answer });
  });

  it('relays to a recipient on this process straight to its connection, with no broadcast (with Redis, no publish)', async () => {
    const a = await connect(url, (await person(t)).auth('a-direct'));
    const b = await connect(url, (await person(t)).auth('b-direct'));
    const room = await createdRoom(a);
    await ask(a, 'request:join_room', { roomId: room.id, userName: 'A' });
    await ask(b, 'request:join_room', { roomId: room.id, userName: 'B' });
    // Every broadcast goes through the adapter, and the Redis adapter publishes each one to every process.
    const broadcast = vi.spyOn(t.app.realtime.io.of('/').adapter, 'broadcast');
    try {
      const atB = next(b, 'action:message_received');
      expect(await ask(a, 'request:send_mesage', { to: 'b-direct', roomId: room.id, data: { x: 1 } })).toEqual({ delivered: true });
      expect(await atB).toEqual({ from: 'a-direct', data: { x: 1 } });
      // The join's own announcements may still be going out meanwhile: only the relay must not be among them.
      const relayed = broadcast.mock.calls.filter(([packet]) => (packet.data as unknown[] | undefined)?.[0] === 'action:message_received');
      expect(relayed).toEqual([]);
    } finally {
      broadcast.mockRestore();
    }
  });

  it('answers a second join of the same room with the room again and tells nobody', async () => {
    const a = await connect(url, (await person(t)).auth());
    const b = await connect(url, (await person(t)).auth());
    const room = await createdRoom(a);
    await ask(a, 'request:join_room', { roomId: room.id, userName: 'A' });
    const introduced = next(a, 'action:establish_peer_connection');
    await ask(b, 'request:join_room', { roomId: room.id, userName: 'B' });
    await introduced;
    const seen = record(a, 'action:establish_peer_connection');
    expect(await ask(b, 'request:join_room', { roomId: room.id, userName: 'B' })).toEqual({ room });
    await quiet(a);
    await quiet(b);
    expect(seen).toEqual([]);
  });

  it('answers Room not found for an unknown room id and a validation error for a bad payload', async () => {
    const socket = await connect(url, (await person(t)).auth());
    expect(await ask(socket, 'request:join_room', { roomId: randomUUID(), userName: 'A' })).toEqual({ error: messages.roomNotFound });
    expect(await ask(socket, 'request:join_room', { roomId: randomUUID() })).toEqual({ error: messages.validationFailed });
    expect(await ask(socket, 'request:join_room', { roomId: 42, userName: 'A' })).toEqual({ error: messages.validationFailed });
  });

  it('tells the others when someone leaves, and stops relaying to them', async () => {
    const a = await connect(url, (await person(t)).auth('a-leave'));
    const b = await connect(url, (await person(t)).auth('b-leave'));
    const room = await createdRoom(a);
    await ask(a, 'request:join_room', { roomId: room.id, userName: 'A' });
    await ask(b, 'request:join_room', { roomId: room.id, userName: 'B' });

    const terminated = next(a, 'action:terminate_peer_connection');
    expect(await ask(b, 'request:leave_room', { roomId: room.id })).toEqual({ left: true });
    expect(await terminated).toEqual({ userId: 'b-leave' });
    expect(await ask(a, 'request:send_mesage', { to: 'b-leave', roomId: room.id, data: { x: 1 } })).toEqual({ error: messages.notAllowed });
    expect(await ask(b, 'request:send_mesage', { to: 'a-leave', roomId: room.id, data: { x: 1 } })).toEqual({ error: messages.notAllowed });
  });

  it('counts a disconnect without leave as a leave once the grace period is over', async () => {
    const a = await connect(url, (await person(t)).auth('a-drop'));
    const b = await connect(url, (await person(t)).auth('b-drop'));
    const room = await createdRoom(a);
    await ask(a, 'request:join_room', { roomId: room.id, userName: 'A' });
    await ask(b, 'request:join_room', { roomId: room.id, userName: 'B' });

    const terminated = next(a, 'action:terminate_peer_connection');
    b.disconnect();
    expect(await terminated).toEqual({ userId: 'b-drop' });
    expect(await t.app.realtime.store.member(room.id, 'b-drop')).toBeNull();
  });

  it('keeps the place of a peer that reconnects within the grace period', async () => {
    const bob = await person(t);
    const a = await connect(url, (await person(t)).auth('a-blip'));
    const b = await connect(url, bob.auth('b-blip'));
    const room = await createdRoom(a, 2);
    await ask(a, 'request:join_room', { roomId: room.id, userName: 'A' });
    const introduced = next(a, 'action:establish_peer_connection');
    await ask(b, 'request:join_room', { roomId: room.id, userName: 'B' });
    await introduced;
    const terminations = record(a, 'action:terminate_peer_connection');
    const introductions = record(a, 'action:establish_peer_connection');

    b.disconnect();
    const back = await connect(url, bob.auth('b-blip', room.id));
    // Past the grace period: the place is still theirs and the room (capacity 2) still full.
    await new Promise((resolve) => setTimeout(resolve, t.app.realtime.options.reconnectGraceMs * 2));
    const atA = next(a, 'action:message_received');
    expect(await ask(back, 'request:send_mesage', { to: 'a-blip', roomId: room.id, data: { still: 'here' } })).toEqual({ delivered: true });
    expect(await atA).toEqual({ from: 'b-blip', data: { still: 'here' } });
    expect(await ask(back, 'request:join_room', { roomId: room.id, userName: 'B' })).toEqual({ room });
    const c = await connect(url, (await person(t)).auth());
    expect(await ask(c, 'request:join_room', { roomId: room.id, userName: 'C' })).toEqual({ error: messages.roomFull });
    await quiet(a);
    expect(terminations).toEqual([]);
    expect(introductions).toEqual([]);
  });

  it('refuses a joiner when the room is at capacity, and admits them once a place is free', async () => {
    const a = await connect(url, (await person(t)).auth('a-full'));
    const b = await connect(url, (await person(t)).auth());
    const c = await connect(url, (await person(t)).auth());
    const room = await createdRoom(a, 2);
    await ask(a, 'request:join_room', { roomId: room.id, userName: 'A' });
    await ask(b, 'request:join_room', { roomId: room.id, userName: 'B' });
    expect(await ask(c, 'request:join_room', { roomId: room.id, userName: 'C' })).toEqual({ error: messages.roomFull });
    await ask(a, 'request:leave_room', { roomId: room.id });
    expect(await ask(c, 'request:join_room', { roomId: room.id, userName: 'C' })).toEqual({ room });
  });

  it('does not let a stranger relay into a room, or anyone relay to someone outside it', async () => {
    const a = await connect(url, (await person(t)).auth('a-in'));
    const stranger = await connect(url, (await person(t)).auth('stranger'));
    const outsider = await connect(url, (await person(t)).auth('outsider'));
    const room = await createdRoom(a);
    await ask(a, 'request:join_room', { roomId: room.id, userName: 'A' });
    const atA = record(a, 'action:message_received');
    const atOutsider = record(outsider, 'action:message_received');

    expect(await ask(stranger, 'request:send_mesage', { to: 'a-in', roomId: room.id, data: { evil: true } })).toEqual({ error: messages.notAllowed });
    expect(await ask(a, 'request:send_mesage', { to: 'outsider', roomId: room.id, data: { leak: true } })).toEqual({ error: messages.notAllowed });
    // A relay without an acknowledgement is refused the same way, reported as an error event.
    const refused = next<{ message: string }>(stranger, 'error');
    stranger.emit('request:send_mesage', { to: 'a-in', roomId: room.id, data: { evil: true } });
    expect(await refused).toEqual({ message: messages.notAllowed });
    await quiet(a);
    await quiet(outsider);
    expect(atA).toEqual([]);
    expect(atOutsider).toEqual([]);
  });

  it('refuses a relay larger than the limit and one without a data object', async () => {
    const a = await connect(url, (await person(t)).auth('a-big'));
    const b = await connect(url, (await person(t)).auth('b-big'));
    const room = await createdRoom(a);
    await ask(a, 'request:join_room', { roomId: room.id, userName: 'A' });
    await ask(b, 'request:join_room', { roomId: room.id, userName: 'B' });
    const big = { blob: 'x'.repeat(realtimeLimits.relayMaxBytes) };
    expect(await ask(a, 'request:send_mesage', { to: 'b-big', roomId: room.id, data: big })).toEqual({ error: messages.relayTooLarge });
    expect(await ask(a, 'request:send_mesage', { to: 'b-big', roomId: room.id, data: 'text' })).toEqual({ error: messages.validationFailed });
  });

  it('rate-limits a connection that floods the server', async () => {
    const a = await connect(url, (await person(t)).auth());
    const answers = await Promise.all(
      Array.from({ length: realtimeLimits.eventBurst * 2 }, () => ask<{ error?: string }>(a, 'request:send_mesage', { to: 'x', roomId: 'nowhere', data: {} })),
    );
    expect(answers.filter((r) => r.error === messages.notAllowed).length).toBeGreaterThanOrEqual(realtimeLimits.eventBurst);
    expect(answers.filter((r) => r.error === messages.rateLimited).length).toBeGreaterThan(0);
  });

  it('replaces the first connection when the same sessionId connects again', async () => {
    const alice = await person(t);
    const first = await connect(url, alice.auth('same-peer'));
    const other = await connect(url, (await person(t)).auth('other-peer'));
    const room = await createdRoom(first);
    await ask(first, 'request:join_room', { roomId: room.id, userName: 'Alice' });
    await ask(other, 'request:join_room', { roomId: room.id, userName: 'Other' });

    const dropped = new Promise<string>((resolve) => first.once('disconnect', resolve));
    const terminated = next(other, 'action:terminate_peer_connection');
    const reintroduced = next(other, 'action:establish_peer_connection');
    const second = await connect(url, alice.auth('same-peer'));
    expect(await dropped).toBe('io server disconnect');
    // A fresh page with the same sessionId rejoins: the others replace their old link.
    expect(await ask(second, 'request:join_room', { roomId: room.id, userName: 'Alice' })).toEqual({ room });
    expect(await terminated).toEqual({ userId: 'same-peer' });
    expect(await reintroduced).toEqual({ userId: 'same-peer', userName: 'Alice' });

    const atSecond = next(second, 'action:message_received');
    await ask(other, 'request:send_mesage', { to: 'same-peer', roomId: room.id, data: { hi: 1 } });
    expect(await atSecond).toEqual({ from: 'other-peer', data: { hi: 1 } });
  });

  it("does not let another account take over someone's sessionId in a room", async () => {
    const a = await connect(url, (await person(t)).auth('victim-peer'));
    const room = await createdRoom(a);
    await ask(a, 'request:join_room', { roomId: room.id, userName: 'A' });
    const thief = await connect(url, (await person(t)).auth('victim-peer'));
    expect(await ask(thief, 'request:join_room', { roomId: room.id, userName: 'Thief' })).toEqual({ error: messages.notAllowed });
    expect(a.connected).toBe(true);
  });
});

describe.runIf(process.env.REDIS_URL)('two server processes sharing Redis', () => {
  it('puts clients of two processes in one room, relays between them and enforces capacity across both', async () => {
    const processes = await twoProcesses(t);
    try {
      const [one, two] = processes.urls;
      const shared = processes.shared;
      const alice = await person(shared);
      const bob = await person(shared);
      const carol = await person(shared);
      const a = await connect(one!, alice.auth('a-proc'));
      const b = await connect(two!, bob.auth('b-proc'));
      const room = await createdRoom(a, 2);

      await ask(a, 'request:join_room', { roomId: room.id, userName: 'Alice' });
      const introduced = next(a, 'action:establish_peer_connection');
      expect(await ask(b, 'request:join_room', { roomId: room.id, userName: 'Bob' })).toEqual({ room });
      expect(await introduced).toEqual({ userId: 'b-proc', userName: 'Bob' });

      const atBob = next(b, 'action:message_received');
      await ask(a, 'request:send_mesage', { to: 'b-proc', roomId: room.id, data: { connection: true, userName: 'Alice' } });
      expect(await atBob).toEqual({ from: 'a-proc', data: { connection: true, userName: 'Alice' } });
      const atAlice = next(a, 'action:message_received');
      await ask(b, 'request:send_mesage', { to: 'a-proc', roomId: room.id, data: { back: true } });
      expect(await atAlice).toEqual({ from: 'b-proc', data: { back: true } });

      const c = await connect(one!, carol.auth());
      expect(await ask(c, 'request:join_room', { roomId: room.id, userName: 'Carol' })).toEqual({ error: messages.roomFull });

      // Bob's second connection on the other process replaces the first there.
      const dropped = new Promise<string>((resolve) => b.once('disconnect', resolve));
      const b2 = await connect(one!, bob.auth('b-proc', room.id));
      expect(await dropped).toBe('io server disconnect');
      const atB2 = next(b2, 'action:message_received');
      await ask(a, 'request:send_mesage', { to: 'b-proc', roomId: room.id, data: { again: true } });
      expect(await atB2).toEqual({ from: 'a-proc', data: { again: true } });

      const terminated = next(b2, 'action:terminate_peer_connection');
      await ask(a, 'request:leave_room', { roomId: room.id });
      expect(await terminated).toEqual({ userId: 'a-proc' });
    } finally {
      await processes.close();
    }
  });
});
