// GET (and HEAD) apiRoutes.recordings.media, …/recordings/:id/media/?expires=…&signature=…[&download=1]: a recording's
// bytes behind a signed, expiring link (links.ts), with HTTP Range so a <video> can seek without
// fetching the whole file. The signature is the whole authorisation: no bearer token, because a <video>
// element or a download link cannot send one. Used for file storage; with a bucket the links are
// presigned GETs to the bucket, but this route still streams from it for a link made otherwise.
//
// Registered with app.route rather than the contract's route(): the answer is raw bytes with
// Range semantics (200/206/416), not a JSON envelope, and it stays out of the OpenAPI document. Its
// refusals (403, 404, 416) leave in the contract's error envelope through the app's error handler and
// are declared as such, so the API fuzz test holds them to it.
import type { FastifyInstance, FastifySchema } from 'fastify';
import { eq } from 'drizzle-orm';
import { errorEnvelope } from '@mooz/contract/envelope';
import { apiRoutes } from '@mooz/contract/api-routes';
import { messages } from '@mooz/contract/messages';
import { recordings } from '../../db/schema/recordings';
import { attachment } from '../../infrastructure/csv';
import { HttpError, forbidden, notFound } from '../../http/errors';
import { downloadFileName, verifyMediaLink } from './links';
import { NoSuchKeyError } from './storage';

type ByteRange = { start: number; end: number };

/**
 * What a Range header asks of an object of `size` bytes (RFC 9110 §14): the whole object (no header,
 * another unit, a malformed or multi-range header, which may be answered in full), one satisfiable
 * range (clamped to the object), or nothing satisfiable (416).
 */
export function parseRange(header: string | undefined, size: number): 'full' | 'unsatisfiable' | ByteRange {
  if (!header) return 'full';
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!match) return 'full';
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return 'full';
  if (first === '') {
    // bytes=-n: the last n bytes.
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Number(last);
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end)) return 'full';
  // bytes=5-2 is not a valid range: ignored, as the RFC says, so the whole object.
  if (last !== '' && end < start) return 'full';
  if (start >= size) return 'unsatisfiable';
  return { start, end: Math.min(end, size - 1) };
}

const idPattern = /^[1-9]\d{0,9}$/;
const maxId = 2 ** 31 - 1;

const refusals: FastifySchema = { hide: true, response: { 403: errorEnvelope, 404: errorEnvelope, 416: errorEnvelope } };

export async function recordingMediaRoutes(app: FastifyInstance): Promise<void> {
  app.route({
    // HEAD is declared here, not left to Fastify's automatic HEAD route, which would read the whole
    // stream only to throw it away.
    method: ['GET', 'HEAD'],
    url: apiRoutes.recordings.media.path,
    // The refusals are the API's envelope, declared like any endpoint's (the OpenAPI document and the
    // fuzz hold them to it); the bytes of 200 and 206 have no schema.
    schema: refusals,
    handler: async (request, reply) => {
      const rawId = (request.params as { id: string }).id;
      const id = idPattern.test(rawId) && Number(rawId) <= maxId ? Number(rawId) : null;
      // The signature first: without one nobody learns whether a recording exists.
      const link = id === null ? null : verifyMediaLink(app.jwtSecret, id, request.query as Record<string, unknown>, Date.now() / 1000);
      if (id === null || !link) throw forbidden(messages.recordingLinkInvalid);

      const [row] = await app.db
        .select({ storageKey: recordings.storageKey, mimeType: recordings.mimeType, title: recordings.title })
        .from(recordings)
        .where(eq(recordings.id, id))
        .limit(1);
      // Listed and played once it has a file (access.ts playable), whatever its status.
      if (!row?.storageKey) throw notFound(messages.recordingNotFound);
      const size = await app.storage.size(row.storageKey);
      if (size === null) throw notFound(messages.recordingNotFound);

      // If-Range names a version we cannot compare (we send no validators): the whole object, as the RFC says.
      const range = request.headers['if-range'] ? 'full' : parseRange(request.headers.range, size);
      if (range === 'unsatisfiable') {
        throw new HttpError(416, 'Range Not Satisfiable', undefined, { 'content-range': `bytes */${size}`, 'accept-ranges': 'bytes' });
      }
      // Opened before any header is set, so a failure here still leaves as a JSON envelope.
      const body =
        request.method === 'HEAD'
          ? undefined
          : await app.storage.read(row.storageKey, range === 'full' ? undefined : range).catch((error: unknown) => {
              // Deleted between the size and the read.
              throw error instanceof NoSuchKeyError ? notFound(messages.recordingNotFound) : error;
            });
      reply
        .header('content-type', row.mimeType)
        .header('accept-ranges', 'bytes')
        // Only this browser may keep it: the link is a credential, the bytes a course's.
        .header('cache-control', 'private')
        .header('content-length', String(range === 'full' ? size : range.end - range.start + 1));
      if (link.download) reply.header('content-disposition', attachment(downloadFileName(row.title, id, row.mimeType)));
      if (range !== 'full') reply.status(206).header('content-range', `bytes ${range.start}-${range.end}/${size}`);
      else reply.status(200);
      return reply.send(body);
    },
  });
}
