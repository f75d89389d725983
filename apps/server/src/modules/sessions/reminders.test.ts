// Session reminders: `reminderLeadMinutes` before a session starts, each of its students and its
// teacher get one mail with the join link, in their language (a `class_starting` notice, laid out by
// MJML, with a one-click unsubscribe); once, whatever the number of passes or server instances; never
// for a cancelled session; at the new time for a moved one. The clock is the test's (buildApp's
// `now`), the passes are called by the test (no timer).
import { afterEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { limits } from '@mooz/contract/limits';
import type { TestApp } from '../../../test/app';
import { signedIn } from '../../../test/accounts';
import { clockedApps, type Clock } from '../../../test/clocked';
import { createCourse, weekdayChoice } from '../../../test/courses';
import { buy, sessionAt } from '../../../test/sessions';
import { batches, classSessions, notifications, outboxJobs, subscriptions, users } from '../../db/schema/index';
import type { Mail } from '../../infrastructure/mail';
import { createNotifications } from '../notifications/service';

const LEAD = limits.reminderLeadMinutes;
let world: Awaited<ReturnType<typeof clockedApps>> | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

async function setUp(instances = 1) {
  world = await clockedApps(instances);
  return world;
}

async function drain(apps: TestApp[]) {
  for (const app of apps) await app.app.outbox.idle();
}

/** The outbox's mail jobs of reminders. */
const reminderJobs = async (t: TestApp) =>
  (await t.db.select().from(outboxJobs).where(eq(outboxJobs.kind, 'notice-mail'))).filter((j) => (j.payload as { kind: string }).kind === 'class_starting');

/** The `notice-mail` handler on the test's database, for jobs an outbox that was stopped left behind. */
const mailHandler = (t: TestApp, clock: Clock, sent: Mail[]) =>
  createNotifications({
    db: t.db,
    outbox: t.app.outbox,
    mailer: { send: async (mail) => void sent.push(mail) },
    secret: t.app.jwtSecret,
    origin: () => 'https://mooz.example.com',
    push: () => {},
    now: () => clock.at,
  });

/** A course with two batches, a student in each (and one without a batch choice made yet), and its teacher. */
async function classroom(t: TestApp) {
  const teacher = await signedIn(t, 'teacher');
  await t.db.update(users).set({ language: 'fr', firstName: 'Tess' }).where(eq(users.id, teacher.user.id));
  const course = await createCourse(t, teacher.headers, { name: 'Pottery' });
  const batch = async (startDate: string) =>
    (await t.db.insert(batches).values({ courseId: course.id, kind: 'weekdays', startDate, endDate: startDate, time: '09:00', seats: 9 }).returning())[0]!;
  const morning = await batch('2031-01-06');
  const evening = await batch('2031-01-13');
  const student = async (language: string | null, batchId: number, firstName: string) => {
    const s = await signedIn(t);
    await t.db.update(users).set({ language, firstName }).where(eq(users.id, s.user.id));
    const order = await buy(t, s.headers, weekdayChoice(course));
    await t.db.update(subscriptions).set({ batchId }).where(eq(subscriptions.id, order.subscription_id));
    return s;
  };
  const ana = await student('pt', morning.id, 'Ana');
  const max = await student('de', morning.id, 'Max');
  const eve = await student(null, evening.id, 'Eve');
  // Buying mails receipts and tells the teacher (modules/notifications): sent and set aside, so what
  // follows counts reminders only.
  for (const app of world!.apps) await app.app.outbox.idle();
  world!.sent.length = 0;
  return { teacher, course, morning, evening, ana, max, eve };
}

describe('session reminders', () => {
  it('still mail a reminder queued by the version before reminders were notifications, unless its session was cancelled or moved', async () => {
    const { apps, clock, sent } = await setUp();
    const t = apps[0]!;
    const c = await classroom(t);
    const kept = await sessionAt(t, c.course.id, 'Kept', 20, { batchId: c.morning.id });
    const cancelled = await sessionAt(t, c.course.id, 'Cancelled', 20, { batchId: c.morning.id });
    const moved = await sessionAt(t, c.course.id, 'Moved', 20, { batchId: c.morning.id });
    const job = (session: typeof kept) => ({ sessionId: session.id, startsAt: session.startsAt.toISOString(), mail: { to: c.ana.user.email, subject: session.title, text: 'Soon', html: '<p>Soon</p>' } });
    await t.db.insert(outboxJobs).values([kept, cancelled, moved].map((session) => ({ kind: 'reminder' as const, payload: job(session), availableAt: clock.at })));
    await t.db.update(classSessions).set({ cancelledAt: new Date() }).where(eq(classSessions.id, cancelled.id));
    await t.db.update(classSessions).set({ startsAt: new Date(moved.startsAt.getTime() + 3_600_000) }).where(eq(classSessions.id, moved.id));
    t.app.outbox.kick();
    await drain(apps);
    expect(sent.map((mail) => mail.subject)).toEqual(['Kept']);
    // None waits any more.
    expect((await t.db.select().from(outboxJobs).where(eq(outboxJobs.kind, 'reminder'))).map((row) => row.doneAt !== null)).toEqual([true, true, true]);
  });

  it('mail each student of the batch and the teacher once, in their language, with the join link, when the lead time begins', async () => {
    const { apps, clock, sent } = await setUp();
    const t = apps[0]!;
    const c = await classroom(t);
    const session = await sessionAt(t, c.course.id, 'Glazing', 120, { batchId: c.morning.id });

    // A minute before the lead time: nothing yet.
    clock.set(120 - LEAD - 1);
    expect(await t.app.reminders.pass()).toBe(0);
    await drain(apps);
    expect(sent).toEqual([]);

    clock.set(120 - LEAD + 0.5);
    expect(await t.app.reminders.pass()).toBe(1);
    await drain(apps);
    expect(sent.map((m) => m.to).sort()).toEqual([c.ana.user.email, c.max.user.email, c.teacher.user.email].sort());
    const to = (email: string) => sent.find((m) => m.to === email)!;
    const link = `https://mooz.example.com/meeting/${session.roomId}`;
    for (const mail of sent) {
      expect(mail.text).toContain(link);
      expect(mail.html).toContain(`href="${link}"`);
      expect(mail.headers?.['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    }
    expect(to(c.ana.user.email).subject).toBe(`Começa em ${LEAD} min: Glazing`);
    expect(to(c.ana.user.email).text).toMatch(/^Olá Ana,/);
    expect(to(c.max.user.email).subject).toBe(`Beginnt in ${LEAD} Min.: Glazing`);
    expect(to(c.max.user.email).text).toContain('Die Sitzung „Glazing“ des Kurses Pottery');
    expect(to(c.teacher.user.email).subject).toBe(`Dans ${LEAD} min\u00a0: Glazing`);
    // The time in UTC and in the course's zone (Asia/Kolkata unless the teacher chose another).
    expect(to(c.max.user.email).text).toMatch(/UTC \(.*Asia\/Kolkata\)/);

    // Later passes find nothing more to do.
    clock.set(120 - 2);
    expect(await t.app.reminders.pass()).toBe(0);
    await drain(apps);
    expect(sent).toHaveLength(3);
  });

  it('remind every student of the course for a session of no batch', async () => {
    const { apps, clock, sent } = await setUp();
    const t = apps[0]!;
    const c = await classroom(t);
    await sessionAt(t, c.course.id, 'Open studio', 60);
    clock.set(60 - LEAD);
    expect(await t.app.reminders.pass()).toBe(1);
    await drain(apps);
    expect(sent.map((m) => m.to).sort()).toEqual([c.ana, c.max, c.eve, c.teacher].map((p) => p.user.email).sort());
    // English for a student whose language is unknown.
    expect(sent.find((m) => m.to === c.eve.user.email)!.subject).toBe(`Starts in ${LEAD} min: Open studio`);
  });

  it('say the minutes really left, and that a session found after its start is under way', async () => {
    const { apps, clock, sent } = await setUp();
    const t = apps[0]!;
    const c = await classroom(t);
    await sessionAt(t, c.course.id, 'Soon', 60);
    await sessionAt(t, c.course.id, 'Begun', 80);
    // Scheduled inside the lead time: 6 minutes left.
    clock.set(54);
    expect(await t.app.reminders.pass()).toBe(1);
    await drain(apps);
    expect(sent.find((m) => m.to === c.eve.user.email)!.subject).toBe('Starts in 6 min: Soon');
    // The server was down at the lead time and comes back a minute after the start.
    clock.set(81);
    expect(await t.app.reminders.pass()).toBe(1);
    await drain(apps);
    const begun = sent.filter((m) => m.to === c.eve.user.email).at(-1)!;
    expect(begun.subject).toBe('Under way: Begun');
    expect(begun.text).toContain('has started: you can still join');
  });

  it('send once when two passes run at the same time', async () => {
    const { apps, clock, sent } = await setUp();
    const t = apps[0]!;
    const c = await classroom(t);
    for (let i = 0; i < 5; i++) await sessionAt(t, c.course.id, `Session ${i}`, 60 + i, { batchId: c.morning.id });
    clock.set(60 - LEAD + 5);
    const claimed = await Promise.all([t.app.reminders.pass(), t.app.reminders.pass(), t.app.reminders.pass()]);
    expect(claimed.reduce((a, b) => a + b, 0)).toBe(5);
    await drain(apps);
    // 5 sessions × (2 students + the teacher), each once.
    expect(sent).toHaveLength(15);
    expect(new Set(sent.map((m) => `${m.to} ${m.subject}`)).size).toBe(15);
  });

  it('send nothing for a cancelled session, even one cancelled after its reminder was queued', async () => {
    const { apps, clock, sent } = await setUp();
    const t = apps[0]!;
    const c = await classroom(t);
    const cancelled = await sessionAt(t, c.course.id, 'Cancelled early', 60, { batchId: c.morning.id });
    const res = await t.app.inject({ method: 'POST', url: `/api/classes/sessions/${cancelled.id}/cancel/`, headers: c.teacher.headers, payload: { reason: 'Kiln broken' } });
    expect(res.statusCode).toBe(200);
    await drain(apps);
    const cancellations = sent.length;
    expect(sent.every((m) => !/Glazing|min:/.test(m.subject))).toBe(true);
    clock.set(60 - LEAD);
    expect(await t.app.reminders.pass()).toBe(0);
    await drain(apps);
    expect(sent).toHaveLength(cancellations);

    // Claimed and queued, then cancelled before the outbox sent it: the mail is dropped at send time,
    // the bell stays.
    const late = await sessionAt(t, c.course.id, 'Cancelled late', 30, { batchId: c.morning.id });
    await t.app.outbox.stop();
    clock.set(30 - LEAD);
    expect(await t.app.reminders.pass()).toBe(1);
    const jobs = await reminderJobs(t);
    expect(jobs).toHaveLength(3);
    await t.db.update(classSessions).set({ cancelledAt: clock.at, cancelReason: 'Flood' }).where(eq(classSessions.id, late.id));
    const handler = mailHandler(t, clock, sent);
    for (const job of jobs) await handler.mailNotices(job.payload as never);
    expect(sent).toHaveLength(cancellations);
    const told = await t.db.select().from(notifications).where(eq(notifications.kind, 'class_starting'));
    expect(told.map((n) => n.mail)).toEqual(['none', 'none', 'none']);
  });

  it('follow a moved session: reminded at its new time, again after a move once reminded', async () => {
    const { apps, clock, sent } = await setUp();
    const t = apps[0]!;
    const c = await classroom(t);
    const session = await sessionAt(t, c.course.id, 'Throwing', 60, { batchId: c.morning.id });
    const move = (minutesFromNow: number) =>
      t.app.inject({
        method: 'PATCH',
        url: `/api/classes/sessions/${session.id}/`,
        headers: c.teacher.headers,
        payload: { starts_at: new Date(Date.now() + minutesFromNow * 60_000).toISOString() },
      });
    // Moved two hours later before its reminder: nothing at the old time.
    expect((await move(180)).statusCode).toBe(200);
    await drain(apps);
    const afterMove = sent.length; // the "new time" mails
    clock.set(60 - LEAD + 1);
    expect(await t.app.reminders.pass()).toBe(0);
    clock.set(180 - LEAD + 1);
    expect(await t.app.reminders.pass()).toBe(1);
    await drain(apps);
    const reminders = sent.slice(afterMove);
    expect(reminders).toHaveLength(3);
    const [row] = await t.db.select().from(classSessions).where(eq(classSessions.id, session.id));
    expect(row!.remindedStartsAt?.toISOString()).toBe(row!.startsAt.toISOString());

    // Reminded, then moved again (the teacher is late): reminded once more, for the new time.
    expect((await move(300)).statusCode).toBe(200);
    await drain(apps);
    const beforeSecond = sent.length;
    clock.set(300 - LEAD + 1);
    expect(await t.app.reminders.pass()).toBe(1);
    await drain(apps);
    const again = sent.slice(beforeSecond);
    expect(again.map((m) => m.to).sort()).toEqual([c.ana, c.max, c.teacher].map((p) => p.user.email).sort());
    const [moved] = await t.db.select().from(classSessions).where(eq(classSessions.id, session.id));
    const hour = new Intl.DateTimeFormat('en', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'UTC' }).format(moved!.startsAt);
    expect(again[0]!.text).toContain(hour);
  });

  it('skip sessions that ended, and ones found long after they started', async () => {
    const { apps, clock, sent } = await setUp();
    const t = apps[0]!;
    const c = await classroom(t);
    await sessionAt(t, c.course.id, 'Long gone', -120, { batchId: c.morning.id });
    await sessionAt(t, c.course.id, 'Started a while ago', -30, { batchId: c.morning.id });
    clock.set(0);
    expect(await t.app.reminders.pass()).toBe(0);
    await drain(apps);
    expect(sent).toEqual([]);
  });

  it('send once with two server instances on one database', async () => {
    // On PostgreSQL (DATABASE_URL) the two instances hold separate connection pools, as two processes
    // would; on PGlite they share the one embedded database (it cannot be opened by two processes),
    // so there the claim is tested against the same statements interleaved by one engine.
    const { apps, clock, sent } = await setUp(2);
    const [a, b] = apps as [TestApp, TestApp];
    const c = await classroom(a);
    for (let i = 0; i < 6; i++) await sessionAt(a, c.course.id, `Wheel ${i}`, 40 + i, { batchId: i % 2 ? c.morning.id : c.evening.id });
    clock.set(40 - LEAD + 6);
    const claimed = await Promise.all([a.app.reminders.pass(), b.app.reminders.pass(), a.app.reminders.pass(), b.app.reminders.pass()]);
    expect(claimed.reduce((x, y) => x + y, 0)).toBe(6);
    // Both instances' outboxes send; each job once.
    a.app.outbox.kick();
    b.app.outbox.kick();
    await drain(apps);
    // Three morning sessions × (Ana, Max, teacher) and three evening ones × (Eve, teacher).
    expect(sent).toHaveLength(3 * 3 + 3 * 2);
    expect(new Set(sent.map((m) => `${m.to} ${m.subject}`)).size).toBe(sent.length);
    const jobs = await reminderJobs(a);
    expect(jobs).toHaveLength(15);
    expect(jobs.every((j) => j.doneAt !== null && j.attempts === 1)).toBe(true);
  });
});
