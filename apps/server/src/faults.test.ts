// Faults under load, as an operator meets them: PostgreSQL connections killed (pg_terminate_backend,
// on PostgreSQL) and Redis stopped and started again, while clients keep calling the API. The server
// stays up, answers 503 (never 500) while something is down, recovers by itself, and loses no write
// it acknowledged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray, sql } from 'drizzle-orm';
import { buildTestApp, type TestApp } from '../test/app';
import { signedIn } from '../test/accounts';
import { sampleCourse } from '../test/courses';
import { throwawayRedis, type ThrowawayRedis } from '../test/throwaway-redis';
import { courses, users } from './db/schema/index';
import { ask, connect, createdRoom, listen, person, sockets, type Client } from '../test/realtime-clients';

let redis: ThrowawayRedis;
let t: TestApp;

beforeAll(async () => {
  redis = await throwawayRedis();
  t = await buildTestApp({ REDIS_URL: redis.url, RATE_LIMIT_SCALE: '100' });
});
afterAll(async () => {
  for (const socket of sockets.splice(0)) socket.disconnect();
  await t?.close();
  await redis?.stop();
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const isPostgres = () => Boolean(process.env.DATABASE_URL);

async function healthy(): Promise<boolean> {
  for (let attempt = 0; attempt < 100; attempt++) {
    if ((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode === 200) return true;
    await pause(100);
  }
  return false;
}

describe('faults under load', () => {
  it('keeps serving through killed database connections and a Redis restart, and loses no acknowledged write', async () => {
    const teacher = await signedIn(t, 'teacher');
    const students = await Promise.all([0, 1, 2].map(() => signedIn(t, 'student')));
    const statuses = new Map<number, number>();
    const count = (status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1);
    const acknowledgedCourses: number[] = [];
    const names = students.map(() => ({ acknowledged: null as string | null, attempted: [] as string[] }));
    let running = true;

    const studentWorker = async (i: number) => {
      for (let k = 0; running && k < 400; k++) {
        const first_name = `Student${i}v${k}`;
        names[i]!.attempted.push(first_name);
        const res = await t.app.inject({ method: 'PATCH', url: '/api/auth/profile/', headers: students[i]!.headers, payload: { first_name } });
        count(res.statusCode);
        if (res.statusCode === 200) {
          names[i]!.acknowledged = first_name;
          names[i]!.attempted = [];
        }
        count((await t.app.inject({ method: 'GET', url: '/api/courses/', headers: students[i]!.headers })).statusCode);
      }
    };
    const teacherWorker = async () => {
      for (let k = 0; running && k < 200; k++) {
        const res = await t.app.inject({ method: 'POST', url: '/api/courses/', headers: teacher.headers, payload: { ...sampleCourse(), name: `Load ${k}` } });
        count(res.statusCode);
        if (res.statusCode === 201) acknowledgedCourses.push(res.json().data.id);
      }
    };
    const loginWorker = async () => {
      for (let k = 0; running && k < 100; k++) {
        const res = await t.app.inject({ method: 'POST', url: '/api/auth/login/', payload: { email: 'nobody@example.test', password: 'wrong password' } });
        count(res.statusCode);
      }
    };

    // Two people in a meeting keep signalling each other through all of it.
    const url = await listen(t.app);
    const [host, guest] = [await person(t, 'teacher'), await person(t, 'student')];
    const [hostSocket, guestSocket] = [await connect(url, host.auth('host-peer')), await connect(url, guest.auth('guest-peer'))];
    const room = await createdRoom(hostSocket);
    const join = (socket: Client, userName: string) => ask<{ room?: unknown; error?: string }>(socket, 'request:join_room', { roomId: room.id, userName });
    expect((await join(hostSocket, 'Host')).room).toBeDefined();
    expect((await join(guestSocket, 'Guest')).room).toBeDefined();
    // The server may ask a member to join again after Redis comes back; a real client does it by itself.
    for (const [socket, name] of [[hostSocket, 'Host'], [guestSocket, 'Guest']] as const) {
      socket.on('action:rejoin_required', () => void join(socket, name));
    }
    const relay = () => ask<{ delivered?: true; error?: string }>(hostSocket, 'request:send_mesage', { to: 'guest-peer', roomId: room.id, data: { ping: 1 } });
    const relayAnswers: string[] = [];
    const socketWorker = async () => {
      while (running) {
        const answer = await relay();
        relayAnswers.push(answer.delivered ? 'delivered' : String(answer.error));
        await pause(20);
      }
    };

    const faults = async () => {
      await pause(200);
      if (isPostgres()) {
        for (let round = 0; round < 3; round++) {
          // Every other connection of this database, as a DBA or a failover would.
          await t.db.execute(sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`);
          await pause(150);
        }
      }
      await redis.stop();
      const during = await t.app.inject({ method: 'GET', url: '/api/health' });
      expect(during.statusCode).toBe(503);
      expect(during.json().errors.redis).toBeDefined();
      await pause(700);
      await redis.start();
      await pause(300);
      running = false;
    };

    await Promise.all([faults(), ...students.map((_, i) => studentWorker(i)), teacherWorker(), loginWorker(), socketWorker()]);

    // Nothing but answers a client can act on: successes, refusals, and 503 while something was down.
    const unexpected = [...statuses.keys()].filter((status) => ![200, 201, 401, 503].includes(status));
    expect(unexpected, JSON.stringify(Object.fromEntries(statuses))).toEqual([]);
    expect(statuses.get(200)).toBeGreaterThan(0);
    expect(await healthy()).toBe(true);

    // Every acknowledged write is there; a profile holds its last acknowledged name, or one tried after it
    // whose answer was lost with its connection.
    const stored = await t.db.select({ id: courses.id }).from(courses).where(inArray(courses.id, acknowledgedCourses.length ? acknowledgedCourses : [0]));
    expect(stored).toHaveLength(acknowledgedCourses.length);
    for (const [i, student] of students.entries()) {
      const [row] = await t.db.select({ firstName: users.firstName }).from(users).where(eq(users.id, student.user.id));
      const { acknowledged, attempted } = names[i]!;
      if (acknowledged) expect([acknowledged, ...attempted]).toContain(row!.firstName);
    }

    // The meeting went on: relays were answered throughout (never a crash), and they get through now.
    expect(relayAnswers.length).toBeGreaterThan(0);
    expect(hostSocket.connected && guestSocket.connected).toBe(true);
    let delivered = false;
    for (let attempt = 0; attempt < 50 && !delivered; attempt++) {
      delivered = (await relay()).delivered === true;
      if (!delivered) await pause(100);
    }
    expect(delivered).toBe(true);

    // And it works as before, without a restart.
    const after = await t.app.inject({ method: 'PATCH', url: '/api/auth/profile/', headers: students[0]!.headers, payload: { first_name: 'Recovered' } });
    expect(after.statusCode).toBe(200);
  });
});
