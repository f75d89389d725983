// Buying through the API as the sandbox checkout would: order, pay, verify. For specs that need a
// payment to exist without driving the enroll form.
import { expect, type APIRequestContext } from '@playwright/test';
import type { SignedIn } from './a11y';

const auth = (session: SignedIn) => ({ Authorization: `Bearer ${session.access}` });

/** Buys the first weekday batch of the first course in the catalogue that has one still open. */
export async function buyAnOpenBatch(request: APIRequestContext, buyer: SignedIn): Promise<void> {
  const courses = (await (await request.get('/api/courses/', { headers: auth(buyer) })).json()).data as {
    id: number;
    batches: { id: number; kind: string; start_date: string; end_date: string; time: string | null; started: boolean; sold_out: boolean }[];
  }[];
  const [course, batch] = courses
    .flatMap((c) => c.batches.map((b) => [c, b] as const))
    .find(([, b]) => b.kind === 'weekdays' && !b.started && !b.sold_out)!;
  const order = await request.post('/api/payments/create_order/', {
    headers: auth(buyer),
    data: { course_id: course.id, batch_id: batch.id, batch: 'weekdays', start_date: batch.start_date, end_date: batch.end_date, time: batch.time },
  });
  expect(order.status(), await order.text()).toBe(200);
  const { order_id, subscription_id } = (await order.json()).data;
  const paid = await request.post('/api/payments/sandbox/pay/', { headers: auth(buyer), data: { order_id } });
  expect(paid.status(), await paid.text()).toBe(200);
  const verified = await request.post('/api/payments/verify_payment/', { headers: auth(buyer), data: { ...(await paid.json()).data, subscription_id } });
  expect(verified.status(), await verified.text()).toBe(200);
}
