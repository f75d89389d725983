// A teacher edits, moves and cancels a session; its students are mailed once each, in their language
// (a class_moved / class_cancelled notice: text and MJML HTML from one template, one-click unsubscribe),
// and only the students the session is for; a cancelled session leaves every list (attendance:
// attendance-live.test.ts).
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { appPerTest } from '../../../test/app';
import { outbox, signedIn } from '../../../test/accounts';
import { createCourse, weekdayChoice } from '../../../test/courses';
import { buy, sessionAt as sessionAtIn } from '../../../test/sessions';
import { batches, classSessions, subscriptions, users } from '../../db/schema/index';

const t = appPerTest();

const MIN = 60_000;
type Headers = Record<string, string>;
const get = (url: string, headers: Headers = {}) => t.app.inject({ method: 'GET', url, headers });
const patch = (id: number | string, payload: unknown, headers: Headers = {}) =>
  t.app.inject({ method: 'PATCH', url: `/api/classes/sessions/${id}/`, payload: payload as object, headers });
const cancel = (id: number | string, payload: unknown, headers: Headers = {}) =>
  t.app.inject({ method: 'POST', url: `/api/classes/sessions/${id}/cancel/`, payload: payload as object, headers });
const titles = async (headers: Headers) => ((await get('/api/classes/sessions/', headers)).json().data as { title: string }[]).map((s) => s.title);

const sessionAt = (courseId: number, title: string, startOffsetMin: number, extra?: Parameters<typeof sessionAtIn>[4]) => sessionAtIn(t, courseId, title, startOffsetMin, extra);

/** A paying student of `course`, in `language`, in batch `batchId` when given. */
async function student(courseId: number, choice: object, options: { language?: string; batchId?: number; firstName?: string } = {}) {
  const s = await signedIn(t);
  await t.db.update(users).set({ language: options.language ?? null, firstName: options.firstName ?? 'Test' }).where(eq(users.id, s.user.id));
  const order = await buy(t, s.headers, choice);
  if (options.batchId !== undefined) await t.db.update(subscriptions).set({ batchId: options.batchId }).where(eq(subscriptions.id, order.subscription_id));
  return s;
}

async function batchOf(courseId: number, startDate: string) {
  const [row] = await t.db
    .insert(batches)
    .values({ courseId, kind: 'weekdays', startDate, endDate: startDate, time: '09:00', seats: 9 })
    .returning();
  return row!;
}

async function classroom() {
  const teacher = await signedIn(t, 'teacher');
  const course = await createCourse(t, teacher.headers, { name: 'Pottery' });
  return { teacher, course };
}

describe('cancelling a session', () => {
  it('takes it out of every list, mails each student of its batch once in their language, and refuses a second cancel', async () => {
    const { teacher, course } = await classroom();
    const morning = await batchOf(course.id, '2031-01-06');
    const evening = await batchOf(course.id, '2031-01-13');
    const choice = weekdayChoice(course);
    const ana = await student(course.id, choice, { language: 'pt', batchId: morning.id, firstName: 'Ana' });
    const max = await student(course.id, choice, { language: 'de', batchId: morning.id, firstName: 'Max' });
    const eve = await student(course.id, choice, { batchId: evening.id, firstName: 'Eve' });
    const session = await sessionAt(course.id, 'Glazing', 24 * 60, { batchId: morning.id });
    await sessionAt(course.id, 'Throwing', 48 * 60);
    const inTrial = await signedIn(t);
    for (const who of [teacher, ana, max]) expect(await titles(who.headers)).toContain('Glazing');
    const before = (await outbox(t)).length;

    const res = await cancel(session.id, { reason: '  Kiln broken  ' }, teacher.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: 'Session cancelled; its students were told', data: { id: session.id, cancel_reason: 'Kiln broken' } });
    // Gone from every list; the course's other sessions (its batches' own included) stay.
    for (const who of [teacher, ana, max, eve, inTrial, await signedIn(t, 'admin')]) {
      const listed = await titles(who.headers);
      expect(listed).not.toContain('Glazing');
      expect(listed).toContain('Throwing');
    }

    const mails = (await outbox(t)).slice(before);
    expect(mails.map((m) => m.to).sort()).toEqual([ana.user.email, max.user.email].sort());
    const pt = mails.find((m) => m.to === ana.user.email)!;
    expect(pt.subject).toBe('Cancelada: Glazing');
    expect(pt.text).toContain('Olá Ana,');
    expect(pt.text).toContain('Motivo: Kiln broken');
    // The time in UTC and in the course's zone, so nobody guesses which zone was meant.
    expect(pt.text).toMatch(/ UTC \(.+ Asia\/Kolkata\)/);
    // One template, two parts: the HTML (MJML) says what the text says; the kind may be turned off in one click.
    expect(pt.html).toContain('Motivo: Kiln broken');
    expect(pt.html).toContain('<html lang="pt"');
    expect(pt.headers?.['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    expect(mails.find((m) => m.to === max.user.email)!.subject).toBe('Abgesagt: Glazing');

    const again = await cancel(session.id, { reason: 'Still broken' }, teacher.headers);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('This session is already cancelled');
    expect((await outbox(t)).length).toBe(before + 2);
    const [row] = await t.db.select().from(classSessions).where(eq(classSessions.id, session.id));
    expect(row!.cancelReason).toBe('Kiln broken');
  });

  it('mails every paying student of the course, in English by default, for a session of no batch', async () => {
    const { teacher, course } = await classroom();
    const paying = await student(course.id, weekdayChoice(course));
    const session = await sessionAt(course.id, 'Extra', 60);
    const before = (await outbox(t)).length;
    expect((await cancel(session.id, { reason: 'Holiday' }, teacher.headers)).statusCode).toBe(200);
    const mails = (await outbox(t)).slice(before);
    expect(mails.map((m) => [m.to, m.subject])).toEqual([[paying.user.email, 'Cancelled: Extra']]);
  });

  it('refuses a missing, blank or too long reason and unknown fields (400), changing nothing', async () => {
    const { teacher, course } = await classroom();
    const session = await sessionAt(course.id, 'Class', 60);
    for (const body of [{}, { reason: '   ' }, { reason: 'x'.repeat(501) }, { reason: 42 }, { reason: 'ok', extra: 1 }]) {
      const res = await cancel(session.id, body, teacher.headers);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await cancel(session.id, { reason: 'ok' }, teacher.headers)).statusCode).toBe(200);
  });

  it('is refused to students and other teachers (403), for unknown sessions (404) and ended ones (409); admins may', async () => {
    const { teacher, course } = await classroom();
    const session = await sessionAt(course.id, 'Class', 60);
    const ended = await sessionAt(course.id, 'Old', -120);
    const body = { reason: 'No' };
    expect((await cancel(session.id, body, (await signedIn(t)).headers)).statusCode).toBe(403);
    expect((await cancel(session.id, body, (await signedIn(t, 'teacher')).headers)).statusCode).toBe(403);
    expect((await cancel(session.id, body)).statusCode).toBe(401);
    expect((await cancel(999_999, body, teacher.headers)).statusCode).toBe(404);
    expect((await cancel('x', body, teacher.headers)).statusCode).toBe(400);
    const late = await cancel(ended.id, body, teacher.headers);
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe('This session has already ended');
    expect(await titles(teacher.headers)).toEqual(expect.arrayContaining(['Class', 'Old']));
    expect((await cancel(session.id, body, (await signedIn(t, 'admin')).headers)).statusCode).toBe(200);
  });
});

