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

  it('are what helmet itself sets for the options', () => {
    const { set, removed } = securityHeaders({ contentSecurityPolicy: { directives: { defaultSrc: ["'self'"] } }, crossOriginEmbedderPolicy: false });
    expect(Object.fromEntries(set.map(([name, value]) => [name.toLowerCase(), value]))).toMatchObject({
      ...helmetHeaders,
      'content-security-policy': expect.stringContaining("default-src 'self'"),
    });
    expect(removed.map((name) => name.toLowerCase())).toEqual(['x-powered-by']);
  });
});
