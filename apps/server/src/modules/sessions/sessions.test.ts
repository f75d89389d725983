import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { appPerTest } from '../../../test/app';
import { signedIn } from '../../../test/accounts';
import { createCourse, createOrder, paidCheckout, weekdayChoice } from '../../../test/courses';
import { classSessions, courses, users } from '../../db/schema/index';
import { sessionForRoom } from './access';

const t = appPerTest();

const MIN = 60_000;
const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });
const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload: payload as object, headers });

async function sessionAt(courseId: number, title: string, startOffsetMin: number, minutes = 60) {
  const startsAt = new Date(Date.now() + startOffsetMin * MIN);
  await t.db.insert(classSessions).values({ courseId, title, startsAt, endsAt: new Date(startsAt.getTime() + minutes * MIN), roomId: randomUUID() });
}

/** The titles of the open sessions listed (those of no batch: a course's batches bring their own). */
const titles = (res: { json(): { data: { title: string; batch_id: number | null }[] } }) =>
  res.json().data.filter((s) => s.batch_id === null).map((s) => s.title);

async function endTrial(userId: number) {
  await t.db.update(users).set({ trialEndsAt: new Date(Date.now() - MIN) }).where(eq(users.id, userId));
}

describe('scheduling sessions', () => {
  it('lets a teacher schedule a session in their course, with a fresh room and the default capacity', async () => {
    const teacher = await signedIn(t, 'teacher');
    const course = await createCourse(t, teacher.headers);
    const startsAt = new Date(Date.now() + 3 * 86_400_000);
    const res = await post('/api/classes/sessions/', { course_id: course.id, title: 'Kick-off', starts_at: startsAt.toISOString(), duration_minutes: 90 }, teacher.headers);
    expect(res.statusCode).toBe(201);
    expect(res.json().message).toBe('Session scheduled');
    const session = res.json().data;
    expect(session).toMatchObject({
      course_id: course.id,
      course_name: course.name,
      title: 'Kick-off',
      starts_at: startsAt.toISOString(),
      ends_at: new Date(startsAt.getTime() + 90 * MIN).toISOString(),
      status: 'scheduled',
      teacher_name: 'Test Person',
      capacity: 10,
      can_join: false,
    });
    expect(session.room_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(titles(await get('/api/classes/sessions/', teacher.headers))).toEqual(['Kick-off']);
  });

  it('refuses a time in the past, a bad duration or capacity, and missing fields, naming each', async () => {
    const teacher = await signedIn(t, 'teacher');
    const course = await createCourse(t, teacher.headers);
    const past = await post('/api/classes/sessions/', { course_id: course.id, title: 'Late', starts_at: new Date(Date.now() - MIN).toISOString(), duration_minutes: 60 }, teacher.headers);
    expect(past.statusCode).toBe(400);
    expect(Object.keys(past.json().errors)).toEqual(['starts_at']);
    const bad = await post('/api/classes/sessions/', { course_id: course.id, starts_at: 'tomorrow', duration_minutes: 5, capacity: 1000 }, teacher.headers);
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().errors).sort()).toEqual(['capacity', 'duration_minutes', 'starts_at', 'title']);
    expect(titles(await get('/api/classes/sessions/', teacher.headers))).toEqual([]);
  });

  it("refuses another teacher's course (403), an unknown course (404), and students (403)", async () => {
    const teacher = await signedIn(t, 'teacher');
    const other = await signedIn(t, 'teacher');
    const course = await createCourse(t, teacher.headers);
    const body = { course_id: course.id, title: 'Not mine', starts_at: new Date(Date.now() + 86_400_000).toISOString(), duration_minutes: 60 };
    expect((await post('/api/classes/sessions/', body, other.headers)).statusCode).toBe(403);
    expect((await post('/api/classes/sessions/', { ...body, course_id: 999_999 }, teacher.headers)).statusCode).toBe(404);
    const student = await signedIn(t, 'student');
    expect((await post('/api/classes/sessions/', body, student.headers)).statusCode).toBe(403);
    expect((await post('/api/classes/sessions/', body)).statusCode).toBe(401);
    const admin = await signedIn(t, 'admin');
    expect((await post('/api/classes/sessions/', body, admin.headers)).statusCode).toBe(201);
  });
});

