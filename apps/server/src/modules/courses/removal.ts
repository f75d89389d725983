// Removing a course: a course nobody has bought goes for good (its sessions, batches and unpaid orders
// with it); one somebody paid for (active, or refunded: the payment is history) is archived instead:
// gone from the catalogue, search and sale, kept in its students' "my courses" with its sessions.
import { and, eq, inArray } from 'drizzle-orm';
import type { CourseRemoval } from '@mooz/contract/teaching';
import type { Database } from '../../db/client';
import { courses, subscriptions } from '../../db/schema/index';

const foreignKeyViolation = (error: unknown) => {
  for (let e = error as { code?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) if (e.code === '23503') return true;
  return false;
};

/** What removing the course would do now: archive it once somebody has paid for it, else delete it. */
export async function removalOf(db: Database, courseId: number): Promise<CourseRemoval['outcome']> {
  const [bought] = await db
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(and(eq(subscriptions.courseId, courseId), inArray(subscriptions.status, ['active', 'refunded'])))
    .limit(1);
  return bought ? 'archived' : 'deleted';
}

/** `record` writes what happened in the same transaction (the audit log, when an admin removes it). */
export async function removeCourse(
  db: Database,
  courseId: number,
  now: Date,
  record: (tx: Pick<Database, 'insert'>, outcome: CourseRemoval['outcome']) => Promise<void> = async () => {},
): Promise<CourseRemoval['outcome']> {
  const archive = async () => {
    await db.transaction(async (tx) => {
      await tx.update(courses).set({ archivedAt: now, updatedAt: now }).where(eq(courses.id, courseId));
      await record(tx, 'archived');
    });
    return 'archived' as const;
  };
  if ((await removalOf(db, courseId)) === 'archived') return archive();
  try {
    await db.transaction(async (tx) => {
      await tx.delete(subscriptions).where(and(eq(subscriptions.courseId, courseId), eq(subscriptions.status, 'pending')));
      await tx.delete(courses).where(eq(courses.id, courseId));
      await record(tx, 'deleted');
    });
    return 'deleted';
  } catch (error) {
    // A payment verified between the check and the delete: its subscription holds the course, so archive.
    if (foreignKeyViolation(error)) return archive();
    throw error;
  }
}
