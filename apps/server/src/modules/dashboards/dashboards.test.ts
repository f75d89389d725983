// The dashboards against a scripted history: every number checked, through the real endpoints (the
// watch progress too), and the zones at their edges through the service with an injected clock.
import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { appPerTest } from '../../../test/app';
import { createUser, login, signedIn } from '../../../test/accounts';
import { createCourse } from '../../../test/courses';
import { insertPurchase } from '../../../test/learning';
import { readyRecording } from '../../../test/recordings';
import { assignments, attendance, batches, certificates, classSessions, courses, pollAnswers, polls, submissions, watchLog } from '../../db/schema/index';
import { earnDueCertificates } from '../certificates/earn';
import { createDashboardsService, studentTables } from './service';

const t = appPerTest();

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const close = (x: number) => Number(x.toFixed(9));

async function person(userType: 'student' | 'teacher' | 'admin', firstName: string) {
  const user = await createUser(t, { userType, firstName });
  const tokens = await login(t, user.email, user.password);
  return { id: user.id, headers: { authorization: `Bearer ${tokens.access}` } };
}

async function session(courseId: number, title: string, startsAt: number, minutes: number, extra: Partial<typeof classSessions.$inferInsert> = {}) {
  const [row] = await t.db
    .insert(classSessions)
    .values({ courseId, title, startsAt: new Date(startsAt), endsAt: new Date(startsAt + minutes * MIN), roomId: randomUUID(), ...extra })
    .returning();
  return row!;
}

async function attend(sessionId: number, userId: number, joinedAt: number, leftAt: number | null) {
  await t.db.insert(attendance).values({ sessionId, userId, joinedAt: new Date(joinedAt), leftAt: leftAt === null ? null : new Date(leftAt) });
}

async function batchOf(courseId: number, startDate: string, endDate: string) {
  const [row] = await t.db
    .insert(batches)
    .values({ courseId, kind: 'weekdays', startDate, endDate, time: '10:00', seats: 9 })
    .returning();
  return row!;
}

async function subscribe(userId: number, courseId: number, batch: { id: number; startDate: string; endDate: string }) {
  await insertPurchase(t.db, userId, courseId, batch, 'active', { time: '10:00', amount: 100, activatedAt: new Date() });
}

/**
 * The history: course A (Vitest, Playwright) has an ended batch of two sessions (four and three days
 * ago at 10:00 UTC); Sam attended the first for 30 minutes and watched the second's 10-minute recording
 * twice over the same span; Kim, in the same batch, did neither. Sam also bought course B (Playwright,
 * Docker), whose batch is under way: two past open sessions, one live, one to come, one cancelled.
 * The teacher taught A's two sessions (60 and 45 minutes), left a room open in B's session of
 * yesterday, and never joined B's session of two days ago. Course A has two assignments: Sam submitted
 * one (waiting for review), Kim submitted the same one (reviewed). Lee, another student, attended an
 * open session of A 40 days ago.
 */
