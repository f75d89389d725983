// The built single-page app: hashed assets cached for a year, every other non-API path answers
// index.html so deep links such as /courses/3 load the app. Files go out as the .br or .gz the web
// build wrote beside them (vite.config.ts) when the browser accepts it, brotli first, else as they are.
import { apiPrefix } from '@mooz/contract/api-routes';
import { socketPath } from '@mooz/contract/config';
import { existsSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { translationPreloads } from './translation-preloads';
import { varyOn } from './vary';
import { messages } from '@mooz/contract/messages';

const API_PREFIXES = [apiPrefix, socketPath];
const isApiPath = (url: string) => url === apiPrefix.slice(0, -1) || API_PREFIXES.some((p) => url.startsWith(p));
/** The files the web build may have written a .br and .gz of: the list of its precompress plugin (vite.config.ts). */
const precompressible = /\.(js|mjs|css|html|json|svg|txt|xml|webmanifest)(\.br|\.gz)?$/;

/**
 * Where the build puts its hashed files (Vite's assets folder). They never change under their name, so
 * they go out with only what a script, stylesheet or font needs: a year of cache, its type and encoding,
 * nosniff and the resource policy (security-headers.ts), without the page's policies, a validator
 * (never revalidated) or byte ranges. On a phone's first visit each header is paid once per file.
 */
export const hashedAssetsPrefix = '/assets/';

export async function registerWebApp(app: FastifyInstance, webDist: string) {
  const indexFile = path.join(webDist, 'index.html');
  const built = existsSync(indexFile);
  if (built) {
    await app.register(fastifyStatic, {
      root: path.join(webDist, hashedAssetsPrefix),
      prefix: hashedAssetsPrefix,
      decorateReply: false,
      wildcard: true,
      preCompressed: true,
      cacheControl: false,
      etag: false,
      lastModified: false,
      acceptRanges: false,
      setHeaders(res, filePath) {
        res.setHeader('cache-control', 'public, max-age=31536000, immutable');
        if (precompressible.test(filePath)) res.setHeader('vary', 'accept-encoding');
      },
    });
    await app.register(fastifyStatic, {
      root: webDist,
      // "/" is the app too: the client routes it to login or the dashboard.
      index: ['index.html'],
      // Look files up per request, so a rebuild is served without a restart.
      wildcard: true,
      preCompressed: true,
      cacheControl: false,
      setHeaders(res, filePath) {
        // The app's page (index.html, or its .br or .gz) asks for its translations with it. The
        // response is Node's own (typed more narrowly by the plugin), which knows its request.
        const request = (res as Partial<Pick<ServerResponse, 'req'>>).req;
        if (request && /^index\.html(\.br|\.gz)?$/.test(path.basename(filePath))) {
          res.setHeader('link', translationPreloads(request.url ?? '/', request.headers));
        }
        // Everything but the hashed assets (index.html, the locales, icons) is revalidated: ETag and
        // Last-Modified give 304s.
        res.setHeader('cache-control', 'no-cache');
        // The answer depends on Accept-Encoding wherever the build could have written a .br or .gz.
        if (precompressible.test(filePath)) res.setHeader('vary', 'accept-encoding');
      },
    });
    // A callback hook, not an async one: it runs for every answer, API ones included, and a promise per
    // answer for what concerns only the static files was a measurable part of a cached GET's CPU.
    app.addHook('onSend', (_request, reply, payload, done) => {
      const own = reply.raw.getHeader('vary');
      if (own) {
        // setHeaders only reaches the raw response, whose Vary one set on the reply (CORS's Origin) would
        // replace: keep both.
        if (reply.getHeader('vary')) varyOn(reply, String(own));
        // A 304 carries no body, so no body headers (@fastify/static adds them back after send removes them).
        if (reply.statusCode === 304) reply.removeHeader('content-type').removeHeader('content-encoding');
      }
      done(null, payload);
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
    if (!built || !existsSync(indexFile)) return reply.status(503).send({ message: 'The web app is not built yet' });
    // Looked up per request, so a rebuild is picked up without a restart; served as the static files are,
    // compressed when accepted, with the same no-cache, ETag and Last-Modified as /index.html.
    return reply.status(200).sendFile('index.html');
  });
}
