// Access tokens answered from memory: what is remembered never outlives a revocation or a write to the
// account, in this instance at once, in another instance through the change bus (Redis pub/sub, or
// PostgreSQL's LISTEN/NOTIFY without Redis), and, when no news arrives, once the cache expires.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { TestApp } from '../../../test/app';
import { createUser, login, signedIn } from '../../../test/accounts';
import { createCourse } from '../../../test/courses';
import { eventually, oneInstance, sharedInstances } from '../../../test/instances';
import { throwawayRedis, type ThrowawayRedis } from '../../../test/throwaway-redis';
import { users } from '../../db/schema/index';

// Long enough that only a change, never an expiry, can explain what the tests see.
const LONG_TTL_MS = 120_000;

const bearer = (access: string) => ({ authorization: `Bearer ${access}` });
const profileStatus = async (t: TestApp, access: string) =>
  (await t.app.inject({ url: '/api/auth/profile/', headers: bearer(access) })).statusCode;
const post = (t: TestApp, url: string, payload: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload, headers });

describe('in one instance', () => {
  const t = oneInstance({ cacheTtlMs: LONG_TTL_MS });

  it("refuses a family's access token at once after logout, though it was remembered", async () => {
    const me = await signedIn(t);
    expect(await profileStatus(t, me.access)).toBe(200);
    expect((await post(t, '/api/auth/logout/', { refresh: me.refresh })).statusCode).toBe(200);
    expect(await profileStatus(t, me.access)).toBe(401);
  });

  it("refuses the other sessions' access tokens at once after a password change, and keeps this one", async () => {
    const user = await createUser(t);
    const here = await login(t, user.email, user.password);
    const elsewhere = await login(t, user.email, user.password);
    expect(await profileStatus(t, here.access)).toBe(200);
    expect(await profileStatus(t, elsewhere.access)).toBe(200);
    const changed = await post(t, '/api/auth/change-password/', { old_password: user.password, new_password: 'a-brand-new-secret' }, bearer(here.access));
    expect(changed.statusCode).toBe(200);
    expect(await profileStatus(t, elsewhere.access)).toBe(401);
    expect(await profileStatus(t, here.access)).toBe(200);
  });

  it('refuses the access tokens of a family burned by a replayed refresh token at once', async () => {
    const me = await signedIn(t);
    const rotated = (await post(t, '/api/auth/token/refresh/', { refresh: me.refresh })).json().data;
    expect(await profileStatus(t, rotated.access)).toBe(200);
    expect((await post(t, '/api/auth/token/refresh/', { refresh: me.refresh })).statusCode).toBe(401);
    expect(await profileStatus(t, rotated.access)).toBe(401);
  });

  it('refuses a deactivated account at once, whoever wrote the change through the database', async () => {
    const me = await signedIn(t);
    expect(await profileStatus(t, me.access)).toBe(200);
    await t.db.update(users).set({ isActive: false }).where(eq(users.id, me.user.id));
    expect(await profileStatus(t, me.access)).toBe(401);
  });

  it('answers a remembered token without a promise only as userFor does, and never after a revocation', async () => {
    const me = await signedIn(t);
    const tokens = t.app.accessTokens;
    // Never seen here: only userFor may say (it checks the signature).
    expect(tokens.userKnown(`${me.access}x`)).toBeUndefined();
    const user = await tokens.userFor(me.access);
    expect(user).toMatchObject({ id: me.user.id });
    expect(tokens.userKnown(me.access)).toEqual(user);
    expect((await post(t, '/api/auth/logout/', { refresh: me.refresh })).statusCode).toBe(200);
    // The family's revocation dropped what was kept: userFor reads it again, and refuses.
    expect(tokens.userKnown(me.access)).toBeUndefined();
    expect(await tokens.userFor(me.access)).toBeNull();
    expect(tokens.userKnown(me.access)).toBeNull();
  });

  it('follows a role change at once', async () => {
    const me = await signedIn(t, 'teacher');
    expect((await createCourse(t, me.headers)).name).toBeTruthy();
    await t.db.update(users).set({ userType: 'student' }).where(eq(users.id, me.user.id));
    const res = await t.app.inject({ method: 'POST', url: '/api/courses/', headers: me.headers, payload: {} });
    expect(res.statusCode).toBe(403);
  });
});

