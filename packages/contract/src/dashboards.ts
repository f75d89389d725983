// The dashboards (contract "Dashboards and bookmarks"): every number comes from something that
// happened (attendance, watched recording spans, submissions, certificates) and is computed on the
// server; hours are fractional and unrounded (rounding is the screen's job).
import { z } from 'zod';
import { session } from './courses';
import { certificateSummary } from './certificates';
import { recordIdParam, singleLineText } from './primitives';

/** An IANA zone name the server knows (`Asia/Kolkata`); checked by the server, 400 when unknown. */
export const timeZoneName = singleLineText().trim().min(1).max(64);

export const studentDashboardQuery = z.object({
  /** The zone the seven days of the trend are cut in; UTC by default. */
  tz: timeZoneName.optional(),
  /** Admins only: whose dashboard (a student's id). Without it an admin sees the whole platform's. */
  student_id: recordIdParam().optional(),
});

export const teacherDashboardQuery = z.object({
  tz: timeZoneName.optional(),
  /** Admins only: whose dashboard (a teacher's id). Without it an admin sees the whole platform's. */
  teacher_id: recordIdParam().optional(),
});

/** One local day of a trend: `YYYY-MM-DD` in the caller's zone, and the hours in it. */
export const dayHours = z.object({ date: z.string(), hours: z.number() });

export const skillLevel = z.object({
  name: z.string(),
  /** 0-100: the progress in the course(s) that teach it (see skillLevelOf on the server). */
  level: z.number().int().min(0).max(100),
});

export const studentDashboard = z.object({
  student_name: z.string(),
  learning_stats: z.object({
    total_learning_hours: z.number(),
    assignments_completed: z.number().int(),
    assignments_total: z.number().int(),
  }),
  skills: z.array(skillLevel),
  weekly_learning_trends: z.array(dayHours),
  certificates: z.array(certificateSummary),
  /** Extensions of the contract's fields, for the screen. */
  /** The split of total_learning_hours: live sessions and recordings. */
  live_hours: z.number(),
  recording_hours: z.number(),
  /** The earliest live or upcoming session of the student's courses, or null. */
  next_class: session.nullable(),
  /** Assignments of the student's courses not yet submitted, soonest due first (at most 5). */
  assignments_due: z.array(
    z.object({
      id: z.number().int(),
      title: z.string(),
      course_id: z.number().int(),
      course_name: z.string(),
      due_at: z.string().nullable(),
    }),
  ),
  /** Graded polls of the student's classes (quizzes): how many there were, answered, and answered right. */
  quizzes: z.object({ total: z.number().int(), answered: z.number().int(), correct: z.number().int() }),
  /** The zone the trend was cut in. */
  tz: z.string(),
});
export type StudentDashboard = z.infer<typeof studentDashboard>;

/** A submission waiting for the teacher's review. */
export const pendingReview = z.object({
  submission_id: z.number().int(),
  assignment_id: z.number().int(),
  assignment_title: z.string(),
  course_id: z.number().int(),
  course_name: z.string(),
  student_name: z.string(),
  submitted_at: z.string(),
});

export const teacherDashboard = z.object({
  stats: z.object({
    totalTeachingHours: z.number(),
    activeStudents: z.number().int(),
    upcomingClasses: z.number().int(),
    nextClass: session.nullable(),
    missingClasses: z.number().int(),
  }),
  weeklyTrends: z.array(dayHours),
  /** Extensions of the contract's fields, for the screen. */
  /** The teacher's sessions not cancelled that start within the next `limits.upcomingWindowDays` days (stats.upcomingClasses counts every one not yet started). */
  upcomingWeek: z.number().int(),
  /** The most recent sessions that ended without the teacher ever joining (at most 10). */
  missedClasses: z.array(session),
  /** Submissions waiting for review, oldest first (at most 20), and how many there are in all. */
  pendingReviews: z.array(pendingReview),
  pendingReviewsTotal: z.number().int(),
  /** Whose figures these are: a teacher's name, or null for the whole platform (admins). */
  teacherName: z.string().nullable(),
  tz: z.string(),
});
export type TeacherDashboard = z.infer<typeof teacherDashboard>;
