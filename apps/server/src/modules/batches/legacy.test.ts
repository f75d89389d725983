import { afterEach, beforeEach, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { buildTestApp, type TestApp } from '../../../test/app';
import { signedIn } from '../../../test/accounts';
import { batches, classSessions, courses, subscriptions } from '../../db/schema/index';
import { openLegacyBatches } from './legacy';

let t: TestApp;
beforeEach(async () => {
  t = await buildTestApp();
});
afterEach(async () => {
  await t.close();
});

it('opens the batches of a course made before batches, ties its purchases to them, and does it once', async () => {
  const teacher = await signedIn(t, 'teacher');
  const student = await signedIn(t, 'student');
  const [course] = await t.db
    .insert(courses)
    .values({
      name: 'Old course',
      description: 'From before batches',
      price: 100_000,
      teacherId: teacher.user.id,
      durationWeeks: 2,
      batchStartDates: ['2031-01-08'],
      weekdayTimes: ['09:00'],
      weekendTimes: ['10:00'],
      batchesOpened: false,
    })
    .returning();
  await t.db.insert(subscriptions).values({
    id: randomUUID(),
    userId: student.user.id,
    courseId: course!.id,
    batch: 'weekdays',
    startDate: '2031-01-08',
    endDate: '2031-01-21',
    time: '09:00',
    status: 'active',
    amount: 100_000,
    currency: 'INR',
    orderId: 'order_legacy00000001',
  });

  expect(await openLegacyBatches(t.db)).toBe(1);
  const opened = await t.db.select().from(batches).where(eq(batches.courseId, course!.id));
  expect(opened.map((b) => [b.kind, b.startDate, b.seatsTaken])).toEqual([
    ['weekdays', '2031-01-06', 1],
    ['weekends', '2031-01-11', 0],
  ]);
  const [sub] = await t.db.select().from(subscriptions).where(eq(subscriptions.courseId, course!.id));
  expect(sub!.batchId).toBe(opened[0]!.id);
  expect(await t.db.select().from(classSessions).where(eq(classSessions.courseId, course!.id))).toHaveLength(10 + 4);
  expect(await openLegacyBatches(t.db)).toBe(0);
});
