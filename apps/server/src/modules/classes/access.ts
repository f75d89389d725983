// Who may see a class session and enter its room — one rule for the sessions list and the signalling
// server (contract: students see the sessions of courses they bought, or all while in trial;
// teachers their own; admins all).
import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { classSessions, courses, users } from '../../db/schema/index';
import type { UserType } from '@mooz/contract/permissions';
import { trialState } from '../auth/trial';
import { purchasedCourseIds } from '../courses/purchases';

export type SessionScope = { all: true } | { all: false; courseIds: number[] };

/** What the rule needs to know: from the database, or from what the sessions list keeps in memory. */
export interface ScopeFacts {
  account(userId: number): Promise<{ userType: UserType; trialEndsAt: Date | null } | null | undefined>;
  taughtCourseIds(userId: number): Promise<number[]>;
  purchasedCourseIds(userId: number): Promise<number[]>;
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
  purchasedCourseIds: (userId) => purchasedCourseIds(db, userId),
});

/** The rule, whatever the facts come from. */
export async function scopeFrom(facts: ScopeFacts, user: { id: number; userType: UserType }, now: Date): Promise<SessionScope> {
  if (user.userType === 'admin') return { all: true };
  if (user.userType === 'teacher') return { all: false, courseIds: await facts.taughtCourseIds(user.id) };
  const [account, bought] = await Promise.all([facts.account(user.id), facts.purchasedCourseIds(user.id)]);
  if (account && trialState(account, bought.length > 0, now).is_trial) return { all: true };
  return { all: false, courseIds: bought };
}

export async function sessionScope(db: Database, user: { id: number; userType: UserType }, now = new Date()): Promise<SessionScope> {
  return scopeFrom(databaseFacts(db), user, now);
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
