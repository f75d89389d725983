// Large classes against real Janus instances (each in a network namespace of its own, test/janus-namespace.ts)
// and real socket.io clients: when a room moves to the SFU, who may reach its Janus room, capacity per
// mode, and a room moving off an instance that died. The media itself is proven in Chromium (e2e/large-class.spec.ts).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { limits } from '@mooz/contract/limits';
import { messages } from '@mooz/contract/messages';
import type { Room } from '@mooz/contract/realtime';
import { buildTestApp, type TestApp } from '../../test/app';
import { sharedInstances } from '../../test/instances';
import { signedIn } from '../../test/accounts';
import { createCourse } from '../../test/courses';
import { startJanusInNamespace, type NamespacedJanus } from '../../test/janus-namespace';
import { eq } from 'drizzle-orm';
import { attendance } from '../db/schema/index';
import { ask, classSession, connect, createdRoom, listen, next, person, record, sockets, type Client } from '../../test/realtime-clients';
import { JanusConnection } from './janus-api';
import { capacityLimit, decideTopology } from './topology';

type Topology = { roomId: string; mode: 'mesh' | 'sfu'; epoch: number };

describe('topology', () => {
  it('moves a room to the SFU once it has more people than the mesh limit and an SFU is up', () => {
    expect(decideTopology('mesh', 4, 4, true)).toBe('mesh');
    expect(decideTopology('mesh', 5, 4, true)).toBe('sfu');
    expect(decideTopology('mesh', 5, 4, false)).toBe('mesh');
  });

  it('keeps a room on the SFU when it shrinks', () => {
    expect(decideTopology('sfu', 2, 4, true)).toBe('sfu');
  });

  it('allows rooms of up to 10 people without an SFU and 200 with one', () => {
    expect(capacityLimit(false)).toBe(10);
    expect(capacityLimit(true)).toBe(200);
  });
});

describe('without an SFU', () => {
  let t: TestApp;
  let url: string;
  beforeAll(async () => {
    t = await buildTestApp();
    url = await listen(t.app);
  });
  afterEach(() => sockets.splice(0).forEach((socket) => socket.disconnect()));
  afterAll(() => t.close());

  it('refuses a room larger than a mesh can carry, naming the limit', async () => {
    const host = await person(t, 'teacher');
    const socket = await connect(url, host.auth());
    expect(await ask(socket, 'request:create_room', { room: { name: 'Big', capacity: 11 } })).toEqual({
      error: 'A room here holds at most 10 people',
    });
    expect(await ask(socket, 'request:create_room', { room: { name: 'Ok', capacity: limits.meshMaxCapacity } })).toMatchObject({
      room: { capacity: 10 },
    });
  });

  it('says rooms here hold at most 10, and refuses a class session for more with nothing saved', async () => {
    const teacher = await signedIn(t, 'teacher');
    const capacity = await t.app.inject({ method: 'GET', url: '/api/meetings/capacity/', headers: teacher.headers });
    expect(capacity.json()).toEqual({ data: { max_capacity: 10, sfu: false, mesh_max_people: 4 } });
    expect((await t.app.inject({ method: 'GET', url: '/api/meetings/capacity/' })).statusCode).toBe(401);

    const course = await createCourse(t, teacher.headers);
    const session = (capacity: number) =>
      t.app.inject({
        method: 'POST',
        url: '/api/classes/sessions/',
        headers: teacher.headers,
        payload: { course_id: course.id, title: 'Big', starts_at: new Date(Date.now() + 86_400_000).toISOString(), duration_minutes: 60, capacity },
      });
    const refused = await session(11);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors).toEqual({ capacity: ['A room here holds at most 10 people'] });
    const listed = await t.app.inject({ method: 'GET', url: '/api/classes/sessions/', headers: teacher.headers });
    expect(listed.json().data.filter((s: { title: string }) => s.title === 'Big')).toEqual([]);
    expect((await session(10)).statusCode).toBe(201);
  });

  it('keeps every room a mesh, however many join', async () => {
    const host = await person(t, 'teacher');
    const first = await connect(url, host.auth());
    const room = await createdRoom(first, 10);
    const seen: Topology[] = [];
    for (let i = 0; i < 6; i++) {
      const someone = i === 0 ? host : await person(t);
      const socket = i === 0 ? first : await connect(url, someone.auth());
      const told = next<Topology>(socket, 'action:room_topology');
      await ask(socket, 'request:join_room', { roomId: room.id, userName: `P${i}` });
      seen.push(await told);
    }
    expect(seen.map((s) => s.mode)).toEqual(Array(6).fill('mesh'));
  });
});

