// A course's saved boards over real HTTP and a real database: each session with a saved page, newest
// first, for whoever may see that session (the sessions list's rule: its teacher, admins, its buyers for
// their batch and the open sessions, a trial for the open sessions of a course in the catalogue). A
// course of the catalogue one is not in is forbidden; an unknown one, or one out of the catalogue that
// is not theirs, is not found.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { groupRoomId } from '@mooz/contract/breakouts';
import { messages } from '@mooz/contract/messages';
import type { SessionWhiteboard } from '@mooz/contract/whiteboard';
import { appPerTest } from '../../../test/app';
import { signedIn } from '../../../test/accounts';
import { createCourse, firstBatch, weekdayChoice } from '../../../test/courses';
import { buy, sessionAt } from '../../../test/sessions';
import { breakoutMembers, breakouts, classSessions, users, whiteboards } from '../../db/schema/index';

const t = appPerTest();

// A 1×1 white PNG.
const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4//8/AAX+Av4N70a4AAAAAElFTkSuQmCC';
const DAY_MIN = 24 * 60;

const boardsOf = (courseId: number | string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url: `/api/courses/${courseId}/whiteboards/`, headers });
const titles = (res: { json(): { data: SessionWhiteboard[] } }) => res.json().data.map((s) => s.title);

/** A session whose whiteboard had `pages` pages, each saved by the teacher as the class went. */
async function sessionWithBoard(teacher: Record<string, string>, courseId: number, title: string, startOffsetMin: number, pages = 1, batchId: number | null = null) {
  const session = await sessionAt(t, courseId, title, startOffsetMin, { batchId });
  await t.db.insert(whiteboards).values({ roomId: session.roomId, sessionId: session.id, pages });
  for (let page = 0; page < pages; page += 1) {
    const saved = await t.app.inject({ method: 'POST', url: `/api/classes/rooms/${session.roomId}/whiteboard/${page}/`, headers: teacher, payload: { png } });
    if (saved.statusCode !== 200) throw new Error(`saving page ${page} failed: ${saved.statusCode} ${saved.body}`);
  }
  return session;
}

async function endTrial(userId: number) {
  await t.db.update(users).set({ trialEndsAt: new Date(Date.now() - 60_000) }).where(eq(users.id, userId));
}

