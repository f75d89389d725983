// Helmet's security headers, worked out once. @fastify/helmet runs helmet(options) again on every
// request, parsing the Content-Security-Policy anew each time (a seventh of an authenticated GET's CPU
// here); the headers depend on nothing in the request, so they are computed at start-up from helmet
// itself and set on every reply in an onRequest hook.
//
// Two sets. A page (the app, its files, the API docs, an unknown path) gets the app's policy. An answer
// of the API's declared endpoints (JSON, and the CSV and calendar files some of them send) gets what
// OWASP's REST Security cheat sheet asks for, as GitHub's API sends it: a policy that lets the answer
// load nothing and be framed by nothing, DENY for older browsers, nosniff, HSTS, same-origin resource
// policy and no referrer. That is stricter than the page's for everything an answer can do; the page's
// other headers (opener policy, origin-agent cluster, DNS prefetch, download options, Flash's cross-domain
// policies, the XSS auditor's) only mean something to an HTML document, and each header is work for
// every answer (Node checks every name and value it writes).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import { hashedAssetsPrefix } from './web-app';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** 'api': the route is a declared endpoint, and its answers get the API's security headers. */
    securityHeaders?: 'api';
  }
}

/** Helmet's options for an answer of the API (see above). */
export const apiAnswerOptions: Readonly<HelmetOptions> = {
  contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
  crossOriginEmbedderPolicy: false,
  crossOriginOpenerPolicy: false,
  crossOriginResourcePolicy: { policy: 'same-origin' },
  originAgentCluster: false,
  referrerPolicy: { policy: 'no-referrer' },
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xFrameOptions: { action: 'deny' },
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
};

export function securityHeaders(options: Readonly<HelmetOptions>) {
  const set = new Map<string, string>();
  const removed: string[] = [];
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      set.set(name, Array.isArray(value) ? value.join(', ') : String(value));
    },
    removeHeader(name: string) {
      set.delete(name);
      removed.push(name);
    },
  };
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return { set: [...set], removed };
}

/**
 * A hashed file of the web build (web-app.ts): a script, stylesheet or font, never a document, so none
 * of the page's policies mean anything on it; nosniff keeps a browser from running it as anything but
 * its type, and the resource policy keeps other sites from loading it.
 */
const assetAnswerHeaders: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'cross-origin-resource-policy': 'same-origin',
};

const asHeaders = (set: [string, string][]) => Object.fromEntries(set.map(([name, value]) => [name.toLowerCase(), value]));

/** Sets the page's headers (`pageOptions`) or, on a declared endpoint's route, the API's on every answer. */
export function registerSecurityHeaders(app: FastifyInstance, pageOptions: Readonly<HelmetOptions>) {
  const page = securityHeaders(pageOptions);
  const api = securityHeaders(apiAnswerOptions);
  const removed = [...new Set([...page.removed, ...api.removed])];
  // Set on the reply rather than one by one on the raw response: Node validates and stores each
  // setHeader() call and then walks them all again when it writes the head, where the reply's headers
  // go to writeHead() once (a tenth of a cached GET's CPU here). Fastify keeps a reply's headers when
  // an error replaces its answer, so every answer it sends carries them, as before. The request id
  // goes with them (it was an onSend hook of its own, a promise per request).
  const pageHeaders = asHeaders(page.set);
  const apiHeaders = asHeaders(api.set);
  app.addHook('onRequest', (request, reply, done) => {
    // Nothing has set them on the raw response by now; kept in case a server option ever does.
    for (const name of removed) reply.raw.removeHeader(name);
    if (request.url.startsWith(hashedAssetsPrefix)) {
      reply.headers(assetAnswerHeaders);
      return done();
    }
    // The route is known by now (a path no route has is a page's 404).
    reply.headers(request.routeOptions.config.securityHeaders === 'api' ? apiHeaders : pageHeaders);
    reply.header('x-request-id', request.id);
    done();
  });
}
