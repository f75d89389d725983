// Admins see every payment and enrollment, and can mark one refunded: its status and date are set,
// the access it gave ends (has_purchased, my courses), its batch seat is freed, an audit row is
// written, all together; refunding twice, or what was never paid, is a 409 that changes nothing.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { auditActions } from '@mooz/contract/admin';
import { messages } from '@mooz/contract/messages';
import { signedIn } from '../../../test/accounts';
import { auditRows, call, paidEnrollment } from '../../../test/admin';
import { courseAndStudent, createOrder, signedWebhook, weekdayChoice } from '../../../test/courses';
import { oneInstance } from '../../../test/instances';
import { batches, subscriptions } from '../../db/schema/index';

const t = oneInstance();

const payments = async (headers: Record<string, string>, query: string) => {
  const res = await call(t, 'GET', `/api/admin/payments/?${query}`, headers);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as {
    total: number;
    items: { id: string; status: string; refunded_at: string | null; failed_at: string | null; failure_reason: string | null }[];
  };
};

/** Ties the subscription to a batch with `seats` seats taken, as a verified purchase of a batch does. */
async function inBatch(courseId: number, subscriptionId: string, seats = 3) {
  const [subscription] = await t.db.select().from(subscriptions).where(eq(subscriptions.id, subscriptionId));
  if (subscription!.batchId !== null) {
    await t.db.update(batches).set({ seatsTaken: seats }).where(eq(batches.id, subscription!.batchId));
    return subscription!.batchId;
  }
  const [batch] = await t.db
    .insert(batches)
    .values({ courseId, kind: subscription!.batch, startDate: subscription!.startDate, endDate: subscription!.endDate, time: subscription!.time, seats: 10, seatsTaken: seats })
    .returning();
  await t.db.update(subscriptions).set({ batchId: batch!.id }).where(eq(subscriptions.id, subscriptionId));
  return batch!.id;
}

describe('the list of payments', () => {
  it('shows each enrollment with its student, course, batch, amounts and provider ids, filtered by status', async () => {
    const admin = await signedIn(t, 'admin');
    const { student, course, order } = await paidEnrollment(t);
    const res = await payments(admin.headers, `q=${encodeURIComponent(student.user.email)}`);
    expect(res.total).toBe(1);
    expect(res.items[0]).toMatchObject({
      id: order.subscription_id,
      student: { id: student.user.id, email: student.user.email },
      course: { id: course.id, name: course.name },
      batch: { kind: 'weekdays', start_date: course.batch_start_dates[0], time: course.weekday_times[0] },
      status: 'paid',
      amount: course.price,
      currency: course.currency,
      order_id: order.order_id,
      payment_id: expect.any(String),
      activated_at: expect.any(String),
      refunded_at: null,
      failed_at: null,
      failure_reason: null,
    });
    expect((await payments(admin.headers, `q=${encodeURIComponent(student.user.email)}&status=created`)).total).toBe(0);
    expect((await payments(admin.headers, `q=${order.order_id}&status=paid`)).items.map((p) => p.id)).toEqual([order.subscription_id]);
  });

  it('lists every status, created, failed (with the provider’s reason), abandoned, paid and refunded, each its own filter', async () => {
    const admin = await signedIn(t, 'admin');
    const { course } = await courseAndStudent(t);
    const marker = `zz${Date.now()}`;
    const orderFor = async (name: string) => {
      const buyer = await signedIn(t);
      await t.db.execute(sql`update users set first_name = ${`${marker} ${name}`} where id = ${buyer.user.id}`);
      return { ...(await createOrder(t, buyer.headers, weekdayChoice(course))), buyer };
    };
    const created = await orderFor('created');
    const failed = await orderFor('failed');
    await signedWebhook(t, {
      event: 'payment.failed',
      payload: { payment: { entity: { id: 'pay_failedone', order_id: failed.order_id, status: 'failed', error_description: 'Payment declined by the bank' } } },
    });
    const abandoned = await orderFor('abandoned');
    await t.db.update(subscriptions).set({ orderedAt: new Date(Date.now() - 25 * 3_600_000) }).where(eq(subscriptions.id, abandoned.subscription_id));
    const { order: paid } = await paidEnrollment(t);
    await t.db.execute(sql`update users set first_name = ${`${marker} paid`} where id = (select user_id from subscriptions where id = ${paid.subscription_id})`);
    const { order: refunded } = await paidEnrollment(t);
    await t.db.execute(sql`update users set first_name = ${`${marker} refunded`} where id = (select user_id from subscriptions where id = ${refunded.subscription_id})`);
    expect((await call(t, 'POST', `/api/admin/payments/${refunded.subscription_id}/refund/`, admin.headers)).statusCode).toBe(200);

    const all = await payments(admin.headers, `q=${marker}&limit=100`);
    const statusOf = Object.fromEntries(all.items.map((p) => [p.id, p.status]));
    expect(statusOf).toEqual({
      [created.subscription_id]: 'created',
      [failed.subscription_id]: 'failed',
      [abandoned.subscription_id]: 'abandoned',
      [paid.subscription_id]: 'paid',
      [refunded.subscription_id]: 'refunded',
    });
    for (const [id, status] of Object.entries(statusOf)) {
      expect((await payments(admin.headers, `q=${marker}&status=${status}`)).items.map((p) => p.id), status).toEqual([id]);
    }
    const failure = all.items.find((p) => p.id === failed.subscription_id)!;
    expect([failure.failure_reason, typeof failure.failed_at]).toEqual(['Payment declined by the bank', 'string']);
    expect(all.items.filter((p) => p.failure_reason !== null).map((p) => p.id)).toEqual([failed.subscription_id]);

    // Asked for again, the failed order is a checkout under way once more; an abandoned one too.
    await createOrder(t, failed.buyer.headers, weekdayChoice(course));
    await createOrder(t, abandoned.buyer.headers, weekdayChoice(course));
    expect((await payments(admin.headers, `q=${marker}&status=created`)).items.map((p) => p.id).sort()).toEqual(
      [created.subscription_id, failed.subscription_id, abandoned.subscription_id].sort(),
    );
  });

  it.each([['status=active'], ['status=pending'], ['limit=1000'], ['offset=x']])('refuses the filter %s with 400', async (query) => {
    const admin = await signedIn(t, 'admin');
    expect((await call(t, 'GET', `/api/admin/payments/?${query}`, admin.headers)).statusCode).toBe(400);
  });
});

