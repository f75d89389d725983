// Rows written straight into the database for tests of learning (progress, certificates, assignments):
// people, a course with a batch, a purchase, sessions, attendance and recording views, each at the
// dates the test chooses (no timetable, no checkout).
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Database } from '../src/db/client';
import { attendance, batches, classSessions, courses, recordings, recordingViews, subscriptions } from '../src/db/schema/index';

let people = 0;

export async function insertPerson(db: Database, userType: 'student' | 'teacher' | 'admin', firstName = 'Test', lastName = 'Person') {
  // Raw SQL names only the columns it sets, so columns added later (with defaults) do not matter.
  const result = await db.execute(sql`
    insert into users (email, password_hash, first_name, last_name, user_type, is_active)
    values (${`learning${Date.now()}${++people}@example.test`}, 'unused', ${firstName}, ${lastName}, ${userType}, true)
    returning id`);
  const id = Number((result as unknown as { rows: { id: number }[] }).rows[0]!.id);
  return { id, firstName, lastName, userType };
}

export async function insertCourse(db: Database, teacherId: number, overrides: Partial<typeof courses.$inferInsert> = {}) {
  const [row] = await db
    .insert(courses)
    .values({ name: 'Learning Course', description: 'About learning.', price: 1000, teacherId, durationWeeks: 2, timeZone: 'UTC', ...overrides })
    .returning();
  return row!;
}

export async function insertBatch(db: Database, courseId: number, startDate: string, endDate: string, time = '09:00') {
  const [row] = await db
    .insert(batches)
    .values({ courseId, kind: 'weekdays', startDate, endDate, time, seats: 30 })
    .returning();
  return row!;
}

/**
 * An active purchase of the batch (or of the whole course, as before batches, with batchId null);
 * `extra` sets any other column (its time, amount, activation).
 */
export async function insertPurchase(
  db: Database,
  userId: number,
  courseId: number,
  batch: { id: number | null; startDate: string; endDate: string },
  status: 'active' | 'pending' | 'refunded' = 'active',
  extra: Partial<typeof subscriptions.$inferInsert> = {},
) {
  const [row] = await db
    .insert(subscriptions)
    .values({
      id: randomUUID(),
      userId,
      courseId,
      batch: 'weekdays',
      startDate: batch.startDate,
      endDate: batch.endDate,
      time: '09:00',
      batchId: batch.id,
      status,
      amount: 1000,
      currency: 'INR',
      orderId: `order_${randomUUID()}`,
      ...extra,
    })
    .returning();
  return row!;
}

export async function insertSession(
  db: Database,
  courseId: number,
  batchId: number | null,
  startsAt: Date,
  options: { minutes?: number; cancelled?: boolean } = {},
) {
  const [row] = await db
    .insert(classSessions)
    .values({
      courseId,
      batchId,
      title: 'A class',
      startsAt,
      endsAt: new Date(startsAt.getTime() + (options.minutes ?? 60) * 60_000),
      roomId: randomUUID(),
      cancelledAt: options.cancelled ? new Date() : null,
    })
    .returning();
  return row!;
}

export async function insertAttendance(db: Database, sessionId: number, userId: number, joinedAt: Date, minutes = 30) {
  await db.insert(attendance).values({ sessionId, userId, joinedAt, leftAt: new Date(joinedAt.getTime() + minutes * 60_000) });
}

/** A recording of the session (ready unless told), and the user's watched seconds of it. */
export async function insertWatch(
  db: Database,
  session: { id: number; courseId: number; roomId: string },
  userId: number,
  watchedSeconds: number,
  { durationSeconds = 600, status = 'ready' as 'ready' | 'processing' } = {},
) {
  const [recording] = await db
    .insert(recordings)
    .values({
      sessionId: session.id,
      courseId: session.courseId,
      roomId: session.roomId,
      title: 'A recording',
      recordedBy: userId,
      source: 'upload',
      status,
      durationSeconds,
    })
    .returning();
  await db.insert(recordingViews).values({ recordingId: recording!.id, userId, watchedSeconds, watchedSpans: [[0, watchedSeconds]] });
  return recording!;
}

export const at = (iso: string) => new Date(iso);
