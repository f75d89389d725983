// Removing a course: a course nobody has bought goes for good (its sessions, batches and unpaid orders
// with it); one somebody paid for (active, or refunded: the payment is history) is archived instead:
// gone from the catalogue, search and sale, kept in its students' "my courses" with its sessions.
// A deleted course's rows take its stored files' keys with them (assignment attachments, answers'
// files, recordings, a live recording's chunks): removeCourse returns them, read in the deleting
// transaction, for the caller to delete from storage once the rows are gone.
import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import type { CourseRemoval } from '@mooz/contract/teaching';
import type { Database } from '../../db/client';
import { assignments, courses, recordings, submissions, subscriptions } from '../../db/schema/index';
import { liveChunkPrefix } from '../recordings';

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

/** What a deleted course leaves in storage: whole objects, and prefixes of many (a live recording's chunks). */
interface LeftFiles {
  keys: string[];
  prefixes: string[];
}

async function filesOf(tx: Pick<Database, 'select'>, courseId: number): Promise<LeftFiles> {
  const [attached, answered, recorded] = await Promise.all([
    tx.select({ key: assignments.fileKey }).from(assignments).where(and(eq(assignments.courseId, courseId), isNotNull(assignments.fileKey))),
    tx
      .select({ key: submissions.fileKey })
      .from(submissions)
      .innerJoin(assignments, eq(assignments.id, submissions.assignmentId))
      .where(and(eq(assignments.courseId, courseId), isNotNull(submissions.fileKey))),
    tx.select({ id: recordings.id, key: recordings.storageKey }).from(recordings).where(eq(recordings.courseId, courseId)),
  ]);
  return {
    keys: [...attached, ...answered, ...recorded].flatMap((row) => (row.key ? [row.key] : [])),
    prefixes: recorded.map((row) => liveChunkPrefix(row.id)),
  };
}

/** `record` writes what happened in the same transaction (the audit log, when an admin removes it). */
export async function removeCourse(
  db: Database,
  courseId: number,
  now: Date,
  record: (tx: Pick<Database, 'insert'>, outcome: CourseRemoval['outcome']) => Promise<void> = async () => {},
): Promise<{ outcome: CourseRemoval['outcome']; left: LeftFiles }> {
  const nothing: LeftFiles = { keys: [], prefixes: [] };
  const archive = async () => {
    await db.transaction(async (tx) => {
      await tx.update(courses).set({ archivedAt: now, updatedAt: now }).where(eq(courses.id, courseId));
      await record(tx, 'archived');
    });
    return { outcome: 'archived' as const, left: nothing };
  };
  if ((await removalOf(db, courseId)) === 'archived') return archive();
  try {
    const left = await db.transaction(async (tx) => {
      const files = await filesOf(tx, courseId);
      await tx.delete(subscriptions).where(and(eq(subscriptions.courseId, courseId), eq(subscriptions.status, 'pending')));
      await tx.delete(courses).where(eq(courses.id, courseId));
      await record(tx, 'deleted');
      return files;
    });
    return { outcome: 'deleted', left };
  } catch (error) {
    // A payment verified between the check and the delete: its subscription holds the course, so archive.
    if (foreignKeyViolation(error)) return archive();
    throw error;
  }
}
