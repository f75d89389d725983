// Certificates over HTTP: awarding by hand (201, 409 the second time, 422 for someone who did not take
// the course, 403/404 for those who may not), the lists of each role (a student's issuing what they
// earned), the public verification (404 for a made-up or malformed id) and the PDF, whose text is read
// back from its content stream.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { PDFDocument, PDFRawStream, decodePDFRawStream } from 'pdf-lib';
import { buildTestApp, type TestApp } from '../../../test/app';
import { signedIn } from '../../../test/accounts';
import { at, insertAttendance, insertBatch, insertCourse, insertPurchase, insertSession } from '../../../test/learning';
import { auditLog, certificates, users } from '../../db/schema/index';
import { certificateId } from './ids';
import { certificatePdf, datesLine } from './pdf';

let t: TestApp;
beforeEach(async () => {
  t = await buildTestApp({ PUBLIC_URL: 'https://mooz.example.com' });
});
afterEach(async () => {
  await t.close();
});

type Headers = Record<string, string>;
const send = (method: 'GET' | 'POST', url: string, headers: Headers = {}, payload?: object) =>
  t.app.inject({ method, url, headers, ...(payload && { payload }) });

/** The text a PDF shows: its content streams inflated, the strings of each text operator decoded (WinAnsi ≈ Latin-1). */
async function pdfText(bytes: Uint8Array): Promise<string> {
  const doc = await PDFDocument.load(bytes);
  const texts: string[] = [];
  for (const [, object] of doc.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFRawStream)) continue;
    const content = Buffer.from(decodePDFRawStream(object).decode()).toString('latin1');
    for (const match of content.matchAll(/<([0-9A-Fa-f]*)>\s*Tj/g)) texts.push(Buffer.from(match[1]!, 'hex').toString('latin1'));
  }
  return texts.join('\n');
}

async function classroom() {
  const teacher = await signedIn(t, 'teacher');
  const student = await signedIn(t, 'student');
  await t.db.update(users).set({ firstName: 'João', lastName: 'Müller' }).where(eq(users.id, student.user.id));
  const course = await insertCourse(t.db, teacher.user.id, { name: 'Portuguese for Travellers' });
  const batch = await insertBatch(t.db, course.id, '2026-04-06', '2026-04-10');
  await insertPurchase(t.db, student.user.id, course.id, batch);
  return { teacher, student, course, batch };
}

describe('awarding by hand', () => {
  it('201 with the certificate, 409 the second time, 422 for someone who did not take the course', async () => {
    const { teacher, student, course } = await classroom();
    const url = `/api/courses/${course.id}/certificates/`;
    const res = await send('POST', url, teacher.headers, { student_id: student.user.id });
    expect(res.statusCode).toBe(201);
    const data = res.json().data;
    expect(data).toMatchObject({
      course_id: course.id,
      course_name: 'Portuguese for Travellers',
      student_name: 'João Müller',
      teacher_name: 'Test Person',
      kind: 'awarded',
      start_date: '2026-04-06',
      end_date: '2026-04-10',
      url: `/api/certificates/${data.id}/pdf/`,
      verify_url: `/certificates/${data.id}`,
    });
    expect(data.id).toMatch(/^[0-9A-HJKMNP-TV-Z]{16}$/);

    const twice = await send('POST', url, teacher.headers, { student_id: student.user.id });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe("This student already has this course's certificate");

    const stranger = await signedIn(t, 'student');
    expect((await send('POST', url, teacher.headers, { student_id: stranger.user.id })).statusCode).toBe(422);
    expect((await send('POST', url, teacher.headers, { student_id: 999_999 })).statusCode).toBe(422);
    // A purchase never paid is not taking the course; a refunded one was.
    const pending = await signedIn(t, 'student');
    await insertPurchase(t.db, pending.user.id, course.id, { id: null, startDate: '2026-04-06', endDate: '2026-04-10' }, 'pending');
    expect((await send('POST', url, teacher.headers, { student_id: pending.user.id })).statusCode).toBe(422);
    expect((await send('POST', url, teacher.headers, { student_id: 'x' })).statusCode).toBe(400);
    expect((await send('POST', url, teacher.headers, {})).statusCode).toBe(400);
    expect(await t.db.select({ userId: certificates.userId }).from(certificates)).toEqual([{ userId: student.user.id }]);
  });

  it('only the course’s teacher or an admin awards', async () => {
    const { student, course } = await classroom();
    const url = `/api/courses/${course.id}/certificates/`;
    const otherTeacher = await signedIn(t, 'teacher');
    const admin = await signedIn(t, 'admin');
    expect((await send('POST', url, student.headers, { student_id: student.user.id })).statusCode).toBe(403);
    expect((await send('POST', url, otherTeacher.headers, { student_id: student.user.id })).statusCode).toBe(403);
    expect((await send('POST', '/api/courses/999999/certificates/', admin.headers, { student_id: student.user.id })).statusCode).toBe(404);
    expect((await send('POST', url, {}, { student_id: student.user.id })).statusCode).toBe(401);
    expect((await send('POST', url, admin.headers, { student_id: student.user.id })).statusCode).toBe(201);
  });
});

