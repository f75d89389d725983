// Assignments over HTTP: who may set, read, change and answer them (404 for what one cannot see, 403
// for what one sees but may not do), attachments and answers checked by their bytes, stored and served
// behind signed links, answers replaced until reviewed, and the teacher's list with who has not answered.
import { existsSync, readdirSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { assignmentLimits } from '@mooz/contract/assignments';
import { appPerTest } from '../../../test/app';
import { signedIn } from '../../../test/accounts';
import { eventually } from '../../../test/instances';
import { insertBatch, insertCourse, insertPurchase } from '../../../test/learning';
import { multipartBody, storedKeys, type FormPart } from '../../../test/recordings';
import { assignments, submissions, users } from '../../db/schema/index';
import { signedFileUrl, verifyFileLink } from './files';

const t = appPerTest();

type Headers = Record<string, string>;
type Person = Awaited<ReturnType<typeof signedIn>>;

const png = () =>
  Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]), Buffer.alloc(600, 7)]);
const pdf = () => Buffer.from('%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n');
const exe = () => Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00', 'latin1'), Buffer.alloc(512, 0)]);

function send(method: 'POST' | 'PATCH' | 'GET' | 'DELETE', url: string, headers: Headers, payload?: object) {
  return t.app.inject({ method, url, headers, ...(payload && { payload }) });
}

function upload(url: string, parts: FormPart[], headers: Headers) {
  const { body, contentType } = multipartBody(parts);
  return t.app.inject({ method: 'POST', url, payload: body, headers: { ...headers, 'content-type': contentType } });
}

const filePart = (value: Buffer | string, filename: string, contentType = 'application/octet-stream'): FormPart => ({
  name: 'file',
  value,
  filename,
  contentType,
});

/** A teacher's listed course with one student who bought it (a batch ending in a month). */
async function classroom() {
  const teacher = await signedIn(t, 'teacher');
  const student = await signedIn(t, 'student');
  const course = await insertCourse(t.db, teacher.user.id, { name: 'Essays' });
  const batch = await insertBatch(t.db, course.id, '2026-01-05', '2099-01-30');
  await insertPurchase(t.db, student.user.id, course.id, batch);
  return { teacher, student, course, batch };
}

async function createAssignment(course: { id: number }, teacher: Person, body: object = { title: 'Essay', instructions: 'Write.' }) {
  const res = await send('POST', `/api/courses/${course.id}/assignments/`, teacher.headers, body);
  expect(res.statusCode).toBe(201);
  return res.json().data as { id: number };
}

/** A student who is neither in the course nor in a trial. */
async function outsider() {
  const person = await signedIn(t, 'student');
  await t.db.update(users).set({ trialEndsAt: new Date(Date.now() - 60_000) }).where(eq(users.id, person.user.id));
  return person;
}

/** Every file under DATA_DIR/recordings (the storage's root), temporary ones included. */
function filesUnder(): string[] {
  const walk = (dir: string): string[] =>
    existsSync(dir) ? readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)])) : [];
  return walk(path.join(t.dataDir, 'recordings'));
}

async function download(url: string) {
  return t.app.inject({ method: 'GET', url });
}

