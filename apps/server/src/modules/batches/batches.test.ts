import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Batch } from '@mooz/contract/batches';
import type { Session } from '@mooz/contract/courses';
import { appPerTest } from '../../../test/app';
import { signedIn } from '../../../test/accounts';
import { createCourse, createOrder, daysFromNow, firstBatch, paidCheckout, sampleCourse, weekdayChoice, weekendChoice } from '../../../test/courses';
import { auditLog, batches, subscriptions } from '../../db/schema/index';
import { isoWeekday } from './timetable';

const t = appPerTest();

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });
const send = (method: 'POST' | 'PATCH' | 'DELETE', url: string, payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method, url, payload: payload as object, headers });

/** The local weekday and clock time of an instant in a zone, e.g. "Sat 10:00". */
const localDayTime = (iso: string, zone: string) =>
  new Intl.DateTimeFormat('en-GB', { timeZone: zone, weekday: 'short', hour: '2-digit', minute: '2-digit' }).format(new Date(iso));

async function sessionsOf(headers: Record<string, string>): Promise<Session[]> {
  return (await get('/api/classes/sessions/', headers)).json().data;
}

async function buy(headers: Record<string, string>, body: object) {
  const order = await createOrder(t, headers, body);
  return send('POST', '/api/payments/verify_payment/', { ...paidCheckout(t, order), subscription_id: order.subscription_id }, headers);
}