/** The calendar day `days` from today in `zone`, as YYYY-MM-DD. */
const dayIn = (zone: string, days: number) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(Date.now() + days * 86_400_000));

describe('awarding before the batch has ended', () => {
  /** A student of a batch that ends today on the course's clocks (Kolkata): not yet ended. */
  async function running() {
    const teacher = await signedIn(t, 'teacher');
    const student = await signedIn(t, 'student');
    const course = await insertCourse(t.db, teacher.user.id, { name: 'Python Basics', timeZone: 'Asia/Kolkata' });
    const batch = await insertBatch(t.db, course.id, dayIn('Asia/Kolkata', -20), dayIn('Asia/Kolkata', 0));
    await insertPurchase(t.db, student.user.id, course.id, batch);
    return { teacher, student, course, batch, url: `/api/courses/${course.id}/certificates/` };
  }

  it('is refused to the teacher with 409 naming the batch’s last day, a reason or not, and issues nothing', async () => {
    const { teacher, student, batch, url } = await running();
    for (const body of [{ student_id: student.user.id }, { student_id: student.user.id, reason: 'Finished early' }]) {
      const res = await send('POST', url, teacher.headers, body);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ message: `This student's batch ends on ${batch.endDate}: a certificate can be awarded once it has ended` });
    }
    expect(await t.db.select().from(certificates)).toEqual([]);
  });

  it('an admin needs a reason (409 without one); with it the certificate is issued with the batch’s dates and the audit log keeps the reason', async () => {
    const { student, course, batch, url } = await running();
    const admin = await signedIn(t, 'admin');
    const bare = await send('POST', url, admin.headers, { student_id: student.user.id });
    expect(bare.statusCode).toBe(409);
    expect(bare.json()).toEqual({
      message: 'The batch has not ended: give a reason to award the certificate early',
      errors: { reason: ['The batch has not ended: give a reason to award the certificate early'] },
    });
    expect((await send('POST', url, admin.headers, { student_id: student.user.id, reason: '   ' })).statusCode).toBe(400);
    expect(await t.db.select().from(certificates)).toEqual([]);

    const res = await send('POST', url, admin.headers, { student_id: student.user.id, reason: 'Leaves for a job abroad; did every module' });
    expect(res.statusCode).toBe(201);
    const data = res.json().data;
    expect(data).toMatchObject({ kind: 'awarded', start_date: batch.startDate, end_date: batch.endDate });
    const verified = (await send('GET', `/api/certificates/${data.id}/`)).json().data;
    expect(verified).toMatchObject({ start_date: batch.startDate, end_date: batch.endDate });
    const log = await t.db.select().from(auditLog);
    expect(log).toEqual([
      expect.objectContaining({
        actorId: admin.user.id,
        action: 'certificate.award',
        targetType: 'certificate',
        targetId: data.id,
        details: {
          course_id: course.id,
          student_id: student.user.id,
          start_date: batch.startDate,
          end_date: batch.endDate,
          early: true,
          reason: 'Leaves for a job abroad; did every module',
        },
      }),
    ]);
  });

  it('the day after the batch’s last day on the course’s clocks, the teacher may award', async () => {
    const teacher = await signedIn(t, 'teacher');
    const student = await signedIn(t, 'student');
    const course = await insertCourse(t.db, teacher.user.id, { timeZone: 'Pacific/Kiritimati' });
    const batch = await insertBatch(t.db, course.id, dayIn('Pacific/Kiritimati', -10), dayIn('Pacific/Kiritimati', -1));
    await insertPurchase(t.db, student.user.id, course.id, batch);
    expect((await send('POST', `/api/courses/${course.id}/certificates/`, teacher.headers, { student_id: student.user.id })).statusCode).toBe(201);
    // What teachers do in their own courses is not the audit log's.
    expect(await t.db.select().from(auditLog)).toEqual([]);
  });

  it('the students list says whose batch has ended and who has a certificate, so the page offers only awards that can be made', async () => {
    const { teacher, student, course } = await running();
    const done = await signedIn(t, 'student');
    const past = await insertBatch(t.db, course.id, '2026-01-05', '2026-01-16');
    await insertPurchase(t.db, done.user.id, course.id, past);
    const list = async () =>
      Object.fromEntries(
        (await send('GET', `/api/courses/${course.id}/students/`, teacher.headers))
          .json()
          .data.map((s: { id: number; batch_ended: boolean; certificate: unknown }) => [s.id, { batch_ended: s.batch_ended, certificate: s.certificate }]),
      );
    expect(await list()).toEqual({
      [student.user.id]: { batch_ended: false, certificate: null },
      [done.user.id]: { batch_ended: true, certificate: null },
    });
    const id = (await send('POST', `/api/courses/${course.id}/certificates/`, teacher.headers, { student_id: done.user.id })).json().data.id;
    expect((await list())[done.user.id]).toEqual({ batch_ended: true, certificate: { id, verify_url: `/certificates/${id}` } });
  });
});

