// The admin area's front page and its list of every course: numbers read straight from the tables.
import { and, asc, desc, eq, gt, gte, isNotNull, isNull, lte, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { AdminOverview, adminCoursesQuery, courseStates } from '@mooz/contract/admin';
import type { Database } from '../../db/client';
import { batches, courses, subscriptions, users } from '../../db/schema/index';
import { containing, pageOf, rowCount } from './paging';
import { fullNameSql } from '../../db/person-name';
import { isActiveSubscription } from '../courses';

const stateCondition: Record<(typeof courseStates)[number], SQL | undefined> = {
  published: and(isNull(courses.archivedAt), eq(courses.published, true)),
  unpublished: and(isNull(courses.archivedAt), eq(courses.published, false)),
  archived: isNotNull(courses.archivedAt),
};


export function createOverview({ db, now }: { db: Database; now: () => Date }) {
  return {
    /** Courses of every teacher, newest first, with their paying students and their batches. */
    async courses(query: z.output<typeof adminCoursesQuery>) {
      const where = and(
        containing(query.q, [courses.name, users.email, fullNameSql]),
        query.state ? stateCondition[query.state] : undefined,
      );
      const [rows, [total]] = await Promise.all([
        db
          .select({
            course: courses,
            teacher: { id: users.id, name: fullNameSql, email: users.email },
            students: sql<number>`(select count(*)::int from ${subscriptions} where ${subscriptions.courseId} = ${courses.id} and ${isActiveSubscription()})`,
            batches: sql<number>`(select count(*)::int from ${batches} where ${batches.courseId} = ${courses.id})`,
          })
          .from(courses)
          .innerJoin(users, eq(users.id, courses.teacherId))
          .where(where)
          .orderBy(desc(courses.createdAt), desc(courses.id))
          .limit(query.limit)
          .offset(query.offset),
        db.select({ total: rowCount }).from(courses).innerJoin(users, eq(users.id, courses.teacherId)).where(where),
      ]);
      const items = rows.map(({ course, teacher, students, batches: batchCount }) => ({
        id: course.id,
        name: course.name,
        teacher,
        price: course.price,
        currency: course.currency,
        published: course.published,
        archived_at: course.archivedAt?.toISOString() ?? null,
        students,
        batches: batchCount,
        created_at: course.createdAt.toISOString(),
      }));
      return { data: pageOf(total!.total, items) };
    },

    async overview(): Promise<{ data: AdminOverview }> {
      const today = now();
      const monthStart = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), 1));
      const day = today.toISOString().slice(0, 10);
      const [roles, states, revenue, running, courseCounts, subscriptionCounts] = await Promise.all([
        db.select({ role: users.userType, n: rowCount }).from(users).groupBy(users.userType),
        db
          .select({
            deactivated: sql<number>`count(*) filter (where ${users.deactivatedAt} is not null)::int`,
            unverified: sql<number>`count(*) filter (where ${users.deactivatedAt} is null and not ${users.isActive})::int`,
          })
          .from(users),
        db
          .select({ currency: subscriptions.currency, amount: sql<number>`sum(${subscriptions.amount})::float8`, payments: rowCount })
          .from(subscriptions)
          .where(and(isActiveSubscription(), gte(subscriptions.activatedAt, monthStart)))
          .groupBy(subscriptions.currency)
          .orderBy(asc(subscriptions.currency)),
        db
          .select({ batch: batches, course: { id: courses.id, name: courses.name } })
          .from(batches)
          .innerJoin(courses, eq(courses.id, batches.courseId))
          .where(and(lte(batches.startDate, day), gte(batches.endDate, day), gt(batches.seatsTaken, 0)))
          .orderBy(asc(batches.startDate), asc(batches.id))
          .limit(50),
        db.select({ courses: rowCount, published: sql<number>`count(*) filter (where ${courses.published} and ${courses.archivedAt} is null)::int` }).from(courses),
        db.select({ status: subscriptions.status, n: rowCount }).from(subscriptions).groupBy(subscriptions.status),
      ]);
      const byRole = Object.fromEntries(roles.map((r) => [r.role, r.n]));
      const byStatus = Object.fromEntries(subscriptionCounts.map((r) => [r.status, r.n]));
      return {
        data: {
          users: {
            student: byRole.student ?? 0,
            teacher: byRole.teacher ?? 0,
            admin: byRole.admin ?? 0,
            deactivated: states[0]!.deactivated,
            unverified: states[0]!.unverified,
          },
          revenue_this_month: revenue,
          month: monthStart.toISOString().slice(0, 7),
          active_batches: running.map(({ batch, course }) => ({
            id: batch.id,
            course,
            kind: batch.kind,
            start_date: batch.startDate,
            end_date: batch.endDate,
            seats_taken: batch.seatsTaken,
            capacity: batch.seats,
          })),
          counts: {
            courses: courseCounts[0]!.courses,
            published_courses: courseCounts[0]!.published,
            active_subscriptions: byStatus.active ?? 0,
            pending_subscriptions: byStatus.pending ?? 0,
            refunded_subscriptions: byStatus.refunded ?? 0,
          },
        },
      };
    },
  };
}
