import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { rateLimits } from '@mooz/contract/limits';
import { buildTestApp, type TestApp } from '../test/app';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('the server foundation', () => {
  it('answers health once the database is migrated', async () => {
    t = await buildTestApp();
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
    expect(res.headers['x-request-id']).toBeTruthy();
  });

  it('answers an unknown API path with 404 in the error envelope', async () => {
    t = await buildTestApp();
    const res = await t.app.inject({ method: 'GET', url: '/api/anything-unknown' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Not found' });
  });

  it('answers a deep link with the app and caches hashed assets for a year', async () => {
    t = await buildTestApp();
    const page = await t.app.inject({ method: 'GET', url: '/courses/3' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('<div id="root">');
    expect(page.headers['cache-control']).toBe('no-cache');
    const asset = await t.app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    const missingFile = await t.app.inject({ method: 'GET', url: '/locales/xx/translation.json' });
    expect(missingFile.statusCode).toBe(404);
  });

  it('sends security headers', async () => {
    t = await buildTestApp();
    const res = await t.app.inject({ method: 'GET', url: '/' });
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('answers a validation failure with 400 and per-field errors, and a crash with a generic 500', async () => {
    t = await buildTestApp({}, (app) => {
      const typed = app.withTypeProvider<ZodTypeProvider>();
      typed.post('/api/echo', { schema: { body: z.object({ name: z.string().min(2), age: z.number() }) } }, async (req) => ({
        data: req.body,
      }));
      typed.get('/api/boom', async () => {
        throw new Error('database password is hunter2');
      });
    });
    const bad = await t.app.inject({ method: 'POST', url: '/api/echo', payload: { name: 'x', age: 'old' } });
    expect(bad.statusCode).toBe(400);
    const body = bad.json();
    expect(body.message).toBeTruthy();
    expect(Object.keys(body.errors).sort()).toEqual(['age', 'name']);

    const malformed = await t.app.inject({
      method: 'POST',
      url: '/api/echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"name":',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().message).toBeTruthy();

    const crash = await t.app.inject({ method: 'GET', url: '/api/boom' });
    expect(crash.statusCode).toBe(500);
    expect(crash.json().message).not.toContain('hunter2');
  });

  it('rejects an oversized body with 413 in the envelope', async () => {
    t = await buildTestApp({}, (app) => {
      app.post('/api/echo', async () => ({ data: null }));
    });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/echo',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ blob: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toBeTruthy();
  });

  it('publishes the OpenAPI document', async () => {
    t = await buildTestApp();
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    expect(res.json().paths['/api/health']).toBeDefined();
  });

  it('ignores X-Forwarded-For unless the request comes through a configured proxy, so per-address limits hold', async () => {
    const [max] = rateLimits.loginFailuresPerIp;
    const attempt = (i: number) =>
      t!.app.inject({
        method: 'POST',
        url: '/api/auth/login/',
        headers: { 'x-forwarded-for': `203.0.113.${i % 250}` },
        // A different email each time, so only the per-address limit can refuse.
        payload: { email: `nobody${i}@example.test`, password: 'not the password' },
      });
    t = await buildTestApp();
    const direct = [];
    for (let i = 0; i <= max; i++) direct.push((await attempt(i)).statusCode);
    expect(direct.at(-1)).toBe(429);
    await t.close();

    // Behind a trusted proxy (inject comes from 127.0.0.1) each forwarded address has its own count.
    t = await buildTestApp({ TRUST_PROXY: '127.0.0.1' });
    const proxied = [];
    for (let i = 0; i <= max; i++) proxied.push((await attempt(i)).statusCode);
    expect(proxied.every((status) => status === 401)).toBe(true);
    // Two hundred argon2 verifications: a loaded machine needs longer than the default guard.
  }, 120_000);
});
