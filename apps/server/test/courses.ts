// Helpers for tests that need courses and purchases: create a course as a teacher, order it as a
// student, and sign a payment the way the provider's checkout does.
import type { Course } from '@mooz/contract/courses';
import type { OrderData } from '@mooz/contract/payments';
import type { TestApp } from './app';
import { signedIn } from './accounts';
import { paymentSignature, webhookSignature } from '../src/modules/payments/signatures';

const DAY = 86_400_000;

/** A date `days` from today (UTC), as YYYY-MM-DD. */
export const daysFromNow = (days: number) => new Date(Date.now() + days * DAY).toISOString().slice(0, 10);

export const sampleCourse = () => ({
  name: 'Testing in Practice',
  description: 'Write tests that pin behaviour, not implementation.',
  price: 250_000,
  currency: 'INR',
  skills: ['Vitest', 'Playwright'],
  duration_weeks: 4,
  batch_start_dates: [daysFromNow(10), daysFromNow(40)],
  weekday_times: ['09:00', '18:30'],
  weekend_times: ['10:00', '15:00'],
  published: true,
});

export async function createCourse(t: TestApp, headers: Record<string, string>, overrides: Record<string, unknown> = {}): Promise<Course> {
  const res = await t.app.inject({ method: 'POST', url: '/api/courses/', headers, payload: { ...sampleCourse(), ...overrides } });
  if (res.statusCode !== 201) throw new Error(`course creation failed: ${res.statusCode} ${res.body}`);
  return res.json().data as Course;
}

/** The course's first batch of a kind (its lists open one per listed week and time). */
export function firstBatch(course: Course, kind: 'weekdays' | 'weekends') {
  const batch = course.batches.find((b) => b.kind === kind);
  if (!batch) throw new Error(`course ${course.id} has no ${kind} batch`);
  return batch;
}

/** A valid weekday choice for the course's first weekday batch. */
export const weekdayChoice = (course: Course) => {
  const batch = firstBatch(course, 'weekdays');
  return { course_id: course.id, batch: 'weekdays' as const, start_date: batch.start_date, end_date: batch.end_date, time: batch.time! };
};

/** A valid weekend choice for the course's first weekend batch. */
export const weekendChoice = (course: Course) => {
  const batch = firstBatch(course, 'weekends');
  return {
    course_id: course.id,
    batch: 'weekends' as const,
    start_date: batch.start_date,
    end_date: batch.end_date,
    saturday_time: batch.saturday_time!,
    sunday_time: batch.sunday_time!,
  };
};

export async function createOrder(t: TestApp, headers: Record<string, string>, body: object): Promise<OrderData> {
  const res = await t.app.inject({ method: 'POST', url: '/api/payments/create_order/', headers, payload: body });
  if (res.statusCode !== 200) throw new Error(`create_order failed: ${res.statusCode} ${res.body}`);
  return res.json().data as OrderData;
}

let payments = 0;
/** What the provider's checkout returns after a successful payment of `order`. */
export function paidCheckout(t: TestApp, order: Pick<OrderData, 'order_id'>, paymentId = `pay_test${Date.now()}${++payments}`) {
  return {
    razorpay_order_id: order.order_id,
    razorpay_payment_id: paymentId,
    razorpay_signature: paymentSignature(order.order_id, paymentId, t.config.payments.keySecret),
  };
}

/** A teacher with one published course, and a student who may buy it. */
export async function courseAndStudent(t: TestApp) {
  const teacher = await signedIn(t, 'teacher');
  const course = await createCourse(t, teacher.headers);
  const student = await signedIn(t, 'student');
  return { teacher, course, student };
}

/** A provider webhook call, signed with `secret` (the webhook secret by default; null: unsigned) over the exact bytes sent. */
export function signedWebhook(t: TestApp, event: object, secret: string | null = t.config.payments.webhookSecret, signatureOverride?: string) {
  const raw = JSON.stringify(event);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const signature = signatureOverride ?? (secret ? webhookSignature(raw, secret) : undefined);
  if (signature) headers['x-razorpay-signature'] = signature;
  return t.app.inject({ method: 'POST', url: '/api/payments/webhook/', payload: raw, headers });
}

/** The provider's `payment.captured` event for an order. */
export const capturedEvent = (orderId: string, paymentId: string, amount?: number) => ({
  entity: 'event',
  event: 'payment.captured',
  payload: { payment: { entity: { id: paymentId, entity: 'payment', order_id: orderId, status: 'captured', ...(amount !== undefined && { amount }) } } },
});