describe('batches of a course', () => {
  it("open from the course's weeks: weekday batches on a Monday, weekend batches on a Saturday, in the course's zone", async () => {
    const teacher = await signedIn(t, 'teacher');
    // A Wednesday: the week it names starts its weekday batch on the Monday, its weekend batch on the Saturday.
    const wednesday = '2031-01-08';
    const course = await createCourse(t, teacher.headers, {
      batch_start_dates: [wednesday],
      weekday_times: ['07:30'],
      weekend_times: ['10:00'],
      duration_weeks: 2,
      time_zone: 'America/Los_Angeles',
    });
    expect(course.time_zone).toBe('America/Los_Angeles');
    const weekday = firstBatch(course, 'weekdays');
    const weekend = firstBatch(course, 'weekends');
    expect([weekday.start_date, isoWeekday(weekday.start_date)]).toEqual(['2031-01-06', 1]);
    expect([weekend.start_date, isoWeekday(weekend.start_date)]).toEqual(['2031-01-11', 6]);
    expect(weekday.end_date).toBe('2031-01-19');
    expect(course.batch_start_dates).toEqual(['2031-01-06', '2031-01-11']);

    const rows = (await sessionsOf(teacher.headers)).filter((s) => s.batch_id === weekend.id);
    // Two weeks of Saturday and Sunday at 10:00 in Los Angeles.
    expect(rows.map((s) => localDayTime(s.starts_at, 'America/Los_Angeles'))).toEqual(['Sat 10:00', 'Sun 10:00', 'Sat 10:00', 'Sun 10:00']);
    expect(rows.every((s) => Date.parse(s.ends_at) - Date.parse(s.starts_at) === 60 * 60_000)).toBe(true);
    // A viewer in India (UTC+5:30) sees them on Saturday and Sunday nights at 23:30.
    expect(rows.map((s) => localDayTime(s.starts_at, 'Asia/Kolkata'))).toEqual(['Sat 23:30', 'Sun 23:30', 'Sat 23:30', 'Sun 23:30']);
    const weekdays = (await sessionsOf(teacher.headers)).filter((s) => s.batch_id === weekday.id);
    expect(weekdays).toHaveLength(10);
    // 07:30 Monday to Friday in Los Angeles is 21:00 Monday to Friday in India, and 15:30 in UTC.
    expect(new Set(weekdays.map((s) => localDayTime(s.starts_at, 'Asia/Kolkata').split(' ')[0]))).toEqual(new Set(['Mon', 'Tue', 'Wed', 'Thu', 'Fri']));
    expect(new Set(weekdays.map((s) => localDayTime(s.starts_at, 'UTC')))).toEqual(new Set(['Mon 15:30', 'Tue 15:30', 'Wed 15:30', 'Thu 15:30', 'Fri 15:30']));
    // Each batch names its meetings' first instants, so a viewer anywhere can name their own days.
    expect(weekday.meetings.map((m) => m.weekday)).toEqual([1, 2, 3, 4, 5]);
    expect(localDayTime(weekday.meetings[0]!.first_starts_at, 'America/Los_Angeles')).toBe('Mon 07:30');
  });

  it('keeps a class at its local hour across the change from summer time', async () => {
    const teacher = await signedIn(t, 'teacher');
    // Europe/Berlin leaves summer time on Sunday 2030-10-27.
    const course = await createCourse(t, teacher.headers, {
      batch_start_dates: ['2030-10-14'],
      weekday_times: [],
      weekend_times: ['18:00'],
      duration_weeks: 3,
      time_zone: 'Europe/Berlin',
    });
    const rows = (await sessionsOf(teacher.headers)).filter((s) => s.batch_id === firstBatch(course, 'weekends').id);
    expect(rows.map((s) => localDayTime(s.starts_at, 'Europe/Berlin'))).toEqual(['Sat 18:00', 'Sun 18:00', 'Sat 18:00', 'Sun 18:00', 'Sat 18:00', 'Sun 18:00']);
    // 18:00 is 16:00 UTC in summer time and 17:00 UTC from the Sunday the clocks go back.
    expect(rows.map((s) => s.starts_at.slice(5, 16))).toEqual(['10-19T16:00', '10-20T16:00', '10-26T16:00', '10-27T17:00', '11-02T17:00', '11-03T17:00']);
  });

  it('lets the teacher open a batch with its own times and seats, and refuses a wrong start day or a duplicate', async () => {
    const teacher = await signedIn(t, 'teacher');
    const course = await createCourse(t, teacher.headers, { batch_start_dates: ['2031-03-03'], weekday_times: ['09:00'], weekend_times: [] });
    const url = `/api/courses/${course.id}/batches/`;
    const opened = await send('POST', url, { kind: 'weekends', start_date: '2031-03-08', saturday_time: '10:00', sunday_time: '16:30', capacity: 4, session_minutes: 90 }, teacher.headers);
    expect(opened.statusCode).toBe(201);
    const batch: Batch = opened.json().data;
    expect(batch).toMatchObject({ kind: 'weekends', saturday_time: '10:00', sunday_time: '16:30', capacity: 4, seats_left: 4, sold_out: false, session_minutes: 90 });
    const course2 = (await get(`/api/courses/${course.id}/`, teacher.headers)).json().data;
    expect(course2.weekend_times).toEqual(['10:00', '16:30']);

    const monday = await send('POST', url, { kind: 'weekends', start_date: '2031-03-10', saturday_time: '10:00', sunday_time: '10:00' }, teacher.headers);
    expect(monday.statusCode).toBe(400);
    expect(monday.json().errors).toEqual({ start_date: ['Weekend batches start on a Saturday'] });
    const saturday = await send('POST', url, { kind: 'weekdays', start_date: '2031-03-08', time: '09:00', saturday_time: '10:00' }, teacher.headers);
    expect(saturday.json().errors).toEqual({ start_date: ['Weekday batches start on a Monday'], saturday_time: ['Only for weekend batches'] });
    const past = await send('POST', url, { kind: 'weekdays', start_date: '2020-03-02', time: '09:00' }, teacher.headers);
    expect(past.json().errors).toEqual({ start_date: ['Choose a date from today on'] });
    const again = await send('POST', url, { kind: 'weekends', start_date: '2031-03-08', saturday_time: '10:00', sunday_time: '16:30' }, teacher.headers);
    expect(again.statusCode).toBe(409);
    expect(await t.db.select().from(batches).where(eq(batches.courseId, course.id))).toHaveLength(2);
  });

  it('refuses lists that would open more batches than a course may have, and creates nothing', async () => {
    const teacher = await signedIn(t, 'teacher');
    const weeks = Array.from({ length: 13 }, (_, i) => daysFromNow(14 + 7 * i));
    const many = await send('POST', '/api/courses/', { ...sampleCourse(), batch_start_dates: weeks, weekday_times: ['08:00', '12:00', '16:00'], weekend_times: ['10:00'] }, teacher.headers);
    expect(many.statusCode).toBe(400);
    expect(many.json().errors.batch_start_dates[0]).toMatch(/make 52 batches; a course has at most 24/);
    expect(await t.db.select().from(batches)).toEqual([]);
  });

  it('is refused to students and other teachers (403), for unknown courses and batches (404); admins may', async () => {
    const teacher = await signedIn(t, 'teacher');
    const other = await signedIn(t, 'teacher');
    const student = await signedIn(t, 'student');
    const admin = await signedIn(t, 'admin');
    const course = await createCourse(t, teacher.headers);
    const batch = firstBatch(course, 'weekdays');
    const body = { kind: 'weekdays', start_date: firstBatch(course, 'weekdays').start_date, time: '11:00' };
    expect((await send('POST', `/api/courses/${course.id}/batches/`, body, student.headers)).statusCode).toBe(403);
    expect((await send('POST', `/api/courses/${course.id}/batches/`, body, other.headers)).statusCode).toBe(403);
    expect((await send('POST', `/api/courses/${course.id}/batches/`, body)).statusCode).toBe(401);
    expect((await send('POST', '/api/courses/999999/batches/', body, teacher.headers)).statusCode).toBe(404);
    expect((await send('PATCH', `/api/courses/${course.id}/batches/${batch.id}/`, { capacity: 5 }, other.headers)).statusCode).toBe(403);
    expect((await send('DELETE', `/api/courses/${course.id}/batches/999999/`, undefined, teacher.headers)).statusCode).toBe(404);
    const elsewhere = await createCourse(t, other.headers);
    // Another course's batch is not a batch of this course.
    expect((await send('PATCH', `/api/courses/${course.id}/batches/${firstBatch(elsewhere, 'weekdays').id}/`, { capacity: 5 }, teacher.headers)).statusCode).toBe(404);
    const byAdmin = await send('POST', `/api/courses/${course.id}/batches/`, body, admin.headers);
    expect(byAdmin.statusCode).toBe(201);
    // What an admin does to a teacher's batches is in the audit log; the teacher's own changes are not.
    const audit = await t.db.select().from(auditLog);
    expect(audit.map((a) => [a.actorId, a.action, a.targetId])).toEqual([[admin.user.id, 'batch.open', String(byAdmin.json().data.id)]]);
  });
});

