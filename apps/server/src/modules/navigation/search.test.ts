import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { appPerTest } from '../../../test/app';
import { signedIn } from '../../../test/accounts';
import { classSessions, courses, recordings, subscriptions, users } from '../../db/schema/index';
import { perKind } from './search';

const t = appPerTest();

type Headers = Record<string, string>;
interface Result {
  id: string;
  kind: string;
  title: string;
  subtitle: string | null;
  link: string;
  rank: number;
  highlights: { title: [number, number][]; subtitle: [number, number][] };
  isBookmarked: boolean;
}
const search = (query: string, headers: Headers) => t.app.inject({ method: 'GET', url: `/api/search/?${query}`, headers });
async function found(q: string, headers: Headers, more = '') {
  const res = await search(`q=${encodeURIComponent(q)}${more}`, headers);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { query: string; total: number; results: Result[] };
}
const titles = async (q: string, headers: Headers, more = '') => (await found(q, headers, more)).results.map((r) => r.title);

const DAY = 86_400_000;
async function sessionIn(courseId: number, title: string, cancelled = false) {
  const startsAt = new Date(Date.now() + DAY);
  const [row] = await t.db
    .insert(classSessions)
    .values({ courseId, title, startsAt, endsAt: new Date(startsAt.getTime() + 3_600_000), roomId: randomUUID(), cancelledAt: cancelled ? new Date() : null })
    .returning();
  return row!;
}
async function rename(userId: number, firstName: string, lastName: string) {
  await t.db.update(users).set({ firstName, lastName }).where(eq(users.id, userId));
}
/**
 * A course written straight to the database: only what search reads, and no batches or generated
 * sessions, so each test holds exactly the sessions it makes.
 */
async function createCourse(
  teacher: { user: { id: number } },
  fields: { name: string; description?: string; skills?: string[]; published?: boolean },
) {
  const [row] = await t.db
    .insert(courses)
    .values({ description: 'A course.', price: 100_000, durationWeeks: 4, teacherId: teacher.user.id, ...fields })
    .returning();
  return row!;
}
/** An active subscription, as a verified payment leaves it. */
async function buy(student: { user: { id: number } }, course: { id: number }) {
  await t.db.insert(subscriptions).values({
    id: randomUUID(),
    userId: student.user.id,
    courseId: course.id,
    batch: 'weekdays',
    startDate: '2030-01-07',
    endDate: '2030-02-01',
    status: 'active',
    amount: 100_000,
    currency: 'INR',
    orderId: `order_${randomUUID()}`,
  });
}
/** A recording row as the recorder leaves it: ready (listed) unless said otherwise; no course for a meeting's. */
async function recordingOf(
  recorder: { user: { id: number } },
  title: string,
  place: { courseId: number | null; sessionId?: number; status?: 'recording' | 'processing' | 'ready' },
) {
  const ready = (place.status ?? 'ready') === 'ready';
  const [row] = await t.db
    .insert(recordings)
    .values({
      title,
      courseId: place.courseId,
      sessionId: place.sessionId ?? null,
      roomId: randomUUID(),
      recordedBy: recorder.user.id,
      source: 'upload',
      status: place.status ?? 'ready',
      storageKey: ready ? `recordings/${randomUUID()}.webm` : null,
      durationSeconds: ready ? 60 : 0,
      readyAt: ready ? new Date() : null,
    })
    .returning();
  return row!;
}
async function endTrial(userId: number) {
  await t.db.update(users).set({ trialEndsAt: new Date(Date.now() - 60_000) }).where(eq(users.id, userId));
}

