// What the admin tests share: calls as someone, the audit rows of an action, and a paid enrollment.
import { desc, eq } from 'drizzle-orm';
import type { TestApp } from './app';
import { signedIn } from './accounts';
import { courseAndStudent, createOrder, paidCheckout, weekdayChoice } from './courses';
import { auditLog } from '../src/db/schema/index';

type Headers = Record<string, string>;

export const call = (t: TestApp, method: 'GET' | 'POST', url: string, headers: Headers = {}, payload?: object) =>
  t.app.inject({ method, url, headers, ...(payload && { payload }) });

/** The audit rows of `action`, newest first. */
export const auditRows = (t: TestApp, action: string) =>
  t.db.select().from(auditLog).where(eq(auditLog.action, action)).orderBy(desc(auditLog.id));

/** A student who bought a teacher's course through the checkout: an active subscription. */
export async function paidEnrollment(t: TestApp) {
  const { teacher, course, student } = await courseAndStudent(t);
  const order = await createOrder(t, student.headers, weekdayChoice(course));
  const verified = await call(t, 'POST', '/api/payments/verify_payment/', student.headers, {
    ...paidCheckout(t, order),
    subscription_id: order.subscription_id,
  });
  if (verified.statusCode !== 200) throw new Error(`verify failed: ${verified.statusCode} ${verified.body}`);
  return { teacher, course, student, order };
}

export const signedInAdmin = (t: TestApp) => signedIn(t, 'admin');
