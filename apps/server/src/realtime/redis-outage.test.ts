// Meetings through a Redis outage: a throwaway redis-server of this test's own, on a free port, is
// stopped under live rooms and started again empty (no persistence, as a restarted cache comes back),
// while the clients keep talking. It needs no REDIS_URL, so it runs on every test run. Vitest fails the
// run on an unhandled rejection, which is how the process used to end.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import type { FastifyInstance } from 'fastify';
import { messages } from '@mooz/contract/messages';
import { buildTestApp, type TestApp } from '../../test/app';
import { createTestDatabase } from '../../test/database';
import { throwawayRedis, type ThrowawayRedis } from '../../test/throwaway-redis';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import type { DatabaseHandle } from '../db/client';
import { redisRoomStore } from './room-store';
import { ask, connect, createdRoom, listen, next, person, record, sockets, type Client } from '../../test/realtime-clients';

let redis: ThrowawayRedis;
const redisUrl = () => redis.url;

/** Sends a relay and says whether it arrived: across processes it may take a reconnection to get through. */
async function relays(from: Client, to: Client, toId: string, roomId: string): Promise<boolean> {
  const data = { probe: randomUUID() };
  const arrived = next<{ data: unknown }>(to, 'action:message_received', 1000).then(
    (message) => JSON.stringify(message.data) === JSON.stringify(data),
    () => false,
  );
  const answer = await ask<{ delivered?: true }>(from, 'request:send_mesage', { to: toId, roomId, data });
  return answer.delivered === true && (await arrived);
}

/** Reads the shared room state as another process would. */
function probe(prefix: string) {
  const client = new Redis(redisUrl(), { maxRetriesPerRequest: 1 });
  const store = redisRoomStore(client, prefix, 3600, 'probe');
  return {
    store,
    async close() {
      await store.close();
      await client.quit();
    },
  };
}

const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  redis = await throwawayRedis();
});

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.disconnect();
  // Apps close against a running Redis, whatever the test left behind.
  await redis.start();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

afterAll(async () => {
  await redis?.stop();
});

/** Until every app has noticed that Redis is gone. */
const awayFrom = (...apps: FastifyInstance[]) => expect.poll(() => apps.every((app) => app.redis!.status !== 'ready')).toBe(true);