describe('finding courses', () => {
  it('ranks an exact name above a name that contains the word, and both above a description that mentions it', async () => {
    const teacher = await signedIn(t, 'teacher');
    await createCourse(teacher, { name: 'Data Science', description: 'Numbers, with a little python on the side.' });
    await createCourse(teacher, { name: 'Advanced Python Patterns' });
    await createCourse(teacher, { name: 'Python' });
    await createCourse(teacher, { name: 'Watercolour' });
    const student = await signedIn(t, 'student');
    const { results, total } = await found('python', student.headers);
    expect(results.map((r) => r.title)).toEqual(['Python', 'Advanced Python Patterns', 'Data Science']);
    expect(total).toBe(3);
    expect(results[0]!.rank).toBeGreaterThan(results[1]!.rank);
    expect(results[1]!.rank).toBeGreaterThan(results[2]!.rank);
    expect(results[1]).toMatchObject({
      kind: 'course',
      subtitle: 'Test Person',
      link: expect.stringMatching(/^\/courses\/\d+$/),
      id: expect.stringMatching(/^course:\d+$/),
      highlights: { title: [[9, 15]], subtitle: [] },
      isBookmarked: false,
    });
  });

  it('finds with several words only what matches every one of them', async () => {
    const teacher = await signedIn(t, 'teacher');
    await createCourse(teacher, { name: 'Advanced Python Patterns' });
    await createCourse(teacher, { name: 'Advanced Watercolour' });
    await createCourse(teacher, { name: 'Python for Everyone' });
    const student = await signedIn(t, 'student');
    expect(await titles('advanced python', student.headers)).toEqual(['Advanced Python Patterns']);
    expect(await titles('advnced pythn', student.headers)).toEqual(['Advanced Python Patterns']);
  });

  it('forgives typos: "pyhton" finds Python, "javscript" JavaScript, and highlights the word', async () => {
    const teacher = await signedIn(t, 'teacher');
    await createCourse(teacher, { name: 'Python for Everyone' });
    await createCourse(teacher, { name: 'Modern JavaScript' });
    const student = await signedIn(t, 'student');
    const [python] = (await found('pyhton', student.headers)).results;
    expect(python).toMatchObject({ title: 'Python for Everyone', highlights: { title: [[0, 6]] } });
    expect(await titles('javscript', student.headers)).toEqual(['Modern JavaScript']);
  });

  it('matches prefixes of the name, the description, the skills and the teacher’s name', async () => {
    const teacher = await signedIn(t, 'teacher');
    await rename(teacher.user.id, 'Ada', 'Lovelace');
    await createCourse(teacher, { name: 'Python', description: 'Generators and decorators.', skills: ['Asyncio'] });
    await createCourse(teacher, { name: 'Painting', description: 'Colour.', skills: ['Brushwork'] });
    const student = await signedIn(t, 'student');
    expect(await titles('pyth', student.headers)).toEqual(['Python']);
    expect(await titles('decorat', student.headers)).toEqual(['Python']);
    expect(await titles('brushw', student.headers)).toEqual(['Painting']);
    const byTeacher = await found('lovelace', student.headers);
    expect(byTeacher.results.map((r) => r.title).sort()).toEqual(['Painting', 'Python']);
    expect(byTeacher.results[0]!.highlights.subtitle).toEqual([[4, 12]]);
  });

  it('never shows a student an unpublished or archived course; a teacher sees their own drafts', async () => {
    const teacher = await signedIn(t, 'teacher');
    const other = await signedIn(t, 'teacher');
    await createCourse(teacher, { name: 'Python Draft', published: false });
    const archived = await createCourse(teacher, { name: 'Python Archive' });
    await t.db.update(courses).set({ archivedAt: new Date() }).where(eq(courses.id, archived.id));
    await createCourse(teacher, { name: 'Python Live' });
    const student = await signedIn(t, 'student');
    expect(await titles('python', student.headers)).toEqual(['Python Live']);
    expect((await titles('python', teacher.headers, '&kind=course')).sort()).toEqual(['Python Archive', 'Python Draft', 'Python Live']);
    expect(await titles('python', other.headers)).toEqual(['Python Live']);
    const admin = await signedIn(t, 'admin');
    expect(await titles('python', admin.headers)).toHaveLength(3);
  });

  it('says which courses the caller bookmarked', async () => {
    const teacher = await signedIn(t, 'teacher');
    const course = await createCourse(teacher, { name: 'Python' });
    const student = await signedIn(t, 'student');
    await t.app.inject({ method: 'POST', url: '/api/bookmarks/update', headers: student.headers, payload: { id: `course:${course.id}` } });
    expect((await found('python', student.headers)).results[0]!.isBookmarked).toBe(true);
    const someoneElse = await signedIn(t, 'student');
    expect((await found('python', someoneElse.headers)).results[0]!.isBookmarked).toBe(false);
  });
});

