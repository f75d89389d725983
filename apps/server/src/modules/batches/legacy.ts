// Courses made before batches existed: at start-up their date and time lists open their batches (with
// sessions), and the subscriptions bought then are tied to the batch of their week and times, taking
// its seats. Runs once per course (courses.batches_opened), in one transaction each.
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { batches, courses, subscriptions } from '../../db/schema/index';
import { openBatchesFromLists, startInWeekOf } from './service';
import { batchesOf } from './store';

export async function openLegacyBatches(db: Database): Promise<number> {
  const legacy = await db.select().from(courses).where(eq(courses.batchesOpened, false));
  for (const course of legacy) {
    await db.transaction(async (tx) => {
      const q = tx as unknown as Database;
      await openBatchesFromLists(q, course);
      const rows = await batchesOf(q, course.id);
      const bought = await q.select().from(subscriptions).where(and(eq(subscriptions.courseId, course.id), isNull(subscriptions.batchId)));
      for (const sub of bought) {
        const batch = rows.find(
          (b) =>
            b.kind === sub.batch &&
            b.startDate === startInWeekOf(sub.batch, sub.startDate) &&
            b.time === sub.time &&
            b.saturdayTime === sub.saturdayTime &&
            b.sundayTime === sub.sundayTime,
        );
        // No batch of that week and times (a weekend bought at two times): it keeps seeing its whole course.
        if (!batch) continue;
        await q.update(subscriptions).set({ batchId: batch.id }).where(eq(subscriptions.id, sub.id));
        if (sub.status === 'active') {
          // Seats already sold are sold: the batch grows rather than refuse its own students.
          await q
            .update(batches)
            .set({ seatsTaken: sql`${batches.seatsTaken} + 1`, seats: sql`greatest(${batches.seats}, ${batches.seatsTaken} + 1)` })
            .where(eq(batches.id, batch.id));
        }
      }
      await q.update(courses).set({ batchesOpened: true }).where(eq(courses.id, course.id));
    });
  }
  return legacy.length;
}
