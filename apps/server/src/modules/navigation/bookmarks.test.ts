import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { appPerTest } from '../../../test/app';
import { login, signedIn } from '../../../test/accounts';
import { createCourse } from '../../../test/courses';
import { courses } from '../../db/schema/index';

const t = appPerTest();

type Headers = Record<string, string>;
interface Item {
  id: string;
  title: string;
  link: string;
  icon: string;
  isBookmarked: boolean;
}
const data = async (headers: Headers) => {
  const res = await t.app.inject({ method: 'GET', url: '/api/bookmarks/data', headers });
  expect(res.statusCode).toBe(200);
  return res.json().data as { suggestions: Item[]; bookmarks: Item[] };
};
const toggle = (id: unknown, headers: Headers) => t.app.inject({ method: 'POST', url: '/api/bookmarks/update', headers, payload: { id } });
const order = (ids: unknown, headers: Headers) => t.app.inject({ method: 'POST', url: '/api/bookmarks/order', headers, payload: { ids } });
const ids = (items: Item[]) => items.map((i) => i.id);

describe('what can be bookmarked', () => {
  it("offers a student the pages their rules open and the published courses, none bookmarked yet", async () => {
    const teacher = await signedIn(t, 'teacher');
    const listed = await createCourse(t, teacher.headers, { name: 'Listed' });
    await createCourse(t, teacher.headers, { name: 'Draft', published: false });
    const student = await signedIn(t, 'student');
    const { suggestions, bookmarks } = await data(student.headers);
    expect(ids(suggestions)).toEqual(['page:dashboard', 'page:courses', 'page:my-courses', 'page:sessions', 'page:recordings', 'page:meetings', 'page:profile', `course:${listed.id}`]);
    expect(suggestions.at(-1)).toEqual({ id: `course:${listed.id}`, title: 'Listed', link: `/courses/${listed.id}`, icon: 'book', isBookmarked: false });
    expect(suggestions[0]).toEqual({ id: 'page:dashboard', title: 'Dashboard', link: '/dashboard', icon: 'dashboard', isBookmarked: false });
    expect(bookmarks).toEqual([]);
  });

  it("offers a teacher their own unpublished course but not another teacher's, hides archived ones, and offers an admin all", async () => {
    const teacher = await signedIn(t, 'teacher');
    const other = await signedIn(t, 'teacher');
    const mine = await createCourse(t, teacher.headers, { name: 'My draft', published: false });
    const theirs = await createCourse(t, other.headers, { name: 'Their draft', published: false });
    const archived = await createCourse(t, other.headers, { name: 'Archived' });
    await t.db.update(courses).set({ archivedAt: new Date() }).where(eq(courses.id, archived.id));
    const courseIds = async (headers: Headers) => ids((await data(headers)).suggestions).filter((id) => id.startsWith('course:'));
    expect(await courseIds(teacher.headers)).toEqual([`course:${mine.id}`]);
    const admin = await signedIn(t, 'admin');
    expect(await courseIds(admin.headers)).toEqual([`course:${archived.id}`, `course:${mine.id}`, `course:${theirs.id}`]);
  });

  it('needs an access token', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/bookmarks/data' })).statusCode).toBe(401);
    expect((await toggle('page:courses', {})).statusCode).toBe(401);
  });
});