describe('finding sessions', () => {
  it('finds a student the sessions they may list, by title or course name, never cancelled ones', async () => {
    const teacher = await signedIn(t, 'teacher');
    const bought = await createCourse(teacher, { name: 'Rust Basics' });
    const other = await createCourse(teacher, { name: 'Go Basics' });
    const kept = await sessionIn(bought.id, 'Ownership and borrowing');
    await sessionIn(bought.id, 'Borrowing, cancelled', true);
    await sessionIn(other.id, 'Borrowing in Go');
    const student = await signedIn(t, 'student');
    await endTrial(student.user.id);
    expect(await titles('borrowing', student.headers, '&kind=session')).toEqual([]);
    await buy(student, bought);
    const { results } = await found('borrowing', student.headers, '&kind=session');
    expect(results).toEqual([
      expect.objectContaining({
        id: `session:${kept.id}`,
        kind: 'session',
        title: 'Ownership and borrowing',
        subtitle: 'Rust Basics',
        link: `/sessions?session=${kept.id}`,
        highlights: { title: [[14, 23]], subtitle: [] },
      }),
    ]);
    expect(await titles('rust', student.headers, '&kind=session')).toEqual(['Ownership and borrowing']);
  });

  it('finds a student in trial the sessions of every course they can see, not of drafts', async () => {
    const teacher = await signedIn(t, 'teacher');
    const listed = await createCourse(teacher, { name: 'Listed' });
    const draft = await createCourse(teacher, { name: 'Draft', published: false });
    await sessionIn(listed.id, 'Kubernetes intro');
    await sessionIn(draft.id, 'Kubernetes secrets');
    const student = await signedIn(t, 'student');
    expect(await titles('kubernetes', student.headers)).toEqual(['Kubernetes intro']);
  });

  it("finds a teacher only their own courses' sessions", async () => {
    const teacher = await signedIn(t, 'teacher');
    const other = await signedIn(t, 'teacher');
    await sessionIn((await createCourse(teacher, { name: 'Mine' })).id, 'Kubernetes mine');
    await sessionIn((await createCourse(other, { name: 'Theirs' })).id, 'Kubernetes theirs');
    expect(await titles('kubernetes', teacher.headers)).toEqual(['Kubernetes mine']);
  });
});

