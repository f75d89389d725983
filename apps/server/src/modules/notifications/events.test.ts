// Each event reaches exactly the people it concerns, once, through the module that owns it: an
// assignment (the course's paying students, not an outsider, not the teacher), a review (its student),
// a certificate (its student, awarded by hand or earned automatically), a session moved or cancelled (its students, by the session's own mail
// with a one-click unsubscribe), a reminder (in the app; its mail follows the preference), a recording.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/app';
import { outbox, signedIn, type OutboxMail } from '../../../test/accounts';
import { call, paidEnrollment } from '../../../test/admin';
import { multipartBody, recordingPart, webmFixture } from '../../../test/recordings';
import { at, insertAttendance, insertBatch, insertCourse, insertPerson, insertPurchase, insertSession } from '../../../test/learning';
import { sessionAt } from '../../../test/sessions';
import { notifications } from '../../db/schema/index';

type Mail = OutboxMail & { headers?: Record<string, string> };
type Headers = Record<string, string>;

describe('notification events', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const kindsOf = async (headers: Headers) =>
    ((await call(t, 'GET', '/api/notifications/', headers)).json().data.items as { kind: string; link: string; params: Record<string, unknown> }[]);
  const mailsTo = async (email: string) => ((await outbox(t)) as Mail[]).filter((m) => m.to === email);

  it('tells the course’s students of a new assignment, once, and nobody else; a review tells its student', async () => {
    const { teacher, course, student } = await paidEnrollment(t);
    const outsider = await signedIn(t, 'student');
    const created = await call(t, 'POST', `/api/courses/${course.id}/assignments/`, teacher.headers, { title: 'Sketch a logo', instructions: 'Three ideas.' });
    expect(created.statusCode).toBe(201);
    const mine = (await kindsOf(student.headers)).filter((n) => n.kind === 'assignment_posted');
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ link: `/courses/${course.id}?tab=assignments`, params: { course: course.name, title: 'Sketch a logo' } });
    expect(await kindsOf(outsider.headers)).toEqual([]);
    expect((await kindsOf(teacher.headers)).map((n) => n.kind)).toEqual(['student_joined']);
    const mails = (await mailsTo(student.user.email)).filter((m) => m.subject.startsWith('New assignment'));
    expect(mails.map((m) => m.subject)).toEqual([`New assignment in ${course.name}: Sketch a logo`]);
    expect(mails[0]!.text).toContain(`/courses/${course.id}?tab=assignments`);

    const { body, contentType } = multipartBody([{ name: 'text', value: 'My answer' }]);
    const answer = await t.app.inject({ method: 'POST', url: `/api/assignments/${created.json().data.id}/submission/`, headers: { ...student.headers, 'content-type': contentType }, payload: body });
    expect(answer.statusCode).toBe(200);
    const reviewed = await call(t, 'POST', `/api/submissions/${answer.json().data.id}/review/`, teacher.headers, { grade: 90, feedback: 'Good' });
    expect(reviewed.statusCode).toBe(200);
    expect((await kindsOf(student.headers)).map((n) => n.kind)).toContain('answer_reviewed');
    expect((await kindsOf(teacher.headers)).map((n) => n.kind)).toEqual(['student_joined']);
  });

  it('tells a student of a certificate awarded by hand, with a link to it', async () => {
    const { teacher, course, student } = await paidEnrollment(t);
    const admin = await signedIn(t, 'admin');
    const awarded = await call(t, 'POST', `/api/courses/${course.id}/certificates/`, admin.headers, { student_id: student.user.id, reason: 'Finished early' });
    expect(awarded.statusCode).toBe(201);
    const told = (await kindsOf(student.headers)).filter((n) => n.kind === 'certificate_issued');
    expect(told).toHaveLength(1);
    expect(told[0]!.link).toBe(`/certificates/${awarded.json().data.id}`);
    expect((await kindsOf(teacher.headers)).map((n) => n.kind)).not.toContain('certificate_issued');
  });

  it('tells a student who earns a certificate automatically once, by bell and mail, and nothing more when it is checked again', async () => {
    const student = await signedIn(t, 'student');
    const teacher = await insertPerson(t.db, 'teacher', 'Ada', 'Teacher');
    const course = await insertCourse(t.db, teacher.id, { name: 'Kiln safety' });
    // A batch long ended, of which the student attended three sessions in four: over the share.
    const batch = await insertBatch(t.db, course.id, '2020-03-02', '2020-03-06');
    await insertPurchase(t.db, student.user.id, course.id, batch);
    for (let day = 0; day < 4; day++) {
      const session = await insertSession(t.db, course.id, batch.id, at(`2020-03-0${2 + day}T09:00:00Z`));
      if (day < 3) await insertAttendance(t.db, session.id, student.user.id, at(`2020-03-0${2 + day}T09:00:00Z`));
    }
    const certificateMails = async () => (await mailsTo(student.user.email)).filter((m) => m.subject === 'Your certificate for Kiln safety');

    // The dashboard issues it: one notice linking to it, one mail.
    const dashboard = await call(t, 'GET', '/api/dashboard/student/', student.headers);
    expect(dashboard.statusCode).toBe(200);
    const [certificate] = dashboard.json().data.certificates as { id: string }[];
    expect(certificate).toBeDefined();
    const told = (await kindsOf(student.headers)).filter((n) => n.kind === 'certificate_issued');
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ link: `/certificates/${certificate!.id}`, params: { course: 'Kiln safety' } });
    expect(await certificateMails()).toHaveLength(1);

    // Checked again, by the dashboard, the certificates list and both at once: nothing more.
    await call(t, 'GET', '/api/dashboard/student/', student.headers);
    await Promise.all([call(t, 'GET', '/api/certificates/', student.headers), call(t, 'GET', '/api/dashboard/student/', student.headers)]);
    expect((await kindsOf(student.headers)).filter((n) => n.kind === 'certificate_issued')).toHaveLength(1);
    expect(await certificateMails()).toHaveLength(1);
    // The teacher is not told of a student's certificate.
    expect(await t.db.select().from(notifications).where(eq(notifications.userId, teacher.id))).toEqual([]);
  });

  it('mails a moved and a cancelled session by its own words, with a one-click unsubscribe, and rings the bell; a student who turned them off gets the bell only', async () => {
    const { teacher, course, student } = await paidEnrollment(t);
    const quiet = await signedIn(t, 'student');
    const session = await sessionAt(t, course.id, 'Colour theory', 24 * 60, { batchId: null });
    const before = (await mailsTo(student.user.email)).length;
    const moved = await t.app.inject({ method: 'PATCH', url: `/api/classes/sessions/${session.id}/`, headers: teacher.headers, payload: { starts_at: new Date(Date.now() + 48 * 3_600_000).toISOString() } });
    expect(moved.statusCode).toBe(200);
    const movedMails = (await mailsTo(student.user.email)).slice(before);
    expect(movedMails.map((m) => m.subject)).toEqual(['New time: Colour theory']);
    expect(movedMails[0]!.headers?.['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    expect((await kindsOf(student.headers)).map((n) => n.kind)).toContain('class_moved');

    await t.app.inject({ method: 'PATCH', url: '/api/notifications/preferences/', headers: student.headers, payload: { preferences: [{ kind: 'class_cancelled', mail: false }] } });
    const cancelled = await call(t, 'POST', `/api/classes/sessions/${session.id}/cancel/`, teacher.headers, { reason: 'Teacher ill' });
    expect(cancelled.statusCode).toBe(200);
    expect((await mailsTo(student.user.email)).slice(before)).toHaveLength(1);
    expect((await kindsOf(student.headers)).map((n) => n.kind)).toContain('class_cancelled');
    expect(await kindsOf(quiet.headers)).toEqual([]);
  });

  it('rings the bell of a session’s people when it is about to start, and its mail follows the preference', async () => {
    const { teacher, course, student } = await paidEnrollment(t);
    await t.app.inject({ method: 'PATCH', url: '/api/notifications/preferences/', headers: student.headers, payload: { preferences: [{ kind: 'class_starting', mail: false }] } });
    const before = { student: (await mailsTo(student.user.email)).length, teacher: (await mailsTo(teacher.user.email)).length };
    await sessionAt(t, course.id, 'Starts soon', 5, { batchId: null });
    await t.app.reminders.pass();
    expect((await kindsOf(student.headers)).filter((n) => n.kind === 'class_starting')).toHaveLength(1);
    expect((await kindsOf(teacher.headers)).filter((n) => n.kind === 'class_starting')).toHaveLength(1);
    expect((await mailsTo(student.user.email)).slice(before.student)).toEqual([]);
    const teacherMails = (await mailsTo(teacher.user.email)).slice(before.teacher);
    expect(teacherMails).toHaveLength(1);
    expect(teacherMails[0]!.headers?.['List-Unsubscribe']).toMatch(/^<http.*token=/);
    // A second pass does not remind again.
    await t.app.reminders.pass();
    expect((await kindsOf(student.headers)).filter((n) => n.kind === 'class_starting')).toHaveLength(1);
  });

  it('tells the course’s students of an uploaded recording, once, linking to it', async () => {
    const { teacher, course, student } = await paidEnrollment(t);
    const outsider = await signedIn(t, 'student');
    const session = await sessionAt(t, course.id, 'Folding', -120, { batchId: null });
    const { body, contentType } = multipartBody([recordingPart(webmFixture(), session.roomId, teacher.user.id)]);
    const uploaded = await t.app.inject({ method: 'POST', url: `/api/classes/sessions/${session.roomId}/upload-recording/`, headers: { ...teacher.headers, 'content-type': contentType }, payload: body });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const told = (await kindsOf(student.headers)).filter((n) => n.kind === 'recording_added');
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ link: `/recordings/${uploaded.json().data.id}`, params: { course: course.name } });
    expect(await kindsOf(outsider.headers)).toEqual([]);
    expect((await mailsTo(student.user.email)).filter((m) => m.subject.startsWith('New recording'))).toHaveLength(1);
  });
});
