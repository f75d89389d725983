// Who may do what with a course's assignments — one rule for every endpoint:
// - manage (create, edit, delete, attach, see and review answers): the course's teacher, an admin;
// - read: those, the course's students (an active purchase), and a student in trial for a course in
//   the catalogue (as a trial sees the catalogue's open sessions); only a student who bought it submits.
// Refusals: what the caller cannot see is not found (404: an assignment of a course they are not in, a
// course out of the catalogue that is not theirs); what they can see but not do is forbidden (403: a
// course of the catalogue they are not in, an assignment they may read but not change).
import { eq } from 'drizzle-orm';
import { messages } from '@mooz/contract/messages';
import type { UserType } from '@mooz/contract/permissions';
import type { Database } from '../../db/client';
import { courses } from '../../db/schema/index';
import { forbidden, notFound } from '../../http/errors';
import { isInTrial } from '../auth';
import { hasBought } from '../courses';

export interface Caller {
  id: number;
  userType: UserType;
}

export type CourseRole = 'manager' | 'student' | 'trial' | 'none';

export interface CourseAccess {
  course: { id: number; name: string; teacherId: number; listed: boolean };
  role: CourseRole;
}

const mayRead = (role: CourseRole) => role !== 'none';

/** The caller's role in a course (null when there is no such course). */
export async function courseRole(db: Database, caller: Caller, courseId: number, now: Date = new Date()): Promise<CourseAccess | null> {
  const [row] = await db
    .select({ id: courses.id, name: courses.name, teacherId: courses.teacherId, published: courses.published, archivedAt: courses.archivedAt })
    .from(courses)
    .where(eq(courses.id, courseId));
  if (!row) return null;
  const course = { id: row.id, name: row.name, teacherId: row.teacherId, listed: row.published && row.archivedAt === null };
  if (caller.userType === 'admin' || row.teacherId === caller.id) return { course, role: 'manager' };
  if (caller.userType !== 'student') return { course, role: 'none' };
  if (await hasBought(db, caller.id, courseId)) return { course, role: 'student' };
  if (course.listed && (await isInTrial(db, caller.id, now))) return { course, role: 'trial' };
  return { course, role: 'none' };
}

/** For an endpoint on a course (list, create, award): 404 unless the caller can see the course, 403 unless `allowed`. */
export async function courseFor(
  db: Database,
  caller: Caller,
  courseId: number,
  allowed: (role: CourseRole) => boolean,
  denial: string = messages.forbidden,
): Promise<CourseAccess> {
  const access = await courseRole(db, caller, courseId);
  if (!access || (access.role === 'none' && !access.course.listed)) throw notFound(messages.courseNotFound);
  if (!allowed(access.role)) throw forbidden(access.role === 'none' ? messages.notInCourse : denial);
  return access;
}

/** For an endpoint on one assignment of that course: 404 unless the caller may read it, 403 unless `allowed`. */
export function checkAssignmentAccess(access: CourseAccess | null, allowed: (role: CourseRole) => boolean, denial: string = messages.forbidden) {
  if (!access || !mayRead(access.role)) throw notFound(messages.assignmentNotFound);
  if (!allowed(access.role)) throw forbidden(denial);
  return access;
}
