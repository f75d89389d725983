// Calendars: a user's private feed (made, shown again, rotated, revoked) parses as iCalendar with
// exactly their sessions, at the right instants across a daylight-saving change; a revoked, rotated,
// unknown or malformed token is 404; one session's .ics for "Add to calendar" only for who may see it.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import ICAL from 'ical.js';
import { eq } from 'drizzle-orm';
import type { TestApp } from '../../../test/app';
import { signedIn } from '../../../test/accounts';
import { clockedApps } from '../../../test/clocked';
import { createCourse, weekdayChoice } from '../../../test/courses';
import { buy, sessionAt } from '../../../test/sessions';
import { batches, classSessions, subscriptions, users } from '../../db/schema/index';

let world: Awaited<ReturnType<typeof clockedApps>>;
let t: TestApp;
beforeEach(async () => {
  world = await clockedApps(1);
  t = world.apps[0]!;
});
afterEach(async () => {
  await world.close();
});

type Headers = Record<string, string>;
const call = (method: 'GET' | 'POST' | 'DELETE', url: string, headers: Headers = {}) => t.app.inject({ method, url, headers });
const pathOf = (url: string) => new URL(url).pathname;
/** iCalendar times are to the second. */
const toSecond = (d: Date) => new Date(Math.floor(d.getTime() / 1000) * 1000).toISOString();

interface ParsedEvent {
  uid: string;
  summary: string;
  start: Date;
  end: Date;
  status: string | null;
  url: string | null;
  description: string;
  rawStart: string;
}

function parse(body: string): ParsedEvent[] {
  const component = new ICAL.Component(ICAL.parse(body));
  expect(component.name).toBe('vcalendar');
  return component.getAllSubcomponents('vevent').map((vevent) => {
    const event = new ICAL.Event(vevent);
    return {
      uid: event.uid,
      summary: event.summary,
      start: event.startDate.toJSDate(),
      end: event.endDate.toJSDate(),
      status: (vevent.getFirstPropertyValue('status') as string | null) ?? null,
      url: (vevent.getFirstPropertyValue('url') as string | null) ?? null,
      description: event.description,
      rawStart: /DTSTART[^\r\n]*/.exec(vevent.toString())![0],
    };
  });
}

async function makeFeed(headers: Headers) {
  const res = await call('POST', '/api/auth/calendar/', headers);
  expect(res.statusCode).toBe(201);
  return res.json() as { data: { url: string; webcal_url: string; created_at: string }; message: string };
}

/** A teacher's course with two batches, a student in one of them. */
async function classroom(options: { timeZone?: string } = {}) {
  const teacher = await signedIn(t, 'teacher');
  const course = await createCourse(t, teacher.headers, { name: 'Pottery', ...(options.timeZone && { time_zone: options.timeZone }) });
  const batch = async (startDate: string) =>
    (await t.db.insert(batches).values({ courseId: course.id, kind: 'weekdays', startDate, endDate: startDate, time: '09:00', seats: 9 }).returning())[0]!;
  const mine = await batch('2031-01-06');
  const other = await batch('2031-01-13');
  const student = await signedIn(t);
  const order = await buy(t, student.headers, weekdayChoice(course));
  await t.db.update(subscriptions).set({ batchId: mine.id }).where(eq(subscriptions.id, order.subscription_id));
  return { teacher, course, mine, other, student };
}