describe('setting assignments', () => {
  it('the teacher creates, lists (soonest due first, undated last), edits and deletes', async () => {
    const { teacher, student, course } = await classroom();
    const later = await createAssignment(course, teacher, { title: 'Later', due_at: '2099-03-01T10:00:00+01:00' });
    const undated = await createAssignment(course, teacher, { title: 'Whenever' });
    const sooner = await createAssignment(course, teacher, { title: 'Sooner', instructions: 'Read chapter 1.', due_at: '2099-02-01T10:00:00Z' });

    const list = await send('GET', `/api/courses/${course.id}/assignments/`, teacher.headers);
    expect(list.statusCode).toBe(200);
    const rows = list.json().data;
    expect(rows.map((a: { id: number }) => a.id)).toEqual([sooner.id, later.id, undated.id]);
    expect(rows[0]).toMatchObject({
      course_id: course.id,
      course_name: 'Essays',
      title: 'Sooner',
      instructions: 'Read chapter 1.',
      due_at: '2099-02-01T10:00:00.000Z',
      attachment: null,
      my_submission: null,
      submissions_count: 0,
      waiting_review_count: 0,
      can_manage: true,
    });
    expect(rows[1].due_at).toBe('2099-03-01T09:00:00.000Z');

    // The student reads them, without the counts.
    const theirs = (await send('GET', `/api/courses/${course.id}/assignments/`, student.headers)).json().data;
    expect(theirs[0]).toMatchObject({ submissions_count: null, waiting_review_count: null, can_manage: false, my_submission: null });

    const edited = await send('PATCH', `/api/assignments/${undated.id}/`, teacher.headers, { title: 'Dated now', due_at: '2099-01-15T00:00:00Z' });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().data).toMatchObject({ title: 'Dated now', due_at: '2099-01-15T00:00:00.000Z', instructions: '' });
    const cleared = await send('PATCH', `/api/assignments/${undated.id}/`, teacher.headers, { due_at: null });
    expect(cleared.json().data.due_at).toBeNull();

    // Deleting takes its answers and every file with it.
    await upload(`/api/assignments/${later.id}/attachment/`, [filePart(pdf(), 'brief.pdf')], teacher.headers);
    const answer = await upload(`/api/assignments/${later.id}/submission/`, [filePart(png(), 'answer.png')], student.headers);
    expect(answer.statusCode).toBe(200);
    expect(await storedKeys(t)).toHaveLength(2);
    const removed = await send('DELETE', `/api/assignments/${later.id}/`, teacher.headers);
    expect(removed.statusCode).toBe(200);
    expect((await send('GET', `/api/assignments/${later.id}/`, teacher.headers)).statusCode).toBe(404);
    expect((await send('GET', `/api/submissions/${answer.json().data.id}/`, student.headers)).statusCode).toBe(404);
    expect(await storedKeys(t)).toEqual([]);
    expect((await send('DELETE', `/api/assignments/${later.id}/`, teacher.headers)).statusCode).toBe(404);
  });

  it('refuses bad input: no title, unknown fields, a date without offset, too long', async () => {
    const { teacher, course } = await classroom();
    const url = `/api/courses/${course.id}/assignments/`;
    expect((await send('POST', url, teacher.headers, { title: '  ' })).statusCode).toBe(400);
    expect((await send('POST', url, teacher.headers, { title: 'A', extra: 1 })).statusCode).toBe(400);
    expect((await send('POST', url, teacher.headers, { title: 'A', due_at: '2099-01-01T10:00' })).statusCode).toBe(400);
    expect((await send('POST', url, teacher.headers, { title: 'x'.repeat(assignmentLimits.titleMaxLength + 1) })).statusCode).toBe(400);
    expect((await send('POST', url, teacher.headers, { title: 7 })).statusCode).toBe(400);
    expect((await send('POST', '/api/courses/999999/assignments/', teacher.headers, { title: 'A' })).statusCode).toBe(404);
    expect(await t.db.select().from(assignments)).toEqual([]);
  });

  it('404 for what one cannot see, 403 for what one sees but may not do', async () => {
    const { teacher, student, course } = await classroom();
    const assignment = await createAssignment(course, teacher);
    const otherTeacher = await signedIn(t, 'teacher');
    const stranger = await outsider();
    const admin = await signedIn(t, 'admin');
    const a = `/api/assignments/${assignment.id}/`;
    const courseUrl = `/api/courses/${course.id}/assignments/`;

    // A student of the course reads, but may not change.
    expect((await send('GET', a, student.headers)).statusCode).toBe(200);
    expect((await send('POST', courseUrl, student.headers, { title: 'Mine' })).statusCode).toBe(403);
    expect((await send('PATCH', a, student.headers, { title: 'Mine' })).statusCode).toBe(403);
    expect((await send('DELETE', a, student.headers)).statusCode).toBe(403);
    expect((await send('DELETE', `${a}attachment/`, student.headers)).statusCode).toBe(403);
    expect((await send('GET', `${a}submissions/`, student.headers)).statusCode).toBe(403);
    expect((await upload(`${a}attachment/`, [filePart(png(), 'a.png')], student.headers)).statusCode).toBe(403);

    // Another teacher sees the course in the catalogue (403 on it) but not its assignments (404).
    expect((await send('GET', courseUrl, otherTeacher.headers)).statusCode).toBe(403);
    expect((await send('POST', courseUrl, otherTeacher.headers, { title: 'Hijack' })).statusCode).toBe(403);
    for (const [method, url] of [
      ['GET', a],
      ['PATCH', a],
      ['DELETE', a],
      ['GET', `${a}submissions/`],
      ['DELETE', `${a}attachment/`],
    ] as const) {
      expect((await send(method, url, otherTeacher.headers, method === 'PATCH' ? { title: 'x' } : undefined)).statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await upload(`${a}attachment/`, [filePart(png(), 'a.png')], otherTeacher.headers)).statusCode).toBe(404);

    // A student in neither the course nor a trial: the same.
    expect((await send('GET', courseUrl, stranger.headers)).statusCode).toBe(403);
    expect((await send('GET', a, stranger.headers)).statusCode).toBe(404);
    expect((await upload(`${a}submission/`, [{ name: 'text', value: 'hi' }], stranger.headers)).statusCode).toBe(404);

    // An unlisted course is not found by those not in it.
    const hidden = await insertCourse(t.db, teacher.user.id, { name: 'Hidden', published: false });
    expect((await send('GET', `/api/courses/${hidden.id}/assignments/`, otherTeacher.headers)).statusCode).toBe(404);
    expect((await send('GET', `/api/courses/${hidden.id}/assignments/`, teacher.headers)).statusCode).toBe(200);

    // An admin manages anything; unsigned callers are 401.
    expect((await send('PATCH', a, admin.headers, { title: 'By admin' })).statusCode).toBe(200);
    expect((await send('GET', a, {})).statusCode).toBe(401);
    expect(await t.db.select({ title: assignments.title }).from(assignments)).toEqual([{ title: 'By admin' }]);
  });

  it('a student in trial reads a listed course’s assignments but answers only once enrolled', async () => {
    const { teacher, course } = await classroom();
    const assignment = await createAssignment(course, teacher);
    const trial = await signedIn(t, 'student');
    expect((await send('GET', `/api/courses/${course.id}/assignments/`, trial.headers)).statusCode).toBe(200);
    const res = await upload(`/api/assignments/${assignment.id}/submission/`, [{ name: 'text', value: 'My answer' }], trial.headers);
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('You are not a student of this course');
    // Neither teachers nor admins answer.
    expect((await upload(`/api/assignments/${assignment.id}/submission/`, [{ name: 'text', value: 'x' }], teacher.headers)).statusCode).toBe(403);
    expect(await t.db.select().from(submissions)).toEqual([]);
  });
});

