// A teacher's course tools: removal (delete while nobody bought it, else archive) and the students
// list with its CSV export, and who may use them.
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { appPerTest } from '../../../test/app';
import { signedIn } from '../../../test/accounts';
import { createCourse, createOrder, weekdayChoice, weekendChoice } from '../../../test/courses';
import { buy as buyIn, sessionAt as sessionAtIn } from '../../../test/sessions';
import { Readable } from 'node:stream';
import { assignments, attendance, courses, recordings, submissions, subscriptions, users } from '../../db/schema/index';

const t = appPerTest();

type Headers = Record<string, string>;
const get = (url: string, headers: Headers = {}) => t.app.inject({ method: 'GET', url, headers });
const remove = (id: number | string, headers: Headers = {}) => t.app.inject({ method: 'DELETE', url: `/api/courses/${id}/`, headers });

const sessionAt = (courseId: number, title: string, startOffsetMin: number, extra?: Parameters<typeof sessionAtIn>[4]) => sessionAtIn(t, courseId, title, startOffsetMin, extra);
const buy = (headers: Headers, choice: object) => buyIn(t, headers, choice);

describe('removing a course', () => {
  it('deletes a course nobody bought, with its sessions and unpaid orders, and says so', async () => {
    const teacher = await signedIn(t, 'teacher');
    const course = await createCourse(t, teacher.headers);
    await sessionAt(course.id, 'Week 1', 60);
    const student = await signedIn(t);
    await createOrder(t, student.headers, weekdayChoice(course));
    expect((await get(`/api/courses/${course.id}/removal/`, teacher.headers)).json()).toEqual({ data: { outcome: 'deleted' } });
    const res = await remove(course.id, teacher.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { outcome: 'deleted' }, message: 'Course deleted' });
    expect(await t.db.select().from(courses).where(eq(courses.id, course.id))).toEqual([]);
    expect(await t.db.select().from(subscriptions).where(eq(subscriptions.courseId, course.id))).toEqual([]);
    expect((await get(`/api/courses/${course.id}/`, teacher.headers)).statusCode).toBe(404);
    expect((await remove(course.id, teacher.headers)).statusCode).toBe(404);
  });

  it('deletes a deleted course’s stored files too: attachments, answers’ files, recordings and a live recording’s chunks', async () => {
    const teacher = await signedIn(t, 'teacher');
    const course = await createCourse(t, teacher.headers);
    const student = await signedIn(t);
    const storage = t.app.storage;
    const put = (key: string) => storage.put(key, Readable.from([Buffer.from('bytes')]), 'application/octet-stream');
    const [assignment] = await t.db
      .insert(assignments)
      .values({ courseId: course.id, title: 'Essay', createdBy: teacher.user.id, fileKey: 'assignments/course-brief.pdf' })
      .returning();
    await t.db.insert(submissions).values({ assignmentId: assignment!.id, userId: student.user.id, fileKey: 'assignments/answer.pdf' });
    const [ready, live] = await t.db
      .insert(recordings)
      .values([
        { courseId: course.id, roomId: 'room-a', title: 'Week 1', recordedBy: teacher.user.id, source: 'upload' as const, status: 'ready' as const, storageKey: 'recordings/week-1.webm' },
        { courseId: course.id, roomId: 'room-b', title: 'Week 2', recordedBy: teacher.user.id, source: 'live' as const, status: 'recording' as const },
      ])
      .returning();
    const chunk = `live/${live!.id}/000000000000000-abc`;
    // Another course's file stays.
    const other = await createCourse(t, teacher.headers);
    await t.db.insert(assignments).values({ courseId: other.id, title: 'Other', createdBy: teacher.user.id, fileKey: 'assignments/other.pdf' });
    for (const key of ['assignments/course-brief.pdf', 'assignments/answer.pdf', ready!.storageKey!, chunk, 'assignments/other.pdf']) await put(key);

    expect((await remove(course.id, teacher.headers)).json().data).toEqual({ outcome: 'deleted' });
    for (const key of ['assignments/course-brief.pdf', 'assignments/answer.pdf', 'recordings/week-1.webm', chunk]) expect(await storage.size(key)).toBeNull();
    expect(await storage.size('assignments/other.pdf')).toBe(5);
  });

  it('archives a bought course: gone from the catalogue and from sale, kept in its students’ courses and sessions', async () => {
    const teacher = await signedIn(t, 'teacher');
    const course = await createCourse(t, teacher.headers);
    await sessionAt(course.id, 'Week 1', 60);
    const student = await signedIn(t);
    await buy(student.headers, weekdayChoice(course));
    expect((await get(`/api/courses/${course.id}/removal/`, teacher.headers)).json()).toEqual({ data: { outcome: 'archived' } });
    expect((await get(`/api/courses/${course.id}/removal/`, student.headers)).statusCode).toBe(403);
    const res = await remove(course.id, teacher.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ outcome: 'archived' });
    expect(res.json().message).toBe('Course archived: its students keep it, nobody else sees it');

    const stranger = await signedIn(t);
    expect((await get('/api/courses/', stranger.headers)).json().data).toEqual([]);
    expect((await get(`/api/courses/${course.id}/`, stranger.headers)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: '/api/payments/create_order/', headers: stranger.headers, payload: weekdayChoice(course) })).statusCode).toBe(404);

    const mine = (await get('/api/courses/my_courses/', student.headers)).json().data;
    expect(mine.map((c: { id: number }) => c.id)).toEqual([course.id]);
    expect(mine[0].archived_at).toEqual(expect.any(String));
    expect((await get(`/api/courses/${course.id}/`, student.headers)).json().data.enrolled).toBe(true);
    expect((await get('/api/classes/sessions/', student.headers)).json().data.map((s: { title: string }) => s.title)).toContain('Week 1');
    // The teacher still sees it, marked; removing it again changes nothing.
    const taught = (await get('/api/courses/my_courses/', teacher.headers)).json().data;
    expect(taught[0].archived_at).toEqual(expect.any(String));
    expect((await remove(course.id, teacher.headers)).json().data).toEqual({ outcome: 'archived' });
    expect(await t.db.select({ id: courses.id }).from(courses).where(eq(courses.id, course.id))).toHaveLength(1);
  });

  it('archives rather than deletes a course whose only purchase was refunded', async () => {
    const teacher = await signedIn(t, 'teacher');
    const course = await createCourse(t, teacher.headers);
    const student = await signedIn(t);
    const order = await buy(student.headers, weekdayChoice(course));
    await t.db.update(subscriptions).set({ status: 'refunded', refundedAt: new Date() }).where(eq(subscriptions.id, order.subscription_id));
    expect((await remove(course.id, teacher.headers)).json().data).toEqual({ outcome: 'archived' });
  });

  it('is refused to students (403), to another teacher (403), for unknown or malformed ids (404, 400); an admin may', async () => {
    const teacher = await signedIn(t, 'teacher');
    const course = await createCourse(t, teacher.headers);
    expect((await remove(course.id, (await signedIn(t)).headers)).statusCode).toBe(403);
    expect((await remove(course.id, (await signedIn(t, 'teacher')).headers)).statusCode).toBe(403);
    expect((await remove(course.id)).statusCode).toBe(401);
    expect((await remove(999_999, teacher.headers)).statusCode).toBe(404);
    expect((await remove('abc', teacher.headers)).statusCode).toBe(400);
    expect(await t.db.select({ id: courses.id }).from(courses).where(eq(courses.id, course.id))).toHaveLength(1);
    expect((await remove(course.id, (await signedIn(t, 'admin')).headers)).json().data).toEqual({ outcome: 'deleted' });
  });
});

