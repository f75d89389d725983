// The room stores' rules, in memory and in Redis, and the Redis store across server processes: two
// stores on one Redis stand for two processes.
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { memoryRoomStore } from './memory-room-store';
import { redisRoomStore, type RedisRoomStore, type RoomStore } from './room-store';

const redisUrl = process.env.REDIS_URL;
const room = (capacity: number) => ({ id: randomUUID(), name: 'Study group', capacity, created_by: 1 });
const member = (peerId: string, userId: number, connectedAt = Date.now()) => ({ peerId, userId, userName: `Peer ${userId}`, connectionId: `socket-${peerId}`, connectedAt });

const homes: [string, () => { store: RoomStore; close(): Promise<void> }][] = [
  ['memory', () => ({ store: memoryRoomStore(3600), close: async () => undefined })],
];
if (redisUrl) {
  homes.push([
    'Redis',
    () => {
      const redis = new Redis(redisUrl);
      const store = redisRoomStore(redis, `mooz-test:${randomUUID()}:`, 3600, 'process-a');
      return { store, close: async () => void (await store.close(), await redis.quit()) };
    },
  ]);
}

describe.each(homes)('the join rules of the %s room store', (_home, open) => {
  const opened: { close(): Promise<void> }[] = [];
  const fresh = () => {
    const home = open();
    opened.push(home);
    return home.store;
  };
  afterEach(async () => {
    for (const home of opened.splice(0)) await home.close();
  });

  it("gives the account's other peerId's place to a newer join, even in a full room", async () => {
    const store = fresh();
    const full = room(2);
    await store.join(full, member('ana-laptop', 2));
    await store.join(full, member('ben', 3));
    const result = await store.join(full, member('ana-phone', 2));
    expect(result).toMatchObject({ status: 'joined', gone: [], replaced: [{ peerId: 'ana-laptop', userId: 2 }] });
    if (result.status !== 'joined') throw new Error('not joined');
    expect(result.others.map((m) => m.peerId)).toEqual(['ben']);
    expect(await store.member(full.id, 'ana-laptop')).toBeNull();
    expect(await store.members(full.id, ['ana-phone', 'ben', 'nobody'])).toMatchObject([{ userId: 2 }, { userId: 3 }, null]);
  });

  it('admits the host into a full room, and nobody else', async () => {
    const store = fresh();
    const full = room(2);
    await store.join(full, member('ben', 3));
    await store.join(full, member('cy', 4));
    expect(await store.join(full, member('dan', 5))).toEqual({ status: 'full' });
    expect(await store.join(full, member('host', full.created_by))).toMatchObject({ status: 'joined', replaced: [] });
    expect(await store.join(full, member('eve', 6))).toEqual({ status: 'full' });
  });

  it("refuses a peerId that is someone else's in the room", async () => {
    const store = fresh();
    const shared = room(3);
    await store.join(shared, member('same-id', 3));
    expect(await store.join(shared, member('same-id', 4))).toEqual({ status: 'taken' });
    expect(await store.member(shared.id, 'same-id')).toMatchObject({ userId: 3 });
  });
});