describe('a Redis outage', () => {
  it('keeps a room relaying and admitting on this process, and shares it again when Redis comes back empty', async () => {
    const t: TestApp = await buildTestApp({ REDIS_URL: redisUrl() });
    cleanups.push(() => t.close());
    const url = await listen(t.app);
    const a = await connect(url, (await person(t)).auth('a-out'));
    const b = await connect(url, (await person(t)).auth('b-out'));
    const room = await createdRoom(a, 4);
    await ask(a, 'request:join_room', { roomId: room.id, userName: 'A' });
    const bIntroduced = next(a, 'action:establish_peer_connection');
    await ask(b, 'request:join_room', { roomId: room.id, userName: 'B' });
    await bIntroduced;
    const rejoinsAsked = [a, b].map((socket) => record(socket, 'action:rejoin_required'));

    await redis.stop();
    await awayFrom(t.app);
    // A connection arriving now used to end the process: the adapter's publish rejected unhandled.
    const c = await connect(url, (await person(t)).auth('c-out'));
    const cIntroduced = next(a, 'action:establish_peer_connection');
    expect(await ask(c, 'request:join_room', { roomId: room.id, userName: 'C' })).toEqual({ room });
    expect(await cIntroduced).toEqual({ userId: 'c-out', userName: 'C' });
    rejoinsAsked.push(record(c, 'action:rejoin_required'));
    expect(await relays(a, b, 'b-out', room.id)).toBe(true);
    expect(await relays(b, a, 'a-out', room.id)).toBe(true);
    expect(await relays(c, a, 'a-out', room.id)).toBe(true);
    const bLeft = next(a, 'action:terminate_peer_connection');
    await ask(b, 'request:leave_room', { roomId: room.id });
    expect(await bLeft).toEqual({ userId: 'b-out' });

    await redis.start();
    const shared = probe(t.config.redisPrefix);
    cleanups.push(() => shared.close());
    // Rebuilt from this process's memory: the ad hoc room and who is in it now, without B who left.
    await expect.poll(() => shared.store.members(room.id, ['a-out', 'b-out', 'c-out']), { timeout: 20_000 }).toMatchObject([{ userName: 'A' }, null, { userName: 'C' }]);
    expect(await shared.store.findRoom(room.id)).toEqual(room);

    expect(await relays(a, c, 'c-out', room.id)).toBe(true);
    const d = await connect(url, (await person(t)).auth('d-out'));
    const dIntroduced = next(c, 'action:establish_peer_connection');
    expect(await ask(d, 'request:join_room', { roomId: room.id, userName: 'D' })).toEqual({ room });
    expect(await dIntroduced).toEqual({ userId: 'd-out', userName: 'D' });
    // Everyone got their place back: nobody had to rejoin.
    expect(rejoinsAsked.flat()).toEqual([]);
  });

  it('asks a member whose place went to others meanwhile to rejoin, and the rejoin decides anew', async () => {
    const database: DatabaseHandle = await createTestDatabase();
    const prefix = `mooz-test:${randomUUID()}:`;
    const dirs = [0, 1].map(() => mkdtempSync(path.join(os.tmpdir(), 'mooz-outage-')));
    const env = (dir: string) => ({
      DATA_DIR: dir,
      WEB_DIST: dir,
      LOG_LEVEL: 'silent',
      JWT_SECRET: 'test-secret-that-is-long-enough-to-sign-tokens',
      REDIS_URL: redisUrl(),
      REDIS_PREFIX: prefix,
    });
    const apps = await Promise.all(dirs.map((dir) => buildApp(loadConfig(env(dir)), { database })));
    cleanups.push(async () => {
      await Promise.all(apps.map((app) => app.close()));
      await database.close();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    });
    const [one, two] = await Promise.all(apps.map(listen));
    const t = { app: apps[0]!, db: database.db, config: apps[0]!.config } as TestApp;

    // The room's creator never joins, so nobody in it is let in over capacity as its host.
    const room = await createdRoom(await connect(one!, (await person(t)).auth()), 2);
    const a = await connect(one!, (await person(t)).auth('a-two'));
    const b = await connect(two!, (await person(t)).auth('b-two'));
    await ask(a, 'request:join_room', { roomId: room.id, userName: 'A' });
    const bIntroduced = next(a, 'action:establish_peer_connection');
    await ask(b, 'request:join_room', { roomId: room.id, userName: 'B' });
    await bIntroduced;

    await redis.stop();
    await awayFrom(...apps);
    // The second process counts only its own members meanwhile: it lets C into the full room.
    const c = await connect(two!, (await person(t)).auth('c-two'));
    expect(await ask(c, 'request:join_room', { roomId: room.id, userName: 'C' })).toEqual({ room });
    expect(await relays(c, b, 'b-two', room.id)).toBe(true);
    const peers = { 'a-two': a, 'b-two': b, 'c-two': c };
    const asked = Object.fromEntries(Object.entries(peers).map(([id, socket]) => [id, record<{ roomId: string }>(socket, 'action:rejoin_required')]));

    await redis.start();
    // Two places, three people: whichever process put its members back last has one too many.
    await expect.poll(() => Object.values(asked).flat().length, { timeout: 20_000 }).toBe(1);
    const [lostId] = Object.entries(asked).find(([, events]) => events.length)!;
    expect(asked[lostId]).toEqual([{ roomId: room.id }]);
    const lost = peers[lostId as keyof typeof peers];
    const [keptId, otherKeptId] = Object.keys(peers).filter((id) => id !== lostId) as (keyof typeof peers)[];
    await expect.poll(() => relays(peers[keptId!], peers[otherKeptId!], otherKeptId!, room.id), { timeout: 10_000 }).toBe(true);

    expect(await ask(lost, 'request:join_room', { roomId: room.id, userName: 'Lost' })).toEqual({ error: messages.roomFull });
    await ask(peers[keptId!], 'request:leave_room', { roomId: room.id });
    const introduced = next(peers[otherKeptId!], 'action:establish_peer_connection');
    expect(await ask(lost, 'request:join_room', { roomId: room.id, userName: 'Lost' })).toEqual({ room });
    expect(await introduced).toEqual({ userId: lostId, userName: 'Lost' });
  });
});
