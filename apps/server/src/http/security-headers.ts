// Helmet's security headers, worked out once. @fastify/helmet runs helmet(options) again on every
// request, parsing the Content-Security-Policy anew each time (a seventh of an authenticated GET's CPU
// here); the headers depend on nothing in the request, so they are computed at start-up from helmet
// itself and set the same way, on the raw response, in an onRequest hook.
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
  app.addHook('onRequest', (_request, reply, done) => {
    const raw = reply.raw;
    for (const name of removed) raw.removeHeader(name);
    for (const [name, value] of set) raw.setHeader(name, value);
    done();
  });
}