describe('editing a session', () => {
  it('changes the title alone without mail, and a move mails old and new times once per student', async () => {
    const { teacher, course } = await classroom();
    const paying = await student(course.id, weekdayChoice(course), { language: 'fr' });
    const session = await sessionAt(course.id, 'Wheel', 24 * 60);
    const before = (await outbox(t)).length;

    const renamed = await patch(session.id, { title: ' Wheel basics ' }, teacher.headers);
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ message: 'Session updated', data: { id: session.id, title: 'Wheel basics', starts_at: session.startsAt.toISOString() } });
    expect((await outbox(t)).length).toBe(before);

    const startsAt = new Date(session.startsAt.getTime() + 2 * 86_400_000);
    const moved = await patch(session.id, { starts_at: startsAt.toISOString(), duration_minutes: 90 }, teacher.headers);
    expect(moved.statusCode).toBe(200);
    expect(moved.json().data).toMatchObject({ starts_at: startsAt.toISOString(), ends_at: new Date(startsAt.getTime() + 90 * MIN).toISOString() });
    const mails = (await outbox(t)).slice(before);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.to).toBe(paying.user.email);
    expect(mails[0]!.subject).toBe('Nouvel horaire\u00a0: Wheel basics');
    expect(mails[0]!.text).toMatch(/Avant\u00a0: .+ UTC \(.+ Asia\/Kolkata\) – 60 min/);
    expect(mails[0]!.text).toMatch(/Désormais\u00a0: .+ UTC \(.+ Asia\/Kolkata\) – 90 min/);
    expect(mails[0]!.html).toMatch(/Désormais\u00a0: .+ UTC \(.+ Asia\/Kolkata\) – 90 min/);
    expect(mails[0]!.headers?.['List-Unsubscribe']).toMatch(/^<https?:.*token=/);
    expect((await get('/api/classes/sessions/', paying.headers)).json().data[0]).toMatchObject({ title: 'Wheel basics', starts_at: startsAt.toISOString() });
  });

  it('refuses an ended or cancelled session (409), a start in the past and bad fields (400)', async () => {
    const { teacher, course } = await classroom();
    const session = await sessionAt(course.id, 'Class', 60);
    const ended = await sessionAt(course.id, 'Old', -120);
    const late = await patch(ended.id, { title: 'New' }, teacher.headers);
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe('This session has already ended');
    const past = await patch(session.id, { starts_at: new Date(Date.now() - MIN).toISOString() }, teacher.headers);
    expect(past.statusCode).toBe(400);
    expect(Object.keys(past.json().errors)).toEqual(['starts_at']);
    const bad = await patch(session.id, { title: '', starts_at: 'soon', duration_minutes: 5 }, teacher.headers);
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().errors).sort()).toEqual(['duration_minutes', 'starts_at', 'title']);
    expect((await patch(session.id, {}, teacher.headers)).statusCode).toBe(400);
    expect((await patch(session.id, { capacity: 3 }, teacher.headers)).statusCode).toBe(400);
    await cancel(session.id, { reason: 'Off' }, teacher.headers);
    expect((await patch(session.id, { title: 'Back' }, teacher.headers)).statusCode).toBe(409);
    const [row] = await t.db.select().from(classSessions).where(eq(classSessions.id, session.id));
    expect(row!.title).toBe('Class');
  });

  it('is refused to students and other teachers (403) and for unknown sessions (404)', async () => {
    const { teacher, course } = await classroom();
    const session = await sessionAt(course.id, 'Class', 60);
    expect((await patch(session.id, { title: 'Mine' }, (await signedIn(t)).headers)).statusCode).toBe(403);
    expect((await patch(session.id, { title: 'Mine' }, (await signedIn(t, 'teacher')).headers)).statusCode).toBe(403);
    expect((await patch(999_999, { title: 'Mine' }, teacher.headers)).statusCode).toBe(404);
    expect((await patch(session.id, { title: 'Admin' }, (await signedIn(t, 'admin')).headers)).json().data.title).toBe('Admin');
  });
});
