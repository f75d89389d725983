import { describe, expect, it } from 'vitest';
import { and, eq, isNotNull } from 'drizzle-orm';
import { appPerTest } from '../../../test/app';
import { signedIn } from '../../../test/accounts';
import { createCourse, weekdayChoice } from '../../../test/courses';
import { buy, sessionAt } from '../../../test/sessions';
import { readyRecording, storedKeys } from '../../../test/recordings';
import { classSessions, courses, recordingViews, users } from '../../db/schema/index';

const t = appPerTest();

const MIN = 60_000;
type Headers = Record<string, string>;
const get = (url: string, headers: Headers = {}) => t.app.inject({ method: 'GET', url, headers });
const del = (url: string, headers: Headers = {}) => t.app.inject({ method: 'DELETE', url, headers });
const progress = (id: number, body: object, headers: Headers) =>
  t.app.inject({ method: 'POST', url: `/api/classes/recordings/${id}/progress/`, payload: body, headers });

async function endTrial(userId: number) {
  await t.db.update(users).set({ trialEndsAt: new Date(Date.now() - MIN) }).where(eq(users.id, userId));
}

/** A teacher's course with an open session (of no batch) and one of a batch's generated classes, each recorded. */
async function recordedCourse(name = 'Recorded course') {
  const teacher = await signedIn(t, 'teacher');
  const course = await createCourse(t, teacher.headers, { name });
  const open = await sessionAt(t, course.id, 'Open class', -120);
  const [batchClass] = await t.db
    .select()
    .from(classSessions)
    .where(and(eq(classSessions.courseId, course.id), isNotNull(classSessions.batchId)))
    .limit(1);
  const openRecording = await readyRecording(t, { recordedBy: teacher.user.id, courseId: course.id, sessionId: open.id, title: 'Open class recorded' });
  const batchRecording = await readyRecording(t, { recordedBy: teacher.user.id, courseId: course.id, sessionId: batchClass!.id, title: 'Batch class recorded' });
  return { teacher, course, openRecording, batchRecording };
}

const ids = (res: { json(): { data: { id: number }[] } }) => res.json().data.map((r) => r.id).sort((a, b) => a - b);

