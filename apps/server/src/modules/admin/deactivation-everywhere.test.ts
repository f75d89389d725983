// Deactivation stops an account in every server process: an access token issued before is refused by
// the other instance as soon as it hears (Redis pub/sub, or PostgreSQL's LISTEN/NOTIFY), however long
// its cache would keep the account; and the user's live meeting sockets are closed wherever they are.
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@mooz/contract/messages';
import type { TestApp } from '../../../test/app';
import { signedIn } from '../../../test/accounts';
import { call } from '../../../test/admin';
import { eventually, sharedInstances } from '../../../test/instances';
import { throwawayRedis, type ThrowawayRedis } from '../../../test/throwaway-redis';
import { connect, listen, sockets } from '../../../test/realtime-clients';

// Long enough that only news of the change, never an expiry, can explain what the tests see.
const LONG_TTL_MS = 120_000;

let redis: ThrowawayRedis | undefined;
const carriers: [string, boolean, () => Promise<Record<string, string>>][] = [
  ['Redis pub/sub', true, async () => ({ REDIS_URL: (redis ??= await throwawayRedis()).url })],
  ['PostgreSQL LISTEN/NOTIFY', !!process.env.DATABASE_URL, async () => ({})],
];
afterAll(async () => {
  await redis?.stop();
});
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.disconnect();
});

describe.each(carriers.filter(([, runs]) => runs))('two instances sharing the database, changes carried by %s', (_name, _runs, env) => {
  let close: () => Promise<void>;
  let a: TestApp;
  let b: TestApp;
  let urlB: string;
  beforeAll(async () => {
    const shared = await sharedInstances(2, { env: await env(), cacheTtlMs: LONG_TTL_MS });
    [a, b] = shared.instances as [TestApp, TestApp];
    close = shared.close;
    urlB = await listen(b.app);
  });
  afterAll(async () => {
    await close?.();
  });

  it('refuses the access token in this instance at once and in the other one as soon as it hears', async () => {
    const admin = await signedIn(a, 'admin');
    const victim = await signedIn(a, 'student');
    expect((await call(b, 'GET', '/api/auth/profile/', victim.headers)).statusCode).toBe(200);
    expect((await call(a, 'POST', `/api/admin/users/${victim.user.id}/deactivate/`, admin.headers)).statusCode).toBe(200);
    expect((await call(a, 'GET', '/api/auth/profile/', victim.headers)).statusCode).toBe(401);
    await eventually(async () => (await call(b, 'GET', '/api/auth/profile/', victim.headers)).statusCode === 401);
    const relogin = await call(b, 'POST', '/api/auth/login/', {}, { email: victim.user.email, password: victim.user.password });
    expect(relogin.json()).toEqual({ message: messages.accountDeactivated });
  });

  it("closes the user's meeting socket held by the other instance, and refuses it back", async () => {
    const admin = await signedIn(a, 'admin');
    const victim = await signedIn(a, 'student');
    const bystander = await signedIn(a, 'student');
    const auth = (token: string) => ({ sessionId: randomUUID(), currentRoomId: null, token, userRole: 'student' });
    const socket = await connect(urlB, auth(victim.access));
    const other = await connect(urlB, auth(bystander.access));
    const closed = new Promise<string>((resolve) => socket.once('disconnect', resolve));
    expect((await call(a, 'POST', `/api/admin/users/${victim.user.id}/deactivate/`, admin.headers)).statusCode).toBe(200);
    expect(await closed).toBe('io server disconnect');
    expect(other.connected).toBe(true);
    const refused = await connect(urlB, auth(victim.access)).then(() => null, (error: Error) => error);
    expect(JSON.parse(refused!.message)).toEqual({ message: messages.unauthorized });
  });
});
