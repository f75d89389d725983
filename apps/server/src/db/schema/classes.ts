// Live class sessions and who attended them.
import { index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { limits } from '@mooz/contract/limits';
import { users } from './accounts';
import { courses } from './courses';

export const classSessions = pgTable(
  'class_sessions',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    courseId: integer('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    roomId: text('room_id').notNull(),
    capacity: integer('capacity').notNull().default(limits.defaultMeetingCapacity),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('class_sessions_room_idx').on(t.roomId), index('class_sessions_course_idx').on(t.courseId)],
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
  (t) => [index('attendance_user_idx').on(t.userId), index('attendance_session_idx').on(t.sessionId)],
);