describe('buying a batch', () => {
  it('shows a weekend buyer only Saturday and Sunday classes of their batch, and the open sessions of their course', async () => {
    const teacher = await signedIn(t, 'teacher');
    const course = await createCourse(t, teacher.headers);
    const student = await signedIn(t, 'student');
    const open = await send('POST', '/api/classes/sessions/', { course_id: course.id, title: 'Open Q&A', starts_at: new Date(Date.now() + 86_400_000).toISOString(), duration_minutes: 60 }, teacher.headers);
    expect(open.statusCode).toBe(201);
    // In trial: the open sessions of every course, none of a batch's own.
    expect((await sessionsOf(student.headers)).map((s) => s.title)).toEqual(['Open Q&A']);

    expect((await buy(student.headers, weekendChoice(course))).statusCode).toBe(200);
    const mine = await sessionsOf(student.headers);
    const bought = firstBatch(course, 'weekends');
    expect(mine.filter((s) => s.batch_id === null).map((s) => s.title)).toEqual(['Open Q&A']);
    const classes = mine.filter((s) => s.batch_id !== null);
    expect(classes.length).toBe(2 * course.duration_weeks);
    expect(classes.every((s) => s.batch_id === bought.id)).toBe(true);
    expect(new Set(classes.map((s) => localDayTime(s.starts_at, course.time_zone).split(' ')[0]))).toEqual(new Set(['Sat', 'Sun']));
    // The enrollment is the batch bought.
    const [enrolled] = (await get('/api/courses/my_courses/', student.headers)).json().data;
    expect(enrolled.enrollment).toMatchObject({ batch: 'weekends', start_date: bought.start_date, saturday_time: bought.saturday_time });
  });

  it('sells the last seat once, however many payments verify at the same moment', async () => {
    const teacher = await signedIn(t, 'teacher');
    const course = await createCourse(t, teacher.headers);
    const batch = firstBatch(course, 'weekdays');
    expect((await send('PATCH', `/api/courses/${course.id}/batches/${batch.id}/`, { capacity: 1 }, teacher.headers)).statusCode).toBe(200);
    const buyers = await Promise.all(Array.from({ length: 20 }, () => signedIn(t, 'student')));
    const orders = await Promise.all(buyers.map((b) => createOrder(t, b.headers, weekdayChoice(course))));
    const answers = await Promise.all(
      buyers.map((b, i) =>
        send('POST', '/api/payments/verify_payment/', { ...paidCheckout(t, orders[i]!), subscription_id: orders[i]!.subscription_id }, b.headers),
      ),
    );
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
    const refused = answers.filter((a) => a.statusCode !== 200);
    expect(refused.every((a) => a.statusCode === 409 && a.json().message.startsWith('This batch filled up while you were paying'))).toBe(true);
    expect(await t.db.select().from(subscriptions).where(eq(subscriptions.status, 'active'))).toHaveLength(1);
    const [row] = await t.db.select().from(batches).where(eq(batches.id, batch.id));
    expect(row).toMatchObject({ seatsTaken: 1, seats: 1 });

    // Sold out: said on the course, refused at the order, and the seats cannot shrink below those sold.
    const shown = (await get(`/api/courses/${course.id}/`, buyers[0]!.headers)).json().data.batches.find((b: Batch) => b.id === batch.id);
    expect(shown).toMatchObject({ seats_left: 0, sold_out: true });
    const late = await signedIn(t, 'student');
    const refusedOrder = await send('POST', '/api/payments/create_order/', weekdayChoice(course), late.headers);
    expect([refusedOrder.statusCode, refusedOrder.json().message]).toEqual([409, 'This batch is sold out']);
    const shrink = await send('PATCH', `/api/courses/${course.id}/batches/${batch.id}/`, { capacity: 0 }, teacher.headers);
    expect(shrink.statusCode).toBe(400);
    const removeSold = await send('DELETE', `/api/courses/${course.id}/batches/${batch.id}/`, undefined, teacher.headers);
    expect(removeSold.statusCode).toBe(409);
  });

  it('takes a batch_id that agrees with the body, and refuses one that does not', async () => {
    const teacher = await signedIn(t, 'teacher');
    const course = await createCourse(t, teacher.headers);
    const student = await signedIn(t, 'student');
    const weekend = firstBatch(course, 'weekends');
    const wrong = await send('POST', '/api/payments/create_order/', { ...weekdayChoice(course), batch_id: weekend.id }, student.headers);
    expect(wrong.statusCode).toBe(400);
    expect(Object.keys(wrong.json().errors)).toEqual(['batch_id']);
    const unknown = await send('POST', '/api/payments/create_order/', { ...weekdayChoice(course), batch_id: 999_999 }, student.headers);
    expect(Object.keys(unknown.json().errors)).toEqual(['batch_id']);
    const right = await send('POST', '/api/payments/create_order/', { ...weekendChoice(course), batch_id: weekend.id }, student.headers);
    expect(right.statusCode).toBe(200);
    const [row] = await t.db.select().from(subscriptions).where(eq(subscriptions.userId, student.user.id));
    expect(row!.batchId).toBe(weekend.id);
  });

  it('removes an unsold batch with its sessions, and changes batches as the course lists change', async () => {
    const teacher = await signedIn(t, 'teacher');
    const course = await createCourse(t, teacher.headers, { batch_start_dates: [daysFromNow(10)], weekday_times: ['09:00'], weekend_times: ['10:00'] });
    const weekday = firstBatch(course, 'weekdays');
    const removed = await send('DELETE', `/api/courses/${course.id}/batches/${weekday.id}/`, undefined, teacher.headers);
    expect(removed.statusCode).toBe(200);
    expect((await sessionsOf(teacher.headers)).some((s) => s.batch_id === weekday.id)).toBe(false);
    const after = (await get(`/api/courses/${course.id}/`, teacher.headers)).json().data;
    expect(after.weekday_times).toEqual([]);

    // Adding a time opens a batch for each listed week; removing one closes its unsold batches.
    const patched = await send('PATCH', `/api/courses/${course.id}/`, { weekday_times: ['18:00'] }, teacher.headers);
    expect(patched.json().data.batches.map((b: Batch) => [b.kind, b.time ?? b.saturday_time])).toEqual([
      ['weekdays', '18:00'],
      ['weekends', '10:00'],
    ].sort((a, b) => (a[0]! < b[0]! ? -1 : 1)));
    const dropped = await send('PATCH', `/api/courses/${course.id}/`, { weekend_times: [] }, teacher.headers);
    expect(dropped.json().data.batches.map((b: Batch) => b.kind)).toEqual(['weekdays']);
  });
});