describe('with Janus', () => {
  let janusA: NamespacedJanus;
  let janusB: NamespacedJanus;
  let t: TestApp;
  let url: string;

  beforeAll(async () => {
    const apiSecret = 'a-secret-for-both-instances';
    [janusA, janusB] = await Promise.all([
      startJanusInNamespace({ rtpPortRange: '31000-31099', apiSecret }),
      startJanusInNamespace({ rtpPortRange: '31100-31199', apiSecret }),
    ]);
    // Two instances behind one secret, as a deployment would give them.
    t = await buildTestApp({ JANUS_URLS: `${janusA.url},${janusB.url}`, JANUS_API_SECRET: janusA.apiSecret, MESH_MAX_PEOPLE: '4' });
    url = await listen(t.app);
  }, 60_000);
  afterEach(() => sockets.splice(0).forEach((socket) => socket.disconnect()));
  afterAll(async () => {
    await t?.close();
    await Promise.all([janusA?.stop(), janusB?.stop()]);
  });

  async function janusWith(secret: string, instance: NamespacedJanus) {
    return JanusConnection.open(instance.url, secret);
  }

  /** A room with `people` in it, once the last has been told how its media flows. */
  async function fillRoom(people: number): Promise<{ room: Room; clients: Client[]; topologies: Topology[] }> {
    const host = await person(t, 'teacher');
    const hostSocket = await connect(url, host.auth());
    const room = await createdRoom(hostSocket, 50);
    const clients: Client[] = [];
    const topologies: Promise<Topology>[] = [];
    for (let i = 0; i < people; i++) {
      const socket = i === 0 ? hostSocket : await connect(url, (await person(t)).auth());
      const told = next<Topology>(socket, 'action:room_topology');
      expect(await ask(socket, 'request:join_room', { roomId: room.id, userName: `P${i}` })).toMatchObject({ room: { id: room.id } });
      topologies.push(told);
      clients.push(socket);
    }
    return { room, clients, topologies: await Promise.all(topologies) };
  }

  it('accepts rooms of up to 200 people', async () => {
    const teacher = await signedIn(t, 'teacher');
    const capacity = await t.app.inject({ method: 'GET', url: '/api/meetings/capacity/', headers: teacher.headers });
    expect(capacity.json()).toEqual({ data: { max_capacity: 200, sfu: true, mesh_max_people: 4 } });
    const host = await person(t, 'teacher');
    const socket = await connect(url, host.auth());
    expect(await ask(socket, 'request:create_room', { room: { name: 'Lecture', capacity: 200 } })).toMatchObject({ room: { capacity: 200 } });
    expect(await ask(socket, 'request:create_room', { room: { name: 'Too big', capacity: 201 } })).toEqual({ error: messages.validationFailed });
  });

  it('moves a room to the SFU when a fifth person joins, telling everyone, and keeps it there when one leaves', async () => {
    const host = await person(t, 'teacher');
    const hostSocket = await connect(url, host.auth());
    const room = await createdRoom(hostSocket, 50);
    const clients: Client[] = [];
    for (let i = 0; i < 4; i++) {
      const socket = i === 0 ? hostSocket : await connect(url, (await person(t)).auth());
      const told = next<Topology>(socket, 'action:room_topology');
      await ask(socket, 'request:join_room', { roomId: room.id, userName: `P${i}` });
      expect(await told).toEqual({ roomId: room.id, mode: 'mesh', epoch: 0 });
      clients.push(socket);
    }
    const moved = clients.map((socket) => next<Topology>(socket, 'action:room_topology'));
    const fifth = await connect(url, (await person(t)).auth());
    const fifthTold = next<Topology>(fifth, 'action:room_topology');
    await ask(fifth, 'request:join_room', { roomId: room.id, userName: 'P4' });
    const all = await Promise.all([...moved, fifthTold]);
    expect(new Set(all.map((s) => `${s.mode}:${s.epoch}`)).size).toBe(1);
    expect(all[0]).toMatchObject({ roomId: room.id, mode: 'sfu' });
    expect(all[0]!.epoch).toBeGreaterThan(0);

    await ask(fifth, 'request:leave_room', { roomId: room.id });
    const late = await connect(url, (await person(t)).auth());
    const lateTold = next<Topology>(late, 'action:room_topology');
    await ask(late, 'request:join_room', { roomId: room.id, userName: 'Late' });
    expect(await lateTold).toEqual(all[0]);
  });

  it('puts a new room on the least loaded instance, by the people in its Janus rooms', async () => {
    // Someone in the Janus room of a first class (let in as the server would: a token on its list)...
    const { room: first } = await fillRoom(5);
    const busy = (await t.app.realtime.sfu.placement(first.id))!;
    const janus = await janusWith(janusA.apiSecret, busy.instance === janusA.url ? janusA : janusB);
    try {
      const handle = await (await janus.createSession()).attach();
      await handle.request({ request: 'allowed', room: busy.janusRoom, secret: busy.secret, action: 'add', allowed: ['a-token'] });
      await handle.message({ request: 'join', ptype: 'publisher', room: busy.janusRoom, display: 'someone', token: 'a-token' });
      // ...and the next class goes to the other instance.
      const { room: second } = await fillRoom(5);
      expect((await t.app.realtime.sfu.placement(second.id))!.instance).not.toBe(busy.instance);
    } finally {
      janus.close();
    }
  });

  it('records the attendance of a class session on the SFU as in a mesh', async () => {
    const teacher = await person(t, 'teacher');
    const { roomId, sessionId } = await classSession(t, teacher.userId, 50);
    const people = [teacher, ...(await Promise.all([1, 2, 3, 4].map(() => person(t))))];
    for (const [i, someone] of people.entries()) {
      const socket = await connect(url, someone.auth());
      expect(await ask(socket, 'request:join_room', { roomId, userName: `P${i}` })).toMatchObject({ room: { id: roomId } });
    }
    await expect.poll(() => t.app.realtime.sfu.placement(roomId)).not.toBeNull();
    const present = await t.db.select({ userId: attendance.userId }).from(attendance).where(eq(attendance.sessionId, sessionId));
    expect(new Set(present.map((row) => row.userId))).toEqual(new Set(people.map((someone) => someone.userId)));
  });

  it('keeps a newcomer to a room on the SFU in its lobby, out of Janus, until admitted', async () => {
    const { room, clients } = await fillRoom(5);
    const placement = (await t.app.realtime.sfu.placement(room.id))!;
    const host = clients[0]!;
    expect(await ask(host, 'request:set_lobby', { roomId: room.id, enabled: true })).toEqual({ enabled: true });

    const late = await person(t);
    const waiting = await connect(url, late.auth('late'));
    const topologies = record<Topology>(waiting, 'action:room_topology');
    expect(await ask(waiting, 'request:join_room', { roomId: room.id, userName: 'Late' })).toMatchObject({ lobby: { roomId: room.id } });
    const offer = { type: 'offer', sdp: 'v=0\r\n' };
    expect(await ask(waiting, 'request:sfu_publish', { roomId: room.id, epoch: placement.epoch, jsep: offer })).toEqual({ error: messages.notAllowed });
    expect(topologies).toEqual([]);

    expect(await ask(host, 'request:admit', { roomId: room.id, userId: 'late', admit: true })).toEqual({ done: true });
    const told = next<Topology>(waiting, 'action:room_topology');
    expect(await ask(waiting, 'request:join_room', { roomId: room.id, userName: 'Late' })).toMatchObject({ room: { id: room.id } });
    expect(await told).toEqual({ roomId: room.id, mode: 'sfu', epoch: placement.epoch });
  });

  it('lets nobody into the Janus room without a token the server gave, nor anyone without the API secret', async () => {
    const { room } = await fillRoom(5);
    const placement = await t.app.realtime.sfu.placement(room.id);
    expect(placement).not.toBeNull();
    const instance = placement!.instance === janusA.url ? janusA : janusB;

    // Janus's API behind its secret: a wrong one is refused outright.
    const stranger = await janusWith('not-the-secret', instance);
    await expect(stranger.createSession()).rejects.toThrow(/Unauthorized/i);
    stranger.close();

    // Even with the API secret, the room admits only the tokens the server added.
    const janus = await janusWith(instance.apiSecret, instance);
    const handle = await (await janus.createSession()).attach();
    await expect(handle.message({ request: 'join', ptype: 'publisher', room: placement!.janusRoom, display: 'intruder' })).rejects.toThrow(/Unauthorized/);
    await expect(
      handle.message({ request: 'join', ptype: 'subscriber', room: placement!.janusRoom, streams: [{ feed: 1 }], token: 'guessed' }),
    ).rejects.toThrow(/Unauthorized|No such feed/);
    janus.close();
  });

  it('refuses SFU requests from someone not in the room, and for an earlier placement', async () => {
    const { room, topologies } = await fillRoom(5);
    const { epoch } = topologies[4]!;
    const outsider = await connect(url, (await person(t)).auth());
    const offer = { type: 'offer', sdp: 'v=0\r\n' };
    expect(await ask(outsider, 'request:sfu_publish', { roomId: room.id, epoch, jsep: offer })).toEqual({ error: messages.notAllowed });
    expect(await ask(outsider, 'request:room_chat', { roomId: room.id, chat: { id: '1', userLabel: 'x', text: 'hi' } })).toEqual({
      error: messages.notAllowed,
    });
    const member = sockets[sockets.length - 2]!;
    expect(await ask(member, 'request:sfu_publish', { roomId: room.id, epoch: epoch - 1, jsep: offer })).toEqual({ error: messages.sfuMoved });
    expect(await ask(member, 'request:sfu_publish', { roomId: room.id, epoch, jsep: { type: 'offer' } })).toEqual({ error: messages.validationFailed });
  });

  it('carries chat to everyone else in an SFU room over the socket', async () => {
    const { room, clients } = await fillRoom(5);
    const heard = clients.slice(1).map((socket) => next<{ from: string; chat: { text: string } }>(socket, 'action:room_chat'));
    expect(await ask(clients[0]!, 'request:room_chat', { roomId: room.id, chat: { id: 'c1', userLabel: 'P0', text: 'Hello class' } })).toEqual({
      delivered: true,
    });
    for (const message of await Promise.all(heard)) expect(message.chat.text).toBe('Hello class');
  });

  it('destroys the Janus room when the room empties, and the room is a mesh again', async () => {
    const { room, clients } = await fillRoom(5);
    const placement = (await t.app.realtime.sfu.placement(room.id))!;
    for (const socket of clients) await ask(socket, 'request:leave_room', { roomId: room.id });
    await expect.poll(() => t.app.realtime.sfu.placement(room.id)).toBeNull();
    const instance = placement.instance === janusA.url ? janusA : janusB;
    const janus = await janusWith(instance.apiSecret, instance);
    const handle = await (await janus.createSession()).attach();
    await expect.poll(async () => (await handle.request({ request: 'exists', room: placement.janusRoom })).exists).toBe(false);
    janus.close();
  });

  it('moves a room to the other instance when its Janus dies, and tells everyone to publish again within 10 s', async () => {
    const { room, clients } = await fillRoom(5);
    const before = (await t.app.realtime.sfu.placement(room.id))!;
    const moved = clients.map((socket) => next<Topology>(socket, 'action:room_topology', 10_000));
    const dying = before.instance === janusA.url ? janusA : janusB;
    dying.kill();
    const told = await Promise.all(moved);
    const after = (await t.app.realtime.sfu.placement(room.id))!;
    expect(after.instance).not.toBe(before.instance);
    expect(after.epoch).toBeGreaterThan(before.epoch);
    for (const topology of told) expect(topology).toEqual({ roomId: room.id, mode: 'sfu', epoch: after.epoch });
  }, 20_000);
});