async function history() {
  const now = Date.now();
  const today = Date.parse(`${isoDay(now)}T00:00:00Z`);
  const teacher = await person('teacher', 'Tess');
  const sam = await person('student', 'Sam');
  const kim = await person('student', 'Kim');
  const lee = await person('student', 'Lee');
  const courseA = await createCourse(t, teacher.headers, { name: 'Course A', skills: ['Vitest', 'Playwright'] });
  const courseB = await createCourse(t, teacher.headers, { name: 'Course B', skills: ['Playwright', 'Docker'] });
  // Without the classes of their future batches: only the sessions below.
  await t.db.delete(classSessions).where(inArray(classSessions.courseId, [courseA.id, courseB.id]));

  const batchA = await batchOf(courseA.id, isoDay(today - 10 * DAY), isoDay(today - 2 * DAY));
  const a1 = await session(courseA.id, 'A1', today - 4 * DAY + 10 * HOUR, 60, { batchId: batchA.id });
  const a2 = await session(courseA.id, 'A2', today - 3 * DAY + 10 * HOUR, 60, { batchId: batchA.id });
  const old = await session(courseA.id, 'A old', today - 40 * DAY + 10 * HOUR, 60);
  await subscribe(sam.id, courseA.id, batchA);
  await subscribe(kim.id, courseA.id, batchA);

  const batchB = await batchOf(courseB.id, isoDay(today - 3 * DAY), isoDay(today + 25 * DAY));
  const missed = await session(courseB.id, 'B missed', today - 2 * DAY + 10 * HOUR, 60);
  const leftOpen = await session(courseB.id, 'B left open', today - 1 * DAY + 10 * HOUR, 60);
  await session(courseB.id, 'B cancelled', today - 1 * DAY + 12 * HOUR, 60, { cancelledAt: new Date(now - 2 * DAY) });
  const live = await session(courseB.id, 'B live', now - 10 * MIN, 60);
  const upcoming = await session(courseB.id, 'B upcoming', now + 2 * DAY, 60);
  // Beyond the dashboard's seven days: counted as upcoming, not in the week's figure.
  await session(courseB.id, 'B later', now + 8 * DAY, 60);
  await subscribe(sam.id, courseB.id, batchB);

  await attend(a1.id, sam.id, a1.startsAt.getTime(), a1.startsAt.getTime() + 30 * MIN);
  await attend(a1.id, teacher.id, a1.startsAt.getTime(), a1.startsAt.getTime() + 60 * MIN);
  await attend(a2.id, teacher.id, a2.startsAt.getTime(), a2.startsAt.getTime() + 45 * MIN);
  // Open since 10:40, its session ended at 11:00: counted until 11:10 (the grace), 30 minutes.
  await attend(leftOpen.id, teacher.id, leftOpen.startsAt.getTime() + 40 * MIN, null);
  await attend(old.id, lee.id, old.startsAt.getTime(), old.startsAt.getTime() + 60 * MIN);

  const recording = await readyRecording(t, { recordedBy: teacher.id, courseId: courseA.id, sessionId: a2.id, durationSeconds: 600 });
  for (let i = 0; i < 2; i++) {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/classes/recordings/${recording.id}/progress/`,
      headers: sam.headers,
      payload: { position_seconds: 600, spans: [[0, 600]] },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.watched_seconds).toBe(600);
  }

  const [essay, quiz] = await t.db
    .insert(assignments)
    .values([
      { courseId: courseA.id, title: 'Essay', createdBy: teacher.id, dueAt: new Date(now + 3 * DAY) },
      { courseId: courseA.id, title: 'Quiz', createdBy: teacher.id, dueAt: new Date(now + 1 * DAY) },
    ])
    .returning();
  await t.db.insert(submissions).values([
    { assignmentId: essay!.id, userId: sam.id, text: 'Mine', submittedAt: new Date(now - HOUR) },
    { assignmentId: essay!.id, userId: kim.id, text: 'Hers', status: 'reviewed', grade: 80, reviewedBy: teacher.id, reviewedAt: new Date(now) },
  ]);
  return { now, today, teacher, sam, kim, lee, courseA, courseB, a1, a2, missed, leftOpen, live, upcoming, essay: essay!, quiz: quiz!, recording };
}

describe('the student dashboard', () => {
  it("adds up a student's history: live and watched hours, the 7-day trend, assignments, skills, the next class", async () => {
    const h = await history();
    const res = await get('/api/dashboard/student/', h.sam.headers);
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data.student_name).toBe('Sam Person');
    expect(data.tz).toBe('UTC');
    // 30 minutes live + 10 minutes watched, though watched twice.
    expect(close(data.learning_stats.total_learning_hours)).toBe(close(40 / 60));
    expect(close(data.live_hours)).toBe(0.5);
    expect(close(data.recording_hours)).toBe(close(10 / 60));
    expect(await t.db.select().from(watchLog).where(eq(watchLog.userId, h.sam.id))).toMatchObject([
      { recordingId: h.recording.id, courseId: h.courseA.id, seconds: 600 },
    ]);
    expect(data.learning_stats.assignments_total).toBe(2);
    expect(data.learning_stats.assignments_completed).toBe(1);
    expect(data.assignments_due).toEqual([
      { id: h.quiz.id, title: 'Quiz', course_id: h.courseA.id, course_name: 'Course A', due_at: h.quiz.dueAt!.toISOString() },
    ]);
    // Last 7 UTC days, today last: the attendance four days ago, the watching today.
    expect(data.weekly_learning_trends.map((d: { date: string }) => d.date)).toEqual(
      Array.from({ length: 7 }, (_, i) => isoDay(h.today + (i - 6) * DAY)),
    );
    expect(data.weekly_learning_trends.map((d: { hours: number }) => close(d.hours))).toEqual([0, 0, 0.5, 0, 0, 0, close(10 / 60)]);
    // A: both sessions done (attended, watched) = 100; B: 0 of its 3 sessions so far; Playwright takes the higher.
    expect(data.skills).toEqual([
      { name: 'Vitest', level: 100 },
      { name: 'Playwright', level: 100 },
      { name: 'Docker', level: 0 },
    ]);
    expect(data.next_class).toMatchObject({ id: h.live.id, title: 'B live', status: 'live', can_join: true, course_name: 'Course B', teacher_name: 'Tess Person' });
    // A's batch has ended: Sam did both its sessions (over the threshold) and earned its certificate; Kim did none.
    expect(data.certificates).toEqual([
      {
        id: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{16}$/),
        course_name: 'Course A',
        issued_at: expect.any(String),
        url: `/api/certificates/${data.certificates[0]?.id}/pdf/`,
        verify_url: `/certificates/${data.certificates[0]?.id}`,
      },
    ]);
    const kims = (await get('/api/dashboard/student/', h.kim.headers)).json().data;
    expect(kims.certificates).toEqual([]);
    expect(kims.skills).toEqual([
      { name: 'Vitest', level: 0 },
      { name: 'Playwright', level: 0 },
    ]);
    expect(kims.learning_stats).toEqual({ total_learning_hours: 0, assignments_completed: 1, assignments_total: 2 });
    expect(kims.assignments_due.map((d: { title: string }) => d.title)).toEqual(['Quiz']);
    // Read again: the certificate is not issued twice.
    expect((await get('/api/dashboard/student/', h.sam.headers)).json().data.certificates).toEqual(data.certificates);
  });

  it("lists the student's certificates, newest first, with the PDF and the verification page; not another's nor a revoked one", async () => {
    const h = await history();
    await t.db.insert(certificates).values([
      { id: 'AAAAAAAAAAAAAAA1', userId: h.sam.id, courseId: h.courseB.id, kind: 'awarded', studentName: 'Sam', courseName: 'Course B', teacherName: 'Tess', issuedAt: new Date(h.now - DAY) },
      { id: 'AAAAAAAAAAAAAAA2', userId: h.kim.id, courseId: h.courseB.id, kind: 'awarded', studentName: 'Kim', courseName: 'Course B', teacherName: 'Tess' },
      { id: 'AAAAAAAAAAAAAAA3', userId: h.sam.id, courseId: h.courseA.id, kind: 'awarded', studentName: 'Sam', courseName: 'Course A', teacherName: 'Tess', revokedAt: new Date() },
    ]);
    const data = (await get('/api/dashboard/student/', h.sam.headers)).json().data;
    const mine = data.certificates.filter((c: { id: string }) => c.id.startsWith('AAAA'));
    expect(mine).toEqual([
      {
        id: 'AAAAAAAAAAAAAAA1',
        course_name: 'Course B',
        issued_at: new Date(h.now - DAY).toISOString(),
        url: '/api/certificates/AAAAAAAAAAAAAAA1/pdf/',
        verify_url: '/certificates/AAAAAAAAAAAAAAA1',
      },
    ]);
  });

  it('counts the graded polls of the classes of its courses as quizzes: held, answered, answered right', async () => {
    const h = await history();
    const poll = async (sessionId: number | null, graded: boolean, correct: number[] = []) => {
      const [row] = await t.db
        .insert(polls)
        .values({ roomId: randomUUID(), sessionId, openedBy: h.teacher.id, question: 'Which?', kind: graded && correct.length > 1 ? 'multiple' : 'single', options: ['a', 'b', 'c'], anonymous: true, graded, correct })
        .returning();
      return row!.id;
    };
    const answer = (pollId: number, userId: number, choices: number[]) => t.db.insert(pollAnswers).values({ pollId, userId, userName: 'S', choices, text: '' });
    const quizzes = async (headers: Record<string, string>) => (await get('/api/dashboard/student/', headers)).json().data.quizzes;
    expect(await quizzes(h.sam.headers)).toEqual({ total: 0, answered: 0, correct: 0 });

    const right = await poll(h.a1.id, true, [1]);
    const both = await poll(h.a2.id, true, [0, 2]);
    await poll(h.a2.id, true, [2]);
    const ungraded = await poll(h.a1.id, false);
    await answer(right, h.sam.id, [1]);
    await answer(both, h.sam.id, [0, 2]);
    await answer(ungraded, h.sam.id, [0]);
    await answer(right, h.kim.id, [0]);
    // Another course's class, and an ad hoc room's: not Sam's quizzes.
    const other = await createCourse(t, h.teacher.headers, { name: 'Course C' });
    const [elsewhere] = await t.db.select({ id: classSessions.id }).from(classSessions).where(eq(classSessions.courseId, other.id)).limit(1);
    await answer(await poll(elsewhere?.id ?? null, true, [0]), h.sam.id, [0]);
    await answer(await poll(null, true, [0]), h.sam.id, [0]);

    expect(await quizzes(h.sam.headers)).toEqual({ total: 3, answered: 2, correct: 2 });
    expect(await quizzes(h.kim.headers)).toEqual({ total: 3, answered: 1, correct: 0 });
  });

  it('reads well for a brand-new student: zeros, seven empty days, nothing due', async () => {
    const student = await signedIn(t, 'student');
    const res = await get('/api/dashboard/student/?tz=Asia/Kolkata', student.headers);
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({
      student_name: 'Test Person',
      learning_stats: { total_learning_hours: 0, assignments_completed: 0, assignments_total: 0 },
      skills: [],
      certificates: [],
      live_hours: 0,
      recording_hours: 0,
      next_class: null,
      assignments_due: [],
      tz: 'Asia/Kolkata',
    });
    expect(data.weekly_learning_trends).toHaveLength(7);
    expect(data.weekly_learning_trends.every((d: { hours: number }) => d.hours === 0)).toBe(true);
  });

  it('refuses an unknown zone (400 naming tz), a bad student_id (400), and asks for a token (401)', async () => {
    const student = await signedIn(t, 'student');
    const bad = await get('/api/dashboard/student/?tz=Mars/Base', student.headers);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ message: 'Unknown time zone', errors: { tz: ['Unknown time zone'] } });
    expect((await get(`/api/dashboard/student/?tz=${'A'.repeat(65)}`, student.headers)).statusCode).toBe(400);
    expect((await get('/api/dashboard/student/?student_id=abc', student.headers)).statusCode).toBe(400);
    const anonymous = await get('/api/dashboard/student/');
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().message).toBe('No access token found');
    expect((await get('/api/dashboard/teacher/')).json().message).toBe('No access token found');
  });
});

describe('the teacher dashboard', () => {
  it("adds up the teacher's history: hours taught, active students, upcoming, next and missed classes, reviews", async () => {
    const h = await history();
    const res = await get('/api/dashboard/teacher/', h.teacher.headers);
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    // 60 + 45 minutes, and the room left open: 30 minutes up to the end's grace.
    expect(close(data.stats.totalTeachingHours)).toBe(2.25);
    // Sam attended and watched within 30 days; Kim did neither; Lee attended 40 days ago.
    expect(data.stats.activeStudents).toBe(1);
    expect(data.stats.upcomingClasses).toBe(2);
    expect(data.upcomingWeek).toBe(1);
    expect(data.stats.nextClass).toMatchObject({ id: h.live.id, status: 'live', can_join: true });
    expect(data.stats.missingClasses).toBe(2);
    expect(data.missedClasses.map((s: { title: string }) => s.title)).toEqual(['B missed', 'A old']);
    expect(data.weeklyTrends.map((d: { hours: number }) => close(d.hours))).toEqual([0, 0, 1, 0.75, 0, 0.5, 0]);
    expect(data.pendingReviewsTotal).toBe(1);
    expect(data.pendingReviews).toEqual([
      {
        submission_id: expect.any(Number),
        assignment_id: h.essay.id,
        assignment_title: 'Essay',
        course_id: h.courseA.id,
        course_name: 'Course A',
        student_name: 'Sam Person',
        submitted_at: new Date(h.now - HOUR).toISOString(),
      },
    ]);
    expect(data.teacherName).toBe('Tess Person');
    expect(data.tz).toBe('UTC');
  });

  it("shows a teacher nothing of another teacher's courses", async () => {
    await history();
    const other = await person('teacher', 'Otto');
    const data = (await get('/api/dashboard/teacher/?tz=Europe/Berlin', other.headers)).json().data;
    expect(data).toMatchObject({
      stats: { totalTeachingHours: 0, activeStudents: 0, upcomingClasses: 0, nextClass: null, missingClasses: 0 },
      upcomingWeek: 0,
      missedClasses: [],
      pendingReviews: [],
      pendingReviewsTotal: 0,
      teacherName: 'Otto Person',
      tz: 'Europe/Berlin',
    });
  });
});

describe('who may read which dashboard', () => {
  it('gives 403 to a student on the teacher dashboard, a teacher on the student one, and anyone but an admin naming someone', async () => {
    const h = await history();
    expect((await get('/api/dashboard/teacher/', h.sam.headers)).statusCode).toBe(403);
    expect((await get('/api/dashboard/student/', h.teacher.headers)).statusCode).toBe(403);
    expect((await get(`/api/dashboard/student/?student_id=${h.kim.id}`, h.sam.headers)).statusCode).toBe(403);
    expect((await get(`/api/dashboard/student/?student_id=${h.sam.id}`, h.sam.headers)).statusCode).toBe(403);
    const other = await person('teacher', 'Otto');
    expect((await get(`/api/dashboard/teacher/?teacher_id=${h.teacher.id}`, other.headers)).statusCode).toBe(403);
  });

  it("lets an admin read the whole platform's dashboards, or one student's or teacher's (404 for anyone else)", async () => {
    const h = await history();
    const admin = await person('admin', 'Ada');
    const platform = (await get('/api/dashboard/student/', admin.headers)).json().data;
    // Sam's 40 minutes and Lee's hour; every student's assignments: Sam's 2 and Kim's 2, one submitted each.
    expect(platform.student_name).toBe('');
    expect(close(platform.learning_stats.total_learning_hours)).toBe(close(100 / 60));
    expect(platform.learning_stats).toMatchObject({ assignments_total: 4, assignments_completed: 2 });
    expect(platform.skills).toEqual([]);
    expect(platform.assignments_due).toEqual([]);
    expect(platform.next_class).toMatchObject({ id: h.live.id });

    const sams = (await get(`/api/dashboard/student/?student_id=${h.sam.id}`, admin.headers)).json().data;
    const own = (await get('/api/dashboard/student/', h.sam.headers)).json().data;
    expect(sams).toEqual(own);
    expect((await get(`/api/dashboard/student/?student_id=${h.teacher.id}`, admin.headers)).statusCode).toBe(404);
    expect((await get('/api/dashboard/student/?student_id=999999', admin.headers)).statusCode).toBe(404);

    const teachers = (await get('/api/dashboard/teacher/', admin.headers)).json().data;
    expect(teachers.teacherName).toBeNull();
    expect(close(teachers.stats.totalTeachingHours)).toBe(2.25);
    expect(teachers.stats).toMatchObject({ activeStudents: 1, upcomingClasses: 2, missingClasses: 2 });
    expect(teachers.pendingReviewsTotal).toBe(1);
    const tess = (await get(`/api/dashboard/teacher/?teacher_id=${h.teacher.id}`, admin.headers)).json().data;
    expect(tess).toEqual((await get('/api/dashboard/teacher/', h.teacher.headers)).json().data);
    expect((await get(`/api/dashboard/teacher/?teacher_id=${h.sam.id}`, admin.headers)).statusCode).toBe(404);
  });
});

describe('days in the caller zone', () => {
  async function student() {
    const teacher = await person('teacher', 'Tess');
    const sam = await person('student', 'Sam');
    const course = await createCourse(t, teacher.headers);
    return { teacher, sam, course };
  }
  const trend = async (userId: number, tz: string, now: string) => {
    const { data } = await createDashboardsService({ db: t.db }).student({ id: userId, userType: 'student' }, { tz }, new Date(now));
    return Object.fromEntries(data.weekly_learning_trends.map((d) => [d.date, close(d.hours)]));
  };

  it('splits a class that crosses local midnight between the two days', async () => {
    const { sam, course } = await student();
    const s = await session(course.id, 'Late', Date.parse('2026-11-20T18:00:00Z'), 60);
    await attend(s.id, sam.id, Date.parse('2026-11-20T18:00:00Z'), Date.parse('2026-11-20T19:00:00Z'));
    // 23:30 to 00:30 in India.
    const india = await trend(sam.id, 'Asia/Kolkata', '2026-11-22T06:00:00Z');
    expect(india).toMatchObject({ '2026-11-20': 0.5, '2026-11-21': 0.5, '2026-11-22': 0 });
    expect(Object.keys(india)).toHaveLength(7);
    expect(await trend(sam.id, 'UTC', '2026-11-22T06:00:00Z')).toMatchObject({ '2026-11-20': 1, '2026-11-21': 0 });
  });

  it('counts 23 hours in the day the clocks go forward and 25 in the day they go back', async () => {
    const { sam, course } = await student();
    const berlin = await session(course.id, 'Marathon', Date.parse('2026-03-28T22:00:00Z'), 480);
    // 23:00 on the 28th to 00:30 on the 30th, Berlin time.
    await attend(berlin.id, sam.id, Date.parse('2026-03-28T22:00:00Z'), Date.parse('2026-03-29T22:30:00Z'));
    expect(await trend(sam.id, 'Europe/Berlin', '2026-03-30T10:00:00Z')).toEqual({
      '2026-03-24': 0,
      '2026-03-25': 0,
      '2026-03-26': 0,
      '2026-03-27': 0,
      '2026-03-28': 1,
      '2026-03-29': 23,
      '2026-03-30': 0.5,
    });
    const york = await session(course.id, 'Marathon 2', Date.parse('2026-11-01T03:00:00Z'), 480);
    // 23:00 on 31 October (EDT) to 01:00 on 2 November (EST), New York time.
    await attend(york.id, sam.id, Date.parse('2026-11-01T03:00:00Z'), Date.parse('2026-11-02T06:00:00Z'));
    expect(await trend(sam.id, 'America/New_York', '2026-11-02T12:00:00Z')).toMatchObject({ '2026-10-31': 1, '2026-11-01': 25, '2026-11-02': 1 });
  });

  it('puts the same watched minutes on different dates at UTC+14 and UTC-11, on the day they were logged', async () => {
    const { teacher, sam, course } = await student();
    const recording = await readyRecording(t, { recordedBy: teacher.id, courseId: course.id, durationSeconds: 900 });
    await t.db.insert(watchLog).values({ userId: sam.id, recordingId: recording.id, courseId: course.id, watchedAt: new Date('2026-11-20T09:30:00Z'), seconds: 900 });
    const now = '2026-11-20T10:00:00Z';
    const kiritimati = await trend(sam.id, 'Pacific/Kiritimati', now);
    const pagoPago = await trend(sam.id, 'Pacific/Pago_Pago', now);
    expect(Object.keys(kiritimati).at(-1)).toBe('2026-11-21');
    expect(kiritimati).toMatchObject({ '2026-11-20': 0.25, '2026-11-21': 0 });
    expect(Object.keys(pagoPago).at(-1)).toBe('2026-11-19');
    expect(pagoPago).toMatchObject({ '2026-11-19': 0.25 });
  });

  it('counts a row still open up to now, and never past its session end and the grace', async () => {
    const { sam, course } = await student();
    const s = await session(course.id, 'Open', Date.parse('2026-11-20T10:00:00Z'), 60);
    await attend(s.id, sam.id, Date.parse('2026-11-20T10:00:00Z'), null);
    const service = createDashboardsService({ db: t.db });
    const at = async (now: string) =>
      close((await service.student({ id: sam.id, userType: 'student' }, {}, new Date(now))).data.learning_stats.total_learning_hours);
    expect(await at('2026-11-20T10:30:00Z')).toBe(0.5);
    expect(await at('2026-11-20T11:05:00Z')).toBe(close(65 / 60));
    expect(await at('2026-11-21T10:00:00Z')).toBe(close(70 / 60));
  });
});

describe('learning totals kept by the database', () => {
  /** learning_totals' row of a user beside the same sums worked out from attendance and watch_log. */
  async function keptAndCounted(userId: number) {
    const result = await t.db.execute(sql`select
        (select coalesce(live_seconds, 0)::float8 from learning_totals where user_id = ${userId}) as kept_live,
        (select coalesce(watched_seconds, 0)::float8 from learning_totals where user_id = ${userId}) as kept_watched,
        (select coalesce(sum(extract(epoch from left_at - joined_at)), 0)::float8 from attendance where user_id = ${userId} and left_at > joined_at) as live,
        (select coalesce(sum(seconds::numeric), 0)::float8 from watch_log where user_id = ${userId}) as watched`);
    const row = (result as unknown as { rows: Record<string, number | null>[] }).rows[0]!;
    return { kept: [Number(row.kept_live ?? 0), Number(row.kept_watched ?? 0)], counted: [Number(row.live), Number(row.watched)] };
  }

  it('follow every insert, update and delete of attendance and watch_log, whoever writes them, and the hours with them', async () => {
    const teacher = await person('teacher', 'Tess');
    const sam = await person('student', 'Sam');
    const kim = await person('student', 'Kim');
    const course = await createCourse(t, teacher.headers);
    const recording = await readyRecording(t, { recordedBy: teacher.id, courseId: course.id, durationSeconds: 3600 });
    const start = Date.parse('2026-11-02T10:00:00Z');
    const first = await session(course.id, 'First', start, 60);
    const second = await session(course.id, 'Second', start + DAY, 60);
    await attend(first.id, sam.id, start, start + 30 * MIN);
    // Open (counted at each call, not kept), a span that ends before it starts (never counted), and another student's.
    await attend(second.id, sam.id, start + DAY, null);
    await attend(second.id, sam.id, start + DAY + 10 * MIN, start + DAY + 5 * MIN);
    await attend(first.id, kim.id, start, start + 60 * MIN);
    expect(await keptAndCounted(sam.id)).toEqual({ kept: [1800, 0], counted: [1800, 0] });

    // The open row closes after 20 minutes; a join time corrected; a row moved to another person.
    await t.db.update(attendance).set({ leftAt: new Date(start + DAY + 20 * MIN) }).where(and(eq(attendance.userId, sam.id), isNull(attendance.leftAt)));
    await t.db.update(attendance).set({ joinedAt: new Date(start + 10 * MIN) }).where(and(eq(attendance.userId, sam.id), eq(attendance.sessionId, first.id)));
    await t.db.update(attendance).set({ userId: sam.id }).where(eq(attendance.userId, kim.id));
    expect(await keptAndCounted(sam.id)).toEqual({ kept: [1200 + 1200 + 3600, 0], counted: [6000, 0] });
    expect(await keptAndCounted(kim.id)).toEqual({ kept: [0, 0], counted: [0, 0] });

    await t.db.insert(watchLog).values([
      { userId: sam.id, recordingId: recording.id, courseId: course.id, watchedAt: new Date(start), seconds: 12.5 },
      { userId: sam.id, recordingId: recording.id, courseId: course.id, watchedAt: new Date(start + HOUR), seconds: 600 },
    ]);
    await t.db.update(watchLog).set({ seconds: 300 }).where(eq(watchLog.seconds, 600));
    expect(await keptAndCounted(sam.id)).toEqual({ kept: [6000, 312.5], counted: [6000, 312.5] });

    // A deleted session takes its attendance with it (a cascade), a deleted recording its watch log.
    await t.db.delete(classSessions).where(eq(classSessions.id, second.id));
    await t.db.delete(watchLog).where(eq(watchLog.seconds, 12.5));
    expect(await keptAndCounted(sam.id)).toEqual({ kept: [4800, 300], counted: [4800, 300] });
    const { data } = await createDashboardsService({ db: t.db }).student({ id: sam.id, userType: 'student' }, { tz: 'UTC' }, new Date(start + 2 * DAY));
    expect(close(data.live_hours)).toBe(close(4800 / 3600));
    expect(close(data.recording_hours)).toBe(close(300 / 3600));
    expect(close(data.learning_stats.total_learning_hours)).toBe(close(5100 / 3600));

    await t.db.execute(sql`truncate attendance, watch_log`);
    expect(await keptAndCounted(sam.id)).toEqual({ kept: [0, 0], counted: [0, 0] });
  });
});

describe("a student's kept numbers", () => {
  /** Everything but the next class, which is read afresh each time. */
  const numbers = ({ next_class: _, ...rest }: Record<string, unknown>) => rest;
  const fresh = async (userId: number) => (await createDashboardsService({ db: t.db }).student({ id: userId, userType: 'student' }, {}, new Date())).data;

  it('are dropped by an attendance, a watch and a submission: each read then equals a fresh computation', async () => {
    const h = await history();
    const read = async () => (await get('/api/dashboard/student/', h.sam.headers)).json().data;
    const first = await read();
    expect(numbers(await read())).toEqual(numbers(first));
    expect(close(first.live_hours)).toBe(0.5);

    // Sam attends B's class of two days ago for 20 minutes: 1 of B's 3 classes so far.
    await attend(h.missed.id, h.sam.id, h.missed.startsAt.getTime(), h.missed.startsAt.getTime() + 20 * MIN);
    const attended = await read();
    expect(close(attended.live_hours)).toBe(close(50 / 60));
    expect(attended.skills).toContainEqual({ name: 'Docker', level: 33 });
    expect(attended.weekly_learning_trends[4].hours).toBeCloseTo(20 / 60, 9);
    expect(numbers(attended)).toEqual(numbers(await fresh(h.sam.id)));

    // Sam watches half of the recording of B's class left open yesterday: 2 of 3.
    const recording = await readyRecording(t, { recordedBy: h.teacher.id, courseId: h.courseB.id, sessionId: h.leftOpen.id, durationSeconds: 600 });
    const watched = await t.app.inject({
      method: 'POST',
      url: `/api/classes/recordings/${recording.id}/progress/`,
      headers: h.sam.headers,
      payload: { position_seconds: 300, spans: [[0, 300]] },
    });
    expect(watched.statusCode, watched.body).toBe(200);
    const afterWatch = await read();
    expect(close(afterWatch.recording_hours)).toBe(0.25);
    expect(afterWatch.skills).toContainEqual({ name: 'Docker', level: 67 });
    expect(numbers(afterWatch)).toEqual(numbers(await fresh(h.sam.id)));

    // Sam submits the quiz: nothing left due.
    await t.db.insert(submissions).values({ assignmentId: h.quiz.id, userId: h.sam.id, text: 'Quiz answers' });
    const submitted = await read();
    expect(submitted.learning_stats).toMatchObject({ assignments_completed: 2, assignments_total: 2 });
    expect(submitted.assignments_due).toEqual([]);
    expect(numbers(submitted)).toEqual(numbers(await fresh(h.sam.id)));
  });

  /** A change bus that tells only when told to. */
  function quietBus() {
    const listeners: { tables: readonly string[]; listener: () => void }[] = [];
    return {
      onTables: (tables: readonly string[], listener: () => void) => void listeners.push({ tables, listener }),
      written: (table: string) => listeners.filter((l) => l.tables.includes(table)).forEach((l) => l.listener()),
    };
  }

  async function enrolled(zone = 'UTC') {
    const teacher = await person('teacher', 'Tess');
    const sam = await person('student', 'Sam');
    const course = await createCourse(t, teacher.headers, { skills: ['Vitest'] });
    await t.db.delete(classSessions).where(eq(classSessions.courseId, course.id));
    await t.db.update(courses).set({ timeZone: zone }).where(eq(courses.id, course.id));
    const batch = await batchOf(course.id, '2026-11-10', '2026-11-20');
    await subscribe(sam.id, course.id, batch);
    const first = await session(course.id, 'First', Date.parse('2026-11-15T10:00:00Z'), 60, { batchId: batch.id });
    await attend(first.id, sam.id, Date.parse('2026-11-15T10:00:00Z'), Date.parse('2026-11-15T11:00:00Z'));
    return { teacher, sam, course, batch };
  }

  it('watch every table they are read from, and hold until a write is told or the time to live runs out', async () => {
    const { sam, course, batch } = await enrolled();
    const bus = quietBus();
    const service = createDashboardsService({ db: t.db, changes: bus, cacheTtlMs: 5000 });
    const at = async (ms: number) => (await service.student({ id: sam.id, userType: 'student' }, {}, new Date(ms))).data.live_hours;
    const t0 = Date.parse('2026-11-18T10:00:00Z');
    expect(await at(t0)).toBe(1);
    const other = await session(course.id, 'Other', Date.parse('2026-11-16T10:00:00Z'), 60, { batchId: batch.id });
    await attend(other.id, sam.id, Date.parse('2026-11-16T10:00:00Z'), Date.parse('2026-11-16T10:30:00Z'));
    // Not told: the kept answer, within its time to live.
    expect(await at(t0 + 1000)).toBe(1);
    expect(await at(t0 + 5001)).toBe(1.5);
    await attend(other.id, sam.id, Date.parse('2026-11-16T10:30:00Z'), Date.parse('2026-11-16T11:00:00Z'));
    expect(await at(t0 + 5002)).toBe(1.5);
    bus.written('attendance');
    expect(await at(t0 + 5003)).toBe(2);
    for (const table of ['attendance', 'watch_log', 'assignment_submissions', 'assignments', 'recording_views', 'certificates', 'class_sessions', 'subscriptions']) {
      expect(studentTables).toContain(table);
    }
  });

  it('are not kept while a row still open counts up to now', async () => {
    const { sam, course } = await enrolled();
    const s = await session(course.id, 'Open', Date.parse('2026-11-20T10:00:00Z'), 60);
    await attend(s.id, sam.id, Date.parse('2026-11-20T10:00:00Z'), null);
    const service = createDashboardsService({ db: t.db, changes: quietBus() });
    const at = async (now: string) => close((await service.student({ id: sam.id, userType: 'student' }, {}, new Date(now))).data.live_hours);
    expect(await at('2026-11-20T10:30:00Z')).toBe(close(1 + 30 / 60));
    expect(await at('2026-11-20T10:30:01Z')).toBe(close(1 + 30 / 60 + 1 / 3600));
    // Past the end and the grace the row is done counting: kept from then on.
    expect(await at('2026-11-20T11:10:00Z')).toBe(close(1 + 70 / 60));
    expect(await at('2026-11-20T11:10:02Z')).toBe(close(1 + 70 / 60));
  });

  it('hold until the next class of their courses starts, the caller\'s midnight and the course zone\'s midnight', async () => {
    const { sam, course, batch } = await enrolled('Pacific/Kiritimati');
    await session(course.id, 'Second', Date.parse('2026-11-17T10:00:00Z'), 60, { batchId: batch.id });
    const service = createDashboardsService({ db: t.db, changes: quietBus(), earnCertificates: earnDueCertificates });
    const at = async (now: string, tz = 'UTC') => (await service.student({ id: sam.id, userType: 'student' }, { tz }, new Date(now))).data;
    // The second class starts at 10:00: 1 of 1, then 1 of 2.
    expect((await at('2026-11-17T09:59:58Z')).skills).toEqual([{ name: 'Vitest', level: 100 }]);
    expect((await at('2026-11-17T10:00:00Z')).skills).toEqual([{ name: 'Vitest', level: 50 }]);
    // The next class: kept while it has not ended, its status worked out at each call.
    const soon = await session(course.id, 'Soon', Date.parse('2026-11-17T12:00:00Z'), 60, { batchId: batch.id });
    const later = await session(course.id, 'Later', Date.parse('2026-11-18T12:00:00Z'), 60, { batchId: batch.id });
    const service3 = createDashboardsService({ db: t.db, changes: quietBus() });
    const next = async (now: string) => (await service3.student({ id: sam.id, userType: 'student' }, {}, new Date(now))).data.next_class;
    expect(await next('2026-11-17T11:59:59Z')).toMatchObject({ id: soon.id, status: 'scheduled' });
    expect(await next('2026-11-17T12:00:01Z')).toMatchObject({ id: soon.id, status: 'live' });
    expect(await next('2026-11-17T13:00:01Z')).toMatchObject({ id: later.id, status: 'scheduled' });
    // The caller's week moves on at their midnight.
    expect((await at('2026-11-17T23:59:59Z')).weekly_learning_trends.at(-1)!.date).toBe('2026-11-17');
    expect((await at('2026-11-18T00:00:01Z')).weekly_learning_trends.at(-1)!.date).toBe('2026-11-18');
    // The batch ends on the 20th in Kiritimati (UTC+14), whose 21st starts at 10:00 UTC: with all its
    // classes attended, the certificate is earned from then, though the caller's (UTC) day goes on.
    const third = await session(course.id, 'Third', Date.parse('2026-11-19T10:00:00Z'), 60, { batchId: batch.id });
    const second = (await t.db.select().from(classSessions).where(eq(classSessions.title, 'Second')))[0]!;
    await attend(second.id, sam.id, second.startsAt.getTime(), second.endsAt.getTime());
    for (const s of [third, soon, later]) await attend(s.id, sam.id, s.startsAt.getTime(), s.endsAt.getTime());
    const service2 = createDashboardsService({ db: t.db, changes: quietBus(), earnCertificates: earnDueCertificates });
    const at2 = async (now: string) => (await service2.student({ id: sam.id, userType: 'student' }, { tz: 'UTC' }, new Date(now))).data;
    expect((await at2('2026-11-20T09:59:59Z')).certificates).toEqual([]);
    expect((await at2('2026-11-20T10:00:01Z')).certificates).toMatchObject([{ course_name: course.name }]);
  });
});