describe('lists', () => {
  it('a student’s list issues what they earned; teachers see their courses’, admins all, newest first', async () => {
    const { teacher, student, course, batch } = await classroom();
    // The batch has ended (2026-04-10): every session attended.
    for (const day of ['06', '07', '08']) {
      const session = await insertSession(t.db, course.id, batch.id, at(`2026-04-${day}T09:00:00Z`));
      await insertAttendance(t.db, session.id, student.user.id, at(`2026-04-${day}T09:00:00Z`));
    }
    const other = await signedIn(t, 'teacher');
    const otherCourse = await insertCourse(t.db, other.user.id, { name: 'Other' });
    const otherBatch = await insertBatch(t.db, otherCourse.id, '2026-01-05', '2026-01-09');
    const classmate = await signedIn(t, 'student');
    await insertPurchase(t.db, classmate.user.id, otherCourse.id, otherBatch);
    await send('POST', `/api/courses/${otherCourse.id}/certificates/`, other.headers, { student_id: classmate.user.id });

    const mine = await send('GET', '/api/certificates/', student.headers);
    expect(mine.statusCode).toBe(200);
    expect(mine.json().data).toEqual([expect.objectContaining({ kind: 'earned', course_id: course.id, student_name: 'João Müller' })]);
    // Once only.
    expect((await send('GET', '/api/certificates/', student.headers)).json().data).toHaveLength(1);

    const teachers = (await send('GET', '/api/certificates/', teacher.headers)).json().data;
    expect(teachers.map((c: { course_id: number }) => c.course_id)).toEqual([course.id]);
    const admin = await signedIn(t, 'admin');
    const all = (await send('GET', '/api/certificates/', admin.headers)).json().data;
    // The earned one was issued last (when the student listed theirs).
    expect(all.map((c: { course_id: number }) => c.course_id)).toEqual([course.id, otherCourse.id]);
    expect((await send('GET', '/api/certificates/', classmate.headers)).json().data.map((c: { kind: string }) => c.kind)).toEqual(['awarded']);
    expect((await send('GET', '/api/certificates/')).statusCode).toBe(401);
  });
});

