// Notifications and receipts against the real app and database (PGlite, or PostgreSQL with
// DATABASE_URL): who is told, once; preferences, one-click unsubscribe and the always-on security
// mails; the digest bound; receipts (mail, PDF figures) and the refund note; the live socket event.
import { inflateSync } from 'node:zlib';
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { io as connectClient, type Socket } from 'socket.io-client';
import type { NotificationEvent } from '@mooz/contract/notifications';
import { buildTestApp, type TestApp } from '../../../test/app';
import { latestCode, login, outbox, signedIn, uniqueEmail, type OutboxMail } from '../../../test/accounts';
import { call, paidEnrollment, signedInAdmin } from '../../../test/admin';
import { capturedEvent, courseAndStudent, createOrder, paidCheckout, signedWebhook, weekdayChoice } from '../../../test/courses';
import { sharedInstances } from '../../../test/instances';
import { notifications, outboxJobs } from '../../db/schema/index';
import { readUnsubscribeToken } from './unsubscribe-token';

type Mail = OutboxMail & { headers?: Record<string, string> };
const patch = (t: TestApp, url: string, headers: Record<string, string>, payload: object) => t.app.inject({ method: 'PATCH', url, headers, payload });
const mailsTo = async (t: TestApp, email: string) => ((await outbox(t)) as Mail[]).filter((m) => m.to === email);

/** The text a pdf-lib PDF draws: its content streams inflated, each `<hex> Tj` decoded (WinAnsi ≈ Latin-1). */
function pdfText(pdf: Buffer): string {
  const out: string[] = [];
  const raw = pdf.toString('latin1');
  for (const match of raw.matchAll(/stream\r?\n/g)) {
    const start = match.index! + match[0].length;
    const end = raw.indexOf('endstream', start);
    let body: string;
    try {
      body = inflateSync(pdf.subarray(start, end)).toString('latin1');
    } catch {
      continue;
    }
    for (const text of body.matchAll(/<([0-9A-Fa-f]*)> Tj/g)) out.push(Buffer.from(text[1]!, 'hex').toString('latin1'));
  }
  return out.join('\n');
}

/** Sockets of two people on `t`'s listening server: what the first hears next, and all the second hears. */
async function listenersOn(t: TestApp, opened: Socket[], mineToken: string, theirToken: string) {
  const { port } = t.app.server.address() as { port: number };
  const socketOf = (token: string) =>
    new Promise<Socket>((resolve, reject) => {
      const socket = connectClient(`http://127.0.0.1:${port}`, { path: '/socket.io/', transports: ['websocket'], auth: { sessionId: randomUUID(), token }, reconnection: false, forceNew: true });
      opened.push(socket);
      socket.once('connect', () => resolve(socket));
      socket.once('connect_error', reject);
    });
  const [mine, theirs] = await Promise.all([socketOf(mineToken), socketOf(theirToken)]);
  const heardByOther: unknown[] = [];
  theirs.on('action:notification', (e: unknown) => heardByOther.push(e));
  const heard = new Promise<NotificationEvent>((resolve) => mine.once('action:notification', resolve));
  return { heard, heardByOther };
}