describe('a refund', () => {
  it('ends the access the payment gave, frees the batch seat and is audited', async () => {
    const admin = await signedIn(t, 'admin');
    const { student, course, order } = await paidEnrollment(t);
    const batchId = await inBatch(course.id, order.subscription_id);
    const mine = async () => (await call(t, 'GET', '/api/courses/my_courses/', student.headers)).json().data as unknown[];
    const purchased = async () => (await call(t, 'GET', '/api/auth/profile/', student.headers)).json().data.has_purchased as boolean;
    const enrolled = async () =>
      ((await call(t, 'GET', '/api/courses/', student.headers)).json().data as { id: number; enrolled: boolean }[]).find((c) => c.id === course.id)?.enrolled;
    // Read once, so the purchases are in the cache the refund must drop.
    expect([(await mine()).length, await purchased(), await enrolled()]).toEqual([1, true, true]);

    const res = await call(t, 'POST', `/api/admin/payments/${order.subscription_id}/refund/`, admin.headers);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ message: messages.paymentRefunded, data: { id: order.subscription_id, status: 'refunded', refunded_at: expect.any(String) } });

    expect([(await mine()).length, await purchased(), await enrolled()]).toEqual([0, false, false]);
    const [batch] = await t.db.select().from(batches).where(eq(batches.id, batchId));
    expect(batch!.seatsTaken).toBe(2);
    const [row] = await auditRows(t, auditActions.refundPayment);
    expect(row).toMatchObject({
      actorId: admin.user.id,
      targetType: 'subscription',
      targetId: order.subscription_id,
      details: { amount: course.price, currency: course.currency, order_id: order.order_id, student_email: student.user.email },
    });
  });

  it('answers 409 the second time, freeing no second seat and writing no second audit row', async () => {
    const admin = await signedIn(t, 'admin');
    const { course, order } = await paidEnrollment(t);
    const batchId = await inBatch(course.id, order.subscription_id);
    const url = `/api/admin/payments/${order.subscription_id}/refund/`;
    expect((await call(t, 'POST', url, admin.headers)).statusCode).toBe(200);
    const audited = (await auditRows(t, auditActions.refundPayment)).length;
    const twice = await call(t, 'POST', url, admin.headers);
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toEqual({ message: messages.alreadyRefunded });
    const [batch] = await t.db.select().from(batches).where(eq(batches.id, batchId));
    expect(batch!.seatsTaken).toBe(2);
    expect((await auditRows(t, auditActions.refundPayment)).length).toBe(audited);
  });

  it('refunds once when two admins race', async () => {
    const [first, second] = [await signedIn(t, 'admin'), await signedIn(t, 'admin')];
    const { course, order } = await paidEnrollment(t);
    const batchId = await inBatch(course.id, order.subscription_id);
    const url = `/api/admin/payments/${order.subscription_id}/refund/`;
    const statuses = (await Promise.all([call(t, 'POST', url, first.headers), call(t, 'POST', url, second.headers)])).map((r) => r.statusCode);
    expect(statuses.sort()).toEqual([200, 409]);
    const [batch] = await t.db.select().from(batches).where(eq(batches.id, batchId));
    expect(batch!.seatsTaken).toBe(2);
  });

  it('answers 409 for an order never paid, and changes nothing', async () => {
    const admin = await signedIn(t, 'admin');
    const { course, student } = await courseAndStudent(t);
    const order = await createOrder(t, student.headers, weekdayChoice(course));
    const res = await call(t, 'POST', `/api/admin/payments/${order.subscription_id}/refund/`, admin.headers);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: messages.refundNeedsPayment });
    const [row] = await t.db.select().from(subscriptions).where(eq(subscriptions.id, order.subscription_id));
    expect([row!.status, row!.refundedAt]).toEqual(['pending', null]);
  });

  it('answers 404 for an unknown payment and 400 for an id that is no id', async () => {
    const admin = await signedIn(t, 'admin');
    const unknown = await call(t, 'POST', `/api/admin/payments/${randomUUID()}/refund/`, admin.headers);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: messages.paymentNotFound });
    expect((await call(t, 'POST', '/api/admin/payments/not-a-uuid/refund/', admin.headers)).statusCode).toBe(400);
  });

  it('lets the student buy the course again afterwards', async () => {
    const admin = await signedIn(t, 'admin');
    const { course, student, order } = await paidEnrollment(t);
    await call(t, 'POST', `/api/admin/payments/${order.subscription_id}/refund/`, admin.headers);
    const again = await call(t, 'POST', '/api/payments/create_order/', student.headers, weekdayChoice(course));
    expect(again.statusCode, again.body).toBe(200);
  });
});
