// A course's students as its teacher sees them: each paying student with the batch they bought, when
// they paid, and how many of the sessions held so far they attended. "Held so far": not cancelled and
// already started, among the sessions meant for them (their batch's and the course's extra ones); and,
// for the certificate by hand, whether their batch has ended and the certificate they already have.
import { and, asc, eq, inArray, isNull, lte, sql } from 'drizzle-orm';
import type { CourseStudent } from '@mooz/contract/teaching';
import type { Database } from '../../db/client';
import { attendance, batches, classSessions, subscriptions, users } from '../../db/schema/index';
import { batchHasEnded, certificatesOfCourse } from '../certificates';
import type { CourseRow } from './presenter';
import { fullName } from '../../db/person-name';
import { isActiveSubscription } from './purchases';
import { fileSlug } from '../../infrastructure/csv';

type BatchRow = typeof batches.$inferSelect;
type SubscriptionRow = typeof subscriptions.$inferSelect;

/** The batch as bought: the batch row when there is one, else the subscription's own choice (made before batches). */
function presentBatch(subscription: SubscriptionRow, batch: BatchRow | null, timeZone: string): CourseStudent['batch'] {
  const source = batch
    ? { kind: batch.kind, startDate: batch.startDate, endDate: batch.endDate, time: batch.time, saturdayTime: batch.saturdayTime, sundayTime: batch.sundayTime }
    : { kind: subscription.batch, ...subscription };
  const times = source.kind === 'weekdays' ? [source.time] : [source.saturdayTime, source.sundayTime];
  return {
    id: batch?.id ?? null,
    kind: source.kind,
    start_date: source.startDate,
    end_date: source.endDate,
    times: times.filter((time): time is string => Boolean(time)),
    time_zone: timeZone,
  };
}

export async function courseStudents(db: Database, course: Pick<CourseRow, 'id' | 'timeZone'>, now: Date): Promise<CourseStudent[]> {
  const [rows, held, issued] = await Promise.all([
    db
      .select({
        subscription: subscriptions,
        batch: batches,
        user: { id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email },
        ended: batchHasEnded(sql`coalesce(${batches.endDate}, ${subscriptions.endDate})`, course.timeZone, now).mapWith((value: unknown) => value === true || value === 't'),
      })
      .from(subscriptions)
      .innerJoin(users, eq(users.id, subscriptions.userId))
      .leftJoin(batches, eq(batches.id, subscriptions.batchId))
      .where(and(eq(subscriptions.courseId, course.id), isActiveSubscription()))
      .orderBy(asc(users.firstName), asc(users.lastName), asc(users.id)),
    db
      .select({ id: classSessions.id, batchId: classSessions.batchId })
      .from(classSessions)
      .where(and(eq(classSessions.courseId, course.id), isNull(classSessions.cancelledAt), lte(classSessions.startsAt, now))),
    certificatesOfCourse(db, course.id),
  ]);
  const visits = held.length && rows.length
    ? await db
        .selectDistinct({ sessionId: attendance.sessionId, userId: attendance.userId })
        .from(attendance)
        .where(and(inArray(attendance.sessionId, held.map((s) => s.id)), inArray(attendance.userId, rows.map((r) => r.user.id))))
    : [];
  const attendedBy = new Map<number, Set<number>>();
  for (const visit of visits) attendedBy.set(visit.userId, (attendedBy.get(visit.userId) ?? new Set()).add(visit.sessionId));

  return rows.map(({ subscription, batch, user, ended }) => {
    // A subscription without a batch (bought before batches) is meant every session of the course.
    const mine = held.filter((s) => s.batchId === null || subscription.batchId === null || s.batchId === subscription.batchId);
    const came = attendedBy.get(user.id) ?? new Set<number>();
    return {
      id: user.id,
      name: fullName(user),
      email: user.email,
      batch: presentBatch(subscription, batch, course.timeZone),
      paid_at: subscription.activatedAt?.toISOString() ?? null,
      attendance: { attended: mine.filter((s) => came.has(s.id)).length, held: mine.length },
      batch_ended: ended,
      certificate: issued.get(user.id) ?? null,
    };
  });
}

const csvHeader = ['Name', 'Email', 'Batch', 'Start date', 'End date', 'Times', 'Time zone', 'Paid at (UTC)', 'Sessions attended', 'Sessions held'];

export function studentsCsvRows(students: CourseStudent[]) {
  return {
    header: csvHeader,
    rows: students.map((s) => [
      s.name,
      s.email,
      s.batch.kind,
      s.batch.start_date,
      s.batch.end_date,
      s.batch.times.join(' / '),
      s.batch.time_zone,
      s.paid_at ? s.paid_at.slice(0, 16).replace('T', ' ') : '',
      s.attendance.attended,
      s.attendance.held,
    ]),
  };
}

/** `students-rust-for-the-web-2026-11-22.csv`: the course's name as a slug, and the day of the export. */
export function studentsCsvName(courseName: string, now: Date): string {
  return `students-${fileSlug(courseName, 'course')}-${now.toISOString().slice(0, 10)}.csv`;
}