describe('toggling a bookmark', () => {
  it('adds at the end, answers the fresh lists, and removes on the second toggle', async () => {
    const teacher = await signedIn(t, 'teacher');
    const course = await createCourse(t, teacher.headers);
    const student = await signedIn(t, 'student');
    const first = await toggle(`course:${course.id}`, student.headers);
    expect(first.statusCode).toBe(200);
    expect(ids(first.json().data.bookmarks)).toEqual([`course:${course.id}`]);
    const second = (await toggle('page:sessions', student.headers)).json().data;
    expect(ids(second.bookmarks)).toEqual([`course:${course.id}`, 'page:sessions']);
    expect(second.suggestions.find((s: Item) => s.id === 'page:sessions').isBookmarked).toBe(true);
    const removed = (await toggle(`course:${course.id}`, student.headers)).json().data;
    expect(ids(removed.bookmarks)).toEqual(['page:sessions']);
    expect(removed.suggestions.find((s: Item) => s.id === `course:${course.id}`).isBookmarked).toBe(false);
  });

  it("keeps each user's bookmarks to themselves", async () => {
    const a = await signedIn(t, 'student');
    const b = await signedIn(t, 'student');
    await toggle('page:profile', a.headers);
    expect((await data(b.headers)).bookmarks).toEqual([]);
    expect(ids((await toggle('page:courses', b.headers)).json().data.bookmarks)).toEqual(['page:courses']);
    expect(ids((await data(a.headers)).bookmarks)).toEqual(['page:profile']);
  });

  it("answers 404 for an unknown id, a page the caller's rules do not open, and a course they cannot see, and changes nothing", async () => {
    const teacher = await signedIn(t, 'teacher');
    const draft = await createCourse(t, teacher.headers, { published: false });
    const student = await signedIn(t, 'student');
    for (const id of ['page:nope', 'course:999999', 'course:99999999999', 'course:0', 'course:abc', 'session:1', `course:${draft.id}`]) {
      const res = await toggle(id, student.headers);
      expect(res.statusCode, id).toBe(404);
      expect(res.json()).toEqual({ message: 'Not found' });
    }
    expect((await data(student.headers)).bookmarks).toEqual([]);
    // The teacher may bookmark their own draft.
    expect((await toggle(`course:${draft.id}`, teacher.headers)).statusCode).toBe(200);
  });

  it('refuses a missing, empty or non-text id with 400', async () => {
    const student = await signedIn(t, 'student');
    for (const payload of [{}, { id: '' }, { id: '   ' }, { id: 12 }, { id: 'x'.repeat(65) }, { id: 'page:\ncourses' }]) {
      const res = await t.app.inject({ method: 'POST', url: '/api/bookmarks/update', headers: student.headers, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().errors).toHaveProperty('id');
    }
  });

  it('survives logging out and in again', async () => {
    const student = await signedIn(t, 'student');
    await toggle('page:sessions', student.headers);
    const out = await t.app.inject({ method: 'POST', url: '/api/auth/logout/', payload: { refresh: student.refresh } });
    expect(out.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/bookmarks/data', headers: student.headers })).statusCode).toBe(401);
    const again = await login(t, student.user.email, student.user.password);
    expect(ids((await data({ authorization: `Bearer ${again.access}` })).bookmarks)).toEqual(['page:sessions']);
  });

  it('stops showing a bookmarked course once the caller cannot see it, and shows it again when they can', async () => {
    const teacher = await signedIn(t, 'teacher');
    const course = await createCourse(t, teacher.headers);
    const student = await signedIn(t, 'student');
    await toggle(`course:${course.id}`, student.headers);
    await toggle('page:profile', student.headers);
    await t.db.update(courses).set({ published: false }).where(eq(courses.id, course.id));
    expect(ids((await data(student.headers)).bookmarks)).toEqual(['page:profile']);
    // Nor may they toggle it (it is not theirs to know about), and the order is of what they see.
    expect((await toggle(`course:${course.id}`, student.headers)).statusCode).toBe(404);
    expect((await order(['page:profile'], student.headers)).statusCode).toBe(200);
    await t.db.update(courses).set({ published: true }).where(eq(courses.id, course.id));
    expect(ids((await data(student.headers)).bookmarks)).toEqual(['page:profile', `course:${course.id}`]);
  });
});

describe('reordering bookmarks', () => {
  async function threeBookmarks() {
    const student = await signedIn(t, 'student');
    for (const id of ['page:dashboard', 'page:courses', 'page:profile']) await toggle(id, student.headers);
    return student;
  }

  it('puts them in the order given, for good, and new ones still go last', async () => {
    const student = await threeBookmarks();
    const res = await order(['page:profile', 'page:dashboard', 'page:courses'], student.headers);
    expect(res.statusCode).toBe(200);
    expect(ids(res.json().data.bookmarks)).toEqual(['page:profile', 'page:dashboard', 'page:courses']);
    expect(ids((await toggle('page:sessions', student.headers)).json().data.bookmarks)).toEqual([
      'page:profile',
      'page:dashboard',
      'page:courses',
      'page:sessions',
    ]);
  });

  it('refuses anything but a permutation of the caller’s bookmarks, naming ids, and changes nothing', async () => {
    const student = await threeBookmarks();
    const other = await signedIn(t, 'student');
    await toggle('page:sessions', other.headers);
    for (const list of [
      ['page:profile', 'page:dashboard'],
      ['page:profile', 'page:dashboard', 'page:courses', 'page:sessions'],
      ['page:profile', 'page:profile', 'page:courses'],
      ['page:profile', 'page:dashboard', 'page:sessions'],
      [],
    ]) {
      const res = await order(list, student.headers);
      expect(res.statusCode, list.join()).toBe(400);
      expect(res.json().errors.ids).toEqual(['List each of your bookmarks exactly once, and nothing else']);
    }
    expect((await order('page:profile', student.headers)).statusCode).toBe(400);
    expect((await order([1, 2, 3], student.headers)).statusCode).toBe(400);
    expect(ids((await data(student.headers)).bookmarks)).toEqual(['page:dashboard', 'page:courses', 'page:profile']);
  });

  it('accepts an empty list from someone without bookmarks', async () => {
    const student = await signedIn(t, 'student');
    expect((await order([], student.headers)).json().data.bookmarks).toEqual([]);
  });
});
