// What a student has bought: the one question other modules ask of subscriptions.
import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { subscriptions } from '../../db/schema/index';

/** The courses a student bought (active subscriptions), each with the batch bought. */
export async function purchases(db: Database, userId: number): Promise<{ courseId: number; batchId: number | null }[]> {
  return db
    .select({ courseId: subscriptions.courseId, batchId: subscriptions.batchId })
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, userId), eq(subscriptions.status, 'active')));
}

export async function hasPurchased(db: Database, userId: number): Promise<boolean> {
  const rows = await db
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, userId), eq(subscriptions.status, 'active')))
    .limit(1);
  return rows.length > 0;
}