describe('who may watch a recording', () => {
  it("lets a buyer watch every recording of the course they bought, whichever batch's class it was", async () => {
    const { course, openRecording, batchRecording } = await recordedCourse();
    const buyer = await signedIn(t, 'student');
    await buy(t, buyer.headers, weekdayChoice(course));

    const one = await get(`/api/classes/recordings/${openRecording.id}/`, buyer.headers);
    expect(one.statusCode).toBe(200);
    expect(one.json().data).toMatchObject({
      id: openRecording.id,
      title: 'Open class recorded',
      course_id: course.id,
      course_name: 'Recorded course',
      session_title: 'Open class',
      mime_type: 'video/webm',
      can_delete: false,
      position_seconds: 0,
      watched_seconds: 0,
    });
    expect((await get(`/api/classes/recordings/${batchRecording.id}/`, buyer.headers)).statusCode).toBe(200);
    expect(ids(await get(`/api/classes/recordings/?course_id=${course.id}`, buyer.headers))).toEqual([openRecording.id, batchRecording.id]);
  });

  it("hides recordings from a student who did not buy the course once their trial is over (404, as if there were none)", async () => {
    const { course, openRecording } = await recordedCourse();
    const other = await signedIn(t, 'student');
    await endTrial(other.user.id);
    const res = await get(`/api/classes/recordings/${openRecording.id}/`, other.headers);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Recording not found' });
    expect((await get('/api/classes/recordings/', other.headers)).json()).toEqual({ data: [] });
    expect((await get(`/api/classes/recordings/?course_id=${course.id}`, other.headers)).statusCode).toBe(404);
  });

  it("shows a student in trial what they see of sessions: open sessions' recordings of catalogue courses, not a batch's classes", async () => {
    const { course, openRecording, batchRecording } = await recordedCourse();
    const trial = await signedIn(t, 'student');
    expect((await get(`/api/classes/recordings/${openRecording.id}/`, trial.headers)).statusCode).toBe(200);
    expect((await get(`/api/classes/recordings/${batchRecording.id}/`, trial.headers)).statusCode).toBe(404);
    expect(ids(await get(`/api/classes/recordings/?course_id=${course.id}`, trial.headers))).toEqual([openRecording.id]);
    expect((await get('/api/classes/recordings/', trial.headers)).json().data).toMatchObject([{ course_id: course.id, recordings_count: 1 }]);

    // An unpublished course leaves the catalogue, and its open sessions leave a trial's lists.
    await t.db.update(courses).set({ published: false }).where(eq(courses.id, course.id));
    expect((await get(`/api/classes/recordings/${openRecording.id}/`, trial.headers)).statusCode).toBe(404);
    expect((await get(`/api/classes/recordings/?course_id=${course.id}`, trial.headers)).statusCode).toBe(404);
  });

  it("lets the course's teacher and admins watch, and hides it from the teacher of another course", async () => {
    const { teacher, course, openRecording } = await recordedCourse();
    const mine = await get(`/api/classes/recordings/${openRecording.id}/`, teacher.headers);
    expect(mine.statusCode).toBe(200);
    expect(mine.json().data.can_delete).toBe(true);

    const admin = await signedIn(t, 'admin');
    const asAdmin = await get(`/api/classes/recordings/${openRecording.id}/`, admin.headers);
    expect(asAdmin.statusCode).toBe(200);
    expect(asAdmin.json().data.can_delete).toBe(true);

    const stranger = await signedIn(t, 'teacher');
    expect((await get(`/api/classes/recordings/${openRecording.id}/`, stranger.headers)).statusCode).toBe(404);
    expect((await get(`/api/classes/recordings/?course_id=${course.id}`, stranger.headers)).statusCode).toBe(404);
    expect((await get('/api/classes/recordings/', stranger.headers)).json()).toEqual({ data: [] });
  });

  it('plays nothing without its file: a recording still being recorded or processed is 404 and unlisted', async () => {
    const { teacher, course } = await recordedCourse();
    const live = await readyRecording(t, { recordedBy: teacher.user.id, courseId: course.id, status: 'recording' });
    const processing = await readyRecording(t, { recordedBy: teacher.user.id, courseId: course.id, status: 'processing' });
    expect((await get(`/api/classes/recordings/${live.id}/`, teacher.headers)).statusCode).toBe(404);
    expect((await get(`/api/classes/recordings/${processing.id}/`, teacher.headers)).statusCode).toBe(404);
    expect((await get(`/api/classes/recordings/?course_id=${course.id}`, teacher.headers)).json().data).toHaveLength(2);
    expect((await get('/api/classes/recordings/', teacher.headers)).json().data[0].recordings_count).toBe(2);

    // A live recording that has its file stays listed and plays while it goes on (reopened after a
    // stall) or is made again with chunks that came late.
    const reopened = await readyRecording(t, { recordedBy: teacher.user.id, courseId: course.id, status: 'recording', withFile: true });
    expect((await get(`/api/classes/recordings/${reopened.id}/`, teacher.headers)).statusCode).toBe(200);
    expect((await get(`/api/classes/recordings/?course_id=${course.id}`, teacher.headers)).json().data).toHaveLength(3);
  });

  it('gives signed links that expire in at least an hour and need no bearer token', async () => {
    const { teacher, openRecording } = await recordedCourse();
    const before = Date.now();
    const { data } = (await get(`/api/classes/recordings/${openRecording.id}/`, teacher.headers)).json();
    expect(new Date(data.url_expires_at).getTime() - before).toBeGreaterThanOrEqual(3600_000 - 1000);
    const media = await t.app.inject({ method: 'GET', url: data.url });
    expect(media.statusCode).toBe(200);
    expect(media.rawPayload.equals(await readAll(openRecording.storageKey!))).toBe(true);
  });

  it('asks for a token (401) and refuses a malformed id (400)', async () => {
    expect((await get('/api/classes/recordings/')).statusCode).toBe(401);
    const student = await signedIn(t, 'student');
    expect((await get('/api/classes/recordings/abc/', student.headers)).statusCode).toBe(400);
    expect((await get('/api/classes/recordings/999999/', student.headers)).statusCode).toBe(404);
  });
});

