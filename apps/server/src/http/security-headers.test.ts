// Helmet's headers, computed once at start-up, on every kind of answer: as @fastify/helmet sent them,
// the app's page policy on pages and the API's stricter, shorter set on the declared endpoints' answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/app';
import { pageSecurityHeaders } from '../../test/page-headers';
import { apiAnswerOptions, securityHeaders } from './security-headers';

/** Helmet's whole set on a page: the page's own, and those for old browsers only. */
const helmetHeaders = {
  ...pageSecurityHeaders,
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-xss-protection': '0',
};

/** What an answer of a declared endpoint carries: OWASP's REST set, and nothing only a page needs. */
const apiHeaders = {
  'content-security-policy': "default-src 'none';frame-ancestors 'none'",
  'cross-origin-resource-policy': 'same-origin',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
};
const pageOnly = ['cross-origin-opener-policy', 'origin-agent-cluster', 'x-dns-prefetch-control', 'x-download-options', 'x-permitted-cross-domain-policies', 'x-xss-protection'];

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

describe('security headers', () => {
  it.each(['/login', '/courses/3', '/api/nothing-here'])('are on the page (or unknown path) %s, with the app’s policy', async (url) => {
    const res = await t.app.inject({ url });
    expect(res.headers).toMatchObject(helmetHeaders);
    expect(res.headers['content-security-policy']).toContain("script-src 'self' https://checkout.razorpay.com");
    expect(res.headers['cross-origin-embedder-policy']).toBeUndefined();
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  it.each(['/api/health', '/api/courses/', '/api/auth/profile/'])('are the API’s on the answer to %s: it may load nothing and be framed by nothing', async (url) => {
    const res = await t.app.inject({ url });
    expect(res.headers).toMatchObject(apiHeaders);
    for (const name of [...pageOnly, 'cross-origin-embedder-policy', 'x-powered-by']) expect(res.headers[name], name).toBeUndefined();
  });

  // They are set on the reply, whose headers Fastify keeps when an error replaces the answer: a refused,
  // missing or malformed request gets them too, with its request id.
  it.each([
    ['a request without a token', { url: '/api/courses/' }, 401, apiHeaders],
    ['a request with a bad token', { url: '/api/courses/', headers: { authorization: 'Bearer nope' } }, 401, apiHeaders],
    ['a malformed body', { method: 'POST' as const, url: '/api/auth/login', headers: { 'content-type': 'application/json' }, payload: '{' }, 400, apiHeaders],
    ['an unknown path', { url: '/api/nothing-here' }, 404, helmetHeaders],
  ])('are on the error answer to %s, with its request id', async (_what, request, status, expected) => {
    const res = await t.app.inject(request);
    expect(res.statusCode).toBe(status);
    expect(res.headers).toMatchObject(expected);
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("are the API's on a declared endpoint's file too (a calendar feed), where the route sets its own caching", async () => {
    const res = await t.app.inject({ url: '/api/calendar/nope.ics' });
    expect(res.headers).toMatchObject(apiHeaders);
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
    const api = securityHeaders(apiAnswerOptions);
    expect(Object.fromEntries(api.set.map(([name, value]) => [name.toLowerCase(), value]))).toEqual(apiHeaders);
  });
});
