// The security headers a page of the web app carries from helmet, as @fastify/helmet sends them: the
// ones for isolation, the referrer, HTTPS, sniffing and framing. Helmet also sets a few for old browsers
// only (x-dns-prefetch-control, x-download-options, x-xss-protection); the page's
// Content-Security-Policy is the app's own.
export const pageSecurityHeaders = {
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'SAMEORIGIN',
  'x-permitted-cross-domain-policies': 'none',
};
