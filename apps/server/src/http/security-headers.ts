// Helmet's security headers, worked out once. @fastify/helmet runs helmet(options) again on every
// request, parsing the Content-Security-Policy anew each time (a seventh of an authenticated GET's CPU
// here); the headers depend on nothing in the request, so they are computed at start-up from helmet
// itself and set on every reply in an onRequest hook.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

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

export function registerSecurityHeaders(app: FastifyInstance, options: Readonly<HelmetOptions>) {
  const { set, removed } = securityHeaders(options);
  // Set on the reply rather than one by one on the raw response: Node validates and stores each
  // setHeader() call and then walks them all again when it writes the head, where the reply's headers
  // go to writeHead() once (a tenth of a cached GET's CPU here). Fastify keeps a reply's headers when
  // an error replaces its answer, so every answer it sends carries them, as before. The request id
  // goes with them (it was an onSend hook of its own, a promise per request).
  const headers = Object.fromEntries(set.map(([name, value]) => [name.toLowerCase(), value]));
  app.addHook('onRequest', (request, reply, done) => {
    // Nothing has set them on the raw response by now; kept in case a server option ever does.
    for (const name of removed) reply.raw.removeHeader(name);
    reply.headers(headers);
    reply.header('x-request-id', request.id);
    done();
  });
}