async function readAll(key: string) {
  const chunks: Buffer[] = [];
  for await (const chunk of await t.app.storage.read(key)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('the lists', () => {
  it('groups by course the recordings the caller may watch, with their count and latest date, newest course first', async () => {
    const teacher = await signedIn(t, 'teacher');
    const older = await createCourse(t, teacher.headers, { name: 'Older' });
    const newer = await createCourse(t, teacher.headers, { name: 'Newer' });
    await createCourse(t, teacher.headers, { name: 'Nothing recorded' });
    const day = (n: number) => new Date(Date.UTC(2025, 0, n, 10));
    for (const [course, dates] of [
      [older, [1, 5, 3]],
      [newer, [4, 6]],
    ] as const) {
      for (const d of dates) await readyRecording(t, { recordedBy: teacher.user.id, courseId: course.id, createdAt: day(d) });
    }
    // Neither a recording in progress nor a meeting's recording is counted.
    await readyRecording(t, { recordedBy: teacher.user.id, courseId: older.id, createdAt: day(20), status: 'recording' });
    await readyRecording(t, { recordedBy: teacher.user.id, courseId: null, createdAt: day(21) });

    const res = await get('/api/classes/recordings/', teacher.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      data: [
        { course_id: newer.id, course_name: 'Newer', recordings_count: 2, latest_at: day(6).toISOString() },
        { course_id: older.id, course_name: 'Older', recordings_count: 3, latest_at: day(5).toISOString() },
      ],
    });
  });

  it("lists one course's ready recordings newest first, and 404 for a course nobody has", async () => {
    const teacher = await signedIn(t, 'teacher');
    const course = await createCourse(t, teacher.headers);
    const a = await readyRecording(t, { recordedBy: teacher.user.id, courseId: course.id, title: 'first', createdAt: new Date(Date.UTC(2025, 1, 1)) });
    const b = await readyRecording(t, { recordedBy: teacher.user.id, courseId: course.id, title: 'second', createdAt: new Date(Date.UTC(2025, 1, 3)) });
    const res = await get(`/api/classes/recordings/?course_id=${course.id}`, teacher.headers);
    expect(res.json().data.map((r: { id: number; title: string }) => [r.id, r.title])).toEqual([
      [b.id, 'second'],
      [a.id, 'first'],
    ]);
    expect(res.json().data[0]).toMatchObject({ size_bytes: b.sizeBytes, duration_seconds: 3, created_at: '2025-02-03T00:00:00.000Z', recorded_by_name: 'Test Person' });
    expect((await get('/api/classes/recordings/?course_id=999999', teacher.headers)).statusCode).toBe(404);
    expect((await get('/api/classes/recordings/?course_id=0', teacher.headers)).statusCode).toBe(400);
  });

  it("lists the caller's own meeting recordings with ?meetings=true, and everyone's to an admin", async () => {
    const teacher = await signedIn(t, 'teacher');
    const student = await signedIn(t, 'student');
    const hers = await readyRecording(t, { recordedBy: teacher.user.id, title: 'Office hours' });
    const his = await readyRecording(t, { recordedBy: student.user.id, title: 'Study group' });

    const mine = await get('/api/classes/recordings/?meetings=true', teacher.headers);
    expect(mine.json().data.map((r: { id: number }) => r.id)).toEqual([hers.id]);
    expect(mine.json().data[0]).toMatchObject({ course_id: null, session_id: null, course_name: null, session_title: null, can_delete: true });
    expect(ids(await get('/api/classes/recordings/?meetings=true', student.headers))).toEqual([his.id]);
    // Someone else's meeting recording does not exist for them.
    expect((await get(`/api/classes/recordings/${his.id}/`, teacher.headers)).statusCode).toBe(404);

    const admin = await signedIn(t, 'admin');
    expect(ids(await get('/api/classes/recordings/?meetings=true', admin.headers))).toEqual([hers.id, his.id]);
    expect((await get(`/api/classes/recordings/${his.id}/`, admin.headers)).statusCode).toBe(200);
  });

  it('refuses asking for one course and the meetings at once', async () => {
    const teacher = await signedIn(t, 'teacher');
    const res = await get('/api/classes/recordings/?meetings=true&course_id=1', teacher.headers);
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().errors)).toEqual(['meetings']);
  });
});

