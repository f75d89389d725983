// The HTTP side of a Redis outage: the server keeps answering, logins keep working with per-process
// rate limits (looser, never none), health says what is down, and all recovers when Redis returns.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateLimits } from '@mooz/contract/limits';
import { buildTestApp, type TestApp } from '../../test/app';
import { createUser } from '../../test/accounts';
import { throwawayRedis, type ThrowawayRedis } from '../../test/throwaway-redis';

let redis: ThrowawayRedis;
let t: TestApp;

beforeAll(async () => {
  redis = await throwawayRedis();
  t = await buildTestApp({ REDIS_URL: redis.url });
});
afterAll(async () => {
  await t?.close();
  await redis?.stop();
});

const login = (email: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login/', payload: { email, password } });

describe('a Redis outage', () => {
  it('keeps logins working, limits attempts in process memory, reports 503 on health, and recovers', async () => {
    const person = await createUser(t);
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);

    await redis.stop();
    const health = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(503);
    expect(health.json()).toMatchObject({ message: expect.any(String), errors: { redis: [expect.any(String)] } });
    expect(health.json().errors.database).toBeUndefined();

    expect((await login(person.email, person.password)).statusCode).toBe(200);
    // The per-email-and-address limit still holds, from this process's own counters.
    const [max] = rateLimits.loginFailuresPerPair;
    const statuses: number[] = [];
    for (let i = 0; i < max + 1; i++) statuses.push((await login(person.email, 'a wrong password')).statusCode);
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(max);

    await redis.start();
    for (let attempt = 0; attempt < 100 && (await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode !== 200; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    const other = await createUser(t);
    expect((await login(other.email, other.password)).statusCode).toBe(200);
  });
});