describe('finding recordings', () => {
  it('finds a student the ready recordings they may watch, by title or course name, with the player link', async () => {
    const teacher = await signedIn(t, 'teacher');
    const bought = await createCourse(teacher, { name: 'Rust Basics' });
    const other = await createCourse(teacher, { name: 'Go Basics' });
    const kept = await recordingOf(teacher, 'Ownership and borrowing', { courseId: bought.id });
    await recordingOf(teacher, 'Borrowing, still processing', { courseId: bought.id, status: 'processing' });
    await recordingOf(teacher, 'Borrowing in Go', { courseId: other.id });
    const student = await signedIn(t, 'student');
    await endTrial(student.user.id);
    expect(await titles('borrowing', student.headers, '&kind=recording')).toEqual([]);
    await buy(student, bought);
    const { results, total } = await found('borrowing', student.headers, '&kind=recording');
    expect(total).toBe(1);
    expect(results).toEqual([
      expect.objectContaining({
        id: `recording:${kept.id}`,
        kind: 'recording',
        title: 'Ownership and borrowing',
        subtitle: 'Rust Basics',
        link: `/recordings/${kept.id}`,
        icon: 'movie',
        highlights: { title: [[14, 23]], subtitle: [] },
        isBookmarked: false,
      }),
    ]);
    expect(await titles('rust', student.headers, '&kind=recording')).toEqual(['Ownership and borrowing']);
    expect(await titles('borowing', student.headers, '&kind=recording')).toEqual(['Ownership and borrowing']);
  });

  it('finds a meeting’s recording for its recorder and admins only', async () => {
    const teacher = await signedIn(t, 'teacher');
    const other = await signedIn(t, 'teacher');
    const mine = await recordingOf(teacher, 'Kubernetes office hours', { courseId: null });
    expect(await found('kubernetes', teacher.headers)).toMatchObject({ total: 1, results: [{ id: `recording:${mine.id}`, subtitle: null }] });
    expect(await titles('kubernetes', other.headers)).toEqual([]);
    expect(await titles('kubernetes', (await signedIn(t, 'student')).headers)).toEqual([]);
    expect(await titles('kubernetes', (await signedIn(t, 'admin')).headers)).toEqual(['Kubernetes office hours']);
  });

  it('finds a student in trial the recordings of open sessions of listed courses, not of drafts', async () => {
    const teacher = await signedIn(t, 'teacher');
    const listed = await createCourse(teacher, { name: 'Listed' });
    const draft = await createCourse(teacher, { name: 'Draft', published: false });
    const open = await recordingOf(teacher, 'Kubernetes intro', { courseId: listed.id, sessionId: (await sessionIn(listed.id, 'Intro')).id });
    await recordingOf(teacher, 'Kubernetes secrets', { courseId: draft.id, sessionId: (await sessionIn(draft.id, 'Secrets')).id });
    const student = await signedIn(t, 'student');
    expect((await found('kubernetes', student.headers)).results.map((r) => r.id)).toEqual([`recording:${open.id}`]);
  });

  it('ranks a recording as a session of the same title, listed after it, and finds a teacher their courses’ recordings', async () => {
    const teacher = await signedIn(t, 'teacher');
    const course = await createCourse(teacher, { name: 'Watercolour' });
    await sessionIn(course.id, 'Python clinic');
    await recordingOf(teacher, 'Python clinic', { courseId: course.id });
    const { results } = await found('python clinic', teacher.headers);
    expect(results.map((r) => r.kind)).toEqual(['session', 'recording']);
    expect(results[0]!.rank).toBe(results[1]!.rank);
  });
});

describe('finding students', () => {
  async function classroom() {
    const teacher = await signedIn(t, 'teacher');
    const other = await signedIn(t, 'teacher');
    const mine = await createCourse(teacher, { name: 'Mine' });
    const theirs = await createCourse(other, { name: 'Theirs' });
    const ours = await signedIn(t, 'student');
    await rename(ours.user.id, 'Maria', 'Santos');
    await buy(ours, mine);
    const notOurs = await signedIn(t, 'student');
    await rename(notOurs.user.id, 'Mario', 'Santos');
    await buy(notOurs, theirs);
    const nobody = await signedIn(t, 'student');
    await rename(nobody.user.id, 'Marta', 'Santos');
    return { teacher, other, mine, ours, notOurs, nobody };
  }

  it('finds a teacher the students of their courses by name, with the course, and nobody else', async () => {
    const { teacher, mine, ours } = await classroom();
    const { results, total } = await found('santos', teacher.headers);
    expect(total).toBe(1);
    expect(results).toEqual([
      expect.objectContaining({
        id: `student:${ours.user.id}`,
        kind: 'student',
        title: 'Maria Santos',
        subtitle: 'Mine',
        link: `/my-courses/${mine.id}/students`,
        highlights: { title: [[6, 12]], subtitle: [] },
        isBookmarked: false,
      }),
    ]);
    expect(await titles('marai', teacher.headers)).toEqual(['Maria Santos']);
  });

  it('never finds a student another student, nor themselves', async () => {
    const { ours } = await classroom();
    expect(await titles('santos', ours.headers)).toEqual([]);
    expect(await titles('santos', ours.headers, '&kind=student')).toEqual([]);
  });

  it('finds an admin every student', async () => {
    const { nobody } = await classroom();
    const admin = await signedIn(t, 'admin');
    const { results } = await found('santos', admin.headers);
    expect(results.map((r) => r.title).sort()).toEqual(['Maria Santos', 'Mario Santos', 'Marta Santos']);
    expect(results.find((r) => r.id === `student:${nobody.user.id}`)).toMatchObject({ subtitle: null, link: '/admin/users?q=Marta%20Santos' });
  });
});