describe('files', () => {
  it('an attachment is what its bytes say: a PNG named .pdf is a .png image, served as a sandboxed download', async () => {
    const { teacher, student, course } = await classroom();
    const assignment = await createAssignment(course, teacher);
    const res = await upload(`/api/assignments/${assignment.id}/attachment/`, [filePart(png(), 'brief.pdf', 'application/pdf')], teacher.headers);
    expect(res.statusCode).toBe(200);
    const file = res.json().data.attachment;
    expect(file).toMatchObject({ name: 'brief.png', mime_type: 'image/png', size_bytes: png().length });
    expect(file.url).toMatch(/^\/api\/files\/a\d+-[0-9a-f-]{36}\?expires=\d+&signature=[\w-]{43}$/);

    // The student's view carries a working link too; no bearer token needed.
    const seen = (await send('GET', `/api/assignments/${assignment.id}/`, student.headers)).json().data.attachment;
    const got = await download(seen.url);
    expect(got.statusCode).toBe(200);
    expect(got.rawPayload.equals(png())).toBe(true);
    expect(got.headers['content-type']).toBe('image/png');
    expect(got.headers['content-disposition']).toBe(`attachment; filename="brief.png"; filename*=UTF-8''brief.png`);
    expect(got.headers['x-content-type-options']).toBe('nosniff');
    expect(got.headers['content-security-policy']).toContain('sandbox');
    expect(got.headers['cache-control']).toContain('private');

    // Replaced: the old object goes, its link with it.
    const again = await upload(`/api/assignments/${assignment.id}/attachment/`, [filePart(pdf(), 'Brief final.PDF')], teacher.headers);
    expect(again.json().data.attachment).toMatchObject({ name: 'Brief final.pdf', mime_type: 'application/pdf' });
    expect(await storedKeys(t)).toHaveLength(1);
    expect((await download(file.url)).statusCode).toBe(404);

    // Detached: nothing stored, no link.
    const detached = await send('DELETE', `/api/assignments/${assignment.id}/attachment/`, teacher.headers);
    expect(detached.statusCode).toBe(200);
    expect(detached.json().data.attachment).toBeNull();
    expect(await storedKeys(t)).toEqual([]);
  });

  it('refuses what is none of the kinds (415), too large (413) or missing (400), storing nothing', async () => {
    const { teacher, course } = await classroom();
    const assignment = await createAssignment(course, teacher);
    const url = `/api/assignments/${assignment.id}/attachment/`;
    const renamed = await upload(url, [filePart(exe(), 'setup.pdf', 'application/pdf')], teacher.headers);
    expect(renamed.statusCode).toBe(415);
    expect(renamed.json().message).toMatch(/not accepted/);
    // Text at first, binary further on.
    const sneaky = Buffer.concat([Buffer.from('hello '.repeat(2000)), Buffer.from([0, 1, 2, 3])]);
    expect((await upload(url, [filePart(sneaky, 'notes.txt')], teacher.headers)).statusCode).toBe(415);
    expect((await upload(url, [filePart(Buffer.alloc(0), 'empty.txt')], teacher.headers)).statusCode).toBe(415);
    const big = Buffer.concat([pdf(), Buffer.alloc(assignmentLimits.fileMaxBytes, 0x20)]);
    expect((await upload(url, [filePart(big, 'big.pdf')], teacher.headers)).statusCode).toBe(413);
    expect((await upload(url, [{ name: 'text', value: 'no file' }], teacher.headers)).statusCode).toBe(400);
    expect((await upload(url, [filePart(png(), 'a.png'), filePart(png(), 'b.png')], teacher.headers)).statusCode).toBe(400);
    expect((await send('POST', url, teacher.headers, { file: 'x' })).statusCode).toBe(400);
    expect(await storedKeys(t)).toEqual([]);
    const [row] = await t.db.select().from(assignments);
    expect(row!.fileKey).toBeNull();
  });

  it('takes a file of exactly the limit; UTF-8 text and ZIP-based documents are accepted as such', async () => {
    const { teacher, course } = await classroom();
    const assignment = await createAssignment(course, teacher);
    const url = `/api/assignments/${assignment.id}/attachment/`;
    const exact = Buffer.concat([pdf(), Buffer.alloc(assignmentLimits.fileMaxBytes - pdf().length, 0x20)]);
    const res = await upload(url, [filePart(exact, 'exact.pdf')], teacher.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.attachment.size_bytes).toBe(assignmentLimits.fileMaxBytes);
    const text = await upload(url, [filePart(Buffer.from('Olá, Grüße, 你好\n'), 'page.html')], teacher.headers);
    expect(text.json().data.attachment).toMatchObject({ name: 'page.txt', mime_type: 'text/plain; charset=utf-8' });
    const docx = await upload(url, [filePart(Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(100, 1)]), 'report.docx')], teacher.headers);
    expect(docx.json().data.attachment).toMatchObject({
      name: 'report.docx',
      mime_type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    });
  });

  it('a link tampered with, for another file, or expired is refused (403); a recording link’s key does not sign files', async () => {
    const { teacher, course } = await classroom();
    const assignment = await createAssignment(course, teacher);
    const res = await upload(`/api/assignments/${assignment.id}/attachment/`, [filePart(pdf(), 'a.pdf')], teacher.headers);
    const url: string = res.json().data.attachment.url;
    expect((await download(url)).statusCode).toBe(200);
    const [row] = await t.db.select().from(assignments);
    const key = row!.fileKey!;

    const tampered = url.replace(/signature=(.)/, (_, c: string) => `signature=${c === 'A' ? 'B' : 'A'}`);
    expect((await download(tampered)).statusCode).toBe(403);
    expect((await download(url.replace(/expires=\d+/, (m) => `${m}9`))).statusCode).toBe(403);
    expect((await download(url.split('?')[0]!)).statusCode).toBe(403);
    // Signed for another owner (a submission of the same id): refused as not found, the row does not name it.
    const otherOwner = signedFileUrl(t.app.jwtSecret, { kind: 's', id: assignment.id }, key);
    expect((await download(otherOwner)).statusCode).toBe(404);
    const expired = signedFileUrl(t.app.jwtSecret, { kind: 'a', id: assignment.id }, key, new Date(Date.now() - 2 * 3600_000));
    const answer = await download(expired);
    expect(answer.statusCode).toBe(403);
    expect(answer.json()).toEqual({ message: 'This link is invalid or has expired' });
    expect((await download('/api/files/..%2F..%2Fetc%2Fpasswd?expires=1&signature=x')).statusCode).toBe(403);

    const token = url.split('/api/files/')[1]!.split('?')[0]!;
    const query = Object.fromEntries(new URL(url, 'http://x').searchParams);
    expect(verifyFileLink(t.app.jwtSecret, token, query, Date.now() / 1000)).toEqual({ owner: { kind: 'a', id: assignment.id }, key });
    expect(verifyFileLink('another-secret-of-enough-length-000000', token, query, Date.now() / 1000)).toBeNull();
  });
});

