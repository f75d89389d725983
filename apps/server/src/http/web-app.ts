// The built single-page app: hashed assets cached for a year, every other non-API path answers
// index.html so deep links such as /courses/3 load the app.
import { apiPrefix } from '@mooz/contract/api-routes';
import { socketPath } from '@mooz/contract/realtime';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { messages } from '@mooz/contract/messages';

const API_PREFIXES = [apiPrefix, socketPath];
const isApiPath = (url: string) => url === apiPrefix.slice(0, -1) || API_PREFIXES.some((p) => url.startsWith(p));

export async function registerWebApp(app: FastifyInstance, webDist: string) {
  const indexFile = path.join(webDist, 'index.html');
  const built = existsSync(indexFile);
  if (built) {
    await app.register(fastifyStatic, {
      root: webDist,
      // "/" is the app too: the client routes it to login or the dashboard.
      index: ['index.html'],
      // Look files up per request, so a rebuild is served without a restart.
      wildcard: true,
      cacheControl: false,
      setHeaders(res, filePath) {
        const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
        res.setHeader('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  } else {
    app.log.warn(`web app not built (${indexFile} missing): run npm run build`);
  }

  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0]!;
    // A missing file (a name with an extension, such as /locales/xx/translation.json) is a 404, not the app.
    const isFile = /\.[a-z0-9]+$/i.test(url.slice(url.lastIndexOf('/') + 1));
    if (isApiPath(url) || isFile || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return reply.status(404).send({ message: messages.notFound });
    }
    if (!built) return reply.status(503).send({ message: 'The web app is not built yet' });
    // Read per request: index.html is small, and a rebuild is picked up without a restart.
    return reply
      .status(200)
      .header('cache-control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(readFileSync(indexFile));
  });
}
