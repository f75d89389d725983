// Helpers for tests that need class sessions: one written straight into the database at a time
// relative to now, and a paid purchase made through the API.
import { randomUUID } from 'node:crypto';
import type { TestApp } from './app';
import { classSessions } from '../src/db/schema/index';
import { createOrder, paidCheckout } from './courses';

const MIN = 60_000;

/** A one-hour session of `courseId` starting `startOffsetMin` minutes from now (negative: in the past). */
export async function sessionAt(t: TestApp, courseId: number, title: string, startOffsetMin: number, extra: Partial<typeof classSessions.$inferInsert> = {}) {
  const startsAt = new Date(Date.now() + startOffsetMin * MIN);
  const [row] = await t.db
    .insert(classSessions)
    .values({ courseId, title, startsAt, endsAt: new Date(startsAt.getTime() + 60 * MIN), roomId: randomUUID(), ...extra })
    .returning();
  return row!;
}

/** Orders `choice` and verifies its payment as the checkout would: the student has bought the course. */
export async function buy(t: TestApp, headers: Record<string, string>, choice: object) {
  const order = await createOrder(t, headers, choice);
  const res = await t.app.inject({ method: 'POST', url: '/api/payments/verify_payment/', headers, payload: { ...paidCheckout(t, order), subscription_id: order.subscription_id } });
  if (res.statusCode !== 200) throw new Error(`verify_payment failed: ${res.statusCode} ${res.body}`);
  return order;
}