describe('the students of a course', () => {
  async function classWithStudents() {
    const teacher = await signedIn(t, 'teacher');
    const course = await createCourse(t, teacher.headers);
    const ada = await signedIn(t);
    await t.db.update(users).set({ firstName: 'Ada', lastName: 'Lovelace' }).where(eq(users.id, ada.user.id));
    const bob = await signedIn(t);
    await t.db.update(users).set({ firstName: '=HYPERLINK("http://evil")', lastName: 'Bob, "B"' }).where(eq(users.id, bob.user.id));
    await buy(ada.headers, weekdayChoice(course));
    await buy(bob.headers, weekendChoice(course));
    // Ordered but never paid: not a student.
    await createOrder(t, (await signedIn(t)).headers, weekdayChoice(course));
    const held1 = await sessionAt(course.id, 'held 1', -180);
    await sessionAt(course.id, 'held 2', -90);
    await sessionAt(course.id, 'cancelled', -120, { cancelledAt: new Date(), cancelReason: 'ill' });
    await sessionAt(course.id, 'to come', 60);
    await t.db.insert(attendance).values([
      { sessionId: held1.id, userId: ada.user.id, joinedAt: held1.startsAt, leftAt: held1.endsAt },
      { sessionId: held1.id, userId: ada.user.id, joinedAt: held1.startsAt, leftAt: held1.endsAt },
    ]);
    return { teacher, course, ada, bob };
  }

  it('lists each paying student with their batch, payment date and attendance so far', async () => {
    const { teacher, course, ada, bob } = await classWithStudents();
    const res = await get(`/api/courses/${course.id}/students/`, teacher.headers);
    expect(res.statusCode).toBe(200);
    const listed: { id: number }[] = res.json().data;
    expect(listed).toHaveLength(2);
    expect(listed.find((s) => s.id === ada.user.id)).toMatchObject({
      name: 'Ada Lovelace',
      email: ada.user.email,
      batch: { kind: 'weekdays', start_date: course.batch_start_dates[0], end_date: weekdayChoice(course).end_date, times: ['09:00'], time_zone: 'Asia/Kolkata' },
      paid_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      attendance: { attended: 1, held: 2 },
    });
    expect(listed.find((s) => s.id === bob.user.id)).toMatchObject({ batch: { kind: 'weekends', times: [weekendChoice(course).saturday_time, weekendChoice(course).sunday_time] }, attendance: { attended: 0, held: 2 } });
  });

  it('exports them as CSV: an attachment named for the course, quoted where needed, formulas defused', async () => {
    const { teacher, course } = await classWithStudents();
    const res = await get(`/api/courses/${course.id}/students/export/`, teacher.headers);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="students-testing-in-practice-\d{4}-\d\d-\d\d\.csv"/);
    const lines = res.body.replace(/^\uFEFF/, '').split('\r\n');
    expect(lines[0]).toBe('Name,Email,Batch,Start date,End date,Times,Time zone,Paid at (UTC),Sessions attended,Sessions held');
    expect(lines).toHaveLength(4);
    expect(lines).toContainEqual(expect.stringMatching(/^Ada Lovelace,[^,]+,weekdays,\d{4}-\d\d-\d\d,\d{4}-\d\d-\d\d,09:00,Asia\/Kolkata,\d{4}-\d\d-\d\d \d\d:\d\d,1,2$/));
    const bob = lines.find((line) => line.includes('HYPERLINK'));
    expect(bob).toMatch(/^"'=HYPERLINK\(""http:\/\/evil""\) Bob, ""B""",/);
    expect(bob).toContain(`,${weekendChoice(course).saturday_time} / ${weekendChoice(course).sunday_time},`);
    expect(lines.at(-1)).toBe('');
  });

  it('is empty for a course nobody bought', async () => {
    const teacher = await signedIn(t, 'teacher');
    const course = await createCourse(t, teacher.headers);
    expect((await get(`/api/courses/${course.id}/students/`, teacher.headers)).json()).toEqual({ data: [] });
    expect((await get(`/api/courses/${course.id}/students/export/`, teacher.headers)).body.split('\r\n')).toHaveLength(2);
  });

  it('is refused to students and other teachers (403), unknown courses (404) and bad ids (400); admins may read it', async () => {
    const { course } = await classWithStudents();
    for (const path of ['students/', 'students/export/']) {
      const url = `/api/courses/${course.id}/${path}`;
      expect((await get(url, (await signedIn(t)).headers)).statusCode).toBe(403);
      expect((await get(url, (await signedIn(t, 'teacher')).headers)).statusCode).toBe(403);
      expect((await get(url)).statusCode).toBe(401);
      expect((await get(`/api/courses/999999/${path}`, (await signedIn(t, 'admin')).headers)).statusCode).toBe(404);
      expect((await get(`/api/courses/0/${path}`, (await signedIn(t, 'admin')).headers)).statusCode).toBe(400);
      expect((await get(url, (await signedIn(t, 'admin')).headers)).statusCode).toBe(200);
    }
  });
});
