// Logins slow down rather than lock out: only failures count, a success forgets them, and they count
// per email-and-address pair and per address, in process memory and in Redis alike.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginWaitMaxSeconds, rateLimits } from '@mooz/contract/limits';
import { buildTestApp, type TestApp } from '../../../test/app';
import { createUser, uniqueEmail } from '../../../test/accounts';
import { throwawayRedis, type ThrowawayRedis } from '../../../test/throwaway-redis';
import { pairKey } from './login-limits';

const [freeFailures] = rateLimits.loginFailuresPerPair;
const [addressFailures] = rateLimits.loginFailuresPerIp;
const [, firstWait] = rateLimits.loginWaitPerPair;

let redis: ThrowawayRedis | undefined;
afterAll(async () => {
  await redis?.stop();
});

const stores = [
  ['process memory', async () => ({})],
  ['Redis', async () => ({ REDIS_URL: (redis ??= await throwawayRedis()).url })],
] as const;

describe.each(stores)('login limits in %s', (_store, env) => {
  let t: TestApp;
  let address = 0;
  // Each test logs in from addresses of its own, so their counts never meet.
  const newAddress = () => `198.51.100.${++address}`;
  beforeAll(async () => {
    t = await buildTestApp(await env());
  });
  afterAll(async () => {
    await t?.close();
  });

  const login = (email: string, password: string, remoteAddress: string) =>
    t.app.inject({ method: 'POST', url: '/api/auth/login/', payload: { email, password }, remoteAddress });
  const statuses = async (count: number, email: string, password: string, from: string) => {
    const seen: number[] = [];
    for (let i = 0; i < count; i++) seen.push((await login(email, password, from)).statusCode);
    return seen;
  };
  /** What waiting out the current wait would do, without the wait. */
  const waitOut = (email: string, from: string) => t.app.rateLimiter.reset('loginWaitPerPair', pairKey(email, from));

  it('does not count successes: many logins in a row all succeed', async () => {
    const user = await createUser(t);
    const from = newAddress();
    expect(await statuses(freeFailures + 10, user.email, user.password, from)).toEqual(Array(freeFailures + 10).fill(200));
    expect((await login(user.email, 'a wrong password', from)).statusCode).toBe(401);
  });

  it('forgets the failures of an email from an address when it logs in from there', async () => {
    const user = await createUser(t);
    const from = newAddress();
    for (let round = 0; round < 3; round++) {
      expect(await statuses(freeFailures - 1, user.email, 'a wrong password', from)).toEqual(Array(freeFailures - 1).fill(401));
      expect((await login(user.email, user.password, from)).statusCode).toBe(200);
    }
  });

  it('never lets failures from another address keep the owner out', async () => {
    const owner = await createUser(t);
    const stranger = newAddress();
    const home = newAddress();
    const strangers = await statuses(freeFailures + 3, owner.email, 'guessing', stranger);
    expect(strangers.at(-1)).toBe(429);
    expect((await login(owner.email, 'a typo', home)).statusCode).toBe(401);
    expect((await login(owner.email, owner.password, home)).statusCode).toBe(200);
    // The stranger still waits.
    expect((await login(owner.email, owner.password, stranger)).statusCode).toBe(429);
  });

  it('after the free failures makes the pair wait, says how long, and doubles the wait with each further failure', async () => {
    const user = await createUser(t);
    const from = newAddress();
    expect(await statuses(freeFailures, user.email, 'a wrong password', from)).toEqual(Array(freeFailures).fill(401));

    const waits: number[] = [];
    for (let step = 0; step < 6; step++) {
      // Even the right password waits: nothing is checked before the wait is over.
      const refused = await login(user.email, user.password, from);
      expect(refused.statusCode).toBe(429);
      const wait = Number(refused.headers['retry-after']);
      const expected = Math.min(firstWait * 2 ** step, loginWaitMaxSeconds);
      expect(wait).toBeGreaterThan(expected - 5);
      expect(wait).toBeLessThanOrEqual(expected);
      expect(refused.json().message).toBe(
        wait <= 60 ? `Too many failed attempts. Try again in ${wait} s.` : `Too many failed attempts. Try again in ${Math.ceil(wait / 60)} min.`,
      );
      // Asking again while waiting neither counts nor makes the wait longer.
      const again = await login(user.email, 'a wrong password', from);
      expect(again.statusCode).toBe(429);
      expect(Number(again.headers['retry-after'])).toBeLessThanOrEqual(wait);
      waits.push(wait);

      await waitOut(user.email, from);
      expect((await login(user.email, 'a wrong password', from)).statusCode).toBe(401);
    }
    expect(waits.map((w) => Math.round(w / firstWait))).toEqual([1, 2, 4, 8, 10, 10]);

    // Once the wait is over, the right password gets in and the count starts again.
    await waitOut(user.email, from);
    expect((await login(user.email, user.password, from)).statusCode).toBe(200);
    expect(await statuses(freeFailures, user.email, 'a wrong password', from)).toEqual(Array(freeFailures).fill(401));
  });

  it('lets only the free failures through when attempts arrive all at once', async () => {
    const user = await createUser(t);
    const from = newAddress();
    const burst = await Promise.all(Array.from({ length: 20 }, () => login(user.email, 'a wrong password', from)));
    const counts = burst.map((res) => res.statusCode);
    expect(counts.filter((status) => status === 401)).toHaveLength(freeFailures);
    expect(counts.filter((status) => status === 429)).toHaveLength(20 - freeFailures);
  });

  it('limits failures from one address across emails, and not the next address', async () => {
    const user = await createUser(t);
    const from = newAddress();
    // A success from there takes its attempt back.
    expect((await login(user.email, user.password, from)).statusCode).toBe(200);
    const seen: number[] = [];
    for (let i = 0; i < addressFailures; i++) seen.push((await login(uniqueEmail('nobody'), 'not the password', from)).statusCode);
    expect(seen).toEqual(Array(addressFailures).fill(401));
    const refused = await login(uniqueEmail('nobody'), 'not the password', from);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json().message).toMatch(/^Too many failed attempts\. Try again in \d+ (s|min)\.$/);
    expect((await login(user.email, user.password, from)).statusCode).toBe(429);
    expect((await login(user.email, user.password, newAddress())).statusCode).toBe(200);
  }, 120_000);
});