describe('answers', () => {
  async function setUp() {
    const room = await classroom();
    const assignment = await createAssignment(room.course, room.teacher, { title: 'Essay', due_at: '2099-01-01T00:00:00Z' });
    const url = `/api/assignments/${assignment.id}/submission/`;
    return { ...room, assignment, url };
  }

  it('text, a file, both; neither is 400; an answer is replaced, its old file deleted, until reviewed (then 409)', async () => {
    const { student, teacher, assignment, url } = await setUp();
    const neither = await upload(url, [{ name: 'text', value: '   ' }], student.headers);
    expect(neither.statusCode).toBe(400);
    expect(neither.json().message).toBe('Write an answer or attach a file');
    expect((await upload(url, [], student.headers)).statusCode).toBe(400);
    expect((await send('POST', url, student.headers, { text: 'json' })).statusCode).toBe(400);

    const text = await upload(url, [{ name: 'text', value: 'My essay.' }], student.headers);
    expect(text.statusCode).toBe(200);
    expect(text.json().data).toMatchObject({ text: 'My essay.', file: null, status: 'submitted', late: false, grade: null, student_id: student.user.id });

    const file = await upload(url, [filePart(pdf(), 'essay.pdf')], student.headers);
    expect(file.json().data).toMatchObject({ text: '', file: { name: 'essay.pdf', mime_type: 'application/pdf' } });
    expect(file.json().data.id).toBe(text.json().data.id);
    const firstKeys = await storedKeys(t);
    expect(firstKeys).toHaveLength(1);

    const both = await upload(url, [filePart(png(), 'figure.png'), { name: 'text', value: 'See the figure.' }], student.headers);
    expect(both.json().data).toMatchObject({ text: 'See the figure.', file: { name: 'figure.png' } });
    const keys = await storedKeys(t);
    expect(keys).toHaveLength(1);
    expect(keys).not.toEqual(firstKeys);
    expect((await download(file.json().data.file.url)).statusCode).toBe(404);
    expect((await download(both.json().data.file.url)).statusCode).toBe(200);

    // The student's own view shows it.
    const mine = (await send('GET', `/api/assignments/${assignment.id}/`, student.headers)).json().data.my_submission;
    expect(mine).toMatchObject({ id: both.json().data.id, text: 'See the figure.' });

    // Reviewed: final.
    const review = await send('POST', `/api/submissions/${mine.id}/review/`, teacher.headers, { grade: 87, feedback: 'Good.' });
    expect(review.statusCode).toBe(200);
    expect(review.json().data).toMatchObject({ status: 'reviewed', grade: 87, passed: null, feedback: 'Good.' });
    expect(review.json().data.reviewed_at).toEqual(expect.any(String));
    const late = await upload(url, [{ name: 'text', value: 'Changed my mind' }], student.headers);
    expect(late.statusCode).toBe(409);
    const tooLate = await upload(url, [filePart(pdf(), 'x.pdf')], student.headers);
    expect(tooLate.statusCode).toBe(409);
    expect(await storedKeys(t)).toEqual(keys);
    const [row] = await t.db.select().from(submissions);
    expect(row).toMatchObject({ text: 'See the figure.', status: 'reviewed', grade: 87, reviewedBy: teacher.user.id });
  });

  it('a refused answer changes nothing: a bad file keeps the earlier answer and stores nothing', async () => {
    const { student, url } = await setUp();
    await upload(url, [{ name: 'text', value: 'First' }], student.headers);
    expect((await upload(url, [{ name: 'text', value: 'Second' }, filePart(exe(), 'a.pdf')], student.headers)).statusCode).toBe(415);
    expect((await upload(url, [{ name: 'text', value: 'x'.repeat(assignmentLimits.answerMaxLength + 1) }], student.headers)).statusCode).toBe(400);
    expect((await upload(url, [{ name: 'text', value: 'bell\u0007' }], student.headers)).statusCode).toBe(400);
    const [row] = await t.db.select().from(submissions);
    expect(row!.text).toBe('First');
    expect(await storedKeys(t)).toEqual([]);
  });

  it('late when submitted after the due date', async () => {
    const { teacher, student, course } = await classroom();
    const past = await createAssignment(course, teacher, { title: 'Past', due_at: '2020-01-01T00:00:00Z' });
    const res = await upload(`/api/assignments/${past.id}/submission/`, [{ name: 'text', value: 'Sorry' }], student.headers);
    expect(res.json().data.late).toBe(true);
  });

  it('an answer is read by its student, the teacher and admins; another student or teacher gets 403', async () => {
    const { student, teacher, course, batch, url } = await setUp();
    const classmate = await signedIn(t, 'student');
    await insertPurchase(t.db, classmate.user.id, course.id, batch);
    const otherTeacher = await signedIn(t, 'teacher');
    const admin = await signedIn(t, 'admin');
    const id = (await upload(url, [{ name: 'text', value: 'Mine' }], student.headers)).json().data.id;
    const one = `/api/submissions/${id}/`;
    for (const person of [student, teacher, admin]) expect((await send('GET', one, person.headers)).statusCode).toBe(200);
    for (const person of [classmate, otherTeacher]) expect((await send('GET', one, person.headers)).statusCode).toBe(403);
    expect((await send('GET', '/api/submissions/999999/', student.headers)).statusCode).toBe(404);
    // Only the teacher or an admin reviews.
    for (const person of [student, classmate, otherTeacher]) {
      expect((await send('POST', `${one}review/`, person.headers, { passed: true })).statusCode).toBe(403);
    }
    expect((await send('POST', `${one}review/`, teacher.headers, { feedback: 'no grade' })).statusCode).toBe(400);
    expect((await send('POST', `${one}review/`, teacher.headers, { grade: 101 })).statusCode).toBe(400);
    expect((await send('POST', `${one}review/`, admin.headers, { passed: false, feedback: 'Redo' })).json().data).toMatchObject({
      passed: false,
      grade: null,
      status: 'reviewed',
    });
  });

  it('the teacher sees every answer and who has not answered, and the counts', async () => {
    const { student, teacher, course, batch, assignment, url } = await setUp();
    const quiet = await signedIn(t, 'student');
    await insertPurchase(t.db, quiet.user.id, course.id, batch);
    const refunded = await signedIn(t, 'student');
    await insertPurchase(t.db, refunded.user.id, course.id, batch, 'refunded');
    await upload(url, [{ name: 'text', value: 'Done' }], student.headers);

    const res = await send('GET', `/api/assignments/${assignment.id}/submissions/`, teacher.headers);
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.assignment).toMatchObject({ id: assignment.id, submissions_count: 1, waiting_review_count: 1 });
    expect(data.submissions.map((s: { student_id: number; student_name: string }) => [s.student_id, s.student_name])).toEqual([
      [student.user.id, 'Test Person'],
    ]);
    expect(data.missing).toEqual([{ student_id: quiet.user.id, student_name: 'Test Person' }]);
  });
});

