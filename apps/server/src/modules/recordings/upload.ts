// A session's recording uploaded from disk: `POST /api/classes/sessions/{roomId}/upload-recording/`,
// multipart, the file in the field `recording` and an optional `title`.
//
// The file streams from the request into storage; it is never held in memory. Before anything is stored
// its first bytes are checked to be WebM (415 otherwise); past MAX_RECORDING_MB the object being written
// is dropped (413). It is made seekable on its way in, in one pass (webm/write.ts writeSeekableWebm: the
// clusters are copied as they arrive, the Cues appended after them, the head patched at the end), into
// the recording's final object, which appears only once complete (storage putPatchable). The row is
// written only then, under an id taken beforehand from its sequence; so a refused, failed or cut-off
// upload leaves no row and no object.
import multipart from '@fastify/multipart';
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { eq, sql } from 'drizzle-orm';
import { endpoints } from '@mooz/contract/endpoints';
import { messages } from '@mooz/contract/messages';
import { singleLineText } from '@mooz/contract/primitives';
import { recordingLimits, uploadFieldName, type Recording } from '@mooz/contract/recordings';
import type { Database } from '../../db/client';
import { recordings } from '../../db/schema/index';
import { currentUser } from '../../http/authenticate';
import { HttpError, badRequest, invalidField } from '../../http/errors';
import { route } from '../../http/route';
import { checkedUpload, type UploadRules } from '../../http/checked-upload';
import { uploadTarget } from './access';
import { recordingKey } from './finalise';
import { presentRecording, recordingRows } from './presenter';
import { looksLikeWebm, NotWebmError, writeSeekableWebm, type WrittenWebm } from './webm';
import { defaultTitle } from './titles';
import type { Storage } from './storage';
import type { NotificationsDoor } from '../notifications';

/** The storage failed (not the request): the upload is answered as a server error. */
class StorageFailed extends Error {
  constructor(override readonly cause: unknown) {
    super('The recording storage failed', { cause });
  }
}

const titleField = singleLineText().trim().max(recordingLimits.titleMaxLength);

/**
 * Stops reading the request: what is left of the body is read and thrown away, so the client gets the
 * answer and its connection stays usable, without the parser waiting on a file nobody reads.
 */
function discardRest(request: FastifyRequest) {
  request.raw.unpipe();
  request.raw.resume();
}

/** A recording is WebM, judged by its first bytes, within MAX_RECORDING_MB (busboy's limit). */
const recordingRules: UploadRules = {
  tooLarge: messages.recordingTooLarge,
  malformed: messages.recordingUploadFailed,
  accept(first) {
    if (!looksLikeWebm(first)) throw new HttpError(415, messages.recordingNotWebm);
  },
};

interface UploadsDeps {
  db: Database;
  storage: Storage;
  /** Signs the new recording's playback links. */
  secret: string;
  told: Pick<NotificationsDoor, 'recordingAdded' | 'kick'>;
}

export function createUploads(deps: UploadsDeps) {
  const { db, storage, told } = deps;
  const signer = { jwtSecret: deps.secret, storage };

  /**
   * Stores the file, made seekable on the way, as the object `key`, which exists once this resolves
   * (and not otherwise). Rejects with the request's error when it was the request's fault (too large,
   * cut off, not a WebM or nothing playable in it: 415), else with a StorageFailed.
   */
  async function store(request: FastifyRequest, part: MultipartFile, key: string): Promise<WrittenWebm> {
    const { stream, failed } = await checkedUpload(request, part, recordingRules);
    let written: WrittenWebm | null;
    try {
      written = await writeSeekableWebm(stream, (headBytes) => storage.putPatchable(key, 'video/webm', { headBytes }));
    } catch (error) {
      if (failed.error) throw failed.error;
      if (error instanceof NotWebmError) throw new HttpError(415, messages.recordingNotWebm);
      throw new StorageFailed(error);
    }
    // No complete block anywhere: nothing to play, and nothing was stored.
    if (!written) throw new HttpError(415, messages.recordingNotWebm);
    return written;
  }

  /** The next recording id, taken from the table's sequence before the row exists (its object is written under it). */
  async function reserveId(): Promise<number> {
    const result = await db.execute(sql`select nextval(pg_get_serial_sequence('recordings', 'id'))::int as id`);
    return (result as unknown as { rows: Array<{ id: number }> }).rows[0]!.id;
  }

  return async function upload(request: FastifyRequest & { params: { roomId: string } }): Promise<{ data: Recording; message: string }> {
    const caller = currentUser(request);
    const { session, course } = await uploadTarget(db, caller, request.params.roomId);
    if (!request.isMultipart()) throw badRequest(messages.recordingMissingFile);

    const id = await reserveId();
    const key = recordingKey(id);
    let written: WrittenWebm | null = null;
    let title: string | undefined;
    try {
      for await (const part of request.parts()) {
        if (part.type === 'field') {
          if (part.fieldname !== 'title') continue;
          const parsed = titleField.safeParse(part.value);
          if (part.valueTruncated || !parsed.success) throw invalidField('title', parsed.error?.issues[0]?.message ?? messages.validationFailed);
          if (parsed.data) title = parsed.data;
          continue;
        }
        // One file, in the contract's field.
        if (part.fieldname !== uploadFieldName || written !== null) throw badRequest(messages.recordingMissingFile);
        written = await store(request, part, key);
      }
    } catch (error) {
      discardRest(request);
      if (written !== null) await storage.delete(key).catch(() => {});
      if (error instanceof StorageFailed) throw error.cause;
      // A multipart body that does not parse (no boundary, a part cut short) is the client's doing.
      if (error instanceof HttpError || (error as { statusCode?: number }).statusCode) throw error;
      throw badRequest(messages.recordingUploadFailed);
    }
    if (written === null) throw badRequest(messages.recordingMissingFile);

    // Every byte is stored, seekable: now the recording exists, ready.
    const recordingTitle = title ?? (await defaultTitle(db, session.roomId, session.title));
    try {
      // The row and its students' notice in one transaction: neither exists without the other.
      await db.transaction(async (tx) => {
        await tx
          .insert(recordings)
          .overridingSystemValue()
          .values({
            id,
            sessionId: session.id,
            courseId: course.id,
            roomId: session.roomId,
            title: recordingTitle,
            recordedBy: caller.id,
            source: 'upload',
            status: 'ready',
            storageKey: key,
            sizeBytes: written.sizeBytes,
            durationSeconds: written.scan.durationMs / 1000,
            readyAt: new Date(),
          });
        await told.recordingAdded(tx, { id, courseId: course.id, sessionId: session.id, title: recordingTitle });
      });
    } catch (error) {
      // No row: its object goes too.
      await storage.delete(key).catch(() => {});
      throw error;
    }
    told.kick();

    const [row] = await recordingRows(db, caller.id, eq(recordings.id, id));
    return { data: await presentRecording(signer, row!, caller, new Date()), message: messages.recordingUploaded };
  };
}

/** The upload route, in its own scope: only it reads multipart bodies. */
export type Uploads = ReturnType<typeof createUploads>;

export const uploadRoutes: FastifyPluginAsync<{ upload: Uploads }> = async (app, { upload }) => {
  await app.register(multipart, {
    limits: {
      fileSize: app.config.maxRecordingBytes,
      files: 1,
      // The title, and room for a client's extra fields; none of them large.
      fields: 10,
      fieldSize: 4096,
      parts: 12,
      headerPairs: 20,
    },
  });
  route(app, endpoints.recordings.upload, (request) => upload(request as unknown as FastifyRequest & { params: { roomId: string } }));
};
