// A live recording's chunks become its playable, seekable file: its source objects, in order, are read
// as one stream, once, and written in one pass by writeSeekableWebm (webm/write.ts: Duration and Cues added,
// the head patched at the end, nothing buffered but the element being read) into `recordings/<id>.webm`
// (storage putPatchable: it appears only once complete), and the row becomes 'ready' in one conditional
// update. Uploads (upload.ts) use the same writer on the request's stream, with no source objects.
//
// The contract with callers:
// - The row exists with status 'recording' or 'processing' when called. Callers that may race (live
//   recordings: the recorder's finish, the sweeper, the recorder leaving, on any server process) claim
//   the row first (live.ts claimLive: `status 'recording' → 'processing'`), so only one of them gets
//   here.
// - Resolves `ready` with the file's key, size and duration once the row is 'ready' and the sources
//   are deleted; `empty` when the sources hold nothing playable (not WebM, or no complete block): the
//   row and the sources are deleted, as a recording that never was. With `keepSources` (a live
//   recording whose recorder may still send the rest) the sources stay, and an empty one becomes
//   'stopped' instead of deleted. A file made again replaces the one before under the same key, which
//   stays listed meanwhile. `gone` when the row stopped being
//   'recording'/'processing' meanwhile (deleted, or finished by another process): nothing of this call
//   is left behind. Rejects on a storage or database failure, leaving the row and the sources as they
//   were (the caller decides: an upload removes both, a live recording stays 'processing' for the
//   sweeper to try again).
// - The first time a recording becomes 'ready', its students are told (notifications' recordingAdded)
//   in the same transaction as the update that makes it ready: a crash leaves both or neither, and a
//   finalise run again (a retry, a live recording made again) finds readyAt set and tells nobody.
//   The room hears that the recording stopped from live.ts, when it claims it.
import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { recordings } from '../../db/schema/index';
import type { Storage } from './storage';
import { NotWebmError, writeSeekableWebm, type WrittenWebm } from './webm';

export type FinaliseResult =
  | { outcome: 'ready'; storageKey: string; sizeBytes: number; durationSeconds: number }
  | { outcome: 'empty' }
  | { outcome: 'gone' };

/** The playable file of a recording. */
export const recordingKey = (recordingId: number) => `recordings/${recordingId}.webm`;

/** The objects under `keys`, one after another, as one stream (each is opened when the one before ends). */
function concatenated(storage: Storage, keys: readonly string[]): Readable {
  const out = new PassThrough();
  (async () => {
    for (const key of keys) await pipeline(await storage.read(key), out, { end: false });
    out.end();
  })().catch((error: unknown) => out.destroy(error as Error));
  return out;
}

const unfinished = ['recording', 'processing'] as const;

interface FinaliseOptions {
  /** Keep the source objects, and the row when nothing is playable yet (as 'stopped'). */
  keepSources?: boolean;
  /** More of the row to set with the outcome ('ready' or 'stopped'). */
  set?: Partial<Pick<typeof recordings.$inferInsert, 'madeFromBytes'>>;
}

export async function finaliseRecording(
  app: Pick<FastifyInstance, 'db' | 'storage' | 'log' | 'notifications'>,
  recordingId: number,
  sourceKeys: string[],
  options: FinaliseOptions = {},
): Promise<FinaliseResult> {
  const { db, storage } = app;
  const stillUnfinished = and(eq(recordings.id, recordingId), inArray(recordings.status, [...unfinished]));
  const [row] = await db.select({ id: recordings.id }).from(recordings).where(stillUnfinished);
  if (!row) return { outcome: 'gone' };

  const storageKey = recordingKey(recordingId);
  let made: WrittenWebm | null = null;
  if (sourceKeys.length) {
    try {
      // Nothing is left under the key when this fails or finds nothing playable.
      made = await writeSeekableWebm(concatenated(storage, sourceKeys), (headBytes) => storage.putPatchable(storageKey, 'video/webm', { headBytes }));
    } catch (error) {
      if (!(error instanceof NotWebmError)) throw error;
    }
  }
  if (!made) {
    if (options.keepSources) {
      await db.update(recordings).set({ status: 'stopped', ...options.set }).where(stillUnfinished);
      return { outcome: 'empty' };
    }
    // Nothing playable: no recording at all.
    await db.delete(recordings).where(stillUnfinished);
    await deleteAll(app, sourceKeys);
    return { outcome: 'empty' };
  }

  const { sizeBytes } = made;
  const durationSeconds = made.scan.durationMs / 1000;
  const ready = await db.transaction(async (tx) => {
    // The row locked: a finalise on another process waits, then reads this one's readyAt.
    const [before] = await tx
      .select({ readyAt: recordings.readyAt, courseId: recordings.courseId, sessionId: recordings.sessionId, title: recordings.title })
      .from(recordings)
      .where(stillUnfinished)
      .for('update');
    if (!before) return null;
    await tx
      .update(recordings)
      .set({ status: 'ready', storageKey, sizeBytes, durationSeconds, readyAt: new Date(), ...options.set })
      .where(stillUnfinished);
    // Playable for the first time (a resumed live recording is made again later): its students hear of it once.
    if (before.readyAt || before.courseId === null) return { told: false };
    await app.notifications.recordingAdded(tx, { id: recordingId, courseId: before.courseId, sessionId: before.sessionId, title: before.title });
    return { told: true };
  });
  if (!ready) {
    // Deleted while it was being made (its file goes too), or made by another process (whose file,
    // under the same key, stays).
    const [now] = await db.select({ storageKey: recordings.storageKey }).from(recordings).where(eq(recordings.id, recordingId));
    if (now?.storageKey !== storageKey) await storage.delete(storageKey);
    return { outcome: 'gone' };
  }
  if (ready.told) app.notifications.kick();
  if (!options.keepSources) await deleteAll(app, sourceKeys);
  return { outcome: 'ready', storageKey, sizeBytes, durationSeconds };
}

/** Deletes the objects; one that fails to go is logged (it holds nothing listed any more). */
async function deleteAll(app: Pick<FastifyInstance, 'storage' | 'log'>, keys: readonly string[]) {
  for (const key of keys) {
    await app.storage.delete(key).catch((error: unknown) => app.log.warn({ err: error, key }, 'a recording source object was not deleted'));
  }
}
