// The Redis room store across server processes: two stores on one Redis stand for two processes.
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { redisRoomStore, type RoomStore } from './room-store';

const redisUrl = process.env.REDIS_URL;
const room = (capacity: number) => ({ id: randomUUID(), name: 'Study group', capacity, created_by: 1 });
const member = (sessionId: string, userId: number) => ({ sessionId, userId, userName: `Peer ${userId}`, connectionId: `socket-${sessionId}` });

describe.runIf(redisUrl)('the Redis room store', () => {
  const opened: { redis: Redis; store: RoomStore }[] = [];
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
    expect(result.gone.map((m) => m.sessionId)).toEqual(['ana']);
    expect(result.others.map((m) => m.sessionId)).toEqual(['ben']);
    expect(await b.store.member(full.id, 'ana')).toBeNull();
  });

  it('keeps the members of live processes, and moves a member to the process it reconnects to', async () => {
    const a = open('process-a');
    const b = open('process-b');
    const shared = room(3);
    await a.store.join(shared, member('ana', 1));
    expect(await b.store.attach(shared.id, 'ana', 1, 'socket-on-b')).toMatchObject({ sessionId: 'ana', connectionId: 'socket-on-b' });

    // A dies, but Ana now lives on B: she keeps her place.
    await a.store.close();
    const result = await b.store.join(shared, member('ben', 2));
    expect(result).toMatchObject({ status: 'joined', gone: [] });
    expect(await b.store.member(shared.id, 'ana')).toMatchObject({ connectionId: 'socket-on-b', userId: 1 });
  });
});
