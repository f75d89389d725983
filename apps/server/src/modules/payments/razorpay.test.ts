// The razorpay provider against a local stand-in of its Orders API (the only thing mocked, at its HTTP
// boundary): orders made through the API at the course's price, verified with the key secret.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { buildTestApp, type TestApp } from '../../../test/app';
import { capturedEvent, courseAndStudent, createOrder, signedWebhook, weekdayChoice } from '../../../test/courses';
import { subscriptions } from '../../db/schema/index';
import { paymentSignature } from './signatures';

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

/** A call as the signed-in student makes it. */
const as = (headers: Record<string, string>, method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url, headers, ...(payload && { payload }) });

describe('with the razorpay provider against a stand-in of its Orders API', () => {
  let standIn: Server;
  let received: { method?: string; url?: string; authorization?: string; body: Record<string, unknown> }[];
  let answer: (body: Record<string, unknown>) => { status: number; body: unknown };

  const readBody = (req: IncomingMessage) =>
    new Promise<string>((resolve) => {
      let text = '';
      req.on('data', (chunk) => (text += chunk));
      req.on('end', () => resolve(text));
    });

  beforeEach(async () => {
    received = [];
    answer = (body) => ({ status: 200, body: { id: `order_Stand${received.length}in00000`, entity: 'order', amount: body.amount, currency: body.currency, status: 'created' } });
    standIn = createServer(async (req, res) => {
      const body = JSON.parse((await readBody(req)) || '{}') as Record<string, unknown>;
      received.push({ method: req.method, url: req.url, authorization: req.headers.authorization, body });
      const reply = answer(body);
      res.writeHead(reply.status, { 'content-type': 'application/json' }).end(JSON.stringify(reply.body));
    });
    await new Promise<void>((resolve) => standIn.listen(0, '127.0.0.1', resolve));
    const { port } = standIn.address() as AddressInfo;
    t = await buildTestApp({
      PAYMENTS_PROVIDER: 'razorpay',
      RAZORPAY_API_URL: `http://127.0.0.1:${port}`,
      RAZORPAY_KEY_ID: 'rzp_test_standin',
      RAZORPAY_KEY_SECRET: 'standin-key-secret',
      RAZORPAY_WEBHOOK_SECRET: 'standin-webhook-secret',
    });
  });
  afterEach(async () => {
    await new Promise((resolve) => standIn.close(resolve));
  });

  it('creates the order through the Orders API with basic auth and the course price, then verifies with the key secret', async () => {
    const { course, student } = await courseAndStudent(t);
    expect((await as(student.headers, 'GET', '/api/payments/config/')).json().data).toEqual({ provider: 'razorpay', key_id: 'rzp_test_standin' });
    const order = await createOrder(t, student.headers, { ...weekdayChoice(course), amount: 1 });
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({
      method: 'POST',
      url: '/v1/orders',
      authorization: `Basic ${Buffer.from('rzp_test_standin:standin-key-secret').toString('base64')}`,
      body: { amount: course.price, currency: 'INR', receipt: order.subscription_id },
    });
    expect(order).toMatchObject({ order_id: 'order_Stand1in00000', amount: course.price, key_id: 'rzp_test_standin' });

    // A double click reuses the order: the provider is asked once.
    await createOrder(t, student.headers, weekdayChoice(course));
    expect(received).toHaveLength(1);

    const paymentId = 'pay_StandInPaid01';
    const signature = paymentSignature(order.order_id, paymentId, 'standin-key-secret');
    const verified = await as(student.headers, 'POST', '/api/payments/verify_payment/', {
      razorpay_order_id: order.order_id,
      razorpay_payment_id: paymentId,
      razorpay_signature: signature,
      subscription_id: order.subscription_id,
    });
    expect(verified.statusCode).toBe(200);
    expect((await as(student.headers, 'GET', '/api/courses/my_courses/')).json().data).toHaveLength(1);
  });

  it('answers 502 and creates nothing when the Orders API refuses or answers a different amount', async () => {
    t.app.log.level = 'silent';
    const { course, student } = await courseAndStudent(t);
    answer = () => ({ status: 401, body: { error: { code: 'BAD_REQUEST_ERROR', description: 'Authentication failed' } } });
    const refused = await as(student.headers, 'POST', '/api/payments/create_order/', weekdayChoice(course));
    expect(refused.statusCode).toBe(502);
    expect(refused.json().message).toBe('The payment provider is not reachable. Please try again.');

    answer = (body) => ({ status: 200, body: { id: 'order_Tampered000000', amount: 100, currency: body.currency } });
    expect((await as(student.headers, 'POST', '/api/payments/create_order/', weekdayChoice(course))).statusCode).toBe(502);
    expect(await t.db.select().from(subscriptions).where(eq(subscriptions.userId, student.user.id))).toEqual([]);
  });

  it('has no sandbox checkout', async () => {
    const { course, student } = await courseAndStudent(t);
    const order = await createOrder(t, student.headers, weekdayChoice(course));
    expect((await as(student.headers, 'POST', '/api/payments/sandbox/pay/', { order_id: order.order_id })).statusCode).toBe(404);
  });

  it('activates from a webhook signed with the webhook secret', async () => {
    const { course, student } = await courseAndStudent(t);
    const order = await createOrder(t, student.headers, weekdayChoice(course));
    expect((await signedWebhook(t, capturedEvent(order.order_id, 'pay_rzp1', course.price), 'mooz-dev-webhook-secret')).statusCode).toBe(400);
    const res = await signedWebhook(t, capturedEvent(order.order_id, 'pay_rzp1', course.price), 'standin-webhook-secret');
    expect(res.json().data.status).toBe('activated');
  });
});