describe('verification and PDF', () => {
  it('a genuine id verifies without signing in; a made-up or malformed one is 404; a revoked one says so', async () => {
    const { teacher, student, course } = await classroom();
    const id = (await send('POST', `/api/courses/${course.id}/certificates/`, teacher.headers, { student_id: student.user.id })).json().data.id;
    const res = await send('GET', `/api/certificates/${id}/`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      id,
      genuine: true,
      revoked: false,
      student_name: 'João Müller',
      course_name: 'Portuguese for Travellers',
      teacher_name: 'Test Person',
      start_date: '2026-04-06',
      end_date: '2026-04-10',
      issued_at: expect.any(String),
      url: `/api/certificates/${id}/pdf/`,
    });
    // Typed in lower case, with a hyphen: the same certificate.
    expect((await send('GET', `/api/certificates/${id.slice(0, 8).toLowerCase()}-${id.slice(8)}/`)).json().data.id).toBe(id);

    const madeUp = await send('GET', `/api/certificates/${certificateId()}/`);
    expect(madeUp.statusCode).toBe(404);
    expect(madeUp.json()).toEqual({ message: 'Certificate not found' });
    for (const bad of ['nope', 'UUUUUUUUUUUUUUUU', '..%2F..', `${id}0`]) {
      expect((await send('GET', `/api/certificates/${bad}/`)).statusCode, bad).toBe(404);
      expect((await send('GET', `/api/certificates/${bad}/pdf/`)).statusCode, bad).toBe(404);
    }
    // What the contract's parameter refuses (too long, a control character) is 400 before any lookup.
    expect((await send('GET', `/api/certificates/${'A'.repeat(65)}/`)).statusCode).toBe(400);
    expect((await send('GET', '/api/certificates/%00/')).statusCode).toBe(400);

    await t.db.update(certificates).set({ revokedAt: new Date() }).where(eq(certificates.id, id));
    expect((await send('GET', `/api/certificates/${id}/`)).json().data).toMatchObject({ genuine: true, revoked: true });
  });

  it('the PDF downloads as a PDF whose text carries the name, the course, the dates, the teacher, the id and the verification address', async () => {
    const { teacher, student, course } = await classroom();
    const id = (await send('POST', `/api/courses/${course.id}/certificates/`, teacher.headers, { student_id: student.user.id })).json().data.id;
    const res = await send('GET', `/api/certificates/${id}/pdf/`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="Certificate - Portuguese for Travellers - Jo_o M_ller\.pdf"; filename\*=UTF-8''/);
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const doc = await PDFDocument.load(res.rawPayload);
    expect(doc.getPageCount()).toBe(1);
    const { width, height } = doc.getPage(0).getSize();
    expect([Math.round(width), Math.round(height)]).toEqual([842, 595]);
    const text = await pdfText(res.rawPayload);
    for (const expected of [
      'Mooz',
      'Certificate of completion',
      'João Müller',
      'Portuguese for Travellers',
      datesLine('2026-04-06', '2026-04-10')!.replace('–', '\x96'),
      'Test Person',
      `Certificate ID: ${id}`,
      `Verify at https://mooz.example.com/certificates/${id}`,
    ]) {
      expect(text).toContain(expected);
    }
  });

  it('names the standard fonts cannot write are written with what they can, not a failure', async () => {
    const bytes = await certificatePdf({
      id: 'ABCDEFGHJKMNPQRS',
      studentName: 'Ελένη 王小明 Őrs',
      courseName: 'Ψηφιακή\u0000 Τέχνη — Kurs für Anfänger',
      teacherName: '李老师',
      startDate: null,
      endDate: '2026-04-10',
      issuedAt: new Date('2026-04-11T00:00:00Z'),
      kind: 'earned',
      verifyUrl: 'https://mooz.example.com/certificates/ABCDEFGHJKMNPQRS',
    });
    const text = await pdfText(bytes);
    expect(text).toContain('????? ??? Ors');
    expect(text).toContain('Kurs f\u00fcr Anf\u00e4nger');
    expect(text).toContain('Certificate ID: ABCDEFGHJKMNPQRS');
    expect(text).toContain('Completed 10 April 2026');
  });
});
