// Who may call the API from another origin: only the origins of CORS_ORIGINS, with credentials; without
// it, nobody (the web app is served from the API's own origin).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/app';

const preflight = (origin: string) => ({
  method: 'OPTIONS' as const,
  url: '/api/courses/',
  headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
});

describe('with CORS_ORIGINS', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ CORS_ORIGINS: 'http://app.example, http://other.example' });
  });
  afterAll(() => t?.close());

  it('lets a listed origin read answers, with credentials', async () => {
    const res = await t.app.inject({ url: '/api/health', headers: { origin: 'http://other.example' } });
    expect(res.headers['access-control-allow-origin']).toBe('http://other.example');
    expect(res.headers['access-control-allow-credentials']).toBe('true');
  });

  it('answers a listed origin’s preflight', async () => {
    const res = await t.app.inject(preflight('http://app.example'));
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('http://app.example');
    expect(String(res.headers['access-control-allow-methods'])).toContain('GET');
  });

  it('tells an origin not listed nothing', async () => {
    const res = await t.app.inject({ url: '/api/health', headers: { origin: 'http://evil.example' } });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect((await t.app.inject(preflight('http://evil.example'))).headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('without CORS_ORIGINS', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t?.close());

  it('lets no other origin read answers', async () => {
    const res = await t.app.inject({ url: '/api/health', headers: { origin: 'http://app.example' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('answers a preflight as any unknown request, in the error envelope', async () => {
    const res = await t.app.inject(preflight('http://app.example'));
    expect(res.statusCode).toBe(404);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(res.json()).toMatchObject({ message: expect.any(String) });
  });
});
