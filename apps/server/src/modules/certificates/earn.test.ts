// Earned certificates: over the share at the batch's end, not under it, not before the end (in the
// course's time zone), once only; the names and dates are kept as they were on the day.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { certificateIdLength, certificateRules } from '@mooz/contract/certificates';
import { createTestDatabase } from '../../../test/database';
import { at, insertAttendance, insertBatch, insertCourse, insertPerson, insertPurchase, insertSession } from '../../../test/learning';
import type { Database, DatabaseHandle } from '../../db/client';
import { certificates, users } from '../../db/schema/index';
import { earnAllDueCertificates, earnDueCertificates } from './earn';

describe('earnDueCertificates', () => {
  let handle: DatabaseHandle;
  beforeEach(async () => {
    handle = await createTestDatabase();
  });
  afterEach(async () => {
    await handle.close();
  });

  /** A batch of 4 sessions (2026-04-06..09) ending 2026-04-10, the student attending `attended` of them. */
  async function history(db: Database, attended: number, timeZone = 'UTC') {
    const teacher = await insertPerson(db, 'teacher', 'Ada', 'Teacher');
    const student = await insertPerson(db, 'student', 'João', 'Müller');
    const course = await insertCourse(db, teacher.id, { name: 'Curso', timeZone });
    const batch = await insertBatch(db, course.id, '2026-04-06', '2026-04-10');
    await insertPurchase(db, student.id, course.id, batch);
    for (let day = 0; day < 4; day++) {
      const session = await insertSession(db, course.id, batch.id, at(`2026-04-0${6 + day}T09:00:00Z`));
      if (day < attended) await insertAttendance(db, session.id, student.id, at(`2026-04-0${6 + day}T09:00:00Z`));
    }
    return { teacher, student, course, batch };
  }

  it('issues one earned certificate at the share, with the names and dates of the day, once', async () => {
    expect(certificateRules.earnedShare).toBeLessThanOrEqual(0.75);
    const db = handle.db;
    const { student, course, batch } = await history(db, 3);
    expect(await earnDueCertificates(db, student.id, at('2026-04-10T23:00:00Z'))).toEqual([]);
    const [id] = await earnDueCertificates(db, student.id, at('2026-04-11T00:30:00Z'));
    expect(id).toMatch(new RegExp(`^[0-9A-HJKMNP-TV-Z]{${certificateIdLength}}$`));
    const [row] = await db.select().from(certificates).where(eq(certificates.userId, student.id));
    expect(row).toMatchObject({
      id,
      courseId: course.id,
      batchId: batch.id,
      kind: 'earned',
      studentName: 'João Müller',
      courseName: 'Curso',
      teacherName: 'Ada Teacher',
      startDate: '2026-04-06',
      endDate: '2026-04-10',
      attendanceShare: 0.75,
      revokedAt: null,
    });
    // Again, and again at once: still one.
    const again = await Promise.all([earnDueCertificates(db, student.id), earnDueCertificates(db, student.id)]);
    expect(again.flat()).toEqual([]);
    await db.update(users).set({ firstName: 'Renamed' }).where(eq(users.id, student.id));
    const rows = await db.select().from(certificates).where(eq(certificates.userId, student.id));
    expect(rows.map((r) => r.studentName)).toEqual(['João Müller']);
  });

  it('issues none under the share', async () => {
    const db = handle.db;
    const { student } = await history(db, 2);
    expect(await earnDueCertificates(db, student.id, at('2026-05-01T00:00:00Z'))).toEqual([]);
    expect(await db.select().from(certificates)).toEqual([]);
  });

  it('waits for the batch’s last day to end in the course’s time zone', async () => {
    const db = handle.db;
    const { student } = await history(db, 4, 'Pacific/Pago_Pago'); // UTC−11
    expect(await earnDueCertificates(db, student.id, at('2026-04-11T10:59:00Z'))).toEqual([]);
    expect(await earnDueCertificates(db, student.id, at('2026-04-11T11:00:00Z'))).toHaveLength(1);
  });

  it('the periodic pass issues everyone’s, for batches ended lately', async () => {
    const db = handle.db;
    const { student } = await history(db, 4);
    const under = await history(db, 1);
    expect(await earnAllDueCertificates(db, at('2026-06-01T00:00:00Z'))).toBe(0); // ended too long ago for the pass
    expect(await earnAllDueCertificates(db, at('2026-04-12T00:00:00Z'))).toBe(1);
    expect(await earnAllDueCertificates(db, at('2026-04-12T00:00:00Z'))).toBe(0);
    const rows = await db.select({ userId: certificates.userId }).from(certificates);
    expect(rows).toEqual([{ userId: student.id }]);
    expect(under.student.id).not.toBe(student.id);
  });
});
