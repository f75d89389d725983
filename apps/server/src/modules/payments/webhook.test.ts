// The provider's webhook: only a body signed with the webhook secret over its exact bytes is read, and
// only an event that says the order's amount was paid activates a subscription.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { buildTestApp, type TestApp } from '../../../test/app';
import { capturedEvent, courseAndStudent, createOrder, paidCheckout, signedWebhook, weekdayChoice } from '../../../test/courses';
import { subscriptions } from '../../db/schema/index';
import { webhookSignature } from './signatures';

let t: TestApp;
beforeEach(async () => {
  t = await buildTestApp();
});
afterEach(async () => {
  await t.close();
});

const subscriptionRows = (userId: number) => t.db.select().from(subscriptions).where(eq(subscriptions.userId, userId));

describe('webhook', () => {
  it('rejects a missing or bad signature and changes nothing', async () => {
    const { course, student } = await courseAndStudent(t);
    const order = await createOrder(t, student.headers, weekdayChoice(course));
    const unsigned = await signedWebhook(t, capturedEvent(order.order_id, 'pay_hook1'), null);
    expect(unsigned.statusCode).toBe(400);
    const wrongSecret = await signedWebhook(t, capturedEvent(order.order_id, 'pay_hook1'), 'not-the-webhook-secret');
    expect(wrongSecret.statusCode).toBe(400);
    expect(wrongSecret.json().message).toBe('Invalid webhook signature');
    // Signed with the key secret instead of the webhook secret.
    expect((await signedWebhook(t, capturedEvent(order.order_id, 'pay_hook1'), t.config.payments.keySecret)).statusCode).toBe(400);
    expect((await subscriptionRows(student.user.id))[0]!.status).toBe('pending');
  });

  it('checks the signature over the raw bytes: the same JSON re-serialised does not pass', async () => {
    const { course, student } = await courseAndStudent(t);
    const order = await createOrder(t, student.headers, weekdayChoice(course));
    const event = capturedEvent(order.order_id, 'pay_raw1');
    const signature = webhookSignature(JSON.stringify(event), t.config.payments.webhookSecret);
    const reformatted = JSON.stringify(event, null, 2);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/payments/webhook/',
      payload: reformatted,
      headers: { 'content-type': 'application/json', 'x-razorpay-signature': signature },
    });
    expect(res.statusCode).toBe(400);
    expect((await subscriptionRows(student.user.id))[0]!.status).toBe('pending');
  });

  it('activates on payment.captured with a good signature, so a buyer who closed the tab still gets the course', async () => {
    const { course, student } = await courseAndStudent(t);
    const order = await createOrder(t, student.headers, weekdayChoice(course));
    const res = await signedWebhook(t, capturedEvent(order.order_id, 'pay_hook2', course.price));
    expect(res.statusCode).toBe(200);
    expect(res.json().data.status).toBe('activated');
    expect((await t.app.inject({ method: 'GET', url: '/api/courses/my_courses/', headers: student.headers })).json().data.map((c: { id: number }) => c.id)).toEqual([course.id]);

    const replay = await signedWebhook(t, capturedEvent(order.order_id, 'pay_hook2', course.price));
    expect(replay.json().data.status).toBe('unchanged');
    // The browser's verify arriving afterwards is a success that changes nothing.
    const late = await t.app.inject({
      method: 'POST',
      url: '/api/payments/verify_payment/',
      headers: student.headers,
      payload: { ...paidCheckout(t, order, 'pay_hook2'), subscription_id: order.subscription_id },
    });
    expect(late.statusCode).toBe(200);
    expect(await subscriptionRows(student.user.id)).toHaveLength(1);
  });

  it('activates on order.paid, and ignores other events, unknown orders and a wrong amount', async () => {
    const { course, student } = await courseAndStudent(t);
    const order = await createOrder(t, student.headers, weekdayChoice(course));
    const other = await signedWebhook(t, { event: 'refund.created', payload: { payment: { entity: { id: 'pay_f', order_id: order.order_id } } } });
    expect(other.json().data.status).toBe('ignored');
    // A failed payment is kept for admins (below) but activates nothing.
    const failed = await signedWebhook(t, { event: 'payment.failed', payload: { payment: { entity: { id: 'pay_f', order_id: order.order_id } } } });
    expect(failed.json().data.status).toBe('failed');
    expect((await signedWebhook(t, capturedEvent('order_unknown0000001', 'pay_u'))).json().data.status).toBe('ignored');
    expect((await signedWebhook(t, capturedEvent(order.order_id, 'pay_cheap', 100))).json().data.status).toBe('ignored');
    expect((await subscriptionRows(student.user.id))[0]!.status).toBe('pending');

    const paid = await signedWebhook(t, {
      event: 'order.paid',
      payload: { order: { entity: { id: order.order_id } }, payment: { entity: { id: 'pay_op1', order_id: order.order_id, amount: course.price } } },
    });
    expect(paid.json().data.status).toBe('activated');
    expect((await subscriptionRows(student.user.id))[0]).toMatchObject({ status: 'active', paymentId: 'pay_op1' });
  });

  it('ignores an order.paid that does not say how much was paid, or names another amount or currency', async () => {
    const { course, student } = await courseAndStudent(t);
    const order = await createOrder(t, student.headers, weekdayChoice(course));
    const orderPaid = (order_entity: object, payment_entity: object) => ({
      event: 'order.paid',
      payload: { order: { entity: { id: order.order_id, ...order_entity } }, payment: { entity: { id: 'pay_x1', order_id: order.order_id, ...payment_entity } } },
    });
    for (const event of [
      orderPaid({}, {}),
      orderPaid({ amount_paid: course.price - 1 }, {}),
      orderPaid({}, { amount: course.price, currency: 'USD' }),
    ]) {
      expect((await signedWebhook(t, event)).json().data.status).toBe('ignored');
    }
    expect((await subscriptionRows(student.user.id))[0]!.status).toBe('pending');
    // The order's own amount_paid is enough when the payment entity is absent.
    const paid = await signedWebhook(t, orderPaid({ amount_paid: course.price, currency: 'INR' }, {}));
    expect(paid.json().data.status).toBe('activated');
  });

  it('refuses a signed body that is not JSON', async () => {
    t.app.log.level = 'silent';
    const raw = 'not json';
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/payments/webhook/',
      payload: raw,
      headers: { 'content-type': 'text/plain', 'x-razorpay-signature': webhookSignature(raw, t.config.payments.webhookSecret) },
    });
    expect(res.statusCode).toBe(400);
  });

  it('ignores an event whose order or payment id is not an id', async () => {
    for (const event of [capturedEvent('a\u0000', 'pay_1'), capturedEvent('order_1', 'pay\u0000')]) {
      const res = await signedWebhook(t, event);
      expect(res.statusCode).toBe(200);
      expect(res.json().data.status).toBe('ignored');
    }
  });

  it('ignores a signed body that is JSON but not an event', async () => {
    for (const raw of ['null', '42', '[]', '"order.paid"']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/payments/webhook/',
        payload: raw,
        headers: { 'content-type': 'application/json', 'x-razorpay-signature': webhookSignature(raw, t.config.payments.webhookSecret) },
      });
      expect(res.statusCode, raw).toBe(200);
      expect(res.json().data.status).toBe('ignored');
    }
  });

  it('keeps why the provider says a payment failed, and a later payment of the same order still activates', async () => {
    const { course, student } = await courseAndStudent(t);
    const order = await createOrder(t, student.headers, weekdayChoice(course));
    const failedEvent = (description: unknown) => ({
      entity: 'event',
      event: 'payment.failed',
      payload: {
        payment: {
          entity: { id: 'pay_fail1', entity: 'payment', order_id: order.order_id, status: 'failed', error_code: 'BAD_REQUEST_ERROR', error_reason: 'card_declined', error_description: description },
        },
      },
    });
    const res = await signedWebhook(t, failedEvent('Your card was declined by the bank.\n'));
    expect(res.statusCode).toBe(200);
    expect(res.json().data.status).toBe('failed');
    const [row] = await subscriptionRows(student.user.id);
    expect([row!.status, row!.failureReason, row!.failedAt instanceof Date]).toEqual(['pending', 'Your card was declined by the bank.', true]);
    // No description: the reason code.
    await signedWebhook(t, failedEvent(null));
    expect((await subscriptionRows(student.user.id))[0]!.failureReason).toBe('card_declined');

    expect((await signedWebhook(t, capturedEvent(order.order_id, 'pay_ok1', course.price))).json().data.status).toBe('activated');
    // A failure reported after the order was paid changes nothing.
    expect((await signedWebhook(t, failedEvent('late'))).json().data.status).toBe('ignored');
    expect((await subscriptionRows(student.user.id))[0]!.status).toBe('active');
  });
});
