// courseProgress: which sessions count (the batch's and the open ones within its dates, started, not
// cancelled), and what makes one done (attended, or enough of a ready recording watched).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../test/database';
import { at, insertAttendance, insertBatch, insertCourse, insertPerson, insertPurchase, insertSession, insertWatch } from '../../../test/learning';
import type { DatabaseHandle } from '../../db/client';
import { courseProgress, progressRules } from './progress';

describe('courseProgress', () => {
  let handle: DatabaseHandle;
  beforeEach(async () => {
    handle = await createTestDatabase();
  });
  afterEach(async () => {
    await handle.close();
  });

  it('counts the batch’s and the open sessions started so far, attended or watched enough', async () => {
    const db = handle.db;
    const teacher = await insertPerson(db, 'teacher');
    const student = await insertPerson(db, 'student');
    const other = await insertPerson(db, 'student');
    const course = await insertCourse(db, teacher.id);
    const batch = await insertBatch(db, course.id, '2026-03-02', '2026-03-13');
    const otherBatch = await insertBatch(db, course.id, '2026-03-02', '2026-03-13', '16:00');
    await insertPurchase(db, student.id, course.id, batch);
    await insertPurchase(db, other.id, course.id, otherBatch);

    const attended = await insertSession(db, course.id, batch.id, at('2026-03-02T09:00:00Z'));
    const watched = await insertSession(db, course.id, batch.id, at('2026-03-03T09:00:00Z'));
    const halfWatchedTooLittle = await insertSession(db, course.id, batch.id, at('2026-03-04T09:00:00Z'));
    const processingWatched = await insertSession(db, course.id, batch.id, at('2026-03-05T09:00:00Z'));
    const openAttended = await insertSession(db, course.id, null, at('2026-03-06T15:00:00Z'));
    await insertSession(db, course.id, batch.id, at('2026-03-09T09:00:00Z'), { cancelled: true });
    // Another batch's class, an open class before the batch and one in the future: none count.
    const othersClass = await insertSession(db, course.id, otherBatch.id, at('2026-03-03T16:00:00Z'));
    await insertSession(db, course.id, null, at('2026-02-20T09:00:00Z'));
    await insertSession(db, course.id, batch.id, at('2026-03-12T09:00:00Z'));

    await insertAttendance(db, attended.id, student.id, at('2026-03-02T09:05:00Z'));
    await insertAttendance(db, openAttended.id, student.id, at('2026-03-06T15:00:00Z'), 1);
    await insertAttendance(db, othersClass.id, student.id, at('2026-03-03T16:00:00Z'));
    await insertWatch(db, watched, student.id, progressRules.watchedShare * 600, { durationSeconds: 600 });
    await insertWatch(db, halfWatchedTooLittle, student.id, progressRules.watchedShare * 600 - 1, { durationSeconds: 600 });
    await insertWatch(db, processingWatched, student.id, 600, { durationSeconds: 600, status: 'processing' });
    // Someone else's attendance does not count for the student.
    await insertAttendance(db, halfWatchedTooLittle.id, other.id, at('2026-03-04T09:00:00Z'));

    const [progress] = await courseProgress(db, student.id, { now: at('2026-03-10T12:00:00Z') });
    expect(progress).toEqual({
      courseId: course.id,
      batchId: batch.id,
      batchStart: '2026-03-02',
      batchEnd: '2026-03-13',
      sessionsSoFar: 5,
      sessionsDone: 3,
      share: 3 / 5,
    });
    // The other student: their batch's one class (not attended) and the open one.
    const [theirs] = await courseProgress(db, other.id, { now: at('2026-03-10T12:00:00Z') });
    expect(theirs).toMatchObject({ batchId: otherBatch.id, sessionsSoFar: 2, sessionsDone: 0, share: 0 });
  });

  it('gives a share of 0 before any session, only for active purchases, and filters by course', async () => {
    const db = handle.db;
    const teacher = await insertPerson(db, 'teacher');
    const student = await insertPerson(db, 'student');
    const first = await insertCourse(db, teacher.id, { name: 'First' });
    const second = await insertCourse(db, teacher.id, { name: 'Second' });
    const refunded = await insertCourse(db, teacher.id, { name: 'Refunded' });
    const b1 = await insertBatch(db, first.id, '2026-05-04', '2026-05-15');
    const b2 = await insertBatch(db, second.id, '2026-05-04', '2026-05-15');
    const b3 = await insertBatch(db, refunded.id, '2026-05-04', '2026-05-15');
    await insertPurchase(db, student.id, first.id, b1);
    await insertPurchase(db, student.id, second.id, b2);
    await insertPurchase(db, student.id, refunded.id, b3, 'refunded');
    await insertSession(db, first.id, b1.id, at('2026-05-04T09:00:00Z'));

    const before = await courseProgress(db, student.id, { now: at('2026-05-01T00:00:00Z') });
    expect(before.map((p) => [p.courseId, p.sessionsSoFar, p.share])).toEqual([
      [first.id, 0, 0],
      [second.id, 0, 0],
    ]);
    const only = await courseProgress(db, student.id, { courseIds: [second.id], now: at('2026-05-20T00:00:00Z') });
    expect(only.map((p) => p.courseId)).toEqual([second.id]);
    expect(await courseProgress(db, student.id, { courseIds: [] })).toEqual([]);
    expect(await courseProgress(db, teacher.id)).toEqual([]);
  });

  it('cuts open sessions at the batch’s dates in the course’s time zone; a purchase before batches sees the whole course', async () => {
    const db = handle.db;
    const teacher = await insertPerson(db, 'teacher');
    const student = await insertPerson(db, 'student');
    const legacy = await insertPerson(db, 'student');
    const course = await insertCourse(db, teacher.id, { timeZone: 'Pacific/Kiritimati' });
    const batch = await insertBatch(db, course.id, '2026-06-01', '2026-06-05');
    await insertPurchase(db, student.id, course.id, batch);
    await insertPurchase(db, legacy.id, course.id, { id: null, startDate: '2026-06-01', endDate: '2026-06-05' });
    // 2026-05-31T10:00Z is 2026-06-01 00:00 in UTC+14: inside; 2026-06-05T10:00Z is 06-06 00:00 there: outside.
    const inside = await insertSession(db, course.id, null, at('2026-05-31T10:00:00Z'));
    await insertSession(db, course.id, null, at('2026-06-05T10:00:00Z'));
    await insertSession(db, course.id, batch.id, at('2026-06-02T00:00:00Z'));
    await insertAttendance(db, inside.id, student.id, at('2026-05-31T10:00:00Z'));

    const [progress] = await courseProgress(db, student.id, { now: at('2026-06-10T00:00:00Z') });
    expect(progress).toMatchObject({ sessionsSoFar: 2, sessionsDone: 1, share: 0.5 });
    const [old] = await courseProgress(db, legacy.id, { now: at('2026-06-10T00:00:00Z') });
    expect(old).toMatchObject({ batchId: null, batchStart: '2026-06-01', batchEnd: '2026-06-05', sessionsSoFar: 2, sessionsDone: 0 });
  });
});
