// Courses, and the subscriptions (enrollments) students buy in them.
import { sql } from 'drizzle-orm';
import { boolean, date, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts';

export const courses = pgTable('courses', {
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
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

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
    status: text('status', { enum: ['pending', 'active'] }).notNull().default('pending'),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    orderId: text('order_id').notNull(),
    paymentId: text('payment_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    activatedAt: timestamp('activated_at', { withTimezone: true }),
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