describe.runIf(process.env.REDIS_URL)('an SFU room served by two server processes sharing Redis', () => {
  let janus: NamespacedJanus;
  beforeAll(async () => {
    janus = await startJanusInNamespace({ rtpPortRange: '31200-31299' });
  }, 60_000);
  afterAll(() => janus?.stop());

  it('lets the process a peer reconnected to hold its Janus session: the one it left lets go of its own', async () => {
    const { instances, close } = await sharedInstances(2, {
      env: { REDIS_URL: process.env.REDIS_URL!, JANUS_URLS: janus.url, JANUS_API_SECRET: janus.apiSecret, MESH_MAX_PEOPLE: '4' },
    });
    const apps = instances.map((instance) => instance.app);
    try {
      const [one, two] = await Promise.all(apps.map(listen));
      const shared = instances[0]!;
      const host = await person(shared, 'teacher');
      const hostSocket = await connect(one!, host.auth());
      const room = await createdRoom(hostSocket, 50);
      await ask(hostSocket, 'request:join_room', { roomId: room.id, userName: 'Host' });
      const mover = await person(shared);
      let moving = await connect(one!, mover.auth('moving-peer'));
      await ask(moving, 'request:join_room', { roomId: room.id, userName: 'Mover' });
      for (let i = 0; i < 3; i++) {
        const socket = await connect(one!, (await person(shared)).auth());
        await ask(socket, 'request:join_room', { roomId: room.id, userName: `P${i}` });
      }
      await expect.poll(() => apps[0]!.realtime.sfu.placement(room.id)).not.toBeNull();
      const { epoch } = (await apps[0]!.realtime.sfu.placement(room.id))!;
      // The mover's first SFU request makes its Janus participant on process one.
      await ask(moving, 'request:sfu_trickle', { roomId: room.id, epoch, target: 'publisher', candidate: null });
      expect(apps[0]!.realtime.sfu.people(room.id)).toContain('moving-peer');

      // Its connection drops, and it comes back on process two, its place kept.
      moving.disconnect();
      moving = await connect(two!, mover.auth('moving-peer', room.id));
      const told = next<Topology>(moving, 'action:room_topology');
      expect(await ask(moving, 'request:join_room', { roomId: room.id, userName: 'Mover' })).toMatchObject({ room: { id: room.id } });
      // Process two holds no Janus session of the mover's: it is asked to publish again, there.
      expect(await told).toEqual({ roomId: room.id, mode: 'sfu', epoch, republish: true });
      await ask(moving, 'request:sfu_trickle', { roomId: room.id, epoch, target: 'publisher', candidate: null });
      expect(apps[1]!.realtime.sfu.people(room.id)).toEqual(['moving-peer']);
      await expect.poll(() => apps[0]!.realtime.sfu.people(room.id)).not.toContain('moving-peer');
    } finally {
      for (const socket of sockets.splice(0)) socket.disconnect();
      await close();
    }
  });
});

describe("our own Janus's TURN settings", () => {
  it('takes the first turn: URL with a credential of its own that coturn accepts for a year', async () => {
    const { janusTurn } = await import('./own-janus');
    const { loadConfig } = await import('../config');
    const { createHmac } = await import('node:crypto');
    const config = loadConfig({ DATA_DIR: '/tmp/x', TURN_URLS: 'turns:relay.example:443?transport=tcp,turn:relay.example:3478?transport=udp', TURN_SECRET: 's3cret' });
    const turn = janusTurn(config)!;
    expect(turn).toMatchObject({ server: 'relay.example', port: 3478, transport: 'udp' });
    const [expiry, who] = turn.user.split(':');
    expect(who).toBe('janus');
    expect(Number(expiry) - Date.now() / 1000).toBeGreaterThan(364 * 86_400);
    expect(turn.password).toBe(createHmac('sha1', 's3cret').update(turn.user).digest('base64'));
    expect(janusTurn(loadConfig({ DATA_DIR: '/tmp/x' }))).toBeUndefined();
  });
});
