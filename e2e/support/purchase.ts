// Buying through the API as the sandbox checkout would: order, pay, verify. For specs that need a
// payment to exist without driving the enroll form.
import { expect, type APIRequestContext } from '@playwright/test';
import { apiRoutes } from '@mooz/contract/api-routes';
import { pathOf } from '@mooz/contract/endpoint';
import { auth, type SignedIn } from './a11y';

type Buyer = Pick<SignedIn, 'access'>;

interface Batch {
  id: number;
  kind: string;
  start_date: string;
  end_date: string;
  time: string | null;
  started: boolean;
  sold_out: boolean;
}

/** Orders what `order` says (the body of create_order), pays it in the sandbox and has it verified. */
export async function payFor(request: APIRequestContext, buyer: Buyer, order: Record<string, unknown>): Promise<{ orderId: string; paymentId: string }> {
  const ordered = await request.post(apiRoutes.payments.createOrder.path, { headers: auth(buyer), data: order });
  expect(ordered.status(), await ordered.text()).toBe(200);
  const { order_id, subscription_id } = (await ordered.json()).data as { order_id: string; subscription_id: string };
  const paid = await request.post(apiRoutes.payments.sandboxPay.path, { headers: auth(buyer), data: { order_id } });
  expect(paid.status(), await paid.text()).toBe(200);
  const payment = (await paid.json()).data as { razorpay_payment_id: string };
  const verified = await request.post(apiRoutes.payments.verify.path, { headers: auth(buyer), data: { ...payment, subscription_id } });
  expect(verified.status(), await verified.text()).toBe(200);
  return { orderId: order_id, paymentId: payment.razorpay_payment_id };
}

const openWeekdayBatch = (batch: Batch) => batch.kind === 'weekdays' && !batch.started && !batch.sold_out;

const buyBatch = (request: APIRequestContext, buyer: Buyer, courseId: number, batch: Batch) =>
  payFor(request, buyer, { course_id: courseId, batch_id: batch.id, batch: 'weekdays', start_date: batch.start_date, end_date: batch.end_date, time: batch.time });

/** Buys the first weekday batch of the first course in the catalogue that has one still open. */
export async function buyAnOpenBatch(request: APIRequestContext, buyer: Buyer): Promise<void> {
  const courses = (await (await request.get(apiRoutes.courses.catalogue.path, { headers: auth(buyer) })).json()).data as { id: number; batches: Batch[] }[];
  const [course, batch] = courses.flatMap((c) => c.batches.map((b) => [c, b] as const)).find(([, b]) => openWeekdayBatch(b))!;
  await buyBatch(request, buyer, course.id, batch);
}

/** Buys the first open weekday batch of `courseId`. */
export async function buyWeekdayBatch(request: APIRequestContext, buyer: Buyer, courseId: number): Promise<void> {
  const course = (await (await request.get(pathOf(apiRoutes.courses.one, { id: courseId }), { headers: auth(buyer) })).json()).data as { batches: Batch[] };
  await buyBatch(request, buyer, courseId, course.batches.find(openWeekdayBatch)!);
}
