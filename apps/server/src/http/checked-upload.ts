// A multipart file on its way to storage, checked by its bytes: the one way uploads are read (a
// session's recording, an assignment's attachment, a student's answer file). The first bytes are read
// and judged before anything is stored; the rest streams through, never held in memory. The stream
// fails — so the storage drops what it wrote — when the file passes the size limit (busboy's), when the
// request ends before the file does (a closed connection), or when a check of the later bytes refuses.
import { Readable } from 'node:stream';
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { HttpError, badRequest } from './errors';

/** How much of a file is read before judging its kind (WebM's check wants 64 bytes, a text's more). */
const peekBytes = 4096;

export interface UploadRules {
  /** The 413's message. */
  tooLarge: string;
  /** The 400's message when the request itself is malformed part-way. */
  malformed: string;
  /**
   * Judges the first bytes (at most peekBytes; fewer when the file is shorter): throws an HttpError to
   * refuse the file (415), or returns a check of each later chunk (null at the end) or nothing.
   */
  accept(first: Buffer): ((chunk: Buffer | null) => void) | void;
}

interface CheckedUpload {
  /** The file's bytes, for storage. */
  stream: Readable;
  /** Set when the request was at fault (too large, cut off, refused part-way): answer with it, not a 500. */
  failed: { error: Error | null };
}

/** Reads and judges the file's first bytes, then hands the whole file over as one checked stream. */
export async function checkedUpload(request: FastifyRequest, part: MultipartFile, rules: UploadRules): Promise<CheckedUpload> {
  const { file } = part;
  const failed: { error: Error | null } = { error: null };
  const fail = (error: Error) => {
    failed.error ??= error;
    file.destroy(error);
  };
  // busboy stops at the limit and quietly skips the rest of the part; the file must fail at once.
  file.once('limit', () => fail(new HttpError(413, rules.tooLarge)));
  // @fastify/multipart destroys the file when the connection closes early; this says why, whatever it does.
  request.raw.once('close', () => {
    if (!request.raw.complete) fail(new Error('The client closed the connection during the upload'));
  });
  const ownFault = (error: unknown) => (failed.error ??= error instanceof HttpError ? error : badRequest(rules.malformed));

  const chunks = file[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const head: Buffer[] = [];
  let headLength = 0;
  let ended = false;
  try {
    while (headLength < peekBytes) {
      const next = await chunks.next();
      if (next.done) {
        ended = true;
        break;
      }
      head.push(next.value);
      headLength += next.value.length;
    }
  } catch (error) {
    throw failed.error ?? (error instanceof HttpError ? error : badRequest(rules.malformed));
  }
  const first = Buffer.concat(head);
  if (file.truncated) throw failed.error ?? new HttpError(413, rules.tooLarge);
  const checkChunk = rules.accept(first) ?? (() => {});

  async function* bytes() {
    try {
      checkChunk(first);
      yield first;
      if (!ended) {
        for (let next = await chunks.next(); !next.done; next = await chunks.next()) {
          checkChunk(next.value);
          yield next.value;
        }
      }
      checkChunk(null);
    } catch (error) {
      // The request's own problem (too large, cut off, refused part-way) rather than the storage's.
      throw ownFault(error);
    }
    if (file.truncated) throw (failed.error ??= new HttpError(413, rules.tooLarge));
  }
  return { stream: Readable.from(bytes(), { objectMode: false }), failed };
}
