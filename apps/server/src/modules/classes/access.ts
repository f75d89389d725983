// Who may see a class session and enter its room — one rule for the sessions list and the signalling
// server (contract: students see the sessions of courses they bought, or all while in trial;
// teachers their own; admins all).
import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { classSessions, courses } from '../../db/schema/index';
import type { UserType } from '@mooz/contract/permissions';
import { isInTrial } from '../auth/trial';
import { purchasedCourseIds } from '../courses/purchases';

export type SessionScope = { all: true } | { all: false; courseIds: number[] };

export async function sessionScope(db: Database, user: { id: number; userType: UserType }, now = new Date()): Promise<SessionScope> {
  if (user.userType === 'admin') return { all: true };
  if (user.userType === 'teacher') {
    const taught = await db.select({ id: courses.id }).from(courses).where(eq(courses.teacherId, user.id));
    return { all: false, courseIds: taught.map((c) => c.id) };
  }
  if (await isInTrial(db, user.id, now)) return { all: true };
  return { all: false, courseIds: await purchasedCourseIds(db, user.id) };
}

export const inScope = (scope: SessionScope, courseId: number) => scope.all || scope.courseIds.includes(courseId);

/** The session whose room this is, when the user may enter it; null when there is none or they may not. */
export async function sessionForRoom(db: Database, user: { id: number; userType: UserType }, roomId: string) {
  const [session] = await db.select().from(classSessions).where(eq(classSessions.roomId, roomId));
  if (!session) return { session: null, allowed: false } as const;
  return { session, allowed: inScope(await sessionScope(db, user), session.courseId) } as const;
}

/** The session whose room this is, with the teacher of its course; null when no session has it. */
export async function sessionOfRoom(db: Database, roomId: string) {
  const [row] = await db
    .select({ session: classSessions, teacherId: courses.teacherId })
    .from(classSessions)
    .innerJoin(courses, eq(courses.id, classSessions.courseId))
    .where(eq(classSessions.roomId, roomId));
  return row ?? null;
}
