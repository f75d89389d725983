// Live class sessions and who attended them.
import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { limits } from '@mooz/contract/limits';
import { users } from './accounts';
import { batches, courses } from './courses';

export const classSessions = pgTable(
  'class_sessions',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    courseId: integer('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    /** The batch whose timetable generated it; null for a course's extra session, open to all its students. */
    batchId: integer('batch_id').references(() => batches.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    roomId: text('room_id').notNull(),
    capacity: integer('capacity').notNull().default(limits.defaultMeetingCapacity),
    /** A cancelled session leaves every list; its students were told why. */
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    cancelReason: text('cancel_reason'),
    /**
     * The start time the reminder was mailed for (modules/sessions/reminders.ts): set by the one UPDATE
     * that claims the reminder, so it goes out once; a session moved since no longer matches and is
     * reminded again for its new time.
     */
    remindedStartsAt: timestamp('reminded_starts_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('class_sessions_room_idx').on(t.roomId),
    index('class_sessions_course_idx').on(t.courseId, t.startsAt),
    index('class_sessions_batch_idx').on(t.batchId),
    // The reminder pass: sessions not cancelled, by start.
    index('class_sessions_starts_idx').on(t.startsAt).where(sql`${t.cancelledAt} is null`),
    // Search by title; each row indexed at once (fastupdate off, see users_name_trgm_idx).
    index('class_sessions_title_trgm_idx').using('gin', sql`${t.title} gin_trgm_ops`).with({ fastupdate: false }),
  ],
);

export const attendance = pgTable(
  'attendance',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    sessionId: integer('session_id')
      .notNull()
      .references(() => classSessions.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    joinedAt: timestamp('joined_at', { withTimezone: true }).notNull(),
    leftAt: timestamp('left_at', { withTimezone: true }),
  },
  (t) => [
    // A user's attendance by time: the dashboards' hours and daily trends.
    index('attendance_user_idx').on(t.userId, t.joinedAt),
    // A user's spans that end after an instant or are still open: the part of a dashboard's hours not
    // kept in learning_totals (the week's days, and the rows counting up to now).
    index('attendance_user_left_idx').on(t.userId, t.leftAt),
    index('attendance_session_idx').on(t.sessionId),
  ],
);
