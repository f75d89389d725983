// Subscriptions (enrollments) as rows: created pending with an order, activated once by a payment.
// Activation is a single conditional UPDATE ... WHERE status = 'pending'; together with the unique
// indexes (order id, payment id, one active subscription per student and course) it makes double
// clicks, replays and a webhook racing the browser harmless.
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { subscriptions } from '../../db/schema/index';
import type { SubscriptionRow } from './presenter';
import { takeSeat } from '../batches';

export type ScheduleChoice = Pick<
  typeof subscriptions.$inferInsert,
  'batch' | 'batchId' | 'startDate' | 'endDate' | 'time' | 'saturdayTime' | 'sundayTime'
>;

export type Activation =
  | { outcome: 'activated'; subscription: SubscriptionRow }
  /** Already active with this very payment: a replay, nothing changes. */
  | { outcome: 'unchanged'; subscription: SubscriptionRow }
  /** This payment id already activated another subscription. */
  | { outcome: 'payment_used' }
  /** The student already has another active subscription for this course. */
  | { outcome: 'already_enrolled' }
  /** The batch's last seat went to someone else first: nothing changed. */
  | { outcome: 'sold_out' }
  /** Active with a different payment, or gone. */
  | { outcome: 'rejected' };

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The unique index a failed statement violated, if that is why it failed. */
function violatedUniqueIndex(error: unknown): string | null {
  for (let e = error as { code?: string; constraint?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.code === '23505') return e.constraint ?? '';
  }
  return null;
}

export async function findSubscription(db: Database, id: string): Promise<SubscriptionRow | null> {
  if (!uuidPattern.test(id)) return null;
  const [row] = await db.select().from(subscriptions).where(eq(subscriptions.id, id));
  return row ?? null;
}

export async function findSubscriptionByOrder(db: Database, orderId: string): Promise<SubscriptionRow | null> {
  const [row] = await db.select().from(subscriptions).where(eq(subscriptions.orderId, orderId));
  return row ?? null;
}

/** The student's newest pending subscription for a course, if any. */
export async function pendingSubscription(db: Database, userId: number, courseId: number): Promise<SubscriptionRow | null> {
  const [row] = await db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, userId), eq(subscriptions.courseId, courseId), eq(subscriptions.status, 'pending')))
    .orderBy(desc(subscriptions.createdAt))
    .limit(1);
  return row ?? null;
}

export async function createPendingSubscription(
  db: Database,
  values: ScheduleChoice & { id: string; userId: number; courseId: number; amount: number; currency: string; orderId: string },
): Promise<SubscriptionRow> {
  const [row] = await db.insert(subscriptions).values({ ...values, status: 'pending' }).returning();
  return row!;
}

/**
 * Points a still-pending subscription at a new schedule choice (and, when the price changed, a new
 * order). Null when it was activated meanwhile.
 */
export async function updatePendingSubscription(
  db: Database,
  id: string,
  values: ScheduleChoice & { amount: number; currency: string; orderId: string },
): Promise<SubscriptionRow | null> {
  const [row] = await db
    .update(subscriptions)
    // Asked for again: no longer abandoned, and a failure before this checkout is no longer its state.
    .set({ ...values, orderedAt: sql`now()` })
    .where(and(eq(subscriptions.id, id), eq(subscriptions.status, 'pending')))
    .returning();
  return row ?? null;
}

/** The provider said a payment of this still-pending order failed: when, and its reason. False when nothing was pending. */
export async function recordPaymentFailure(db: Database, orderId: string, reason: string | null, now: Date): Promise<boolean> {
  const updated = await db
    .update(subscriptions)
    .set({ failedAt: now, failureReason: reason })
    .where(and(eq(subscriptions.orderId, orderId), eq(subscriptions.status, 'pending')))
    .returning({ id: subscriptions.id });
  return updated.length > 0;
}

class SoldOut extends Error {}

/**
 * Activates a pending subscription and takes its batch's seat, both or neither; `onActivated` runs in
 * the same transaction (the receipt is written exactly when the activation is).
 */
export async function activateSubscription(
  db: Database,
  id: string,
  paymentId: string,
  now: Date,
  onActivated?: (tx: Database, subscriptionId: string) => Promise<void>,
): Promise<Activation> {
  try {
    const row = await db.transaction(async (tx) => {
      const [activated] = await tx
        .update(subscriptions)
        .set({ status: 'active', paymentId, activatedAt: now })
        .where(and(eq(subscriptions.id, id), eq(subscriptions.status, 'pending')))
        .returning();
      if (activated?.batchId && !(await takeSeat(tx, activated.batchId))) throw new SoldOut();
      if (activated && onActivated) await onActivated(tx as unknown as Database, activated.id);
      return activated;
    });
    if (row) return { outcome: 'activated', subscription: row };
  } catch (error) {
    if (error instanceof SoldOut) return { outcome: 'sold_out' };
    const index = violatedUniqueIndex(error);
    if (index === 'subscriptions_payment_idx') return { outcome: 'payment_used' };
    if (index === 'subscriptions_active_course_idx') return { outcome: 'already_enrolled' };
    throw error;
  }
  // Nothing was pending: someone (the webhook, a second click) got there first, or it never could.
  const current = await findSubscription(db, id);
  if (current?.status === 'active' && current.paymentId === paymentId) return { outcome: 'unchanged', subscription: current };
  return { outcome: 'rejected' };
}
