// Batches as rows: opening one (with its generated sessions), the course's summary lists that follow
// from its batches, and seats. A seat is taken by one conditional UPDATE (`seats_taken < capacity`),
// so however many payments verify at once, a batch never sells more seats than it has.
import { randomUUID } from 'node:crypto';
import { and, asc, eq, sql } from 'drizzle-orm';
import { batchEndDate } from '@mooz/contract/courses';
import { limits } from '@mooz/contract/limits';
import type { Database } from '../../db/client';
import { batches, classSessions, courses } from '../../db/schema/index';
import { batchOccurrences, type BatchTimes } from './timetable';

export type BatchRow = typeof batches.$inferSelect;
type CourseFacts = Pick<typeof courses.$inferSelect, 'id' | 'name' | 'durationWeeks' | 'timeZone'>;

export interface NewBatch {
  kind: BatchRow['kind'];
  startDate: string;
  time: string | null;
  saturdayTime: string | null;
  sundayTime: string | null;
  seats: number;
  sessionMinutes: number;
}

/** What tells two batches of a course apart. */
export const batchIdentity = (b: Pick<BatchRow, 'kind' | 'startDate' | 'time' | 'saturdayTime' | 'sundayTime'>) =>
  [b.kind, b.startDate, b.time ?? '', b.saturdayTime ?? '', b.sundayTime ?? ''].join('|');

/** Everyone in a batch's class fits its room: the seats plus the teacher. */
const roomCapacityFor = (seats: number) => Math.min(seats + 1, limits.meetingMaxCapacity);

/** Inserts the batch and every session of its timetable; null when the course already has that batch. */
export async function openBatch(db: Database, course: CourseFacts, input: NewBatch): Promise<BatchRow | null> {
  const endDate = batchEndDate(input.startDate, course.durationWeeks);
  const [row] = await db
    .insert(batches)
    .values({ ...input, courseId: course.id, endDate })
    .onConflictDoNothing()
    .returning();
  if (!row) return null;
  const occurrences = batchOccurrences(row as BatchTimes, course.timeZone);
  const kindName = row.kind === 'weekdays' ? 'weekday' : 'weekend';
  const sessions = occurrences.map((o, i) => ({
    courseId: course.id,
    batchId: row.id,
    title: `${course.name}: ${kindName} class ${i + 1} of ${occurrences.length}`,
    startsAt: o.startsAt,
    endsAt: new Date(o.startsAt.getTime() + row.sessionMinutes * 60_000),
    roomId: randomUUID(),
    capacity: roomCapacityFor(row.seats),
  }));
  // Long courses make hundreds of sessions: insert them in slices the driver's parameter limit allows.
  for (let i = 0; i < sessions.length; i += 500) await db.insert(classSessions).values(sessions.slice(i, i + 500));
  return row;
}

export async function batchesOf(db: Database, courseId: number): Promise<BatchRow[]> {
  return db.select().from(batches).where(eq(batches.courseId, courseId)).orderBy(asc(batches.startDate), asc(batches.id));
}

export async function findBatch(db: Database, courseId: number, batchId: number): Promise<BatchRow | null> {
  const [row] = await db.select().from(batches).where(and(eq(batches.id, batchId), eq(batches.courseId, courseId)));
  return row ?? null;
}

const sortedUnique = (values: (string | null)[]) => [...new Set(values.filter((v): v is string => v !== null))].sort();

/** The course's `batch_start_dates`, `weekday_times` and `weekend_times`: a summary of its batches. */
export async function summariseBatches(db: Database, courseId: number): Promise<void> {
  const rows = await batchesOf(db, courseId);
  await db
    .update(courses)
    .set({
      batchStartDates: sortedUnique(rows.map((b) => b.startDate)),
      weekdayTimes: sortedUnique(rows.filter((b) => b.kind === 'weekdays').map((b) => b.time)),
      weekendTimes: sortedUnique(rows.filter((b) => b.kind === 'weekends').flatMap((b) => [b.saturdayTime, b.sundayTime])),
    })
    .where(eq(courses.id, courseId));
}

/** Takes one seat; false when the batch is full. */
export async function takeSeat(db: Pick<Database, 'update'>, batchId: number): Promise<boolean> {
  const taken = await db
    .update(batches)
    .set({ seatsTaken: sql`${batches.seatsTaken} + 1` })
    .where(and(eq(batches.id, batchId), sql`${batches.seatsTaken} < ${batches.seats}`))
    .returning({ id: batches.id });
  return taken.length === 1;
}

/** Gives a seat back (a refund). */
export async function releaseSeat(db: Pick<Database, 'update'>, batchId: number): Promise<void> {
  await db
    .update(batches)
    .set({ seatsTaken: sql`greatest(${batches.seatsTaken} - 1, 0)` })
    .where(eq(batches.id, batchId));
}

export async function removeBatch(db: Database, batchId: number): Promise<boolean> {
  const removed = await db
    .delete(batches)
    .where(and(eq(batches.id, batchId), eq(batches.seatsTaken, 0)))
    .returning({ id: batches.id });
  return removed.length === 1;
}
