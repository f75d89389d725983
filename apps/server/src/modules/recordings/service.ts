// Recordings to watch: the courses with recordings the caller may watch, one course's recordings, the
// caller's meeting recordings, one recording for the player, deleting one, and watch progress. Only
// playable recordings are listed or played (access.ts `playable`: a live one once it has a file); who
// may watch is access.ts's rule, applied in SQL for lists and per row otherwise.
import { and, desc, eq, isNull, isNotNull, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import { messages } from '@mooz/contract/messages';
import type { Recording, RecordingGroup, recordingsQuery, watchProgressBody } from '@mooz/contract/recordings';
import type { Database } from '../../db/client';
import { classSessions, courses, recordings, recordingViews, watchLog } from '../../db/schema/index';
import { forbidden, invalidField, notFound } from '../../http/errors';
import { mayDelete, maySeeCourse, mayWatch, playable, watchCondition, watchScope, type Caller } from './access';
import { placeOf, presentRecording, recordingRows, type RecordingRow } from './presenter';
import type { Storage } from './storage';
import { addWatched, spansLength, type Span } from './watched-spans';

interface RecordingsDeps {
  db: Database;
  storage: Storage;
  /** Signs the playback links. */
  secret: string;
  log: FastifyBaseLogger;
  now?: () => Date;
}

export function createRecordingsService(deps: RecordingsDeps) {
  const { db, storage, log } = deps;
  const now = deps.now ?? (() => new Date());
  const signer = { jwtSecret: deps.secret, storage };

  const present = (rows: RecordingRow[], caller: Caller, at: Date) => Promise.all(rows.map((row) => presentRecording(signer, row, caller, at)));

  /** A playable recording the caller may watch, or 404. */
  async function watchable(caller: Caller, id: number, at: Date): Promise<RecordingRow> {
    const [row] = await recordingRows(db, caller.id, and(eq(recordings.id, id), playable));
    if (!row || !mayWatch(await watchScope(db, caller, at), placeOf(row))) throw notFound(messages.recordingNotFound);
    return row;
  }

  async function groups(caller: Caller, at: Date): Promise<RecordingGroup[]> {
    const scope = await watchScope(db, caller, at);
    const latest = sql`max(${recordings.createdAt})`.mapWith(recordings.createdAt);
    const rows = await db
      .select({
        courseId: sql<number>`${recordings.courseId}`.mapWith(Number),
        courseName: sql<string>`max(${courses.name})`,
        count: sql<number>`count(*)`.mapWith(Number),
        latest,
      })
      .from(recordings)
      .innerJoin(courses, eq(courses.id, recordings.courseId))
      .leftJoin(classSessions, eq(classSessions.id, recordings.sessionId))
      .where(and(playable, isNotNull(recordings.courseId), watchCondition(scope)))
      .groupBy(recordings.courseId)
      .orderBy(desc(latest), desc(recordings.courseId));
    return rows.map((r) => ({ course_id: r.courseId, course_name: r.courseName, recordings_count: r.count, latest_at: (r.latest as Date).toISOString() }));
  }

  async function ofCourse(caller: Caller, courseId: number, at: Date): Promise<Recording[]> {
    const scope = await watchScope(db, caller, at);
    const [course] = await db
      .select({ id: courses.id, listed: sql<boolean>`${courses.published} and ${courses.archivedAt} is null` })
      .from(courses)
      .where(eq(courses.id, courseId));
    if (!course || !maySeeCourse(scope, course)) throw notFound(messages.courseNotFound);
    const rows = await recordingRows(db, caller.id, and(playable, eq(recordings.courseId, courseId), watchCondition(scope))).orderBy(
      desc(recordings.createdAt),
      desc(recordings.id),
    );
    return present(rows, caller, at);
  }

  /** Recordings of ad hoc meeting rooms: the caller's own; an admin's, everyone's. */
  async function meetings(caller: Caller, at: Date): Promise<Recording[]> {
    const mine = caller.userType === 'admin' ? undefined : eq(recordings.recordedBy, caller.id);
    const rows = await recordingRows(db, caller.id, and(playable, isNull(recordings.courseId), mine)).orderBy(desc(recordings.createdAt), desc(recordings.id));
    return present(rows, caller, at);
  }

  return {
    async list(caller: Caller, query: z.output<typeof recordingsQuery>): Promise<{ data: RecordingGroup[] | Recording[] }> {
      const at = now();
      if (query.meetings && query.course_id !== undefined) throw invalidField('meetings', 'Ask for one course or for the meetings, not both');
      if (query.meetings) return { data: await meetings(caller, at) };
      if (query.course_id !== undefined) return { data: await ofCourse(caller, query.course_id, at) };
      return { data: await groups(caller, at) };
    },

    async get(caller: Caller, id: number): Promise<{ data: Recording }> {
      const at = now();
      return { data: await presentRecording(signer, await watchable(caller, id, at), caller, at) };
    },

    /** The row, then its file: a recording is never listed without its bytes. */
    async remove(caller: Caller, id: number): Promise<{ data: null; message: string }> {
      const row = await watchable(caller, id, now());
      if (!mayDelete(caller, { recordedBy: row.recording.recordedBy, courseTeacherId: row.courseTeacherId })) throw forbidden();
      await db.delete(recordings).where(eq(recordings.id, id));
      if (row.recording.storageKey) {
        await storage.delete(row.recording.storageKey).catch((error: unknown) => {
          // The row is gone, so nobody can reach the file; it is only disk space, said in the log.
          log.error({ err: error, key: row.recording.storageKey }, 'a deleted recording kept its file');
        });
      }
      return { data: null, message: messages.recordingDeleted };
    },

    /**
     * Where the player is (to resume there) and the spans it played: merged into what this viewer has
     * watched, so watched seconds grow only with parts of the video not seen before. The row is locked
     * while it is merged, so two reports at once (two tabs) both count.
     */
    async progress(caller: Caller, id: number, body: z.output<typeof watchProgressBody>): Promise<{ data: { position_seconds: number; watched_seconds: number } }> {
      const row = await watchable(caller, id, now());
      const duration = row.recording.durationSeconds;
      const position = Math.min(Math.max(body.position_seconds, 0), duration);
      const at = now();
      const saved = await db.transaction(async (tx) => {
        await tx.insert(recordingViews).values({ recordingId: id, userId: caller.id }).onConflictDoNothing();
        const [view] = await tx
          .select({ spans: recordingViews.watchedSpans })
          .from(recordingViews)
          .where(and(eq(recordingViews.recordingId, id), eq(recordingViews.userId, caller.id)))
          .for('update');
        const watched = addWatched((view?.spans ?? []) as Span[], body.spans, duration);
        await tx
          .update(recordingViews)
          .set({ positionSeconds: position, watchedSpans: watched.spans as [number, number][], watchedSeconds: watched.watchedSeconds, updatedAt: sql`now()` })
          .where(and(eq(recordingViews.recordingId, id), eq(recordingViews.userId, caller.id)));
        // The seconds this report added, logged by when they arrived: the dashboards' learning time by day.
        const added = watched.watchedSeconds - spansLength((view?.spans ?? []) as Span[]);
        if (added > 0) await tx.insert(watchLog).values({ userId: caller.id, recordingId: id, courseId: row.recording.courseId, watchedAt: at, seconds: added });
        return watched.watchedSeconds;
      });
      return { data: { position_seconds: position, watched_seconds: saved } };
    },
  };
}

export type RecordingsService = ReturnType<typeof createRecordingsService>;