describe('notifications', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ SELLER_NAME: 'Mooz Learning Pvt Ltd', SELLER_ADDRESS: '12 MG Road, Bengaluru 560001, India', SELLER_TAX_ID: '29ABCDE1234F1Z5', RECEIPT_TAX_RATE: '18', RECEIPT_TAX_LABEL: 'GST' });
  });
  afterAll(() => t.close());

  it('mails one receipt after a verified payment, even when the webhook reports the same payment, and tells the teacher once', async () => {
    const { teacher, course, student } = await courseAndStudent(t);
    const order = await createOrder(t, student.headers, weekdayChoice(course));
    const checkout = paidCheckout(t, order);
    const verified = await call(t, 'POST', '/api/payments/verify_payment/', student.headers, { ...checkout, subscription_id: order.subscription_id });
    expect(verified.statusCode).toBe(200);
    const webhook = await signedWebhook(t, capturedEvent(order.order_id, checkout.razorpay_payment_id, order.amount));
    expect(webhook.json().data.status).toBe('unchanged');

    const receipts = await mailsTo(t, student.user.email);
    expect(receipts).toHaveLength(1);
    const [receipt] = receipts;
    expect(receipt!.subject).toContain(course.name);
    for (const fact of [order.order_id, checkout.razorpay_payment_id, student.user.email, 'Mooz Learning Pvt Ltd', '12 MG Road, Bengaluru 560001, India', '29ABCDE1234F1Z5', 'GST (18%, included)']) {
      expect(receipt!.text).toContain(fact);
    }
    expect(receipt!.html).toContain('<html');
    // A receipt cannot be turned off, so it offers no unsubscribe.
    expect(receipt!.headers?.['List-Unsubscribe']).toBeUndefined();

    const teacherMails = await mailsTo(t, teacher.user.email);
    expect(teacherMails).toHaveLength(1);
    expect(teacherMails[0]!.subject).toContain(course.name);
    expect(teacherMails[0]!.headers?.['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    const bell = await call(t, 'GET', '/api/notifications/', teacher.headers);
    expect(bell.json().data.items.map((n: { kind: string }) => n.kind)).toEqual(['student_joined']);
    expect(bell.json().data.items[0].link).toBe(`/my-courses/${course.id}/students`);
  });

  it("draws the PDF receipt with the payment's own figures, for its buyer only", async () => {
    const { student, order, course } = await paidEnrollment(t);
    const purchases = await call(t, 'GET', '/api/payments/purchases/', student.headers);
    expect(purchases.statusCode).toBe(200);
    const [purchase] = purchases.json().data;
    expect(purchase).toMatchObject({ id: order.subscription_id, course_id: course.id, amount: order.amount, currency: order.currency, status: 'paid', order_id: order.order_id });

    const pdf = await call(t, 'GET', `/api/payments/purchases/${purchase.id}/receipt/`, student.headers);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const text = pdfText(pdf.rawPayload);
    const money = (minor: number) => `INR ${(minor / 100).toLocaleString('en', { minimumFractionDigits: 2 })}`;
    const tax = Math.round((order.amount * 18) / 118);
    for (const figure of [purchase.receipt_number, order.order_id, purchase.payment_id, money(order.amount), money(tax), money(order.amount - tax), course.name]) {
      expect(text).toContain(figure);
    }

    const stranger = await signedIn(t, 'student');
    expect((await call(t, 'GET', `/api/payments/purchases/${purchase.id}/receipt/`, stranger.headers)).statusCode).toBe(404);
    expect((await call(t, 'GET', `/api/payments/purchases/not-a-uuid/receipt/`, student.headers)).statusCode).toBe(404);
    expect((await call(t, 'GET', `/api/payments/purchases/${purchase.id}/receipt/`)).statusCode).toBe(401);
  });

  it('sends a refund note after a refund, and the purchase reads refunded', async () => {
    const { student, order } = await paidEnrollment(t);
    const admin = await signedInAdmin(t);
    const before = (await mailsTo(t, student.user.email)).length;
    expect((await call(t, 'POST', `/api/admin/payments/${order.subscription_id}/refund/`, admin.headers)).statusCode).toBe(200);
    const notes = (await mailsTo(t, student.user.email)).slice(before);
    expect(notes).toHaveLength(1);
    expect(notes[0]!.subject).toMatch(/^Refund MZ-/);
    expect(notes[0]!.text).toContain(order.order_id);
    const [purchase] = (await call(t, 'GET', '/api/payments/purchases/', student.headers)).json().data;
    expect(purchase.status).toBe('refunded');
    // Refunding again is refused and sends nothing more.
    expect((await call(t, 'POST', `/api/admin/payments/${order.subscription_id}/refund/`, admin.headers)).statusCode).toBe(409);
    expect((await mailsTo(t, student.user.email)).slice(before)).toHaveLength(1);
  });

  it('lists, counts and marks notifications read; another person’s is 404 and stays unread', async () => {
    const me = await signedIn(t, 'student');
    const other = await signedIn(t, 'student');
    const tell = (userId: number, title: string) =>
      t.app.notifications.tell(t.db, [{ userId, kind: 'recording_added', params: { course: 'Design', title }, link: '/recordings/course/1' }]);
    await tell(me.user.id, 'One');
    await tell(me.user.id, 'Two');
    await tell(other.user.id, 'Theirs');
    const list = (await call(t, 'GET', '/api/notifications/', me.headers)).json().data;
    expect(list.unread).toBe(2);
    expect(list.items.map((n: { params: { title: string } }) => n.params.title)).toEqual(['Two', 'One']);
    const theirs = (await call(t, 'GET', '/api/notifications/', other.headers)).json().data.items[0];
    expect((await call(t, 'POST', `/api/notifications/${theirs.id}/read/`, me.headers)).statusCode).toBe(404);
    expect((await call(t, 'GET', '/api/notifications/unread/', other.headers)).json().data.unread).toBe(1);
    const read = await call(t, 'POST', `/api/notifications/${list.items[1].id}/read/`, me.headers);
    expect(read.json().data.unread).toBe(1);
    expect((await call(t, 'POST', '/api/notifications/read-all/', me.headers)).json().data.unread).toBe(0);
    expect((await call(t, 'GET', '/api/notifications/?limit=1', me.headers)).json().data).toMatchObject({ unread: 0, more: true });
    expect((await call(t, 'GET', '/api/notifications/?limit=500', me.headers)).statusCode).toBe(400);
    expect((await call(t, 'GET', '/api/notifications/')).statusCode).toBe(401);
  });

  it('honours a kind turned off in the preferences (the bell still shows it) and refuses to turn security mail off', async () => {
    const me = await signedIn(t, 'student');
    const off = await patch(t, '/api/notifications/preferences/', me.headers, { preferences: [{ kind: 'recording_added', mail: false }] });
    expect(off.statusCode).toBe(200);
    expect(off.json().data.find((p: { kind: string }) => p.kind === 'recording_added')).toEqual({ kind: 'recording_added', mail: false, locked: false });
    const locked = await t.app.inject({ method: 'PATCH', url: '/api/notifications/preferences/', headers: me.headers, payload: { preferences: [{ kind: 'password_changed', mail: false }] } });
    expect(locked.statusCode).toBe(400);
    const prefs = (await call(t, 'GET', '/api/notifications/preferences/', me.headers)).json().data;
    expect(prefs.find((p: { kind: string }) => p.kind === 'password_changed')).toEqual({ kind: 'password_changed', mail: true, locked: true });

    await t.app.notifications.tell(t.db, [{ userId: me.user.id, kind: 'recording_added', params: { course: 'Design', title: 'Week 1' }, link: null }]);
    expect(await mailsTo(t, me.user.email)).toHaveLength(0);
    expect((await call(t, 'GET', '/api/notifications/unread/', me.headers)).json().data.unread).toBe(1);
  });

  it('turns off only the one kind its token names with the one-click unsubscribe, without a login; a forged token changes nothing', async () => {
    const me = await signedIn(t, 'student');
    await t.app.notifications.tell(t.db, [{ userId: me.user.id, kind: 'recording_added', params: { course: 'Design', title: 'Week 1' }, link: null }]);
    const [mail] = await mailsTo(t, me.user.email);
    expect(mail!.headers?.['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    const url = new URL(mail!.headers!['List-Unsubscribe']!.slice(1, -1));
    expect(mail!.text).toContain(url.href);
    const token = url.searchParams.get('token')!;
    const forged = token.replace(/\.[^.]+$/, '.AAAA');
    const bad = await t.app.inject({ method: 'POST', url: `${url.pathname}?token=${encodeURIComponent(forged)}`, payload: 'List-Unsubscribe=One-Click', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBeTruthy();
    // Someone else's id with this signature is refused too.
    expect(readUnsubscribeToken('test-secret-that-is-long-enough-to-sign-tokens', token.replace(/^\d+/, String(me.user.id + 1)))).toBeNull();

    const ok = await t.app.inject({ method: 'POST', url: url.pathname + url.search, payload: 'List-Unsubscribe=One-Click', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data.kind).toBe('recording_added');
    const prefs = (await call(t, 'GET', '/api/notifications/preferences/', me.headers)).json().data as { kind: string; mail: boolean }[];
    expect(prefs.filter((p) => !p.mail).map((p) => p.kind)).toEqual(['recording_added']);
  });

  it('answers the footer’s unsubscribe link with a question (opening it changes nothing) and its button with what was done', async () => {
    const me = await signedIn(t, 'student');
    await t.db.execute(sql`update users set language = 'de' where id = ${me.user.id}`);
    await t.app.notifications.tell(t.db, [{ userId: me.user.id, kind: 'assignment_posted', params: { course: 'Design', title: 'Week 1' }, link: null }]);
    const [mail] = await mailsTo(t, me.user.email);
    const url = new URL(mail!.headers!['List-Unsubscribe']!.slice(1, -1));
    const opened = await t.app.inject({ method: 'GET', url: url.pathname + url.search });
    expect(opened.statusCode).toBe(200);
    expect(opened.headers['content-type']).toContain('text/html');
    expect(opened.body).toContain('Keine E-Mails mehr zu: neuen Aufgaben?');
    expect(opened.body).toContain('<form method="post"');
    const off = () => call(t, 'GET', '/api/notifications/preferences/', me.headers).then((r) => (r.json().data as { kind: string; mail: boolean }[]).filter((p) => !p.mail).map((p) => p.kind));
    expect(await off()).toEqual([]);
    const clicked = await t.app.inject({ method: 'POST', url: url.pathname + url.search, payload: 'List-Unsubscribe=One-Click', headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' } });
    expect(clicked.statusCode).toBe(200);
    expect(clicked.body).toContain('Erledigt');
    expect(await off()).toEqual(['assignment_posted']);
    expect((await t.app.inject({ method: 'GET', url: `${url.pathname}?token=1.assignment_posted.forged` })).statusCode).toBe(400);
  });

  it('mails security events whatever the preferences: a password change, and a sign-in from a new device (not the first one)', async () => {
    const me = await signedIn(t, 'student');
    // Everything that may be turned off, off.
    const prefs = (await call(t, 'GET', '/api/notifications/preferences/', me.headers)).json().data as { kind: string; locked: boolean }[];
    await patch(t, '/api/notifications/preferences/', me.headers, { preferences: prefs.filter((p) => !p.locked).map((p) => ({ kind: p.kind, mail: false })) });
    expect(await mailsTo(t, me.user.email)).toHaveLength(0);
    await login(t, me.user.email, me.user.password);
    expect(await mailsTo(t, me.user.email)).toHaveLength(0);
    const phone = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login/',
      headers: { 'user-agent': 'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/131.0 Mobile Safari/537.36' },
      payload: { email: me.user.email, password: me.user.password },
    });
    expect(phone.statusCode).toBe(200);
    let mails = await mailsTo(t, me.user.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('New sign-in to your Mooz account');
    expect(mails[0]!.text).toContain('Chrome (Android)');
    expect(mails[0]!.headers?.['List-Unsubscribe']).toBeUndefined();

    const changed = await call(t, 'POST', '/api/auth/change-password/', me.headers, { old_password: me.user.password, new_password: 'another horse battery' });
    expect(changed.statusCode).toBe(200);
    mails = await mailsTo(t, me.user.email);
    expect(mails.map((m) => m.subject)).toEqual(['New sign-in to your Mooz account', 'Your Mooz password was changed']);
  });

  it('takes a browser or system update for the same device, and another browser for a new one', async () => {
    const me = await signedIn(t, 'student');
    const loginWith = (userAgent: string) => t.app.inject({ method: 'POST', url: '/api/auth/login/', headers: { 'user-agent': userAgent }, payload: { email: me.user.email, password: me.user.password } });
    const windows = (chrome: number, nt: string) => `Mozilla/5.0 (Windows NT ${nt}; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${chrome}.0.0.0 Safari/537.36`;
    expect((await loginWith(windows(131, '10.0'))).statusCode).toBe(200);
    expect((await loginWith(windows(132, '10.0'))).statusCode).toBe(200);
    expect((await loginWith(windows(133, '11.0'))).statusCode).toBe(200);
    const told = async () => (await mailsTo(t, me.user.email)).filter((m) => m.subject === 'New sign-in to your Mooz account');
    // signedIn's sign-in was the first device: the first Chrome is a new one, its updates are not.
    expect(await told()).toHaveLength(1);
    expect((await loginWith('Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0')).statusCode).toBe(200);
    expect((await told()).map((m) => m.text.includes('Firefox (Windows)'))).toEqual([false, true]);
  });

  it('writes a person’s mails in the language they chose in the app; an unknown one is refused and changes nothing', async () => {
    const me = await signedIn(t, 'student');
    const refused = await patch(t, '/api/auth/profile/', me.headers, { language: 'xx' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors?.language).toBeDefined();
    expect((await patch(t, '/api/auth/profile/', me.headers, { language: 'de' })).statusCode).toBe(200);
    expect((await patch(t, '/api/auth/profile/', me.headers, { language: 'xx' })).statusCode).toBe(400);
    const changed = await call(t, 'POST', '/api/auth/change-password/', me.headers, { old_password: me.user.password, new_password: 'another horse battery' });
    expect(changed.statusCode).toBe(200);
    expect((await mailsTo(t, me.user.email)).map((m) => m.subject)).toEqual(['Ihr Mooz-Passwort wurde geändert']);
  });

  it('remembers the device an account was verified on, so a sign-in from another is told', async () => {
    const email = uniqueEmail('verified');
    const phoneAgent = 'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/131.0 Mobile Safari/537.36';
    const laptopAgent = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7; rv:133.0) Gecko/20100101 Firefox/133.0';
    const password = 'correct horse battery';
    const registered = await t.app.inject({ method: 'POST', url: '/api/auth/register/', payload: { email, password, first_name: 'Vera', last_name: 'Fied' } });
    expect(registered.statusCode).toBe(201);
    const otp = await latestCode(t, email);
    const verified = await t.app.inject({ method: 'POST', url: '/api/auth/verify-otp/', headers: { 'user-agent': phoneAgent }, payload: { email, otp } });
    expect(verified.statusCode).toBe(200);
    const told = async () => (await mailsTo(t, email)).filter((m) => m.subject === 'New sign-in to your Mooz account');
    expect(await told()).toHaveLength(0);
    // The first password sign-in is on another device.
    const laptop = await t.app.inject({ method: 'POST', url: '/api/auth/login/', headers: { 'user-agent': laptopAgent }, payload: { email, password } });
    expect(laptop.statusCode).toBe(200);
    expect((await told()).map((m) => m.text.includes('Firefox (macOS)'))).toEqual([true]);
  });

  it('bounds mail volume: ten of one kind within the window make one mail, then one digest of the other nine', async () => {
    const me = await signedIn(t, 'student');
    for (let i = 1; i <= 10; i++) {
      // The first has gone by mail before the rest come.
      if (i === 2) await t.app.outbox.idle();
      await t.app.notifications.tell(t.db, [{ userId: me.user.id, kind: 'assignment_posted', params: { course: 'Design', title: `Task ${i}` }, link: '/courses/1?tab=assignments' }]);
    }
    let mails = await mailsTo(t, me.user.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('New assignment in Design: Task 1');
    const waiting = await t.db.select().from(outboxJobs).where(sql`${outboxJobs.kind} = 'notice-mail' and ${outboxJobs.doneAt} is null and ${outboxJobs.payload}->>'userId' = ${String(me.user.id)}`);
    expect(waiting).toHaveLength(1);
    // The window passes.
    await t.db.update(outboxJobs).set({ availableAt: new Date() }).where(eq(outboxJobs.id, waiting[0]!.id));
    t.app.outbox.kick();
    mails = await mailsTo(t, me.user.email);
    expect(mails).toHaveLength(2);
    expect(mails[1]!.subject).toBe('9 new assignments in Mooz');
    for (let i = 2; i <= 10; i++) expect(mails[1]!.text).toContain(`Task ${i}`);
    const states = await t.db.select({ mail: notifications.mail }).from(notifications).where(eq(notifications.userId, me.user.id));
    expect(states.every((s) => s.mail === 'sent')).toBe(true);
  });

  it('writes each mail in its reader’s language', async () => {
    for (const [language, subject] of [
      ['fr', 'Nouvel enregistrement dans Design\u00a0: Semaine 1'],
      ['de', 'Neue Aufzeichnung in Design: Semaine 1'],
      ['pt', 'Nova gravação em Design: Semaine 1'],
    ] as const) {
      const me = await signedIn(t, 'student');
      await t.db.execute(sql`update users set language = ${language} where id = ${me.user.id}`);
      await t.app.notifications.tell(t.db, [{ userId: me.user.id, kind: 'recording_added', params: { course: 'Design', title: 'Semaine 1' }, link: null }]);
      const [mail] = await mailsTo(t, me.user.email);
      expect(mail!.subject).toBe(subject);
      expect(mail!.html).toContain(`lang="${language}"`);
    }
  });

  describe('live', () => {
    const opened: Socket[] = [];
    afterEach(() => opened.splice(0).forEach((s) => s.close()));

    it('pushes a new notification to each socket of its person, and to nobody else', async () => {
      const live = await buildTestApp();
      try {
        await live.app.listen({ port: 0, host: '127.0.0.1' });
        const me = await signedIn(live, 'student');
        const other = await signedIn(live, 'student');
        const { heard, heardByOther } = await listenersOn(live, opened, me.access, other.access);
        await new Promise((resolve) => setTimeout(resolve, 100));
        await live.app.notifications.tell(live.db, [{ userId: me.user.id, kind: 'assignment_posted', params: { course: 'Design', title: 'Live' }, link: '/courses/1?tab=assignments' }]);
        const event = await heard;
        expect(event.unread).toBe(1);
        expect(event.notification).toMatchObject({ kind: 'assignment_posted', read: false, link: '/courses/1?tab=assignments' });
        await live.app.outbox.idle();
        expect(heardByOther).toEqual([]);
      } finally {
        await live.close();
      }
    });
  });
});

describe('notifications with two server processes on one database', () => {
  // Two whole apps on one database: slow to start on a loaded machine.
  it('tells each person once: one receipt when the browser and the webhook reach different processes at once, one mail per notice', { timeout: 120_000 }, async () => {
    const { instances, close } = await sharedInstances(2, { env: { SEED_DEMO: '0', REDIS_URL: process.env.REDIS_URL ?? '' } });
    try {
      const [a, b] = instances as [TestApp, TestApp];
      const { course, student } = await courseAndStudent(a);
      const order = await createOrder(a, student.headers, weekdayChoice(course));
      const checkout = paidCheckout(a, order);
      const [verified, webhook] = await Promise.all([
        call(a, 'POST', '/api/payments/verify_payment/', student.headers, { ...checkout, subscription_id: order.subscription_id }),
        signedWebhook(b, capturedEvent(order.order_id, checkout.razorpay_payment_id, order.amount)),
      ]);
      expect(verified.statusCode).toBe(200);
      expect(webhook.statusCode).toBe(200);
      const others = await signedIn(a, 'student');
      for (let i = 0; i < 5; i++) {
        await a.app.notifications.tell(a.db, [{ userId: others.user.id, kind: 'password_changed', params: { at: new Date().toISOString() }, link: null }]);
      }
      // Both processes work the outbox.
      a.app.outbox.kick();
      b.app.outbox.kick();
      await Promise.all([a.app.outbox.idle(), b.app.outbox.idle()]);
      const all = [...(await outbox(a)), ...(await outbox(b))];
      expect(all.filter((m) => m.to === student.user.email)).toHaveLength(1);
      expect(all.filter((m) => m.to === others.user.email)).toHaveLength(5);
      const rows = await a.db.select({ mail: notifications.mail }).from(notifications).where(eq(notifications.userId, student.user.id));
      expect(rows).toEqual([{ mail: 'sent' }]);
    } finally {
      await close();
    }
  });

  // Across processes a push goes through Redis (socket.io's adapter); without Redis each process is alone.
  it.skipIf(!process.env.REDIS_URL)('pushes a notice told in one process to its person’s socket on the other, and to nobody else', { timeout: 120_000 }, async () => {
    const { instances, close } = await sharedInstances(2, { env: { SEED_DEMO: '0', REDIS_URL: process.env.REDIS_URL ?? '' } });
    const opened: Socket[] = [];
    try {
      const [a, b] = instances as [TestApp, TestApp];
      await b.app.listen({ port: 0, host: '127.0.0.1' });
      const me = await signedIn(a, 'student');
      const other = await signedIn(a, 'student');
      const { heard, heardByOther } = await listenersOn(b, opened, me.access, other.access);
      await a.app.notifications.tell(a.db, [{ userId: me.user.id, kind: 'assignment_posted', params: { course: 'Design', title: 'Across' }, link: '/courses/1?tab=assignments' }]);
      a.app.outbox.kick();
      const event = await heard;
      expect(event.notification).toMatchObject({ kind: 'assignment_posted', link: '/courses/1?tab=assignments' });
      await Promise.all([a.app.outbox.idle(), b.app.outbox.idle()]);
      expect(heardByOther).toEqual([]);
    } finally {
      opened.forEach((socket) => socket.close());
      await close();
    }
  });
});
