// Helmet's headers, computed once at start-up, on every kind of answer: as @fastify/helmet sent them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/app';
import { securityHeaders } from './security-headers';

const helmetHeaders = {
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'SAMEORIGIN',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

describe('security headers', () => {
  it.each(['/api/health', '/api/courses/', '/api/nothing-here', '/login'])('are on the answer to %s, with the app’s policy', async (url) => {
    const res = await t.app.inject({ url });
    expect(res.headers).toMatchObject(helmetHeaders);
    expect(res.headers['content-security-policy']).toContain("script-src 'self' https://checkout.razorpay.com");
    expect(res.headers['cross-origin-embedder-policy']).toBeUndefined();
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  // They are set on the reply, whose headers Fastify keeps when an error replaces the answer: a refused,
  // missing or malformed request gets them too, with its request id.
  it.each([
    ['a request without a token', { url: '/api/courses/' }, 401],
    ['a request with a bad token', { url: '/api/courses/', headers: { authorization: 'Bearer nope' } }, 401],
    ['an unknown path', { url: '/api/nothing-here' }, 404],
    ['a malformed body', { method: 'POST' as const, url: '/api/auth/login', headers: { 'content-type': 'application/json' }, payload: '{' }, 400],
  ])('are on the error answer to %s, with its request id', async (_what, request, status) => {
    const res = await t.app.inject(request);
    expect(res.statusCode).toBe(status);
    expect(res.headers).toMatchObject(helmetHeaders);
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('name each request by its own id, or by the one the caller sent', async () => {
    const [a, b] = await Promise.all([t.app.inject({ url: '/api/health' }), t.app.inject({ url: '/api/health' })]);
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
    const named = await t.app.inject({ url: '/api/health', headers: { 'x-request-id': 'from-the-proxy' } });
    expect(named.headers['x-request-id']).toBe('from-the-proxy');
  });

  it('are what helmet itself sets for the options', () => {
    const { set, removed } = securityHeaders({ contentSecurityPolicy: { directives: { defaultSrc: ["'self'"] } }, crossOriginEmbedderPolicy: false });
    expect(Object.fromEntries(set.map(([name, value]) => [name.toLowerCase(), value]))).toMatchObject({
      ...helmetHeaders,
      'content-security-policy': expect.stringContaining("default-src 'self'"),
    });
    expect(removed.map((name) => name.toLowerCase())).toEqual(['x-powered-by']);
  });
});