describe('watch progress', () => {
  it('counts each second of the video once: watching 0–600 twice and seeking inside it is 600 seconds', async () => {
    const teacher = await signedIn(t, 'teacher');
    const course = await createCourse(t, teacher.headers);
    const rec = await readyRecording(t, { recordedBy: teacher.user.id, courseId: course.id, durationSeconds: 1800 });
    const student = await signedIn(t, 'student');
    await buy(t, student.headers, weekdayChoice(course));

    // Played from the start in 15-second reports, to 600 s.
    for (let at = 0; at < 600; at += 15) {
      const res = await progress(rec.id, { position_seconds: at + 15, spans: [[at, at + 15]] }, student.headers);
      expect(res.statusCode).toBe(200);
    }
    // Watched again from the start, and a few seeks back and forth within it.
    await progress(rec.id, { position_seconds: 600, spans: [[0, 600]] }, student.headers);
    const last = await progress(rec.id, { position_seconds: 130, spans: [[500, 560], [100, 130]] }, student.headers);
    expect(last.json()).toEqual({ data: { position_seconds: 130, watched_seconds: 600 } });

    // The player resumes where they stopped.
    const { data } = (await get(`/api/classes/recordings/${rec.id}/`, student.headers)).json();
    expect(data).toMatchObject({ position_seconds: 130, watched_seconds: 600 });
    const [view] = await t.db.select().from(recordingViews).where(eq(recordingViews.recordingId, rec.id));
    expect(view!.watchedSpans).toEqual([[0, 600]]);

    // Only new parts of the video add: 600–660.
    const more = await progress(rec.id, { position_seconds: 660, spans: [[590, 660]] }, student.headers);
    expect(more.json().data.watched_seconds).toBe(660);
  });

  it("keeps each viewer's progress apart", async () => {
    const teacher = await signedIn(t, 'teacher');
    const rec = await readyRecording(t, { recordedBy: teacher.user.id, courseId: (await createCourse(t, teacher.headers)).id, durationSeconds: 300 });
    const admin = await signedIn(t, 'admin');
    await progress(rec.id, { position_seconds: 100, spans: [[0, 100]] }, teacher.headers);
    await progress(rec.id, { position_seconds: 20, spans: [[0, 20]] }, admin.headers);
    expect((await get(`/api/classes/recordings/${rec.id}/`, teacher.headers)).json().data).toMatchObject({ position_seconds: 100, watched_seconds: 100 });
    expect((await get(`/api/classes/recordings/${rec.id}/`, admin.headers)).json().data).toMatchObject({ position_seconds: 20, watched_seconds: 20 });
  });

  it('counts nothing past the end of the video, and keeps the position within it', async () => {
    const teacher = await signedIn(t, 'teacher');
    const rec = await readyRecording(t, { recordedBy: teacher.user.id, courseId: (await createCourse(t, teacher.headers)).id, durationSeconds: 90 });
    const res = await progress(rec.id, { position_seconds: 5000, spans: [[60, 5000]] }, teacher.headers);
    expect(res.json()).toEqual({ data: { position_seconds: 90, watched_seconds: 30 } });
  });

  it('refuses reversed spans (400) and recordings the caller may not watch (404), recording nothing', async () => {
    const { openRecording } = await recordedCourse();
    const stranger = await signedIn(t, 'teacher');
    expect((await progress(openRecording.id, { position_seconds: 10, spans: [[0, 10]] }, stranger.headers)).statusCode).toBe(404);
    const admin = await signedIn(t, 'admin');
    const reversed = await progress(openRecording.id, { position_seconds: 10, spans: [[10, 0]] }, admin.headers);
    expect(reversed.statusCode).toBe(400);
    expect(await t.db.select().from(recordingViews)).toEqual([]);
  });
});

describe('deleting a recording', () => {
  it("is refused to a viewer who may not delete it (403) and to whoever may not see it (404), changing nothing", async () => {
    const { course, openRecording } = await recordedCourse();
    const buyer = await signedIn(t, 'student');
    await buy(t, buyer.headers, weekdayChoice(course));
    expect((await del(`/api/classes/recordings/${openRecording.id}/`, buyer.headers)).statusCode).toBe(403);
    const stranger = await signedIn(t, 'teacher');
    expect((await del(`/api/classes/recordings/${openRecording.id}/`, stranger.headers)).statusCode).toBe(404);
    expect((await get(`/api/classes/recordings/${openRecording.id}/`, buyer.headers)).statusCode).toBe(200);
    expect(await storedKeys(t)).toContain(openRecording.storageKey);
  });

  it("lets the course's teacher delete it: the row and the file go", async () => {
    const { teacher, openRecording, batchRecording } = await recordedCourse();
    const res = await del(`/api/classes/recordings/${openRecording.id}/`, teacher.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: null, message: 'Recording deleted' });
    expect((await get(`/api/classes/recordings/${openRecording.id}/`, teacher.headers)).statusCode).toBe(404);
    expect(await storedKeys(t)).toEqual([batchRecording.storageKey]);
    expect((await del(`/api/classes/recordings/${openRecording.id}/`, teacher.headers)).statusCode).toBe(404);
  });

  it("lets a meeting's recorder and an admin delete it", async () => {
    const student = await signedIn(t, 'student');
    const admin = await signedIn(t, 'admin');
    const own = await readyRecording(t, { recordedBy: student.user.id });
    const other = await readyRecording(t, { recordedBy: student.user.id });
    expect((await del(`/api/classes/recordings/${own.id}/`, student.headers)).statusCode).toBe(200);
    expect((await del(`/api/classes/recordings/${other.id}/`, admin.headers)).statusCode).toBe(200);
    expect(await storedKeys(t)).toEqual([]);
  });
});