describe('without news of a change', () => {
  it('answers from memory until the cache expires, then asks the database again', async () => {
    // Two handles on one PGlite and no Redis: nothing carries the other handle's write across.
    const shared = await sharedInstances(2, { cacheTtlMs: 1000 });
    try {
      const [a, b] = shared.instances as [TestApp, TestApp];
      const me = await signedIn(a);
      expect(await profileStatus(a, me.access)).toBe(200);
      await b.db.update(users).set({ isActive: false }).where(eq(users.id, me.user.id));
      if (!process.env.DATABASE_URL) expect(await profileStatus(a, me.access)).toBe(200);
      await eventually(async () => (await profileStatus(a, me.access)) === 401, 3000);
    } finally {
      await shared.close();
    }
  });
});

const carriers: [string, boolean, () => Promise<Record<string, string>>][] = [];
let redis: ThrowawayRedis | undefined;
carriers.push(['Redis pub/sub', true, async () => ({ REDIS_URL: (redis ??= await throwawayRedis()).url })]);
carriers.push(['PostgreSQL LISTEN/NOTIFY', !!process.env.DATABASE_URL, async () => ({})]);
afterAll(async () => {
  await redis?.stop();
});

describe.each(carriers.filter(([, runs]) => runs))('two instances sharing the database, changes carried by %s', (_name, _runs, env) => {
  let close: () => Promise<void>;
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    const shared = await sharedInstances(2, { env: await env(), cacheTtlMs: LONG_TTL_MS });
    [a, b] = shared.instances as [TestApp, TestApp];
    close = shared.close;
  });
  afterAll(async () => {
    await close?.();
  });

  it("refuses a family in the other instance as soon as it hears of the logout", async () => {
    const me = await signedIn(a);
    expect(await profileStatus(b, me.access)).toBe(200);
    expect((await post(a, '/api/auth/logout/', { refresh: me.refresh })).statusCode).toBe(200);
    await eventually(async () => (await profileStatus(b, me.access)) === 401);
  });

  it("refuses the other sessions in the other instance after a password change, and keeps this one", async () => {
    const user = await createUser(a);
    const here = await login(a, user.email, user.password);
    const elsewhere = await login(a, user.email, user.password);
    expect(await profileStatus(b, here.access)).toBe(200);
    expect(await profileStatus(b, elsewhere.access)).toBe(200);
    const changed = await post(a, '/api/auth/change-password/', { old_password: user.password, new_password: 'a-brand-new-secret' }, bearer(here.access));
    expect(changed.statusCode).toBe(200);
    await eventually(async () => (await profileStatus(b, elsewhere.access)) === 401);
    expect(await profileStatus(b, here.access)).toBe(200);
  });

  it('refuses an account deactivated through the other instance', async () => {
    const me = await signedIn(a);
    expect(await profileStatus(b, me.access)).toBe(200);
    await a.db.update(users).set({ isActive: false }).where(eq(users.id, me.user.id));
    await eventually(async () => (await profileStatus(b, me.access)) === 401);
  });

  it('shows a course created through the other instance in the catalogue', async () => {
    const teacher = await signedIn(a, 'teacher');
    const student = await signedIn(b);
    const names = async () => (await b.app.inject({ url: '/api/courses/', headers: student.headers })).json().data.map((c: { name: string }) => c.name);
    const before: string[] = await names();
    const course = await createCourse(a, teacher.headers, { name: `Carried ${Date.now()}` });
    await eventually(async () => (await names()).includes(course.name));
    expect((await names()).length).toBe(before.length + 1);
  });
});