describe.runIf(redisUrl)('the Redis room store', () => {
  const opened: { redis: Redis; store: RedisRoomStore }[] = [];
  const prefix = `mooz-test:${randomUUID()}:`;
  const open = (processId: string) => {
    const redis = new Redis(redisUrl!);
    const store = redisRoomStore(redis, prefix, 3600, processId);
    opened.push({ redis, store });
    return { redis, store };
  };
  afterEach(async () => {
    for (const { redis, store } of opened.splice(0)) {
      await store.close();
      await redis.quit();
    }
  });

  it('drops the members of a process that died without leaving, so their places can be taken', async () => {
    const a = open('process-a');
    const b = open('process-b');
    const full = room(2);
    await a.store.join(full, member('ana', 1));
    expect(await b.store.join(full, member('ben', 2))).toMatchObject({ status: 'joined', gone: [] });
    expect(await b.store.join(full, member('cy', 3))).toEqual({ status: 'full' });

    // Process A crashes: its heartbeat stops and expires; it never says goodbye.
    await a.store.close();
    const result = await b.store.join(full, member('cy', 3));
    expect(result).toMatchObject({ status: 'joined' });
    if (result.status !== 'joined') throw new Error('not joined');
    expect(result.gone.map((m) => m.peerId)).toEqual(['ana']);
    expect(result.others.map((m) => m.peerId)).toEqual(['ben']);
    expect(await b.store.member(full.id, 'ana')).toBeNull();
  });

  it('keeps the members of live processes, and moves a member to the process it reconnects to', async () => {
    const a = open('process-a');
    const b = open('process-b');
    const shared = room(3);
    await a.store.join(shared, member('ana', 1));
    expect(await b.store.attach(shared.id, 'ana', 1, 'socket-on-b')).toMatchObject({ peerId: 'ana', connectionId: 'socket-on-b' });

    // A dies, but Ana now lives on B: she keeps her place.
    await a.store.close();
    const result = await b.store.join(shared, member('ben', 2));
    expect(result).toMatchObject({ status: 'joined', gone: [] });
    expect(await b.store.member(shared.id, 'ana')).toMatchObject({ connectionId: 'socket-on-b', userId: 1 });
  });

  // What Redis keeps of a room's members, to lose it as a Redis restarted without its data would.
  const forgetMembers = (redis: Redis, roomId: string) => redis.del(`${prefix}room:${roomId}:members`);

  it('puts members back after Redis lost them, within capacity, and says which did not fit', async () => {
    const a = open('process-a');
    const b = open('process-b');
    const shared = room(2);
    const ben = member('ben', 2);
    const cy = member('cy', 3);
    const dan = member('dan', 4);
    await a.store.join(shared, ben);
    await b.store.join(shared, cy);
    await forgetMembers(a.redis, shared.id);

    // While Redis was away, B let Dan in from its own count; now the room holds only two of the three.
    expect(await b.store.restore(shared.id, shared, [cy, dan])).toEqual({ statuses: ['restored', 'restored'], displaced: [] });
    expect(await a.store.restore(shared.id, shared, [ben])).toEqual({ statuses: ['full'], displaced: [] });
    expect(await a.store.members(shared.id, ['ben', 'cy', 'dan'])).toMatchObject([null, { userId: 3 }, { userId: 4 }]);
  });

  it("drops what a process no longer holds and keeps other processes' members", async () => {
    const a = open('process-a');
    const b = open('process-b');
    const shared = room(5);
    await a.store.join(shared, member('ben', 2));
    await a.store.join(shared, member('eve', 5));
    await b.store.join(shared, member('cy', 3));

    // Eve left through A while Redis was away: A's restore takes her out.
    expect(await a.store.restore(shared.id, shared, [member('ben', 2)])).toEqual({ statuses: ['kept'], displaced: [] });
    expect(await a.store.members(shared.id, ['ben', 'eve', 'cy'])).toMatchObject([{ userId: 2 }, null, { userId: 3 }]);
  });

  it('gives a place claimed by two processes to the newer connection, whichever restores first', async () => {
    const a = open('process-a');
    const b = open('process-b');
    const shared = room(3);
    // Ben dropped on A and came back on B while Redis was away: both remember him.
    const onA = { ...member('ben', 2, 1_000), connectionId: 'socket-on-a' };
    const onB = { ...member('ben', 2, 2_000), connectionId: 'socket-on-b' };
    await forgetMembers(a.redis, shared.id);
    expect(await a.store.restore(shared.id, shared, [onA])).toMatchObject({ statuses: ['restored'] });
    expect(await b.store.restore(shared.id, shared, [onB])).toMatchObject({ statuses: ['kept'] });
    expect(await a.store.restore(shared.id, shared, [onA])).toMatchObject({ statuses: ['moved'] });
    expect(await a.store.member(shared.id, 'ben')).toMatchObject({ connectionId: 'socket-on-b' });
  });

  it("gives the account's place to its newer connection on a restore, and names the one it displaced", async () => {
    const a = open('process-a');
    const b = open('process-b');
    const shared = room(2);
    const laptop = member('ana-laptop', 2, 1_000);
    const phone = member('ana-phone', 2, 2_000);
    await a.store.join(shared, laptop);
    await a.store.join(shared, member('ben', 3));
    // Her phone joined through B while Redis was away; the room is full, but the place is hers.
    const fromB = await b.store.restore(shared.id, shared, [phone]);
    expect(fromB.statuses).toEqual(['restored']);
    expect(fromB.displaced).toMatchObject([{ peerId: 'ana-laptop', userId: 2 }]);
    expect(await a.store.restore(shared.id, shared, [laptop, member('ben', 3)])).toMatchObject({ statuses: ['replaced', 'kept'] });
    expect(await a.store.members(shared.id, ['ana-laptop', 'ana-phone'])).toMatchObject([null, { userId: 2 }]);
  });

  it('saves again the ad hoc rooms Redis lost, and leaves those it kept as they are', async () => {
    const a = open('process-a');
    const lost = room(4);
    const kept = room(4);
    await a.store.saveRoom({ ...kept, name: 'Still in Redis' });
    await a.store.resaveRooms([lost, kept]);
    expect(await a.store.findRoom(lost.id)).toEqual(lost);
    expect(await a.store.findRoom(kept.id)).toMatchObject({ name: 'Still in Redis' });
  });
});
