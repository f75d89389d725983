import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { buildTestApp, type TestApp } from '../../../test/app';
import { signedIn } from '../../../test/accounts';
import {
  courseAndStudent,
  createCourse,
  createOrder,
  daysFromNow,
  capturedEvent,
  firstBatch,
  paidCheckout,
  signedWebhook,
  weekdayChoice,
  weekendChoice,
} from '../../../test/courses';
import { subscriptions, users } from '../../db/schema/index';
import { paymentSignature } from './signatures';

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload: payload as object, headers });
const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

const subscriptionRows = (userId: number) => t.db.select().from(subscriptions).where(eq(subscriptions.userId, userId));

describe('with the sandbox provider', () => {
  beforeEach(async () => {
    t = await buildTestApp();
  });

  describe('create_order', () => {
    it('charges the course price whatever the client sends, and creates one pending subscription', async () => {
      const { course, student } = await courseAndStudent(t);
      const order = await createOrder(t, student.headers, { ...weekdayChoice(course), amount: 1, currency: 'USD' });
      expect(order).toMatchObject({ amount: course.price, currency: 'INR', key_id: t.config.payments.keyId });
      expect(order.order_id).toMatch(/^order_[A-Za-z0-9]{14}$/);
      const rows = await subscriptionRows(student.user.id);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ id: order.subscription_id, status: 'pending', amount: course.price, orderId: order.order_id, time: '09:00' });
    });

    it('answers a double click with the same order and subscription, keeping the newest choice', async () => {
      const { course, student } = await courseAndStudent(t);
      const first = await createOrder(t, student.headers, weekdayChoice(course));
      const again = await createOrder(t, student.headers, weekdayChoice(course));
      const weekend = await createOrder(t, student.headers, weekendChoice(course));
      expect(again).toEqual(first);
      expect(weekend).toEqual(first);
      const rows = await subscriptionRows(student.user.id);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ batch: 'weekends', batchId: firstBatch(course, 'weekends').id, time: null, saturdayTime: '10:00', sundayTime: '10:00' });
    });

    it('makes a new order at the new price when the course price changed, and the old order no longer verifies', async () => {
      const { teacher, course, student } = await courseAndStudent(t);
      const first = await createOrder(t, student.headers, weekdayChoice(course));
      const patched = await t.app.inject({ method: 'PATCH', url: `/api/courses/${course.id}/`, headers: teacher.headers, payload: { price: 300_000 } });
      expect(patched.statusCode).toBe(200);
      const second = await createOrder(t, student.headers, weekdayChoice(course));
      expect(second.amount).toBe(300_000);
      expect(second.order_id).not.toBe(first.order_id);
      expect(second.subscription_id).toBe(first.subscription_id);

      const stale = await post('/api/payments/verify_payment/', { ...paidCheckout(t, first), subscription_id: first.subscription_id }, student.headers);
      expect(stale.statusCode).toBe(400);
      expect((await subscriptionRows(student.user.id))[0]!.status).toBe('pending');
    });

    it.each([
      ['start_date', (c: ReturnType<typeof weekdayChoice>) => ({ ...c, start_date: daysFromNow(11) })],
      ['end_date', (c: ReturnType<typeof weekdayChoice>) => ({ ...c, end_date: daysFromNow(300) })],
      ['time', (c: ReturnType<typeof weekdayChoice>) => ({ ...c, time: '09:15' })],
      ['time', ({ time: _time, ...c }: ReturnType<typeof weekdayChoice>) => c],
      ['saturday_time', (c: ReturnType<typeof weekdayChoice>) => ({ ...c, saturday_time: '10:00' })],
    ])('refuses a weekday choice with a wrong %s as a 400 naming it, and creates nothing', async (field, wrong) => {
      const { course, student } = await courseAndStudent(t);
      const res = await post('/api/payments/create_order/', wrong(weekdayChoice(course)), student.headers);
      expect(res.statusCode).toBe(400);
      expect(Object.keys(res.json().errors)).toEqual([field]);
      expect(await subscriptionRows(student.user.id)).toEqual([]);
    });

    it.each([
      ['saturday_time', (c: ReturnType<typeof weekendChoice>) => ({ ...c, saturday_time: '09:00' })],
      ['sunday_time', (c: ReturnType<typeof weekendChoice>) => ({ ...c, sunday_time: '18:30' })],
      ['sunday_time', ({ sunday_time: _s, ...c }: ReturnType<typeof weekendChoice>) => c],
      ['time', (c: ReturnType<typeof weekendChoice>) => ({ ...c, time: '09:00' })],
    ])('refuses a weekend choice with a wrong %s as a 400 naming it', async (field, wrong) => {
      const { course, student } = await courseAndStudent(t);
      const res = await post('/api/payments/create_order/', wrong(weekendChoice(course)), student.headers);
      expect(res.statusCode).toBe(400);
      expect(Object.keys(res.json().errors)).toEqual([field]);
      expect(await subscriptionRows(student.user.id)).toEqual([]);
    });

    it('refuses a batch the course does not offer, a batch that already started, and malformed values', async () => {
      const teacher = await signedIn(t, 'teacher');
      const past = daysFromNow(-3);
      const course = await createCourse(t, teacher.headers, { weekend_times: [], batch_start_dates: [past, daysFromNow(20)] });
      const student = await signedIn(t, 'student');

      const { time: _time, ...weekdays } = weekdayChoice(course);
      const noWeekends = await post('/api/payments/create_order/', { ...weekdays, batch: 'weekends', saturday_time: '10:00', sunday_time: '10:00' }, student.headers);
      expect(noWeekends.statusCode).toBe(400);
      expect(Object.keys(noWeekends.json().errors)).toEqual(['batch']);

      // The week of `past` opened a batch whose first class has been held.
      const begun = course.batches.find((b) => b.start_date <= past)!;
      const started = await post('/api/payments/create_order/', { ...weekdayChoice(course), start_date: begun.start_date, end_date: begun.end_date }, student.headers);
      expect(started.statusCode).toBe(400);
      expect(started.json().errors.start_date).toEqual(['This batch has already started']);

      const malformed = await post(
        '/api/payments/create_order/',
        { course_id: 'one', batch: 'mornings', start_date: '2030-02-30', end_date: 'soon', time: '25:00' },
        student.headers,
      );
      expect(malformed.statusCode).toBe(400);
      expect(Object.keys(malformed.json().errors).sort()).toEqual(['batch', 'course_id', 'end_date', 'start_date', 'time']);
      expect(await subscriptionRows(student.user.id)).toEqual([]);
    });

    it('answers 404 for an unknown or unpublished course', async () => {
      const { teacher, course, student } = await courseAndStudent(t);
      expect((await post('/api/payments/create_order/', { ...weekdayChoice(course), course_id: 999_999 }, student.headers)).statusCode).toBe(404);
      const hidden = await createCourse(t, teacher.headers, { published: false });
      expect((await post('/api/payments/create_order/', weekdayChoice(hidden), student.headers)).statusCode).toBe(404);
    });

    it('is for signed-in students: 401 without a token, 403 for a teacher', async () => {
      const { teacher, course } = await courseAndStudent(t);
      const anonymous = await post('/api/payments/create_order/', weekdayChoice(course));
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json().message).toBe('No access token found');
      expect((await post('/api/payments/create_order/', weekdayChoice(course), teacher.headers)).statusCode).toBe(403);
    });
  });

  describe('verify_payment', () => {
    it('refuses a forged signature with 400 and changes nothing', async () => {
      const { course, student } = await courseAndStudent(t);
      const order = await createOrder(t, student.headers, weekdayChoice(course));
      const forged = { ...paidCheckout(t, order), razorpay_signature: paymentSignature(order.order_id, 'pay_x', 'not-the-secret') };
      const res = await post('/api/payments/verify_payment/', { ...forged, subscription_id: order.subscription_id }, student.headers);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('Payment verification failed');
      const signedForAnotherPayment = { ...paidCheckout(t, order, 'pay_a'), razorpay_payment_id: 'pay_b' };
      expect((await post('/api/payments/verify_payment/', { ...signedForAnotherPayment, subscription_id: order.subscription_id }, student.headers)).statusCode).toBe(400);

      expect((await subscriptionRows(student.user.id))[0]).toMatchObject({ status: 'pending', paymentId: null });
      expect((await get('/api/auth/profile/', student.headers)).json().data.has_purchased).toBe(false);
      expect((await get('/api/courses/my_courses/', student.headers)).json().data).toEqual([]);
    });

    it('activates on a valid signature: the course is in my_courses, has_purchased is true and the trial is over', async () => {
      const { course, student } = await courseAndStudent(t);
      expect((await get('/api/auth/trial-status/', student.headers)).json().data.is_trial).toBe(true);
      const order = await createOrder(t, student.headers, weekdayChoice(course));
      const res = await post('/api/payments/verify_payment/', { ...paidCheckout(t, order), subscription_id: order.subscription_id }, student.headers);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        data: { subscription_id: order.subscription_id, course_id: course.id, status: 'active' },
        message: 'Payment verified successfully!',
      });

      const mine = (await get('/api/courses/my_courses/', student.headers)).json().data;
      expect(mine).toHaveLength(1);
      expect(mine[0]).toMatchObject({
        id: course.id,
        enrolled: true,
        enrollment: { batch: 'weekdays', start_date: course.batch_start_dates[0], end_date: weekdayChoice(course).end_date, time: '09:00' },
      });
      expect((await get('/api/auth/profile/', student.headers)).json().data).toMatchObject({ has_purchased: true, is_trial: false });
      expect((await get('/api/auth/trial-status/', student.headers)).json().data).toMatchObject({ has_purchased: true, is_trial: false });
      expect((await get('/api/courses/', student.headers)).json().data.find((c: { id: number }) => c.id === course.id).enrolled).toBe(true);
    });

    it('answers verifying the same payment again with 200 and changes nothing', async () => {
      const { course, student } = await courseAndStudent(t);
      const order = await createOrder(t, student.headers, weekdayChoice(course));
      const body = { ...paidCheckout(t, order), subscription_id: order.subscription_id };
      expect((await post('/api/payments/verify_payment/', body, student.headers)).statusCode).toBe(200);
      const [before] = await subscriptionRows(student.user.id);
      const again = await post('/api/payments/verify_payment/', body, student.headers);
      expect(again.statusCode).toBe(200);
      expect(again.json().message).toBe('Payment verified successfully!');
      expect(await subscriptionRows(student.user.id)).toEqual([before]);
    });

    it('refuses a second order for a course already paid with 409', async () => {
      const { course, student } = await courseAndStudent(t);
      const order = await createOrder(t, student.headers, weekdayChoice(course));
      await post('/api/payments/verify_payment/', { ...paidCheckout(t, order), subscription_id: order.subscription_id }, student.headers);
      const second = await post('/api/payments/create_order/', weekendChoice(course), student.headers);
      expect(second.statusCode).toBe(409);
      expect(second.json().message).toBe('You are already enrolled in this course');
      expect(await subscriptionRows(student.user.id)).toHaveLength(1);
    });

    it("rejects another user's subscription id, even with a valid signature, and changes nothing", async () => {
      const { course, student } = await courseAndStudent(t);
      const intruder = await signedIn(t, 'student');
      const order = await createOrder(t, student.headers, weekdayChoice(course));
      const res = await post('/api/payments/verify_payment/', { ...paidCheckout(t, order), subscription_id: order.subscription_id }, intruder.headers);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('Payment verification failed');
      expect((await subscriptionRows(student.user.id))[0]!.status).toBe('pending');
      expect(await subscriptionRows(intruder.user.id)).toEqual([]);
    });

    it('rejects an order id that is not the subscription’s, and ids that name nothing', async () => {
      const { course, student } = await courseAndStudent(t);
      const order = await createOrder(t, student.headers, weekdayChoice(course));
      const other = await createCourse(t, (await signedIn(t, 'teacher')).headers, { name: 'Other' });
      const otherOrder = await createOrder(t, student.headers, weekdayChoice(other));
      const mixed = { ...paidCheckout(t, otherOrder), subscription_id: order.subscription_id };
      expect((await post('/api/payments/verify_payment/', mixed, student.headers)).statusCode).toBe(400);
      const nothing = { ...paidCheckout(t, order), subscription_id: 'not-a-uuid' };
      expect((await post('/api/payments/verify_payment/', nothing, student.headers)).statusCode).toBe(400);
      const missing = await post('/api/payments/verify_payment/', { razorpay_order_id: order.order_id }, student.headers);
      expect(missing.statusCode).toBe(400);
      expect(Object.keys(missing.json().errors).sort()).toEqual(['razorpay_payment_id', 'razorpay_signature', 'subscription_id']);
      expect((await subscriptionRows(student.user.id)).every((s) => s.status === 'pending')).toBe(true);
    });

    it('lets one payment id activate one subscription only', async () => {
      const { course, student } = await courseAndStudent(t);
      const other = await createCourse(t, (await signedIn(t, 'teacher')).headers, { name: 'Other' });
      const first = await createOrder(t, student.headers, weekdayChoice(course));
      const second = await createOrder(t, student.headers, weekdayChoice(other));
      const paid = await post('/api/payments/verify_payment/', { ...paidCheckout(t, first, 'pay_once'), subscription_id: first.subscription_id }, student.headers);
      expect(paid.statusCode).toBe(200);
      const reused = await post('/api/payments/verify_payment/', { ...paidCheckout(t, second, 'pay_once'), subscription_id: second.subscription_id }, student.headers);
      expect(reused.statusCode).toBe(400);
      const rows = await subscriptionRows(student.user.id);
      expect(rows.find((s) => s.id === second.subscription_id)).toMatchObject({ status: 'pending', paymentId: null });
    });

    it('never makes two enrollments when verify and the webhook race, nor when verify is sent twice at once', async () => {
      const { course, student } = await courseAndStudent(t);
      const order = await createOrder(t, student.headers, weekdayChoice(course));
      const checkout = paidCheckout(t, order);
      const body = { ...checkout, subscription_id: order.subscription_id };
      const results = await Promise.all([
        post('/api/payments/verify_payment/', body, student.headers),
        signedWebhook(t, capturedEvent(order.order_id, checkout.razorpay_payment_id, course.price)),
        post('/api/payments/verify_payment/', body, student.headers),
        signedWebhook(t, capturedEvent(order.order_id, checkout.razorpay_payment_id, course.price)),
      ]);
      expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
      // Whichever request reaches the database first activates: a webhook then says 'activated' (and no
      // other does), a verify says 'active' like every verify after it. Which one wins is the scheduler's
      // choice, so the test pins only that no second activation happens, and the one enrollment below.
      expect(results.filter((r) => r.json().data.status === 'activated').length).toBeLessThanOrEqual(1);
      expect(results.filter((r, at) => at % 2 === 0).map((r) => r.json().data.status)).toEqual(['active', 'active']);
      const rows = await subscriptionRows(student.user.id);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ status: 'active', paymentId: checkout.razorpay_payment_id });
    });

    it('refuses a second paid order for a course once another order of it activated', async () => {
      const { course, student } = await courseAndStudent(t);
      const first = await createOrder(t, student.headers, weekdayChoice(course));
      // A second pending subscription, as a second tab before the first one paid could leave behind.
      await t.db.insert(subscriptions).values({
        id: crypto.randomUUID(),
        userId: student.user.id,
        courseId: course.id,
        batch: 'weekdays',
        startDate: course.batch_start_dates[0]!,
        endDate: weekdayChoice(course).end_date,
        time: '09:00',
        amount: course.price,
        currency: 'INR',
        orderId: 'order_secondtab00001',
      });
      const [second] = (await subscriptionRows(student.user.id)).filter((s) => s.orderId === 'order_secondtab00001');
      expect((await post('/api/payments/verify_payment/', { ...paidCheckout(t, first), subscription_id: first.subscription_id }, student.headers)).statusCode).toBe(200);
      const late = await post('/api/payments/verify_payment/', { ...paidCheckout(t, { order_id: second!.orderId }), subscription_id: second!.id }, student.headers);
      expect(late.statusCode).toBe(409);
      expect((await subscriptionRows(student.user.id)).filter((s) => s.status === 'active')).toHaveLength(1);
    });
  });

  describe('sandbox checkout', () => {
    it("pays the caller's pending order with a signature that verify accepts", async () => {
      const { course, student } = await courseAndStudent(t);
      expect((await get('/api/payments/config/', student.headers)).json().data).toEqual({ provider: 'sandbox', key_id: t.config.payments.keyId });
      const order = await createOrder(t, student.headers, weekdayChoice(course));
      const paid = await post('/api/payments/sandbox/pay/', { order_id: order.order_id }, student.headers);
      expect(paid.statusCode).toBe(200);
      const result = paid.json().data;
      expect(result.razorpay_order_id).toBe(order.order_id);
      // The sandbox only signs; the browser's verify is what activates.
      expect((await subscriptionRows(student.user.id))[0]!.status).toBe('pending');
      const verified = await post('/api/payments/verify_payment/', { ...result, subscription_id: order.subscription_id }, student.headers);
      expect(verified.statusCode).toBe(200);
      expect((await post('/api/payments/sandbox/pay/', { order_id: order.order_id }, student.headers)).statusCode).toBe(409);
    });

    it("does not pay someone else's order or an unknown one", async () => {
      const { course, student } = await courseAndStudent(t);
      const intruder = await signedIn(t, 'student');
      const order = await createOrder(t, student.headers, weekdayChoice(course));
      expect((await post('/api/payments/sandbox/pay/', { order_id: order.order_id }, intruder.headers)).statusCode).toBe(404);
      expect((await post('/api/payments/sandbox/pay/', { order_id: 'order_nothing000000' }, student.headers)).statusCode).toBe(404);
    });

    it('declines a payment as the provider reports a failed one: admins see it failed, and why; the order can still be paid', async () => {
      const { course, student } = await courseAndStudent(t);
      const order = await createOrder(t, student.headers, weekdayChoice(course));
      const intruder = await signedIn(t, 'student');
      expect((await post('/api/payments/sandbox/fail/', { order_id: order.order_id }, intruder.headers)).statusCode).toBe(404);
      expect((await post('/api/payments/sandbox/fail/', { order_id: order.order_id }, student.headers)).statusCode).toBe(200);
      const admin = await signedIn(t, 'admin');
      const listed = (await get(`/api/admin/payments/?q=${order.order_id}`, admin.headers)).json().data.items;
      expect(listed).toEqual([expect.objectContaining({ status: 'failed', failure_reason: 'Card declined by the bank (sandbox: a simulated failure)' })]);
      const paid = (await post('/api/payments/sandbox/pay/', { order_id: order.order_id }, student.headers)).json().data;
      expect((await post('/api/payments/verify_payment/', { ...paid, subscription_id: order.subscription_id }, student.headers)).statusCode).toBe(200);
      expect((await get(`/api/admin/payments/?q=${order.order_id}`, admin.headers)).json().data.items[0]).toMatchObject({ status: 'paid', failure_reason: null });
    });
  });

  it('enrolls a student whose trial had already ended in a weekend batch, with both weekend times', async () => {
    const { course, student, teacher } = await courseAndStudent(t);
    await t.db.update(users).set({ trialEndsAt: new Date(Date.now() - 1000) }).where(eq(users.id, student.user.id));
    // A weekend batch meeting at a different time each day is opened by its teacher.
    const saturday = firstBatch(course, 'weekends').start_date;
    const opened = await post(`/api/courses/${course.id}/batches/`, { kind: 'weekends', start_date: saturday, saturday_time: '10:00', sunday_time: '15:00' }, teacher.headers);
    expect(opened.statusCode).toBe(201);
    const order = await createOrder(t, student.headers, { ...weekendChoice(course), sunday_time: '15:00', batch_id: opened.json().data.id });
    await post('/api/payments/verify_payment/', { ...paidCheckout(t, order), subscription_id: order.subscription_id }, student.headers);
    const mine = (await get('/api/courses/my_courses/', student.headers)).json().data;
    expect(mine[0].enrollment).toEqual({
      batch: 'weekends',
      start_date: saturday,
      end_date: weekendChoice(course).end_date,
      saturday_time: '10:00',
      sunday_time: '15:00',
    });
    expect((await get('/api/auth/profile/', student.headers)).json().data.has_purchased).toBe(true);
  });
});