describe('the sessions list', () => {
  it('computes status and can_join from the clock: joinable from 15 minutes before the start until the end', async () => {
    const teacher = await signedIn(t, 'teacher');
    const course = await createCourse(t, teacher.headers);
    await sessionAt(course.id, 'ended', -120);
    await sessionAt(course.id, 'live', -10);
    await sessionAt(course.id, 'soon', 10);
    await sessionAt(course.id, 'later', 120);
    const student = await signedIn(t, 'student');
    const { data } = (await get('/api/classes/sessions/', student.headers)).json();
    expect(data.map((s: { title: string; status: string; can_join: boolean }) => [s.title, s.status, s.can_join])).toEqual([
      ['live', 'live', true],
      ['soon', 'scheduled', true],
      ['later', 'scheduled', false],
      ['ended', 'ended', false],
    ]);
  });

  /** Two courses of one teacher with a session each, and a new student in trial. */
  async function twoCoursesAndAStudent() {
    const teacher = await signedIn(t, 'teacher');
    const bought = await createCourse(t, teacher.headers, { name: 'Bought' });
    const other = await createCourse(t, teacher.headers, { name: 'Other' });
    await sessionAt(bought.id, 'bought class', 60);
    await sessionAt(other.id, 'other class', 90);
    return { bought, student: await signedIn(t, 'student') };
  }

  it('shows a student in trial every session, after the trial only those of bought courses', async () => {
    const { bought, student } = await twoCoursesAndAStudent();
    expect(titles(await get('/api/classes/sessions/', student.headers))).toEqual(['bought class', 'other class']);

    await endTrial(student.user.id);
    expect((await get('/api/classes/sessions/', student.headers)).json()).toEqual({ data: [] });

    const order = await createOrder(t, student.headers, weekdayChoice(bought));
    await post('/api/payments/verify_payment/', { ...paidCheckout(t, order), subscription_id: order.subscription_id }, student.headers);
    const after = (await get('/api/classes/sessions/', student.headers)).json().data;
    expect(titles(await get('/api/classes/sessions/', student.headers))).toEqual(['bought class']);
    expect(after.every((s: { course_name: string }) => s.course_name === 'Bought')).toBe(true);
  });

  it("shows a student in trial no session of a course out of the catalogue (unpublished or archived); its teacher still sees them", async () => {
    const teacher = await signedIn(t, 'teacher');
    const draft = await createCourse(t, teacher.headers, { name: 'Draft', published: false });
    const archived = await createCourse(t, teacher.headers, { name: 'Archived' });
    await t.db.update(courses).set({ archivedAt: new Date() }).where(eq(courses.id, archived.id));
    await sessionAt(draft.id, 'draft class', 60);
    await sessionAt(archived.id, 'archived class', 90);
    const student = await signedIn(t, 'student');
    expect(titles(await get('/api/classes/sessions/', student.headers))).toEqual([]);
    expect(titles(await get('/api/classes/sessions/', teacher.headers))).toEqual(['draft class', 'archived class']);
  });

  it('shows a buyer only their course, even with trial time left: buying ends the trial', async () => {
    const { bought, student } = await twoCoursesAndAStudent();
    const order = await createOrder(t, student.headers, weekdayChoice(bought));
    await post('/api/payments/verify_payment/', { ...paidCheckout(t, order), subscription_id: order.subscription_id }, student.headers);
    expect(titles(await get('/api/classes/sessions/', student.headers))).toEqual(['bought class']);
  });

  it("shows a teacher their own sessions only, and an admin everyone's", async () => {
    const teacher = await signedIn(t, 'teacher');
    const other = await signedIn(t, 'teacher');
    await sessionAt((await createCourse(t, teacher.headers)).id, 'mine', 60);
    await sessionAt((await createCourse(t, other.headers)).id, 'theirs', 90);
    expect(titles(await get('/api/classes/sessions/', teacher.headers))).toEqual(['mine']);
    const admin = await signedIn(t, 'admin');
    expect(titles(await get('/api/classes/sessions/', admin.headers))).toEqual(['mine', 'theirs']);
  });

  it('agrees with the room rule: whoever is listed a session may enter its room', async () => {
    const teacher = await signedIn(t, 'teacher');
    const course = await createCourse(t, teacher.headers);
    await sessionAt(course.id, 'class', 5);
    const student = await signedIn(t, 'student');
    await endTrial(student.user.id);
    const [session] = await t.db.select().from(classSessions).where(and(eq(classSessions.courseId, course.id), isNull(classSessions.batchId)));
    expect((await sessionForRoom(t.db, { id: student.user.id, userType: 'student' }, session!.roomId)).allowed).toBe(false);
    const order = await createOrder(t, student.headers, weekdayChoice(course));
    await post('/api/payments/verify_payment/', { ...paidCheckout(t, order), subscription_id: order.subscription_id }, student.headers);
    const listed = (await get('/api/classes/sessions/', student.headers)).json().data.find((s: { room_id: string }) => s.room_id === session!.roomId);
    expect(listed).toMatchObject({ room_id: session!.roomId, can_join: true });
    expect((await sessionForRoom(t.db, { id: student.user.id, userType: 'student' }, session!.roomId)).allowed).toBe(true);
  });

  it('needs an access token', async () => {
    const res = await get('/api/classes/sessions/');
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe('No access token found');
  });
});