describe('one ranked list, in pages', () => {
  it('pages by limit and offset with the total of all matches, and filters by kind', async () => {
    const teacher = await signedIn(t, 'teacher');
    for (let i = 1; i <= 4; i++) await createCourse(teacher, { name: `Python ${i}` });
    const course = await createCourse(teacher, { name: 'Python 5' });
    await sessionIn(course.id, 'Python clinic');
    const all = await found('python', teacher.headers, '&limit=50');
    expect(all.total).toBe(6);
    const pages = [];
    for (const offset of [0, 2, 4]) {
      const page = await found('python', teacher.headers, `&limit=2&offset=${offset}`);
      expect(page.total).toBe(6);
      expect(page.results).toHaveLength(2);
      pages.push(...page.results.map((r) => r.id));
    }
    expect(pages).toEqual(all.results.map((r) => r.id));
    // Within a kind, by rank.
    const courseRanks = all.results.filter((r) => r.kind === 'course').map((r) => r.rank);
    expect(courseRanks).toEqual([...courseRanks].sort((a, b) => b - a));
    expect(await found('python', teacher.headers, '&offset=10')).toEqual({ query: 'python', total: 6, results: [] });
    expect((await found('python', teacher.headers, '&kind=session')).results.map((r) => r.kind)).toEqual(['session']);
    expect((await found('python', teacher.headers, '&kind=course')).total).toBe(5);
  });

  it('comes a few of each kind at a time, courses first: a course with many sessions is found first, and its sessions do not hide the other kinds', async () => {
    const teacher = await signedIn(t, 'teacher');
    const course = await createCourse(teacher, { name: 'Python' });
    for (let i = 1; i <= 30; i++) await sessionIn(course.id, `Python lab ${i}`);
    await recordingOf(teacher, 'Python lab 1', { courseId: course.id });
    const { total, results } = await found('python', teacher.headers);
    expect(total).toBe(32);
    expect(results).toHaveLength(20);
    expect(results[0]).toMatchObject({ kind: 'course', title: 'Python' });
    // The best perKind sessions, the recording, then the next sessions.
    expect(results.map((r) => r.kind)).toEqual([
      'course',
      ...Array<string>(perKind).fill('session'),
      'recording',
      ...Array<string>(20 - 2 - perKind).fill('session'),
    ]);
  });

  it('answers an empty list for a query without letters or digits, and for nothing found', async () => {
    const student = await signedIn(t, 'student');
    expect(await found('&|!:*', student.headers)).toEqual({ query: '&|!:*', total: 0, results: [] });
    expect(await found('zzzzqqq', student.headers)).toEqual({ query: 'zzzzqqq', total: 0, results: [] });
  });

  it('refuses a bad query with 400 naming the field, and a caller without a token with 401', async () => {
    const student = await signedIn(t, 'student');
    for (const [query, field] of [
      ['', 'q'],
      ['q=', 'q'],
      ['q=%20%20', 'q'],
      [`q=${'a'.repeat(101)}`, 'q'],
      ['q=a%0Ab', 'q'],
      ['q=python&limit=0', 'limit'],
      ['q=python&limit=51', 'limit'],
      ['q=python&limit=two', 'limit'],
      ['q=python&offset=-1', 'offset'],
      ['q=python&kind=lesson', 'kind'],
    ] as const) {
      const res = await search(query, student.headers);
      expect(res.statusCode, query).toBe(400);
      expect(Object.keys(res.json().errors), query).toEqual([field]);
    }
    expect((await search('q=python', {})).statusCode).toBe(401);
  });
});
