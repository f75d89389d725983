// Courses, and the subscriptions (enrollments) students buy in them.
import { sql } from 'drizzle-orm';
import { boolean, check, date, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts';

export const courses = pgTable(
  'courses',
  {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  name: text('name').notNull(),
  description: text('description').notNull(),
  /** Minor units (paise). */
  price: integer('price').notNull(),
  currency: text('currency').notNull().default('INR'),
  teacherId: integer('teacher_id')
    .notNull()
    .references(() => users.id),
  skills: jsonb('skills').$type<string[]>().notNull().default([]),
  durationWeeks: integer('duration_weeks').notNull(),
  batchStartDates: jsonb('batch_start_dates').$type<string[]>().notNull().default([]),
  weekdayTimes: jsonb('weekday_times').$type<string[]>().notNull().default([]),
  weekendTimes: jsonb('weekend_times').$type<string[]>().notNull().default([]),
  imageUrl: text('image_url'),
  published: boolean('published').notNull().default(true),
  /** The IANA zone the course's batch times are given in; weekdays and weekends are decided there. */
  timeZone: text('time_zone').notNull().default('Asia/Kolkata'),
  /** A bought course is never deleted: it is archived (hidden from the catalogue, kept for its students). */
  archivedAt: timestamp('archived_at', { withTimezone: true }),
  /** False only for courses made before batches existed, until start-up opens their batches from their lists. */
  batchesOpened: boolean('batches_opened').notNull().default(true),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Search: typo-tolerant names (pg_trgm) and full-text over name, description and skills, each row
    // indexed at once (fastupdate off, see users_name_trgm_idx).
    index('courses_name_trgm_idx').using('gin', sql`${t.name} gin_trgm_ops`).with({ fastupdate: false }),
    index('courses_search_idx')
      .using('gin', sql`to_tsvector('simple', ${t.name} || ' ' || ${t.description} || ' ' || ${t.skills}::text)`)
      .with({ fastupdate: false }),
    // A teacher's courses: their sessions' scope, and search by the teacher's name.
    index('courses_teacher_idx').on(t.teacherId),
  ],
);

/**
 * A batch: one run of a course for a kind of week, with its own seats and its own generated sessions.
 * Weekday batches start on a Monday and meet Monday to Friday at `time`; weekend batches start on a
 * Saturday and meet at `saturday_time` and `sunday_time`; all in the course's time zone.
 */
export const batches = pgTable(
  'batches',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    courseId: integer('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['weekdays', 'weekends'] }).notNull(),
    startDate: date('start_date').notNull(),
    endDate: date('end_date').notNull(),
    time: text('time'),
    saturdayTime: text('saturday_time'),
    sundayTime: text('sunday_time'),
    /** Seats for sale (the column and the API's field are named capacity). */
    seats: integer('capacity').notNull(),
    /** The length of each generated session. */
    sessionMinutes: integer('session_minutes').notNull().default(60),
    /** Seats sold: taken in the same statement that checks `seats_taken < seats`, so a race cannot oversell. */
    seatsTaken: integer('seats_taken').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('batches_course_idx').on(t.courseId),
    uniqueIndex('batches_identity_idx').on(
      t.courseId,
      t.kind,
      t.startDate,
      sql`coalesce(${t.time}, '')`,
      sql`coalesce(${t.saturdayTime}, '')`,
      sql`coalesce(${t.sundayTime}, '')`,
    ),
    check('batches_seats_check', sql`${t.seatsTaken} >= 0 and ${t.seatsTaken} <= ${t.seats}`),
  ],
);

export const subscriptions = pgTable(
  'subscriptions',
  {
    id: uuid('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    courseId: integer('course_id')
      .notNull()
      .references(() => courses.id),
    batch: text('batch', { enum: ['weekdays', 'weekends'] }).notNull(),
    startDate: date('start_date').notNull(),
    endDate: date('end_date').notNull(),
    time: text('time'),
    saturdayTime: text('saturday_time'),
    sundayTime: text('sunday_time'),
    /** The batch bought; null only for subscriptions made before batches existed. */
    batchId: integer('batch_id').references(() => batches.id),
    /** `refunded`: an admin marked the payment refunded, which ends the access it gave. */
    status: text('status', { enum: ['pending', 'active', 'refunded'] }).notNull().default('pending'),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    orderId: text('order_id').notNull(),
    paymentId: text('payment_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** The latest checkout asked for (the order made, or reused): how long a pending one has been left. */
    orderedAt: timestamp('ordered_at', { withTimezone: true }).notNull().defaultNow(),
    activatedAt: timestamp('activated_at', { withTimezone: true }),
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    /** The provider's latest failed payment of this order (its webhook's `payment.failed`), and why it said it failed. */
    failedAt: timestamp('failed_at', { withTimezone: true }),
    failureReason: text('failure_reason'),
  },
  (t) => [
    uniqueIndex('subscriptions_order_idx').on(t.orderId),
    // A payment activates one subscription only.
    uniqueIndex('subscriptions_payment_idx').on(t.paymentId),
    // A course is bought once per student.
    uniqueIndex('subscriptions_active_course_idx')
      .on(t.userId, t.courseId)
      .where(sql`${t.status} = 'active'`),
  ],
);
