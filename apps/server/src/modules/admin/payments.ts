// Payments and enrollments as admins see them: every subscription with its student, course and batch,
// in the status admins read (created, failed with the provider's reason, abandoned, paid, refunded:
// one rule, paymentStatusOf, both shown and filtered by); and the refund marker, which ends the access the payment gave (access follows active subscriptions:
// has_purchased, my courses, the course's sessions) and frees its batch seat, in one transaction.
import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import { auditActions, paymentRules, type AdminPayment, type PaymentStatus, type adminPaymentsQuery } from '@mooz/contract/admin';
import { messages } from '@mooz/contract/messages';
import type { Database } from '../../db/client';
import { courses, subscriptions, users } from '../../db/schema/index';
import { conflict, notFound } from '../../http/errors';
import { releaseSeat } from '../batches';
import type { NotificationsDoor } from '../notifications';
import { recordAudit } from './audit';
import { containing, pageOf, rowCount } from './paging';
import { fullNameSql } from '../../db/person-name';
import { isActiveSubscription } from '../courses';

/**
 * The status admins read, from the subscription's own: a pending order whose latest payment failed
 * after it was last asked for is failed; one left unpaid for `abandonedAfterHours` is abandoned.
 */
const paymentStatusOf = (now: Date): SQL<PaymentStatus> => sql<PaymentStatus>`(case
  when ${subscriptions.status} = 'active' then 'paid'
  when ${subscriptions.status} = 'refunded' then 'refunded'
  when ${subscriptions.failedAt} >= ${subscriptions.orderedAt} then 'failed'
  when ${subscriptions.orderedAt} < ${now.toISOString()}::timestamptz - make_interval(hours => ${paymentRules.abandonedAfterHours}) then 'abandoned'
  else 'created' end)`;

const columnsAt = (now: Date) => ({
  subscription: subscriptions,
  student: { id: users.id, name: fullNameSql, email: users.email },
  course: { id: courses.id, name: courses.name },
  status: paymentStatusOf(now),
});
type Row = { subscription: typeof subscriptions.$inferSelect; student: AdminPayment['student']; course: AdminPayment['course']; status: PaymentStatus };

function present({ subscription: s, student, course, status }: Row): AdminPayment {
  return {
    id: s.id,
    student,
    course,
    batch: {
      id: s.batchId,
      kind: s.batch,
      start_date: s.startDate,
      end_date: s.endDate,
      time: s.time,
      saturday_time: s.saturdayTime,
      sunday_time: s.sundayTime,
    },
    status,
    amount: s.amount,
    currency: s.currency,
    order_id: s.orderId,
    payment_id: s.paymentId,
    created_at: s.createdAt.toISOString(),
    activated_at: s.activatedAt?.toISOString() ?? null,
    refunded_at: s.refundedAt?.toISOString() ?? null,
    failed_at: status === 'failed' ? (s.failedAt?.toISOString() ?? null) : null,
    failure_reason: status === 'failed' ? s.failureReason : null,
  };
}

export function createPayments({ db, now, notifications }: { db: Database; now: () => Date; notifications?: Pick<NotificationsDoor, 'refunded' | 'kick'> }) {
  const joined = (executor: Pick<Database, 'select'>, at = now()) =>
    executor
      .select(columnsAt(at))
      .from(subscriptions)
      .innerJoin(users, eq(users.id, subscriptions.userId))
      .innerJoin(courses, eq(courses.id, subscriptions.courseId));

  return {
    async list(query: z.output<typeof adminPaymentsQuery>) {
      const at = now();
      const where = and(
        containing(query.q, [users.email, fullNameSql, courses.name, subscriptions.orderId, subscriptions.paymentId]),
        query.status ? sql`${paymentStatusOf(at)} = ${query.status}` : undefined,
      );
      const [rows, [count]] = await Promise.all([
        joined(db, at).where(where).orderBy(desc(subscriptions.createdAt), desc(subscriptions.id)).limit(query.limit).offset(query.offset),
        db
          .select({ total: rowCount })
          .from(subscriptions)
          .innerJoin(users, eq(users.id, subscriptions.userId))
          .innerJoin(courses, eq(courses.id, subscriptions.courseId))
          .where(where),
      ]);
      return { data: pageOf(count!.total, rows.map(present)) };
    },

    async refund(actorId: number, id: string) {
      const refunded = await db.transaction(async (tx) => {
        const [found] = await joined(tx).where(eq(subscriptions.id, id)).for('update', { of: subscriptions });
        if (!found) throw notFound(messages.paymentNotFound);
        // Only what is still active is refunded, checked in the update itself: two admins racing
        // refund once, and the seat is freed once.
        const [updated] = await tx
          .update(subscriptions)
          .set({ status: 'refunded', refundedAt: now() })
          .where(and(eq(subscriptions.id, id), isActiveSubscription()))
          .returning();
        if (!updated) throw conflict(found.subscription.status === 'refunded' ? messages.alreadyRefunded : messages.refundNeedsPayment);
        if (updated.batchId !== null) await releaseSeat(tx, updated.batchId);
        await recordAudit(tx, actorId, auditActions.refundPayment, { type: 'subscription', id }, {
          student_email: found.student.email,
          course: found.course.name,
          amount: updated.amount,
          currency: updated.currency,
          order_id: updated.orderId,
          payment_id: updated.paymentId,
          batch_id: updated.batchId,
        });
        await notifications?.refunded(tx, id);
        return { ...found, subscription: updated, status: 'refunded' as const };
      });
      notifications?.kick();
      return { data: present(refunded), message: messages.paymentRefunded };
    },
  };
}
