// What a student's learning is made of beyond attendance: assignments and their submissions, the
// certificates earned, and a log of recording watch time by day (the dashboards' trends).
import { sql } from 'drizzle-orm';
import { bigint, boolean, date, index, integer, numeric, pgTable, real, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { batches, courses } from './courses';
import { recordings } from './recordings';

/** A file kept in object storage (the recordings' storage, under its own prefix) with what the uploader called it. */
const storedFile = {
  /** The object's key in storage; null when there is no file. */
  fileKey: text('file_key'),
  fileName: text('file_name'),
  fileType: text('file_type'),
  fileSize: bigint('file_size', { mode: 'number' }),
};

export const assignments = pgTable(
  'assignments',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    courseId: integer('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    instructions: text('instructions').notNull().default(''),
    dueAt: timestamp('due_at', { withTimezone: true }),
    createdBy: integer('created_by')
      .notNull()
      .references(() => users.id),
    ...storedFile,
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('assignments_course_idx').on(t.courseId, t.dueAt)],
);

export const submissionStatuses = ['submitted', 'reviewed'] as const;

export const submissions = pgTable(
  'assignment_submissions',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    assignmentId: integer('assignment_id')
      .notNull()
      .references(() => assignments.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    text: text('text').notNull().default(''),
    ...storedFile,
    /** submitted: waiting for the teacher (the student may still change it); reviewed: graded, final. */
    status: text('status', { enum: submissionStatuses }).notNull().default('submitted'),
    /** A review gives a grade 0-100, or a pass/fail, or both; and feedback. */
    grade: integer('grade'),
    passed: boolean('passed'),
    feedback: text('feedback'),
    reviewedBy: integer('reviewed_by').references(() => users.id),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    submittedAt: timestamp('submitted_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // One submission per student and assignment (re-submitting replaces it until it is reviewed).
    uniqueIndex('submissions_assignment_user_idx').on(t.assignmentId, t.userId),
    index('submissions_user_idx').on(t.userId),
    // The teacher's "waiting for review" list.
    index('submissions_waiting_idx').on(t.assignmentId).where(sql`${t.status} = 'submitted'`),
  ],
);

export const certificateKinds = ['earned', 'awarded'] as const;

export const certificates = pgTable(
  'certificates',
  {
    /** Random and unguessable (it is the public verification link): see certificateId(). */
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    courseId: integer('course_id')
      .notNull()
      .references(() => courses.id),
    batchId: integer('batch_id').references(() => batches.id, { onDelete: 'set null' }),
    /** earned: issued by the rule at the batch's end; awarded: issued by the teacher or an admin by hand. */
    kind: text('kind', { enum: certificateKinds }).notNull(),
    issuedBy: integer('issued_by').references(() => users.id),
    /** As printed on the PDF on the day it was issued (a later rename does not change a certificate). */
    studentName: text('student_name').notNull(),
    courseName: text('course_name').notNull(),
    teacherName: text('teacher_name').notNull(),
    startDate: date('start_date'),
    endDate: date('end_date'),
    /** The share of the batch's sessions attended or watched, when earned. */
    attendanceShare: real('attendance_share'),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull().defaultNow(),
    /** A revoked certificate's verification page says so. */
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('certificates_user_course_idx').on(t.userId, t.courseId), index('certificates_course_idx').on(t.courseId)],
);

/**
 * Recording watch time as it happened: each progress report that adds new distinct seconds to a
 * recording_views row logs them here, so learning time can be cut into the user's local days.
 */
export const watchLog = pgTable(
  'watch_log',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    recordingId: integer('recording_id')
      .notNull()
      .references(() => recordings.id, { onDelete: 'cascade' }),
    /** The recording's course; null for an ad hoc meeting's recording. */
    courseId: integer('course_id').references(() => courses.id, { onDelete: 'cascade' }),
    /** When the report arrived: the seconds were watched in the interval before it. */
    watchedAt: timestamp('watched_at', { withTimezone: true }).notNull().defaultNow(),
    seconds: real('seconds').notNull(),
  },
  (t) => [index('watch_log_user_idx').on(t.userId, t.watchedAt), index('watch_log_course_idx').on(t.courseId, t.watchedAt)],
);

/**
 * Each user's learning time so far, kept by triggers on attendance and watch_log (migration
 * 0010_learning_totals.sql) whoever writes them: the seconds of every closed attendance span and every
 * logged watch. A dashboard reads the total here and only the rows it still has to cut into days (the
 * week's, and any span still open), so its cost does not grow with a learner's history.
 */
export const learningTotals = pgTable('learning_totals', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** Closed attendance spans (left_at after joined_at), in seconds. */
  liveSeconds: numeric('live_seconds').notNull().default('0'),
  /** watch_log's seconds. */
  watchedSeconds: numeric('watched_seconds').notNull().default('0'),
});
