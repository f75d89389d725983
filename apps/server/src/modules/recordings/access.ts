// Who may watch, delete and upload recordings. Watching follows the sessions' own rule (sessions/access.ts):
// a recording of a class is watched by whoever may see that course's sessions — its teacher, admins,
// its buyers (every recording of the course, whichever batch's class it was) and, while in trial,
// students who see the course's open sessions, which is the recordings of its open sessions, in the
// catalogue. A recording of an ad hoc meeting room is its recorder's and the admins'. Anyone else is
// told it does not exist (404). Deleting: the course's teacher, the recorder, an admin. Uploading to a
// session: its course's teacher or an admin.
import { eq, isNotNull, sql, type SQL } from 'drizzle-orm';
import { messages } from '@mooz/contract/messages';
import type { UserType } from '@mooz/contract/permissions';
import type { Database } from '../../db/client';
import { classSessions, courses, recordings } from '../../db/schema/index';
import { forbidden, notFound } from '../../http/errors';
import { inScope, namesCourse, scopeCondition, seesCourse, sessionOfRoom, sessionScope, type SessionScope } from '../sessions';

/**
 * Which recordings are listed, searched and played: those with a file, whatever their status. A live
 * recording made again with late chunks, or reopened after a stall, keeps its file meanwhile.
 */
export const playable = isNotNull(recordings.storageKey);

export interface Caller {
  id: number;
  userType: UserType;
}

/** The caller with the sessions they may see: what every check below reads. */
interface WatchScope {
  caller: Caller;
  sessions: SessionScope;
}

/** Where a recording belongs, as its row and joins give it. */
interface RecordingPlace {
  courseId: number | null;
  recordedBy: number;
  /** The recorded session (null for an ad hoc room, or once the session was deleted). */
  session: { batchId: number | null } | null;
  /** Its course is in the catalogue (published, not archived): what a trial's open sessions need. */
  courseListed: boolean;
}

export async function watchScope(db: Database, caller: Caller, now = new Date()): Promise<WatchScope> {
  return { caller, sessions: await sessionScope(db, caller, now) };
}

/** The courses the scope names itself (taught, bought), as namesCourse tests them one by one. */
const namedCourseIds = (scope: SessionScope) =>
  scope.all ? [] : [...scope.wholeCourseIds, ...scope.batches.map((b) => b.courseId)];

export function mayWatch({ caller, sessions }: WatchScope, r: RecordingPlace): boolean {
  if (caller.userType === 'admin') return true;
  if (r.courseId === null) return r.recordedBy === caller.id;
  if (namesCourse(sessions, r.courseId)) return true;
  // As the sessions list: a trial's open sessions are those of courses in the catalogue.
  return r.session !== null && r.courseListed && inScope(sessions, { courseId: r.courseId, batchId: r.session.batchId });
}

/**
 * mayWatch as a condition, for lists. The query joins `class_sessions` on the recording's session and
 * `courses` on its course (both left joins, under their own table names).
 */
export function watchCondition({ caller, sessions }: WatchScope): SQL {
  if (caller.userType === 'admin') return sql`true`;
  const own = sql`(${recordings.courseId} is null and ${recordings.recordedBy} = ${caller.id})`;
  const named = namedCourseIds(sessions);
  const course = named.length ? sql`${recordings.courseId} in (${sql.join(named.map((id) => sql`${id}`), sql`, `)})` : sql`false`;
  const throughSession = sql`(${classSessions.id} is not null and ${courses.published} and ${courses.archivedAt} is null and ${scopeCondition(
    sessions,
    { courseId: sql`${recordings.courseId}`, batchId: sql`${classSessions.batchId}` },
  )})`;
  return sql`(${own} or ${course} or ${throughSession})`;
}

/** Whether the caller may list a course's recordings at all: its teacher, its buyers, a trial that sees its sessions. */
export function maySeeCourse({ caller, sessions }: WatchScope, course: { id: number; listed: boolean }): boolean {
  return caller.userType === 'admin' || seesCourse(sessions, course);
}

/** Its course's teacher, its recorder, an admin. */
export function mayDelete(caller: Caller, r: { recordedBy: number; courseTeacherId: number | null }): boolean {
  return caller.userType === 'admin' || r.recordedBy === caller.id || (r.courseTeacherId !== null && r.courseTeacherId === caller.id);
}

/**
 * The class session whose room this is, when the caller may upload its recording: its course's teacher
 * or an admin. No such session (or a cancelled one) is 404, and so is a session the caller may not even
 * see; one they see but do not teach is 403.
 */
export async function uploadTarget(db: Database, caller: Caller, roomId: string) {
  const found = await sessionOfRoom(db, roomId);
  if (!found || found.session.cancelledAt) throw notFound(messages.sessionNotFound);
  if (caller.userType === 'admin' || found.teacherId === caller.id) {
    const [course] = await db.select().from(courses).where(eq(courses.id, found.session.courseId));
    return { session: found.session, course: course! };
  }
  if (!inScope(await sessionScope(db, caller), found.session)) throw notFound(messages.sessionNotFound);
  throw forbidden();
}