describe("a course's saved boards", () => {
  it('lists its teacher and admins each session with a saved page, newest first, with its pages; none without one, none cancelled', async () => {
    const teacher = await signedIn(t, 'teacher');
    const course = await createCourse(t, teacher.headers);
    const older = await sessionWithBoard(teacher.headers, course.id, 'Older class', -3 * DAY_MIN, 2);
    const newer = await sessionWithBoard(teacher.headers, course.id, 'Newer class', -1 * DAY_MIN);
    await sessionAt(t, course.id, 'Class without a board', -2 * DAY_MIN);
    const cancelled = await sessionWithBoard(teacher.headers, course.id, 'Cancelled class', -12 * 60);
    await t.db.update(classSessions).set({ cancelledAt: new Date() }).where(eq(classSessions.id, cancelled.id));

    const res = await boardsOf(course.id, teacher.headers);
    expect(res.statusCode, res.body).toBe(200);
    const { data } = res.json() as { data: SessionWhiteboard[] };
    expect(data).toEqual([
      { session_id: newer.id, title: 'Newer class', starts_at: newer.startsAt.toISOString(), room_id: newer.roomId, group: null, pages: [{ page: 0, saved_at: expect.any(String) }] },
      {
        session_id: older.id,
        title: 'Older class',
        starts_at: older.startsAt.toISOString(),
        room_id: older.roomId,
        group: null,
        pages: [
          { page: 0, saved_at: expect.any(String) },
          { page: 1, saved_at: expect.any(String) },
        ],
      },
    ]);
    expect(Number.isNaN(Date.parse(data[0]!.pages[0]!.saved_at))).toBe(false);

    const admin = await signedIn(t, 'admin');
    expect(titles(await boardsOf(course.id, admin.headers))).toEqual(['Newer class', 'Older class']);
    // A course whose classes saved nothing yet has no boards.
    const empty = await createCourse(t, teacher.headers, { name: 'Nothing drawn' });
    expect((await boardsOf(empty.id, teacher.headers)).json()).toEqual({ data: [] });
  });

  it("shows a buyer the boards of their batch and of the course's open sessions, not another batch's, as the session's own boards", async () => {
    const teacher = await signedIn(t, 'teacher');
    const course = await createCourse(t, teacher.headers);
    const open = await sessionWithBoard(teacher.headers, course.id, 'Open class', -3 * DAY_MIN);
    await sessionWithBoard(teacher.headers, course.id, 'Weekday class', -2 * DAY_MIN, 1, firstBatch(course, 'weekdays').id);
    const weekend = await sessionWithBoard(teacher.headers, course.id, 'Weekend class', -1 * DAY_MIN, 1, firstBatch(course, 'weekends').id);
    const buyer = await signedIn(t, 'student');
    await buy(t, buyer.headers, weekdayChoice(course));

    const res = await boardsOf(course.id, buyer.headers);
    expect(res.statusCode, res.body).toBe(200);
    expect(titles(res)).toEqual(['Weekday class', 'Open class']);
    // The same rule as one session's boards: the other batch's are not the buyer's.
    const get = (url: string) => t.app.inject({ method: 'GET', url, headers: buyer.headers });
    expect((await get(`/api/classes/rooms/${weekend.roomId}/whiteboard/`)).statusCode).toBe(404);
    expect((await get(`/api/classes/rooms/${open.roomId}/whiteboard/`)).statusCode).toBe(200);
  });

  it("keeps a breakout group's board as the session's: saved by those placed in the group, listed after the class's own with its number", async () => {
    const teacher = await signedIn(t, 'teacher');
    const course = await createCourse(t, teacher.headers);
    const session = await sessionWithBoard(teacher.headers, course.id, 'Split class', -60);
    const [ana, ben] = [await signedIn(t, 'student'), await signedIn(t, 'student')];
    for (const student of [ana, ben]) await buy(t, student.headers, weekdayChoice(course));
    const [split] = await t.db.insert(breakouts).values({ roomId: session.roomId, sessionId: session.id, openedBy: teacher.user.id, mode: 'manual', groups: 2 }).returning();
    await t.db.insert(breakoutMembers).values([
      { breakoutId: split!.id, userId: ana.user.id, userName: 'Ana', groupIndex: 1 },
      { breakoutId: split!.id, userId: ben.user.id, userName: 'Ben', groupIndex: 0 },
    ]);
    const group = groupRoomId(session.roomId, split!.id, 1);
    const save = (headers: Record<string, string>, roomId = group) =>
      t.app.inject({ method: 'POST', url: `/api/classes/rooms/${roomId}/whiteboard/0/`, headers, payload: { png } });
    // Ben is in the other group, and a made-up group of the split is no room at all.
    expect((await save(ben.headers)).statusCode).toBe(403);
    expect((await save(ana.headers, groupRoomId(session.roomId, split!.id + 1, 1))).statusCode).toBe(404);
    expect((await save(ana.headers)).statusCode).toBe(200);

    const res = await boardsOf(course.id, ben.headers);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.map((board: SessionWhiteboard) => [board.room_id, board.group])).toEqual([
      [session.roomId, null],
      [group, 2],
    ]);
    // Its picture opens for whoever may see the session.
    const image = await t.app.inject({ method: 'GET', url: `/api/classes/rooms/${group}/whiteboard/0/`, headers: ben.headers });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    const outsider = await signedIn(t, 'student');
    await endTrial(outsider.user.id);
    expect((await t.app.inject({ method: 'GET', url: `/api/classes/rooms/${group}/whiteboard/0/`, headers: outsider.headers })).statusCode).toBe(404);
  });

  it("shows a student in trial the open sessions' boards only; after the trial, without buying, the course is forbidden", async () => {
    const teacher = await signedIn(t, 'teacher');
    const course = await createCourse(t, teacher.headers);
    await sessionWithBoard(teacher.headers, course.id, 'Open class', -2 * DAY_MIN);
    await sessionWithBoard(teacher.headers, course.id, 'Weekday class', -1 * DAY_MIN, 1, firstBatch(course, 'weekdays').id);
    const student = await signedIn(t, 'student');
    expect(titles(await boardsOf(course.id, student.headers))).toEqual(['Open class']);

    await endTrial(student.user.id);
    const refused = await boardsOf(course.id, student.headers);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: messages.notInCourse });
    // Nor does another teacher see them.
    const other = await signedIn(t, 'teacher');
    expect((await boardsOf(course.id, other.headers)).statusCode).toBe(403);
  });

  it('does not know an unknown course, nor one out of the catalogue that is not theirs; refuses a bad id and a caller signed out', async () => {
    const teacher = await signedIn(t, 'teacher');
    const draft = await createCourse(t, teacher.headers, { published: false });
    await sessionWithBoard(teacher.headers, draft.id, 'Draft class', -DAY_MIN);
    const student = await signedIn(t, 'student');

    const unknown = await boardsOf(999_999, student.headers);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: messages.courseNotFound });
    const hidden = await boardsOf(draft.id, student.headers);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json()).toEqual({ message: messages.courseNotFound });
    expect(titles(await boardsOf(draft.id, teacher.headers))).toEqual(['Draft class']);

    const bad = await boardsOf('abc', student.headers);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(messages.validationFailed);
    expect((await boardsOf(0, student.headers)).statusCode).toBe(400);
    expect((await boardsOf(draft.id)).statusCode).toBe(401);
  });
});