describe('the calendar feed', () => {
  it('is made, shown again, and lists exactly the user’s sessions as iCalendar', async () => {
    const c = await classroom();
    const ownBatch = await sessionAt(t, c.course.id, 'Glazing', 24 * 60, { batchId: c.mine.id });
    const open = await sessionAt(t, c.course.id, 'Open studio', 48 * 60);
    const otherBatch = await sessionAt(t, c.course.id, 'Other batch', 24 * 60, { batchId: c.other.id });
    const cancelled = await sessionAt(t, c.course.id, 'Called off', 72 * 60, { batchId: c.mine.id });
    await t.db.update(classSessions).set({ cancelledAt: new Date(), cancelReason: 'Kiln broken' }).where(eq(classSessions.id, cancelled.id));
    const old = await sessionAt(t, c.course.id, 'Long ago', -90 * 24 * 60, { batchId: c.mine.id });
    const elsewhereTeacher = await signedIn(t, 'teacher');
    const elsewhere = await createCourse(t, elsewhereTeacher.headers, { name: 'Weaving' });
    const stranger = await sessionAt(t, elsewhere.id, 'Loom basics', 24 * 60);

    expect((await call('GET', '/api/auth/calendar/', c.student.headers)).json()).toEqual({ data: null });
    const made = await makeFeed(c.student.headers);
    expect(made.message).toBe('Your calendar feed is ready');
    expect(made.data.url).toMatch(/^https:\/\/mooz\.example\.com\/api\/calendar\/\d+-[A-Za-z0-9_-]{32}\.ics$/);
    expect(made.data.webcal_url).toBe(made.data.url.replace('https:', 'webcal:'));
    expect((await call('GET', '/api/auth/calendar/', c.student.headers)).json().data).toEqual(made.data);

    const res = await call('GET', pathOf(made.data.url));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(res.headers['cache-control']).toBe('private, no-store');
    const events = parse(res.body);
    const titles = events.map((e) => e.summary.split(' · ')[0]);
    expect(titles).toEqual(expect.arrayContaining(['Glazing', 'Open studio', 'Called off']));
    for (const absent of ['Other batch', 'Long ago', 'Loom basics']) expect(titles).not.toContain(absent);
    const glazing = events.find((e) => e.summary === 'Glazing · Pottery')!;
    expect(glazing.uid).toBe(`mooz-session-${ownBatch.id}@mooz.example.com`);
    expect(glazing.start.toISOString()).toBe(toSecond(ownBatch.startsAt));
    expect(glazing.end.toISOString()).toBe(toSecond(ownBatch.endsAt));
    expect(glazing.rawStart).toMatch(/^DTSTART:\d{8}T\d{6}Z$/);
    expect(glazing.status).toBe('CONFIRMED');
    expect(glazing.url).toBe(`https://mooz.example.com/meeting/${ownBatch.roomId}`);
    expect(glazing.description).toContain(`Join: https://mooz.example.com/meeting/${ownBatch.roomId}`);
    const calledOff = events.find((e) => e.summary.startsWith('Called off'))!;
    expect(calledOff.status).toBe('CANCELLED');
    expect(calledOff.description).toContain('Kiln broken');
    expect(events.find((e) => e.summary.startsWith('Open studio'))!.uid).toBe(`mooz-session-${open.id}@mooz.example.com`);
    void otherBatch;
    void old;
    void stranger;

    // The same UIDs on the next read: calendar apps update their events rather than add others.
    const again = parse((await call('GET', pathOf(made.data.url))).body);
    expect(again.map((e) => e.uid).sort()).toEqual(events.map((e) => e.uid).sort());

    // The teacher's feed: their course's sessions, every batch; not another teacher's.
    const teacherFeed = parse((await call('GET', pathOf((await makeFeed(c.teacher.headers)).data.url))).body).map((e) => e.summary);
    expect(teacherFeed).toEqual(expect.arrayContaining(['Glazing · Pottery', 'Other batch · Pottery']));
    expect(teacherFeed).not.toContain('Loom basics · Weaving');
  });

  it('describes events in the reader’s language', async () => {
    const c = await classroom();
    await sessionAt(t, c.course.id, 'Glazing', 24 * 60, { batchId: c.mine.id });
    await t.db.update(users).set({ language: 'de' }).where(eq(users.id, c.student.user.id));
    const body = (await call('GET', pathOf((await makeFeed(c.student.headers)).data.url))).body;
    expect(body).toContain('X-WR-CALNAME:Mooz-Unterricht');
    expect(parse(body)[0]!.description).toContain('Teilnehmen: https://mooz.example.com/meeting/');
  });

  it('gives the right instants on both sides of a daylight-saving change', async () => {
    // Europe/Berlin moves from UTC+1 to UTC+2 on Sunday 30 March 2031: 09:00 there is 08:00Z before, 07:00Z after.
    const c = await classroom({ timeZone: 'Europe/Berlin' });
    const before = await sessionAt(t, c.course.id, 'Before', 0, { batchId: c.mine.id, startsAt: new Date('2031-03-28T08:00:00Z'), endsAt: new Date('2031-03-28T09:00:00Z') });
    const after = await sessionAt(t, c.course.id, 'After', 0, { batchId: c.mine.id, startsAt: new Date('2031-03-31T07:00:00Z'), endsAt: new Date('2031-03-31T08:00:00Z') });
    const events = parse((await call('GET', pathOf((await makeFeed(c.student.headers)).data.url))).body);
    const at = (title: string) => events.find((e) => e.summary.startsWith(title))!;
    expect(at('Before').start.toISOString()).toBe(before.startsAt.toISOString());
    expect(at('After').start.toISOString()).toBe(after.startsAt.toISOString());
    expect(at('Before').rawStart).toBe('DTSTART:20310328T080000Z');
    expect(at('After').rawStart).toBe('DTSTART:20310331T070000Z');
    const berlin = new Intl.DateTimeFormat('en', { timeZone: 'Europe/Berlin', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    expect(berlin.format(at('Before').start)).toBe('09:00');
    expect(berlin.format(at('After').start)).toBe('09:00');
    // The description gives the course's local time too.
    expect(at('After').description).toMatch(/09:00 Europe\/Berlin/);
  });

  it('answers 404 once rotated or revoked, for unknown and malformed tokens, and for a deactivated account', async () => {
    const c = await classroom();
    await sessionAt(t, c.course.id, 'Glazing', 24 * 60, { batchId: c.mine.id });
    const first = await makeFeed(c.student.headers);
    expect((await call('GET', pathOf(first.data.url))).statusCode).toBe(200);

    // Rotation: a new address; the old one stops at once.
    const second = await makeFeed(c.student.headers);
    expect(second.data.url).not.toBe(first.data.url);
    expect((await call('GET', pathOf(first.data.url))).statusCode).toBe(404);
    expect((await call('GET', pathOf(second.data.url))).statusCode).toBe(200);

    const revoked = await call('DELETE', '/api/auth/calendar/', c.student.headers);
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json()).toEqual({ data: null, message: 'Calendar feed turned off; its address no longer works' });
    const gone = await call('GET', pathOf(second.data.url));
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual({ message: 'Not found' });
    expect((await call('GET', '/api/auth/calendar/', c.student.headers)).json()).toEqual({ data: null });

    // Someone else's id with this token, a token of the right shape but wrong, garbage: never a feed.
    const third = await makeFeed(c.student.headers);
    const token = pathOf(third.data.url).split('/').pop()!.replace('.ics', '');
    const mac = token.slice(token.indexOf('-') + 1);
    expect((await call('GET', `/api/calendar/${c.teacher.user.id}-${mac}.ics`)).statusCode).toBe(404);
    expect((await call('GET', `/api/calendar/${c.student.user.id}-${'A'.repeat(32)}.ics`)).statusCode).toBe(404);
    expect((await call('GET', `/api/calendar/999999-${mac}.ics`)).statusCode).toBe(404);
    expect((await call('GET', '/api/calendar/nope.ics')).statusCode).toBe(404);
    expect((await call('GET', `/api/calendar/${token}x.ics`)).statusCode).toBe(404);
    // Longer than any token: refused by the router (414) before any lookup.
    expect([400, 404, 414]).toContain((await call('GET', `/api/calendar/${'9'.repeat(200)}.ics`)).statusCode);
    expect([400, 404]).toContain((await call('GET', `/api/calendar/${encodeURIComponent('1-<script>')}.ics`)).statusCode);

    // A deactivated account's feed stops too.
    await t.db.update(users).set({ deactivatedAt: new Date() }).where(eq(users.id, c.student.user.id));
    expect((await call('GET', pathOf(third.data.url))).statusCode).toBe(404);
  });

  it('needs a signed-in user to see, make or revoke an address', async () => {
    for (const method of ['GET', 'POST', 'DELETE'] as const) expect((await call(method, '/api/auth/calendar/')).statusCode).toBe(401);
  });
});

describe('one session’s .ics', () => {
  it('downloads a session the caller may see, and 404s the others', async () => {
    const c = await classroom();
    const session = await sessionAt(t, c.course.id, 'Glazing: wheel & kiln', 24 * 60, { batchId: c.mine.id });
    const otherBatch = await sessionAt(t, c.course.id, 'Other batch', 24 * 60, { batchId: c.other.id });
    const url = (id: number | string) => `/api/classes/sessions/${id}/ics/`;

    const res = await call('GET', url(session.id), c.student.headers);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(res.headers['content-disposition']).toContain('filename="Glazing-wheel-kiln.ics"');
    expect(res.body).toContain('METHOD:PUBLISH');
    const [event, ...rest] = parse(res.body);
    expect(rest).toEqual([]);
    expect(event!.uid).toBe(`mooz-session-${session.id}@mooz.example.com`);
    expect(event!.start.toISOString()).toBe(toSecond(session.startsAt));
    expect(event!.url).toBe(`https://mooz.example.com/meeting/${session.roomId}`);
    // The teacher may download it too.
    expect((await call('GET', url(otherBatch.id), c.teacher.headers)).statusCode).toBe(200);

    // Another batch's session, a stranger's, an unknown id, a cancelled one: 404; no token: 401; a bad id: 400.
    expect((await call('GET', url(otherBatch.id), c.student.headers)).statusCode).toBe(404);
    const outsider = await signedIn(t);
    await t.db.update(users).set({ trialEndsAt: new Date(Date.now() - 1000) }).where(eq(users.id, outsider.user.id));
    expect((await call('GET', url(session.id), outsider.headers)).statusCode).toBe(404);
    expect((await call('GET', url(987654), c.student.headers)).statusCode).toBe(404);
    await t.db.update(classSessions).set({ cancelledAt: new Date(), cancelReason: 'x' }).where(eq(classSessions.id, session.id));
    expect((await call('GET', url(session.id), c.student.headers)).statusCode).toBe(404);
    expect((await call('GET', url(session.id))).statusCode).toBe(401);
    expect((await call('GET', url('abc'), c.student.headers)).statusCode).toBe(400);
  });
});
