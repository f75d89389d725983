// What a student has bought: the one place other modules ask about subscriptions. A subscription gives
// its course only while it is active: a pending one is not paid yet, a refunded one is paid back.
import { and, asc, eq, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { subscriptions, users } from '../../db/schema/index';

type Reader = Pick<Database, 'select'>;

/** The condition every query of what gives access shares. */
export function isActiveSubscription(): SQL {
  return eq(subscriptions.status, 'active');
}

/** The courses a student bought (active subscriptions), each with the batch bought. */
export async function purchases(db: Reader, userId: number): Promise<{ courseId: number; batchId: number | null }[]> {
  return db
    .select({ courseId: subscriptions.courseId, batchId: subscriptions.batchId })
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, userId), isActiveSubscription()));
}

export async function hasPurchased(db: Reader, userId: number): Promise<boolean> {
  const rows = await db
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, userId), isActiveSubscription()))
    .limit(1);
  return rows.length > 0;
}

/** Whether a student has bought one course. */
export async function hasBought(db: Reader, userId: number, courseId: number): Promise<boolean> {
  const rows = await db
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, userId), eq(subscriptions.courseId, courseId), isActiveSubscription()))
    .limit(1);
  return rows.length > 0;
}

/**
 * The paying students of a course, of one batch when given (an extra session belongs to the whole
 * course): whom a session or the course's news concerns. Deactivated people are included, for the
 * attendance report; whoever writes to them leaves those out.
 */
export function payingStudents(db: Reader, of: { courseId: number; batchId?: number | null }) {
  return db
    .select({ id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName, deactivatedAt: users.deactivatedAt })
    .from(subscriptions)
    .innerJoin(users, eq(users.id, subscriptions.userId))
    .where(and(eq(subscriptions.courseId, of.courseId), isActiveSubscription(), of.batchId == null ? undefined : eq(subscriptions.batchId, of.batchId)))
    .orderBy(asc(users.firstName), asc(users.lastName), asc(users.id));
}
