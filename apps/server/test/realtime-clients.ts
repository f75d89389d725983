// What the signalling tests share: real socket.io clients against a listening app, and people with
// access tokens. Every socket opened is kept in `sockets`, for the test files to close after each test.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { io as connectClient, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, Room, ServerToClientEvents } from '@mooz/contract/realtime';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { buildTestApp, type TestApp } from './app';
import { createTestDatabase } from './database';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { createUser } from './accounts';
import { signAccessToken } from '../src/infrastructure/tokens';
import { classSessions, courses } from '../src/db/schema/index';

export type Client = Socket<ServerToClientEvents, ClientToServerEvents>;

export const sockets: Client[] = [];

export function connect(url: string, auth: Record<string, unknown>): Promise<Client> {
  const socket: Client = connectClient(url, { path: '/socket.io/', transports: ['websocket'], auth, reconnection: false, forceNew: true });
  sockets.push(socket);
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

export function ask<T>(socket: Client, event: keyof ClientToServerEvents, payload: unknown): Promise<T> {
  return new Promise((resolve) => (socket.emit as (...args: unknown[]) => void)(event, payload, resolve));
}

/** The next `event` on `socket`; rejects when it has not come within `ms`, so a missing event fails clearly. */
export function next<T>(socket: Client, event: keyof ServerToClientEvents, ms = 5000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event} within ${ms} ms`)), ms);
    socket.once(event as 'error', ((payload: T) => {
      clearTimeout(timer);
      resolve(payload);
    }) as never);
  });
}

/** Collects every `event` the socket receives, for asserting that something did NOT arrive. */
export function record<T>(socket: Client, event: keyof ServerToClientEvents): T[] {
  const seen: T[] = [];
  socket.on(event as 'error', ((payload: T) => seen.push(payload)) as never);
  return seen;
}

/** Lets in-flight socket traffic settle before asserting that nothing arrived. */
export async function quiet(socket: Client) {
  // A round trip through the server orders this after anything it already sent us.
  await ask(socket, 'request:leave_room', { roomId: 'settle-nothing' });
}

export async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return `http://127.0.0.1:${address.port}`;
}

/** A person with an access token, minted directly: many logins from one address would be rate-limited. */
export async function person(t: TestApp, userType: 'student' | 'teacher' | 'admin' = 'student') {
  const user = await createUser(t, { userType });
  const access = await signAccessToken(t.app.jwtSecret, { userId: user.id, userType, familyId: randomUUID() }, 900);
  return { token: access, userId: user.id as number, auth: (sessionId: string = randomUUID(), currentRoomId: string | null = null) => ({ sessionId, currentRoomId, token: access, userRole: 'admin' }) };
}

/** A class session of a new course taught by `teacherId`; by default it started now and lasts an hour. */
export async function classSession(
  t: TestApp,
  teacherId: number,
  capacity = 10,
  { startsAt = new Date(), endsAt = new Date(Date.now() + 3600_000) }: { startsAt?: Date; endsAt?: Date } = {},
) {
  const [course] = await t.db
    .insert(courses)
    .values({ name: 'Algebra', description: 'Numbers', price: 1000, teacherId, durationWeeks: 4 })
    .returning();
  const roomId = randomUUID();
  const [session] = await t.db
    .insert(classSessions)
    .values({ courseId: course!.id, title: 'Week 1', startsAt, endsAt, roomId, capacity })
    .returning();
  return { roomId, sessionId: session!.id };
}

/** A class session with its teacher and three students in the room. */
export async function classOfThree(t: TestApp, urls: [string, string]) {
  const teacher = await person(t, 'teacher');
  const { roomId, sessionId } = await classSession(t, teacher.userId);
  const tSession = 'teacher-' + randomUUID();
  const tc = await connect(urls[0], teacher.auth(tSession));
  const tTold = next(tc, 'action:lobby');
  await ask(tc, 'request:join_room', { roomId, userName: 'Tess' });
  await tTold;
  const students = [];
  for (const [index, name] of ['Ana', 'Ben', 'Cai'].entries()) {
    const account = await person(t);
    const peer = `${name}-${randomUUID()}`;
    const socket = await connect(urls[index % 2]!, account.auth(peer));
    const told = next(socket, 'action:room_controls');
    await ask(socket, 'request:join_room', { roomId, userName: name });
    await told;
    students.push({ account, peer, socket });
  }
  const [a, b, c] = students as [(typeof students)[0], (typeof students)[0], (typeof students)[0]];
  return { roomId, sessionId, teacher, t: tc, tSession, a, b, c };
}

export async function createdRoom(socket: Client, capacity = 10) {
  const res = await ask<{ room: Room }>(socket, 'request:create_room', { room: { name: 'Standup', capacity } });
  return res.room;
}

/**
 * One listening server for a test file (its hooks registered here), with a short reconnect grace so
 * the disconnect tests are quick; the rule is the same at 10 s. Read `server.t` and `server.url` in tests.
 */
export function meetingServer(reconnectGraceMs = 300, env: Record<string, string> = {}) {
  const server = {} as { t: TestApp; url: string };
  beforeAll(async () => {
    server.t = await buildTestApp(env, (app) => {
      app.realtime.options.reconnectGraceMs = reconnectGraceMs;
    });
    server.url = await listen(server.t.app);
  });
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.disconnect();
  });
  afterAll(() => server.t.close());
  return server;
}

/**
 * Two server processes on one new database and one Redis (a key prefix of their own), listening:
 * `urls` to connect to each, `shared` the test app `base` seen through the first (its database), and
 * `close` for the sockets, the processes, the database and their folders.
 */
export async function twoProcesses(base: TestApp) {
  const database = await createTestDatabase();
  const dirs = [0, 1].map(() => mkdtempSync(path.join(os.tmpdir(), 'mooz-process-')));
  const prefix = `mooz-test:${randomUUID()}:`;
  const apps = await Promise.all(
    dirs.map((dir) =>
      buildApp(
        loadConfig({
          DATA_DIR: dir,
          WEB_DIST: dir,
          LOG_LEVEL: 'silent',
          JWT_SECRET: 'test-secret-that-is-long-enough-to-sign-tokens',
          REDIS_URL: process.env.REDIS_URL!,
          REDIS_PREFIX: prefix,
        }),
        { database },
      ),
    ),
  );
  const urls = await Promise.all(apps.map(listen));
  return {
    urls: urls as [string, string],
    shared: { ...base, app: apps[0]!, db: database.db } as TestApp,
    async close() {
      for (const socket of sockets.splice(0)) socket.disconnect();
      await Promise.all(apps.map((app) => app.close()));
      await database.close();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    },
  };
}
