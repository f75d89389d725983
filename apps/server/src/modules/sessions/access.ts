// Who may see a class session and enter its room — one rule for the sessions list, search and the
// signalling server. Teachers see their courses' sessions, admins all. A student sees the sessions of
// the batches they bought and their courses' open sessions (those of no batch); in trial, the open
// sessions of every course. A batch's own classes are its buyers' (a student of the 07:30 batch is not
// shown the 16:00 classes); subscriptions made before batches existed see their whole course.
import { and, desc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { classSessions, courses, users } from '../../db/schema/index';
import type { UserType } from '@mooz/contract/permissions';
import { inTrial } from '../auth';
import { purchases } from '../courses';

export type SessionScope =
  | { all: true }
  | {
      all: false;
      /** Courses all of whose sessions are seen. */
      wholeCourseIds: number[];
      /** Batches whose sessions are seen, with their course's open sessions. */
      batches: { courseId: number; batchId: number }[];
      /** Every course's open sessions (a student in trial). */
      openEverywhere: boolean;
    };

/** What a student bought: the course, and the batch (null for a purchase made before batches). */
export interface Purchase {
  courseId: number;
  batchId: number | null;
}

/** What the rule needs to know: from the database, or from what the sessions list keeps in memory. */
export interface ScopeFacts {
  account(userId: number): Promise<{ userType: UserType; trialEndsAt: Date | null } | null | undefined>;
  taughtCourseIds(userId: number): Promise<number[]>;
  purchases(userId: number): Promise<Purchase[]>;
}

export const databaseFacts = (db: Database): ScopeFacts => ({
  async account(userId) {
    const [row] = await db.select({ userType: users.userType, trialEndsAt: users.trialEndsAt }).from(users).where(eq(users.id, userId));
    return row;
  },
  async taughtCourseIds(userId) {
    const taught = await db.select({ id: courses.id }).from(courses).where(eq(courses.teacherId, userId));
    return taught.map((c) => c.id);
  },
  purchases: (userId) => purchases(db, userId),
});

/** The rule, whatever the facts come from. */
export async function scopeFrom(facts: ScopeFacts, user: { id: number; userType: UserType }, now: Date): Promise<SessionScope> {
  if (user.userType === 'admin') return { all: true };
  if (user.userType === 'teacher') {
    return { all: false, wholeCourseIds: await facts.taughtCourseIds(user.id), batches: [], openEverywhere: false };
  }
  const [account, bought] = await Promise.all([facts.account(user.id), facts.purchases(user.id)]);
  return {
    all: false,
    wholeCourseIds: bought.filter((p) => p.batchId === null).map((p) => p.courseId),
    batches: bought.filter((p): p is { courseId: number; batchId: number } => p.batchId !== null),
    openEverywhere: !!account && inTrial(account, bought.length > 0, now),
  };
}

/** A short text that two scopes share exactly when they see the same sessions (a batch id names its course). */
export function scopeKey(scope: SessionScope): string {
  if (scope.all) return 'all';
  return `${scope.openEverywhere ? 'trial' : ''}|${scope.wholeCourseIds.join(',')}|${scope.batches.map((b) => b.batchId).join(',')}`;
}

/** Whether the scope sees nothing at all. */
export const seesNothing = (scope: SessionScope) =>
  !scope.all && !scope.openEverywhere && scope.wholeCourseIds.length === 0 && scope.batches.length === 0;

export async function sessionScope(db: Database, user: { id: number; userType: UserType }, now = new Date()): Promise<SessionScope> {
  return scopeFrom(databaseFacts(db), user, now);
}

type SessionPlace = { courseId: number; batchId: number | null };

/** Whether the scope names the course itself (taught, bought, or everything), not only through a trial. */
export const namesCourse = (scope: SessionScope, courseId: number) =>
  scope.all || scope.wholeCourseIds.includes(courseId) || scope.batches.some((b) => b.courseId === courseId);

/**
 * Whether the scope sees any of a course's sessions: a course it names, or, in trial, a course of the
 * catalogue (whose open sessions a trial sees; the sessions list shows a trial none out of the catalogue).
 */
export const seesCourse = (scope: SessionScope, course: { id: number; listed: boolean }) =>
  namesCourse(scope, course.id) || (!scope.all && scope.openEverywhere && course.listed);

export function inScope(scope: SessionScope, session: SessionPlace): boolean {
  if (scope.all || scope.wholeCourseIds.includes(session.courseId)) return true;
  if (session.batchId === null) return scope.openEverywhere || scope.batches.some((b) => b.courseId === session.courseId);
  return scope.batches.some((b) => b.batchId === session.batchId);
}

/**
 * A list of ids as one array parameter (`x = any(${idArray(list)})`): the statement's text is the same
 * whatever their number, so the database plans it once as a prepared statement (search).
 */
export const idArray = (list: number[]): SQL => sql`${`{${list.map((id) => Math.trunc(id)).join(',')}}`}::int[]`;

/** The same rule as a condition on a query's session columns (search). */
export function scopeCondition(scope: SessionScope, columns: { courseId: SQL | string; batchId: SQL | string }): SQL {
  if (scope.all) return sql`true`;
  const course = typeof columns.courseId === 'string' ? sql.raw(columns.courseId) : columns.courseId;
  const batch = typeof columns.batchId === 'string' ? sql.raw(columns.batchId) : columns.batchId;
  const batchCourses = scope.batches.map((b) => b.courseId);
  return sql`(${course} = any(${idArray(scope.wholeCourseIds)})
    or (${batch} is null and (${scope.openEverywhere ? sql`true` : sql`false`} or ${course} = any(${idArray(batchCourses)})))
    or ${batch} = any(${idArray(scope.batches.map((b) => b.batchId))}))`;
}

/** The session whose room this is, when the user may enter it; null when there is none or they may not. */
export async function sessionForRoom(db: Database, user: { id: number; userType: UserType }, roomId: string) {
  const [session] = await db.select().from(classSessions).where(eq(classSessions.roomId, roomId));
  if (!session) return { session: null, allowed: false } as const;
  return { session, allowed: inScope(await sessionScope(db, user), session) } as const;
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

/**
 * One course's sessions as the user sees them, newest first, cancelled ones left out: null when no
 * course has this id; `sessions` null when the user sees none of its sessions (seesCourse), with
 * whether the course is in the catalogue, for the caller to tell "not yours" from "no such course".
 */
export async function courseSessions(db: Database, user: { id: number; userType: UserType }, courseId: number, now = new Date()) {
  const [course] = await db
    .select({ id: courses.id, listed: sql<boolean>`${courses.published} and ${courses.archivedAt} is null` })
    .from(courses)
    .where(eq(courses.id, courseId));
  if (!course) return null;
  const scope = await sessionScope(db, user, now);
  if (!seesCourse(scope, course)) return { listed: course.listed, sessions: null };
  const rows = await db
    .select()
    .from(classSessions)
    .where(and(eq(classSessions.courseId, courseId), isNull(classSessions.cancelledAt)))
    .orderBy(desc(classSessions.startsAt), desc(classSessions.id));
  // The sessions list's rule is inScope and (in the catalogue or named by the scope); seesCourse made the second part true.
  return { listed: course.listed, sessions: rows.filter((session) => inScope(scope, session)) };
}
