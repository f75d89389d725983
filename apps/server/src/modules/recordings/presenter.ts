// Recording rows as the contract's `recording`: with its course, session and recorder's names, fresh
// signed playback links (links.ts), the caller's own progress, and whether the caller may delete it.
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Recording } from '@mooz/contract/recordings';
import type { Database } from '../../db/client';
import { classSessions, courses, recordings, recordingViews, users } from '../../db/schema/index';
import { mayDelete, type Caller } from './access';
import { playbackLinks } from './links';

/** The recording with everything presenting it and checking access to it needs, seen by `callerId`. */
export function recordingRows(db: Database, callerId: number, where: SQL | undefined) {
  return db
    .select({
      recording: recordings,
      courseName: courses.name,
      courseTeacherId: courses.teacherId,
      courseListed: sql<boolean>`coalesce(${courses.published} and ${courses.archivedAt} is null, false)`,
      session: { id: classSessions.id, batchId: classSessions.batchId, title: classSessions.title },
      recorder: { firstName: users.firstName, lastName: users.lastName },
      view: { positionSeconds: recordingViews.positionSeconds, watchedSeconds: recordingViews.watchedSeconds },
    })
    .from(recordings)
    .leftJoin(courses, eq(courses.id, recordings.courseId))
    .leftJoin(classSessions, eq(classSessions.id, recordings.sessionId))
    .innerJoin(users, eq(users.id, recordings.recordedBy))
    .leftJoin(recordingViews, and(eq(recordingViews.recordingId, recordings.id), eq(recordingViews.userId, callerId)))
    .where(where);
}

export type RecordingRow = Awaited<ReturnType<typeof recordingRows>>[number];

/** Where the row belongs, for access.ts's checks. */
export const placeOf = (row: RecordingRow) => ({
  courseId: row.recording.courseId,
  recordedBy: row.recording.recordedBy,
  session: row.session,
  courseListed: row.courseListed,
});

export async function presentRecording(signer: Parameters<typeof playbackLinks>[0], row: RecordingRow, caller: Caller, now: Date): Promise<Recording> {
  const r = row.recording;
  const links = await playbackLinks(signer, r, now);
  return {
    id: r.id,
    title: r.title,
    course_id: r.courseId,
    session_id: r.sessionId,
    room_id: r.roomId,
    url: links.url,
    download_url: links.download_url,
    url_expires_at: links.url_expires_at,
    mime_type: r.mimeType,
    size_bytes: r.sizeBytes,
    duration_seconds: r.durationSeconds,
    created_at: r.createdAt.toISOString(),
    course_name: row.courseName,
    session_title: row.session?.title ?? null,
    recorded_by_name: `${row.recorder.firstName} ${row.recorder.lastName}`.trim(),
    position_seconds: row.view?.positionSeconds ?? 0,
    watched_seconds: row.view?.watchedSeconds ?? 0,
    can_delete: mayDelete(caller, { recordedBy: r.recordedBy, courseTeacherId: row.courseTeacherId }),
  };
}
