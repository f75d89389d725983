// What a student has bought: the one question other modules ask of subscriptions.
import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { subscriptions } from '../../db/schema/index';

export async function purchasedCourseIds(db: Database, userId: number): Promise<number[]> {
  const rows = await db
    .select({ courseId: subscriptions.courseId })
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, userId), eq(subscriptions.status, 'active')));
  return rows.map((r) => r.courseId);
}

export async function hasPurchased(db: Database, userId: number): Promise<boolean> {
  const rows = await db
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, userId), eq(subscriptions.status, 'active')))
    .limit(1);
  return rows.length > 0;
}