describe('over a real connection', () => {
  it('an answer cut off mid-upload leaves no row and no object', async () => {
    const { student, teacher, course } = await classroom();
    const assignment = await createAssignment(course, teacher);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as net.AddressInfo).port;
    const { body, contentType } = multipartBody([filePart(Buffer.concat([pdf(), Buffer.alloc(8 * 1024 * 1024, 0x20)]), 'big.pdf')]);
    const socket = net.connect(port, '127.0.0.1');
    socket.on('error', () => {});
    const head = [
      `POST /api/assignments/${assignment.id}/submission/ HTTP/1.1`,
      `Host: 127.0.0.1:${port}`,
      `Content-Type: ${contentType}`,
      `Content-Length: ${body.length}`,
      `Authorization: ${student.headers.authorization}`,
    ];
    socket.write(`${head.join('\r\n')}\r\n\r\n`);
    socket.write(body.subarray(0, Math.floor(body.length / 2)));
    // The server is writing the file...
    await eventually(async () => filesUnder().length > 0, 60_000);
    socket.destroy();
    // ...and when the connection goes, what it wrote goes with it.
    await eventually(async () => filesUnder().length === 0, 60_000);
    expect(await storedKeys(t)).toEqual([]);
    expect(await t.db.select().from(submissions)).toEqual([]);
    // The server goes on taking answers.
    expect((await upload(`/api/assignments/${assignment.id}/submission/`, [{ name: 'text', value: 'ok' }], student.headers)).statusCode).toBe(200);
  });
});
